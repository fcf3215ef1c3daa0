//! Words only server-rendered parts of the pages use, in English and
//! Simplified Chinese. They are kept apart from [`crate::i18n::Words`],
//! which the islands read: no island refers to these, so the browser's
//! wasm carries none of them.

use interaction::{AskStatus, Via};

pub use interaction::Lang;

/// A language's server-only words.
pub trait SpeakPage {
    /// The server-only words in this language.
    fn page(self) -> &'static PageWords;
}

impl SpeakPage for Lang {
    fn page(self) -> &'static PageWords {
        match self {
            Lang::En => &EN,
            Lang::Zh => &ZH,
        }
    }
}

/// The server-only words of one language.
pub struct PageWords {
    /// "Answered by alice in the terminal."
    pub finished_by: fn(AskStatus, Option<&str>, Via) -> String,
    pub sign_in_to_answer: &'static str,
    pub sign_in_to_answer_text: &'static str,
    pub not_for_you: fn(&str) -> String,
    pub for_people: fn(&str) -> String,
    pub signed_in_as: fn(&str) -> String,
    pub sign_out: &'static str,
    pub agent_token: &'static str,
    pub unavailable: &'static str,
}

fn via_en(via: Via) -> &'static str {
    match via {
        Via::Web => "on its page",
        Via::Form => "on its page (without JavaScript)",
        Via::Tui => "in the terminal",
        Via::Api => "through the API",
        Via::Mcp => "by the agent's MCP tool",
        Via::McpClient => "in the agent's own client",
        Via::Slack => "with a Slack button",
        Via::Ntfy => "with an ntfy notification's button",
        Via::Push => "with a browser notification's button",
    }
}

fn via_zh(via: Via) -> &'static str {
    match via {
        Via::Web => "在提问页面上",
        Via::Form => "在提问页面上（无 JavaScript）",
        Via::Tui => "在终端里",
        Via::Api => "通过 API",
        Via::Mcp => "由智能体的 MCP 工具",
        Via::McpClient => "在智能体自己的客户端里",
        Via::Slack => "用 Slack 按钮",
        Via::Ntfy => "用 ntfy 通知的按钮",
        Via::Push => "用浏览器通知的按钮",
    }
}

fn finished_by_en(status: AskStatus, by: Option<&str>, via: Via) -> String {
    let done = match status {
        AskStatus::Answered => "Answered",
        AskStatus::Declined => "Declined",
        AskStatus::Cancelled => "Withdrawn",
        AskStatus::Expired | AskStatus::Pending => "Changed",
    };
    match by {
        Some(name) => format!("{done} by {name} {}.", via_en(via)),
        None => format!("{done} {}.", via_en(via)),
    }
}

fn finished_by_zh(status: AskStatus, by: Option<&str>, via: Via) -> String {
    let done = match status {
        AskStatus::Answered => "回答",
        AskStatus::Declined => "拒绝",
        AskStatus::Cancelled => "撤回",
        AskStatus::Expired | AskStatus::Pending => "处理",
    };
    match by {
        Some(name) => format!("由 {name} {}{done}。", via_zh(via)),
        None => format!("{}{done}。", via_zh(via)),
    }
}

/// English.
pub static EN: PageWords = PageWords {
    finished_by: finished_by_en,
    sign_in_to_answer: "Sign in to answer",
    sign_in_to_answer_text: "This desk lets only signed-in people answer.",
    not_for_you: |names| {
        format!("This ask is for {names}; only they or an admin may answer it.")
    },
    for_people: |names| format!("· for {names}"),
    signed_in_as: |name| format!("Signed in as {name}"),
    sign_out: "Sign out",
    agent_token: "That is an agent's token: agents use the API, not the desk's pages. Sign in with a person's token.",
    unavailable: "The database could not be reached; try again shortly.",
};

/// Simplified Chinese.
pub static ZH: PageWords = PageWords {
    finished_by: finished_by_zh,
    sign_in_to_answer: "登录后回答",
    sign_in_to_answer_text: "这个服务台只允许已登录的人回答。",
    not_for_you: |names| format!("这个提问是给 {names} 的；只有他们或管理员可以回答。"),
    for_people: |names| format!("· 给 {names}"),
    signed_in_as: |name| format!("已登录：{name}"),
    sign_out: "退出登录",
    agent_token: "这是智能体的令牌：智能体使用 API，而不是服务台的页面。请用个人令牌登录。",
    unavailable: "暂时无法连接数据库；请稍后再试。",
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn who_and_how_read_as_a_sentence_in_each_language() {
        assert_eq!(
            (EN.finished_by)(AskStatus::Answered, Some("alice"), Via::Tui),
            "Answered by alice in the terminal."
        );
        assert_eq!(
            (EN.finished_by)(AskStatus::Declined, None, Via::Form),
            "Declined on its page (without JavaScript)."
        );
        assert_eq!(
            (ZH.finished_by)(AskStatus::Answered, Some("alice"), Via::Slack),
            "由 alice 用 Slack 按钮回答。"
        );
        for via in Via::ALL {
            assert_ne!(via_en(via), via_zh(via));
        }
    }
}
