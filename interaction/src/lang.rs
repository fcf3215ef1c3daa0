//! The languages askdesk's own words come in, how a request or an
//! environment names one, and the words of this crate's reasons and
//! problems in each. Text from agents and people is never translated.

use crate::{
    draft::Reason, problem::quoted, Problem, ProblemCode, MAX_AGENT_CHARS, MAX_CONTEXT_CHARS,
    MAX_CUSTOM_CHARS, MAX_DESCRIPTION_CHARS, MAX_HEADER_CHARS, MAX_ID_CHARS, MAX_LABEL_CHARS,
    MAX_OPTIONS, MAX_PREVIEW_CHARS, MAX_QUESTIONS, MAX_QUESTION_CHARS, MAX_TIMEOUT_SECONDS,
    MAX_TITLE_CHARS,
};
use serde::{Deserialize, Serialize};

/// A language of askdesk's words.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// Simplified Chinese.
    Zh,
}

impl Lang {
    /// The BCP 47 tag, for `<html lang>`.
    pub fn tag(self) -> &'static str {
        match self {
            Self::En => "en",
            Self::Zh => "zh-CN",
        }
    }

    /// The short code: `en` or `zh`.
    pub fn code(self) -> &'static str {
        match self {
            Self::En => "en",
            Self::Zh => "zh",
        }
    }

    /// Reads a code, tag or locale: `en`, `zh`, `zh-CN`, `zh_CN.UTF-8`,
    /// `C`, `POSIX`, …; `None` for other languages.
    pub fn parse(code: &str) -> Option<Self> {
        let code = code.trim().to_ascii_lowercase();
        if code.starts_with("zh") {
            Some(Self::Zh)
        } else if code.starts_with("en") || code == "c" || code.starts_with("c.") || code == "posix"
        {
            Some(Self::En)
        } else {
            None
        }
    }

    /// The best of ours for an `Accept-Language` header, by its q-values.
    pub fn from_accept_language(header: &str) -> Self {
        let mut best = (Self::En, -1.0_f32);
        for part in header.split(',') {
            let mut pieces = part.split(';');
            let tag = pieces.next().unwrap_or("");
            let q = pieces
                .find_map(|p| p.trim().strip_prefix("q=").and_then(|q| q.parse().ok()))
                .unwrap_or(1.0);
            if let Some(lang) = Self::parse(tag).filter(|_| q > best.1) {
                best = (lang, q);
            }
        }
        best.0
    }

    /// The language of a locale environment (`LC_ALL`, `LC_MESSAGES`,
    /// `LANG`, in POSIX order, read through `get`); English by default.
    pub fn from_locale(get: impl Fn(&str) -> Option<String>) -> Self {
        ["LC_ALL", "LC_MESSAGES", "LANG"]
            .iter()
            .filter_map(|name| get(name).filter(|v| !v.is_empty()))
            .find_map(|v| Self::parse(&v))
            .unwrap_or_default()
    }
}

impl Reason {
    /// Why a question cannot be submitted yet, in `lang`; a validator
    /// problem ([`Reason::Invalid`]) reads as [`Problem::text`] has it.
    pub fn text(&self, lang: Lang) -> String {
        match (lang, self) {
            (Lang::En, reason) => reason.to_string(),
            (Lang::Zh, Self::Unanswered) => "未回答".to_owned(),
            (Lang::Zh, Self::BlankCustom) => "“其他”内容为空".to_owned(),
            (Lang::Zh, Self::CustomTooLong { chars }) => format!(
                "“其他”内容太长（{chars} 个字符，最多 {} 个）",
                MAX_CUSTOM_CHARS
            ),
            (Lang::Zh, Self::Invalid { problem, typed }) => match typed {
                Some(typed) => format!("{}（填写的是 {}）", problem.code.text_zh(), quoted(typed)),
                None => problem.code.text_zh(),
            },
        }
    }
}

impl Problem {
    /// What is wrong, for a person reading `lang`. English keeps the
    /// validator's own [`Problem::message`] (the HTTP API sends it as is);
    /// other languages get a sentence chosen by the stable
    /// [`Problem::code`], naming the question and the place it concerns, so
    /// a message written once in English never has to be parsed.
    pub fn text(&self, lang: Lang) -> String {
        match lang {
            Lang::En => self.message.clone(),
            Lang::Zh => {
                let place = match &self.question_id {
                    Some(id) => format!("问题“{id}”（{}）", self.path),
                    None => self.path.clone(),
                };
                format!("{place}：{}", self.code.text_zh())
            }
        }
    }
}

impl ProblemCode {
    /// What a problem of this code means and what fixes it, in Chinese.
    pub fn text_zh(self) -> String {
        match self {
            Self::NoQuestions => "这个请求没有问题；至少需要一个问题。".to_owned(),
            Self::TooManyQuestions => {
                format!("问题太多；一个请求最多 {MAX_QUESTIONS} 个问题。")
            }
            Self::InvalidId => format!(
                "问题 id 必须是 1 到 {MAX_ID_CHARS} 个字符，只能使用 A-Z、a-z、0-9、_ 和 -。"
            ),
            Self::DuplicateId => "另一个问题已使用这个 id；每个问题的 id 必须不同。".to_owned(),
            Self::EmptyQuestion => "问题内容为空；请写出问题。".to_owned(),
            Self::QuestionTooLong => {
                format!("问题内容太长；最多 {MAX_QUESTION_CHARS} 个字符。")
            }
            Self::HeaderTooLong => format!("小标题太长；最多 {MAX_HEADER_CHARS} 个字符。"),
            Self::TooManyOptions => format!("选项太多；一个问题最多 {MAX_OPTIONS} 个选项。"),
            Self::EmptyLabel => "选项名称为空；请填写名称。".to_owned(),
            Self::LabelTooLong => format!("选项名称太长；最多 {MAX_LABEL_CHARS} 个字符。"),
            Self::DuplicateOption => {
                "这个问题的另一个选项已使用同样的名称；选项名称必须不同。".to_owned()
            }
            Self::DescriptionTooLong => {
                format!("选项说明太长；最多 {MAX_DESCRIPTION_CHARS} 个字符。")
            }
            Self::PreviewTooLong => format!("选项预览太长；最多 {MAX_PREVIEW_CHARS} 个字符。"),
            Self::ContextTooLong => format!("背景说明太长；最多 {MAX_CONTEXT_CHARS} 个字符。"),
            Self::MultiSelectWithoutOptions => "多选问题至少需要一个选项。".to_owned(),
            Self::UnknownFormat => {
                "不认识这个格式；可用 integer、number、date、date-time、email、uri。".to_owned()
            }
            Self::FormatWithOptions => "格式和默认值只用于没有选项的问题。".to_owned(),
            Self::InvalidBound => {
                "最小值或最大值不符合格式，该格式没有大小之分，或最大值小于最小值。".to_owned()
            }
            Self::InvalidDefault => "默认值不是这个问题的有效回答。".to_owned(),
            Self::UnknownQuestion => {
                "这个回答指向不存在的问题；请只回答这次提问中的问题。".to_owned()
            }
            Self::DuplicateAnswer => "这个问题被回答了两次；每个问题只回答一次。".to_owned(),
            Self::MissingAnswer => "这个问题还没有回答；每个问题都需要回答。".to_owned(),
            Self::UnknownLabel => "所选的不是这个问题的选项；请从列出的选项中选择。".to_owned(),
            Self::DuplicateLabel => "同一个选项被选了两次；每个选项只选一次。".to_owned(),
            Self::TooManySelected => "这个问题只能选一个选项；请只保留一个。".to_owned(),
            Self::EmptyCustom => "“其他”内容为空；请填写内容，或清空它。".to_owned(),
            Self::CustomTooLong => {
                format!("“其他”内容太长；最多 {MAX_CUSTOM_CHARS} 个字符，请删减。")
            }
            Self::EmptyAnswer => "请选择一个选项，或写下回答。".to_owned(),
            Self::ExclusiveCustom => {
                "这个问题只接受一种回答：选择一个选项，或填写“其他”，不能两者都有。".to_owned()
            }
            Self::InvalidFormat => "回答的格式不对；请按问题要求的格式填写。".to_owned(),
            Self::OutOfRange => "回答超出了允许的范围；请填写最小值与最大值之间的值。".to_owned(),
            Self::TitleTooLong => format!("提问标题太长；最多 {MAX_TITLE_CHARS} 个字符。"),
            Self::AgentTooLong => format!("智能体名称太长；最多 {MAX_AGENT_CHARS} 个字符。"),
            Self::TimeoutOutOfRange => format!(
                "超时必须在 1 到 {MAX_TIMEOUT_SECONDS} 秒（7 天）之间；不填则一直等到有人处理。"
            ),
            Self::DefaultsWithoutTimeout => {
                "默认回答只在提问过期时使用；请同时设置 timeoutSeconds，或去掉 defaultAnswers。"
                    .to_owned()
            }
            Self::ReasonTooLong => format!("理由太长；最多 {MAX_CUSTOM_CHARS} 个字符，请删减。"),
            Self::InvalidIdempotencyKey => format!(
                "幂等键须为 1 到 {} 个可见 ASCII 字符。",
                crate::MAX_IDEMPOTENCY_KEY_CHARS
            ),
            Self::IdempotencyConflict => {
                "这个幂等键已用于内容不同的提问；请换一个键，或发送相同的内容。".to_owned()
            }
            Self::InvalidRecipient => format!(
                "收件人须为人员名称（1 到 {} 个字符：A-Z、a-z、0-9、.、_、-），不可重复，最多 {} 个。",
                crate::MAX_PERSON_NAME_CHARS,
                crate::MAX_RECIPIENTS
            ),
            Self::UnknownRecipient => {
                "这个桌面没有这个人；用 askdesk people list 查看名称。".to_owned()
            }
            Self::InvalidSession => {
                "会话须为 1 到 64 个字符：A-Z、a-z、0-9、_、-。".to_owned()
            }
            Self::SessionTaken => {
                "这个会话属于另一个智能体；请使用你自己的会话。".to_owned()
            }
            Self::EmptyMessage => "消息是空的；请写下要告诉智能体的话。".to_owned(),
            Self::MessageTooLong => {
                format!("消息太长；最多 {MAX_CUSTOM_CHARS} 个字符，请删减。")
            }
            Self::ControlCharacter => {
                "文字里有控制字符；除制表符和换行外都不能使用。".to_owned()
            }
        }
    }
}
