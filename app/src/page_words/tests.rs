//! The server-only words, read as sentences in each language.

use super::*;

#[test]
fn who_and_how_read_as_a_sentence_in_each_language() {
    assert_eq!(
        (EN.finished_by)(AskStatus::Answered, Some("alice"), None, Via::Tui),
        "Answered by alice in the terminal."
    );
    assert_eq!(
        (EN.finished_by)(AskStatus::Declined, None, None, Via::Form),
        "Declined on its page (without JavaScript)."
    );
    assert_eq!(
        (ZH.finished_by)(AskStatus::Answered, Some("alice"), None, Via::Slack),
        "由 alice 用 Slack 按钮回答。"
    );
    for via in Via::ALL {
        assert_ne!(via_en(via), via_zh(via));
    }
    assert_eq!(
        (EN.finished_by)(AskStatus::Answered, None, Some("bot"), Via::McpApp),
        "Answered in askdesk's form inside the agent's app, relayed by the agent bot: no \
         person of this desk is named."
    );
}
