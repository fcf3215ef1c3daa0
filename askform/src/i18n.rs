//! The web page's words, in English and Simplified Chinese. Text from
//! agents and people is shown as given; only askdesk's own words change.
//!
//! The server picks the language from the `askdesk_lang` cookie (set by the
//! switch at the bottom of every page) or else `Accept-Language`, and
//! provides it as context (`app::i18n::use_lang`); the browser code gets it
//! with its props.

use crate::error::ServerError;
use interaction::{AskStatus, Reason};

pub use interaction::Lang;

/// The cookie that remembers the chosen language.
pub const LANG_COOKIE: &str = "askdesk_lang";

/// A language's words for the pages.
pub trait Speak {
    /// The words in this language.
    fn t(self) -> &'static Words;
}

impl Speak for Lang {
    fn t(self) -> &'static Words {
        match self {
            Lang::En => &EN,
            Lang::Zh => &ZH,
        }
    }
}

/// Every word of the pages, for one language.
pub struct Words {
    pub lang: Lang,
    pub back_to_waiting: &'static str,
    pub untitled: &'static str,
    pub an_agent: &'static str,
    pub questions: fn(usize) -> String,
    pub waiting_for_you: &'static str,
    pub for_you: &'static str,
    /// On the desk, beside an ask whose agent reads what people write.
    pub write_to_agent: &'static str,
    pub notify_me: &'static str,
    pub history: &'static str,
    pub show: &'static str,
    pub everything: &'static str,
    pub answered: &'static str,
    pub declined: &'static str,
    pub withdrawn: &'static str,
    pub expired: &'static str,
    pub waiting: &'static str,
    pub nothing_yet: &'static str,
    pub asked: &'static str,
    pub ago: fn(&str) -> String,
    pub expires_in: fn(&str) -> String,
    pub span: fn(i64) -> String,
    pub empty_title: &'static str,
    pub empty_text: &'static str,
    pub empty_try: &'static str,
    pub new_ask_notification: &'static str,
    pub no_such_ask: &'static str,
    pub ended_before: &'static str,
    pub waiting_for_question: &'static str,
    pub call_ended: &'static str,
    pub unsent_heading: &'static str,
    pub copy: &'static str,
    pub refused: &'static str,
    pub blockers_intro: &'static str,
    pub question_n: fn(usize) -> String,
    pub submit: &'static str,
    pub decline_to_answer: &'static str,
    pub decline_reason: &'static str,
    pub decline: &'static str,
    pub answered_line: fn(&str) -> String,
    pub declined_line: fn(&str) -> String,
    pub withdrawn_line: fn(&str) -> String,
    pub expired_line: fn(&str) -> String,
    /// An ask that expired with the agent's default answers, at a time.
    pub defaulted_line: fn(&str) -> String,
    /// The time left before the agent's defaults apply, as a span.
    pub defaults_in: fn(&str) -> String,
    pub your_reason: &'static str,
    pub your_answer: &'static str,
    pub other: &'static str,
    pub overrides: &'static str,
    pub not_allowed: &'static str,
    pub input_refused: &'static str,
    pub server_failed: &'static str,
    pub already_ended: fn(&str) -> String,
    pub unreachable: fn(&str) -> String,
}

impl Words {
    /// Why a question cannot be submitted yet, in these words.
    pub fn reason(&self, reason: &Reason) -> String {
        reason.text(self.lang)
    }

    /// An ask's status, for people.
    pub fn status(&self, status: AskStatus) -> &'static str {
        match status {
            AskStatus::Pending => self.waiting,
            AskStatus::Answered => self.answered,
            AskStatus::Declined => self.declined,
            AskStatus::Cancelled => self.withdrawn,
            AskStatus::Expired => self.expired,
        }
    }

    /// What a server function's error means, for the person on the page.
    pub fn server_error(&self, error: &ServerError) -> String {
        match error {
            ServerError::Invalid(problems) => problems
                .iter()
                .fold(self.input_refused.to_owned(), |text, problem| {
                    format!("{text}\n- {}", problem.text(self.lang))
                }),
            ServerError::NotFound => self.no_such_ask.to_owned(),
            ServerError::Finished(ask) => (self.already_ended)(self.status(ask.status)),
            ServerError::Forbidden => self.not_allowed.to_owned(),
            ServerError::Internal => self.server_failed.to_owned(),
            ServerError::Transport(e) => (self.unreachable)(e),
        }
    }
}

fn span_en(ms: i64) -> String {
    let s = ms.max(0) / 1000;
    match s {
        0..=59 => format!("{s} s"),
        60..=3599 => format!("{} min", s / 60),
        3600..=86_399 => format!("{} h {} min", s / 3600, s % 3600 / 60),
        _ => format!("{} d {} h", s / 86_400, s % 86_400 / 3600),
    }
}

fn span_zh(ms: i64) -> String {
    let s = ms.max(0) / 1000;
    match s {
        0..=59 => format!("{s} 秒"),
        60..=3599 => format!("{} 分钟", s / 60),
        3600..=86_399 => format!("{} 小时 {} 分钟", s / 3600, s % 3600 / 60),
        _ => format!("{} 天 {} 小时", s / 86_400, s % 86_400 / 3600),
    }
}

/// English.
pub static EN: Words = Words {
    lang: Lang::En,
    back_to_waiting: "Back to the waiting asks",
    untitled: "Questions from your agent",
    an_agent: "An agent",
    questions: |n| if n == 1 { "1 question".to_owned() } else { format!("{n} questions") },
    waiting_for_you: "Waiting for you ",
    for_you: "For you",
    write_to_agent: "write to the agent",
    notify_me: "Notify me of new asks",
    history: "History",
    show: "Show ",
    everything: "everything",
    answered: "Answered",
    declined: "Declined",
    withdrawn: "Withdrawn",
    expired: "Expired",
    waiting: "Waiting",
    nothing_yet: "Nothing here yet.",
    asked: " · asked ",
    ago: |span| format!("{span} ago"),
    expires_in: |span| format!(" · expires in {span}"),
    span: span_en,
    empty_title: "No questions are waiting.",
    empty_text: "When an agent asks through MCP or the HTTP API, its questions appear here at once. Each ask also has its own link, which the agent is given.",
    empty_try: "To try it, ask yourself something from a terminal:",
    new_ask_notification: "New questions from your agent",
    no_such_ask: "No ask at this address",
    ended_before: "This ask ended before your answers arrived, so they were not sent. Here is how it ended.",
    waiting_for_question: "Waiting for the agent's questions…",
    call_ended: "The agent's call ended before its questions arrived.",
    unsent_heading: "What you typed (not sent)",
    copy: "Copy",
    refused: "The answers were not accepted. The problems are shown next to their questions.",
    blockers_intro: "Submit becomes available once every question is answered:",
    question_n: |n| format!("Question {n}"),
    submit: "Submit answers",
    decline_to_answer: "Decline to answer",
    decline_reason: "Reason for the agent (optional)",
    decline: "Decline",
    answered_line: |at| format!("The answers reached the agent at {at}."),
    declined_line: |at| format!("You declined to answer at {at}."),
    withdrawn_line: |at| format!("The agent withdrew these questions at {at}; they need no answer."),
    expired_line: |at| format!("These questions expired unanswered at {at}."),
    defaulted_line: |at| format!("Nobody answered by {at}, so the agent went on with its own default answers, shown here. No person chose them."),
    defaults_in: |span| format!("The agent's default answers apply in {span} unless someone answers first."),
    your_reason: "Your reason: ",
    your_answer: "Your answer",
    other: "Other",
    overrides: "Your Other text replaces the chosen option.",
    not_allowed: "You may not answer this ask: sign in with your own token, or ask the person it is for.",
    input_refused: "The input was refused:",
    server_failed: "The server failed; its log says why.",
    already_ended: |status| format!("This ask has already ended ({status})."),
    unreachable: |detail| format!("Could not reach the server ({detail}). Check the connection and try again."),
};

/// Simplified Chinese.
pub static ZH: Words = Words {
    lang: Lang::Zh,
    back_to_waiting: "返回等待中的提问",
    untitled: "来自智能体的问题",
    an_agent: "某个智能体",
    questions: |n| format!("{n} 个问题"),
    waiting_for_you: "等待你回答 ",
    for_you: "给你的",
    write_to_agent: "写给智能体",
    notify_me: "有新提问时通知我",
    history: "历史",
    show: "显示 ",
    everything: "全部",
    answered: "已回答",
    declined: "已拒绝",
    withdrawn: "已撤回",
    expired: "已过期",
    waiting: "等待中",
    nothing_yet: "这里还没有内容。",
    asked: " · 提问于 ",
    ago: |span| format!("{span}前"),
    expires_in: |span| format!(" · {span}后过期"),
    span: span_zh,
    empty_title: "没有等待中的问题。",
    empty_text: "智能体通过 MCP 或 HTTP API 提问时，问题会立即出现在这里。每个提问也有自己的链接，智能体会拿到它。",
    empty_try: "想试一试，可以在终端里给自己提个问题：",
    new_ask_notification: "智能体有新的问题",
    no_such_ask: "这个地址没有提问",
    ended_before: "你的回答送达之前，这个提问已经结束，所以没有发送。下面是它的结果。",
    waiting_for_question: "正在等待智能体的问题……",
    call_ended: "智能体的调用在问题送达之前就结束了。",
    unsent_heading: "你输入的内容（未发送）",
    copy: "复制",
    refused: "回答未被接受。问题显示在对应的题目旁边。",
    blockers_intro: "回答完所有问题后才能提交：",
    question_n: |n| format!("第 {n} 题"),
    submit: "提交回答",
    decline_to_answer: "拒绝回答",
    decline_reason: "给智能体的理由（可选）",
    decline: "拒绝",
    answered_line: |at| format!("回答已于 {at} 送达智能体。"),
    declined_line: |at| format!("你已于 {at} 拒绝回答。"),
    withdrawn_line: |at| format!("智能体已于 {at} 撤回这些问题，无需回答。"),
    expired_line: |at| format!("这些问题已于 {at} 过期，未被回答。"),
    defaulted_line: |at| format!("到 {at} 仍无人回答，智能体已按自己的默认回答继续（见下方）。这些回答不是任何人选择的。"),
    defaults_in: |span| format!("{span}后将采用智能体的默认回答，除非有人先回答。"),
    your_reason: "你的理由：",
    your_answer: "你的回答",
    other: "其他",
    overrides: "你填写的“其他”会取代所选的选项。",
    not_allowed: "你不能回答这个提问：请用你自己的令牌登录，或请它指定的人回答。",
    input_refused: "输入未被接受：",
    server_failed: "服务器出错了；原因见服务器日志。",
    already_ended: |status| format!("这个提问已经结束（{status}）。"),
    unreachable: |detail| format!("无法连接服务器（{detail}）。请检查网络连接后重试。"),
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_errors_read_in_the_page_language() {
        let offline = ServerError::Transport("offline".to_owned());
        let zh = ZH.server_error(&offline);
        assert!(zh.starts_with("无法连接服务器（"), "{zh}");
        assert!(zh.contains("offline"), "{zh}");
        assert_eq!(ZH.server_error(&ServerError::Internal), ZH.server_failed);
        assert_eq!(EN.server_error(&ServerError::NotFound), EN.no_such_ask);
    }

    #[test]
    fn refused_input_lists_each_problem_in_the_page_language() {
        let request: interaction::Request =
            serde_json::from_str(r#"{"questions": [{"id": "db", "question": "Which?"}]}"#)
                .expect("request");
        let problems = interaction::ValidRequest::new(request)
            .expect("valid")
            .validate_answers(interaction::Answers { answers: vec![] })
            .expect_err("refused");
        let zh = ZH.server_error(&ServerError::Invalid(problems.clone()));
        assert!(zh.starts_with("输入未被接受：\n- 问题“db”"), "{zh}");
        let en = EN.server_error(&ServerError::Invalid(problems));
        assert!(en.contains("has no answer"), "{en}");
    }

    #[test]
    fn spans_read_naturally_in_both_languages() {
        let (en, zh) = (EN.span, ZH.span);
        assert_eq!(en(45_000), "45 s");
        assert_eq!(en(180_000), "3 min");
        assert_eq!(en(7_500_000), "2 h 5 min");
        assert_eq!(en(-5), "0 s");
        assert_eq!(zh(7_500_000), "2 小时 5 分钟");
    }
}
