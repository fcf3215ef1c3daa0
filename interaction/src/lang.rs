//! The languages askdesk's own words come in, and how a request or an
//! environment names one. Text from agents and people is never translated.

use crate::draft::Reason;
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
    /// Why a question cannot be submitted yet, in `lang`. A validator
    /// message ([`Reason::Invalid`]) stays as the validator wrote it.
    pub fn text(&self, lang: Lang) -> String {
        match (lang, self) {
            (Lang::En, reason) => reason.to_string(),
            (Lang::Zh, Self::Unanswered) => "未回答".to_owned(),
            (Lang::Zh, Self::BlankCustom) => "“其他”内容为空".to_owned(),
            (Lang::Zh, Self::CustomTooLong { chars }) => format!(
                "“其他”内容太长（{chars} 个字符，最多 {} 个）",
                crate::MAX_CUSTOM_CHARS
            ),
            (Lang::Zh, Self::Invalid { message }) => message.clone(),
        }
    }
}
