//! The terminal UI's words, in English and Simplified Chinese. Text from
//! agents and people is shown as given.

use interaction::Reason;

pub use interaction::Lang;

/// A language's words for the terminal UI.
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

/// Every word of the terminal UI, for one language.
pub struct Words {
    pub lang: Lang,
    pub hints_queue: &'static str,
    pub hints_typing_free: &'static str,
    pub hints_typing_other: &'static str,
    pub hints_options: &'static str,
    pub hints_review: &'static str,
    pub hints_decline: &'static str,
    pub hints_outcome: &'static str,
    pub working: &'static str,
    pub untitled: &'static str,
    pub question_of: fn(usize, usize) -> String,
    pub your_answer: &'static str,
    /// What a typed question takes: its format and bounds, e.g. "a whole
    /// number, from 1 to 10".
    pub expects: fn(interaction::Format, Option<&str>, Option<&str>) -> String,
    pub other: &'static str,
    pub overrides: &'static str,
    pub not_ready: &'static str,
    pub review: &'static str,
    pub question_n: fn(usize) -> String,
    pub selected: &'static str,
    pub press_enter: &'static str,
    pub still_needed: fn(usize) -> String,
    pub decline: &'static str,
    pub decline_question: &'static str,
    pub reason_optional: &'static str,
    pub waiting: fn(usize) -> String,
    pub empty_queue: &'static str,
    pub questions: fn(usize) -> String,
    pub an_agent: &'static str,
    pub asked: &'static str,
    pub this_ask_is: fn(&str) -> String,
    pub reason: &'static str,
    pub preview: &'static str,
    pub status_waiting: &'static str,
    pub status_answered: &'static str,
    pub status_declined: &'static str,
    pub status_cancelled: &'static str,
    pub status_expired: &'static str,
    pub ended_not_sent: fn(&str) -> String,
    pub server_refused: fn(usize) -> String,
    pub go_back_to_them: fn(usize) -> String,
    pub refused_locally: &'static str,
    /// "If nobody answers by {at} ({left} left), …": when, and time left.
    pub defaults_by: fn(&str, &str) -> String,
    pub default_is: &'static str,
    pub defaulted: &'static str,
}

impl Words {
    /// Why a question cannot be submitted yet, in these words.
    pub fn reason(&self, reason: &Reason) -> String {
        reason.text(self.lang)
    }
}

/// English.
pub static EN: Words = Words {
    lang: Lang::En,
    hints_queue: "↑↓ choose · Enter open · r refresh · q quit",
    hints_typing_free: "type your answer · Enter new line · Tab next · Shift+Tab back · Ctrl+S review · Esc decline",
    hints_typing_other: "type · Enter new line · Esc back to options (text kept) · Tab next · Ctrl+S review",
    hints_options: "↑↓ move · Space choose · 1-9 jump · o/Enter on Other: type · Enter next · ←→ questions · Ctrl+S review · Esc decline",
    hints_review: "Enter submit · ↑↓ PgUp PgDn scroll · Esc back to the questions",
    hints_decline: "type a reason (optional) · Enter decline · Esc back",
    hints_outcome: "Enter back to the queue",
    working: "working…",
    untitled: "Questions from your agent",
    question_of: |n, of| format!("Question {n} of {of}"),
    your_answer: "Your answer: ",
    expects: |format, least, most| {
        let range = match (least, most) {
            (Some(l), Some(m)) => format!(", from {l} to {m}"),
            (Some(l), None) => format!(", at least {l}"),
            (None, Some(m)) => format!(", at most {m}"),
            (None, None) => String::new(),
        };
        format!("Type {}{range}.", format.describe())
    },
    other: "Other: ",
    overrides: "Your Other text replaces the chosen option.",
    not_ready: "Not ready: ",
    review: "Review",
    question_n: |n| format!("Question {n}"),
    selected: "Selected: ",
    press_enter: "Press Enter to submit these answers.",
    still_needed: |n| format!("{n} question(s) still need an answer."),
    decline: "Decline",
    decline_question: "Decline this ask? The agent is told that you chose not to answer.",
    reason_optional: "Reason (optional): ",
    waiting: |n| format!("{n} waiting"),
    empty_queue: "No questions are waiting. New asks appear here as agents send them.",
    questions: |n| if n == 1 { "1 question".to_owned() } else { format!("{n} questions") },
    an_agent: "an agent",
    asked: "asked",
    this_ask_is: |word| format!("This ask is {word}."),
    reason: "Reason: ",
    preview: "Preview",
    status_waiting: "waiting",
    status_answered: "answered",
    status_declined: "declined",
    status_cancelled: "withdrawn by the agent",
    status_expired: "expired",
    ended_not_sent: |status| format!("this ask had already ended ({status}); your answers were not sent"),
    server_refused: |n| format!("the server refused the answers: {n} problem(s)"),
    go_back_to_them: |n| format!("{n} question(s) still need an answer; Esc goes back to them"),
    refused_locally: "the answers were refused; see the problems below",
    defaults_by: |at, left| format!("If nobody answers by {at} ({left} left), the agent goes on with its default answers."),
    default_is: "Default if nobody answers:",
    defaulted: "Nobody answered in time, so the agent went on with its own default answers, below. No person chose them.",
};

/// Simplified Chinese.
pub static ZH: Words = Words {
    lang: Lang::Zh,
    hints_queue: "↑↓ 选择 · Enter 打开 · r 刷新 · q 退出",
    hints_typing_free: "输入回答 · Enter 换行 · Tab 下一题 · Shift+Tab 上一题 · Ctrl+S 检查 · Esc 拒绝",
    hints_typing_other: "输入 · Enter 换行 · Esc 返回选项（保留文字）· Tab 下一题 · Ctrl+S 检查",
    hints_options: "↑↓ 移动 · 空格 选择 · 1-9 跳转 · o/在“其他”上按 Enter：输入 · Enter 下一题 · ←→ 切换题目 · Ctrl+S 检查 · Esc 拒绝",
    hints_review: "Enter 提交 · ↑↓ PgUp PgDn 滚动 · Esc 返回题目",
    hints_decline: "输入理由（可选）· Enter 拒绝 · Esc 返回",
    hints_outcome: "Enter 返回队列",
    working: "处理中…",
    untitled: "来自智能体的问题",
    question_of: |n, of| format!("第 {n} 题，共 {of} 题"),
    your_answer: "你的回答：",
    expects: |format, least, most| {
        let what = match format {
            interaction::Format::Integer => "整数",
            interaction::Format::Number => "数字",
            interaction::Format::Date => "日期（YYYY-MM-DD）",
            interaction::Format::DateTime => "日期和时间（YYYY-MM-DDTHH:MM）",
            interaction::Format::Email => "电子邮件地址",
            interaction::Format::Uri => "带协议的网址（https://…）",
        };
        let range = match (least, most) {
            (Some(l), Some(m)) => format!("，范围 {l} 至 {m}"),
            (Some(l), None) => format!("，至少 {l}"),
            (None, Some(m)) => format!("，至多 {m}"),
            (None, None) => String::new(),
        };
        format!("请输入{what}{range}。")
    },
    other: "其他：",
    overrides: "你填写的“其他”会取代所选的选项。",
    not_ready: "尚未完成：",
    review: "检查",
    question_n: |n| format!("第 {n} 题"),
    selected: "已选：",
    press_enter: "按 Enter 提交这些回答。",
    still_needed: |n| format!("还有 {n} 个问题需要回答。"),
    decline: "拒绝",
    decline_question: "拒绝这个提问？智能体会得知你选择不回答。",
    reason_optional: "理由（可选）：",
    waiting: |n| format!("{n} 个等待中"),
    empty_queue: "没有等待中的问题。智能体发来新提问时会出现在这里。",
    questions: |n| format!("{n} 个问题"),
    an_agent: "某个智能体",
    asked: "提问于",
    this_ask_is: |word| format!("这个提问{word}。"),
    reason: "理由：",
    preview: "预览",
    status_waiting: "等待中",
    status_answered: "已回答",
    status_declined: "已拒绝",
    status_cancelled: "已被智能体撤回",
    status_expired: "已过期",
    ended_not_sent: |status| format!("这个提问已经结束（{status}）；你的回答没有发送"),
    server_refused: |n| format!("服务器拒绝了回答：{n} 个问题"),
    go_back_to_them: |n| format!("还有 {n} 个问题需要回答；按 Esc 返回"),
    refused_locally: "回答未被接受；问题见下方",
    defaults_by: |at, left| format!("如果到 {at}（还剩 {left}）仍无人回答，智能体将按默认回答继续。"),
    default_is: "无人回答时的默认回答：",
    defaulted: "无人及时回答，智能体已按自己的默认回答继续（见下方）。这些回答不是任何人选择的。",
};
