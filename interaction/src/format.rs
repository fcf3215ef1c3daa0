//! Typed answers: the formats a question without options may ask its text
//! to have (MCP elicitation's primitive formats), their bounds, and the
//! reading of one text in a format. The answer keeps the seed's shape:
//! the typed value travels as the item's `custom` text.

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use time::{Date, Duration, Month, PrimitiveDateTime, Time};

/// What typed text must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// A whole number, e.g. `42`.
    Integer,
    /// A number, e.g. `-3.5`.
    Number,
    /// A calendar date, `YYYY-MM-DD`.
    Date,
    /// A date and time, `YYYY-MM-DDTHH:MM[:SS[.fff]]`, optionally with `Z`
    /// or an offset (`+02:00`); without one it is read as UTC.
    DateTime,
    /// An email address, `name@host.example`.
    Email,
    /// A URI with its scheme, e.g. `https://example.com/x`.
    Uri,
}

impl Format {
    /// Every format, in the documentation's order.
    pub const ALL: [Self; 6] = [
        Self::Integer,
        Self::Number,
        Self::Date,
        Self::DateTime,
        Self::Email,
        Self::Uri,
    ];

    /// The format a request names, e.g. `date-time`.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.as_str() == name)
    }

    /// The format's name in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Integer => "integer",
            Self::Number => "number",
            Self::Date => "date",
            Self::DateTime => "date-time",
            Self::Email => "email",
            Self::Uri => "uri",
        }
    }

    /// What text in this format is, for messages: "a whole number".
    pub fn describe(self) -> &'static str {
        match self {
            Self::Integer => "a whole number",
            Self::Number => "a number",
            Self::Date => "a date (YYYY-MM-DD)",
            Self::DateTime => "a date and time (YYYY-MM-DDTHH:MM)",
            Self::Email => "an email address",
            Self::Uri => "a URI with its scheme (https://…)",
        }
    }

    /// Whether values of this format are ordered, so that `minimum` and
    /// `maximum` mean something.
    pub fn has_range(self) -> bool {
        matches!(
            self,
            Self::Integer | Self::Number | Self::Date | Self::DateTime
        )
    }

    /// The value of `text` (already trimmed) in this format, if it is one.
    pub(crate) fn read(self, text: &str) -> Option<Value> {
        match self {
            Self::Integer => text.parse().ok().map(Value::Integer),
            Self::Number => text
                .parse::<f64>()
                .ok()
                .filter(|n| n.is_finite())
                .map(Value::Number),
            Self::Date => date(text).map(Value::Date),
            Self::DateTime => date_time(text).map(Value::DateTime),
            Self::Email => is_email(text).then_some(Value::Unordered),
            Self::Uri => is_uri(text).then_some(Value::Unordered),
        }
    }
}

/// A number, date or text given as a question's `minimum`, `maximum` or
/// `default`: JSON numbers stay numbers on the wire, and text stays text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Scalar {
    /// A whole JSON number.
    Integer(i64),
    /// Any other JSON number.
    Number(f64),
    /// A string.
    Text(String),
}

// JSON carries no NaN, so a `Scalar` equals itself.
impl Eq for Scalar {}

impl Scalar {
    /// The scalar as text, as a person would type it.
    pub fn text(&self) -> String {
        match self {
            Self::Integer(n) => n.to_string(),
            Self::Number(n) => n.to_string(),
            Self::Text(text) => text.clone(),
        }
    }
}

/// A value read in a format, compared with a question's bounds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Value {
    Integer(i64),
    Number(f64),
    Date(Date),
    /// In UTC.
    DateTime(PrimitiveDateTime),
    /// An email address or a URI: valid, with no order.
    Unordered,
}

impl Value {
    /// How this value compares with `other`, when both are ordered values
    /// of one format.
    pub(crate) fn compare(self, other: Self) -> Option<Ordering> {
        match (self, other) {
            (Self::Integer(a), Self::Integer(b)) => Some(a.cmp(&b)),
            (Self::Number(a), Self::Number(b)) => a.partial_cmp(&b),
            (Self::Date(a), Self::Date(b)) => Some(a.cmp(&b)),
            (Self::DateTime(a), Self::DateTime(b)) => Some(a.cmp(&b)),
            _ => None,
        }
    }
}

/// The number of `n` ASCII digits at the start of `text`.
fn digits(text: &str, n: usize) -> Option<u32> {
    let part = text.get(..n)?;
    part.bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| part.parse().ok())
        .flatten()
}

fn date(text: &str) -> Option<Date> {
    let b = text.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let year = i32::try_from(digits(text, 4)?).ok()?;
    let month = Month::try_from(u8::try_from(digits(&text[5..], 2)?).ok()?).ok()?;
    let day = u8::try_from(digits(&text[8..], 2)?).ok()?;
    Date::from_calendar_date(year, month, day).ok()
}

fn date_time(text: &str) -> Option<PrimitiveDateTime> {
    let (day, rest) = (text.get(..10)?, text.get(10..)?);
    let day = date(day)?;
    let rest = rest.strip_prefix('T').or_else(|| rest.strip_prefix('t'))?;
    let b = rest.as_bytes();
    if b.len() < 5 || b[2] != b':' {
        return None;
    }
    let hour = u8::try_from(digits(rest, 2)?).ok()?;
    let minute = u8::try_from(digits(&rest[3..], 2)?).ok()?;
    let mut rest = &rest[5..];
    let mut second = 0;
    let mut milli = 0;
    if let Some(after) = rest.strip_prefix(':') {
        second = u8::try_from(digits(after, 2)?).ok()?;
        rest = &after[2..];
        if let Some(after) = rest.strip_prefix('.') {
            let n = after.bytes().take_while(u8::is_ascii_digit).count();
            if n == 0 {
                return None;
            }
            let fraction = &after[..n];
            milli = fraction
                .bytes()
                .chain(std::iter::repeat(b'0'))
                .take(3)
                .fold(0u16, |ms, d| ms * 10 + u16::from(d - b'0'));
            rest = &after[n..];
        }
    }
    let local =
        PrimitiveDateTime::new(day, Time::from_hms_milli(hour, minute, second, milli).ok()?);
    let offset = match rest.as_bytes() {
        [] | [b'Z'] | [b'z'] => 0,
        [sign @ (b'+' | b'-'), _, _, b':', _, _] => {
            let minutes =
                i64::from(digits(&rest[1..], 2)?) * 60 + i64::from(digits(&rest[4..], 2)?);
            if *sign == b'+' {
                minutes
            } else {
                -minutes
            }
        }
        _ => return None,
    };
    local.checked_sub(Duration::minutes(offset))
}

fn is_email(text: &str) -> bool {
    let Some((local, host)) = text.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && !host.contains('@')
        && !text.chars().any(|c| c.is_whitespace() || c.is_control())
        && host.contains('.')
        && host.split('.').all(|label| !label.is_empty())
}

fn is_uri(text: &str) -> bool {
    let Some((scheme, rest)) = text.split_once(':') else {
        return false;
    };
    scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        && !rest.is_empty()
        && !text.chars().any(|c| c.is_whitespace() || c.is_control())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reads(format: Format, text: &str) -> bool {
        format.read(text).is_some()
    }

    #[test]
    fn each_format_reads_what_it_names_and_nothing_else() {
        for (format, good, bad) in [
            (
                Format::Integer,
                &["42", "-7", "0"][..],
                &["4.2", "4e2", "", "forty"][..],
            ),
            (
                Format::Number,
                &["42", "-3.5", "1e3"],
                &["inf", "NaN", "1,5", ""],
            ),
            (
                Format::Date,
                &["2026-12-03", "2024-02-29"],
                &["2026-02-29", "2026-13-01", "03/12/2026", "2026-1-03"],
            ),
            (
                Format::DateTime,
                &[
                    "2026-12-03T14:05",
                    "2026-12-03T14:05:09",
                    "2026-12-03T14:05:09.5Z",
                    "2026-12-03T14:05+02:00",
                ],
                &[
                    "2026-12-03",
                    "2026-12-03T25:00",
                    "2026-12-03 14:05",
                    "2026-12-03T14:05Zulu",
                ],
            ),
            (
                Format::Email,
                &["ada@example.com"],
                &[
                    "ada",
                    "ada@example",
                    "a b@example.com",
                    "@example.com",
                    "a@@b.c",
                ],
            ),
            (
                Format::Uri,
                &["https://example.com/x", "mailto:ada@example.com"],
                &["example.com", "1http://x", "https://a b"],
            ),
        ] {
            for text in good {
                assert!(reads(format, text), "{format:?} reads {text:?}");
            }
            for text in bad {
                assert!(!reads(format, text), "{format:?} refuses {text:?}");
            }
        }
    }

    #[test]
    fn date_times_with_offsets_compare_in_utc() {
        let read = |t| Format::DateTime.read(t).expect(t);
        assert_eq!(
            read("2026-12-03T14:05+02:00").compare(read("2026-12-03T12:05Z")),
            Some(Ordering::Equal)
        );
        assert_eq!(
            read("2026-12-03T14:05:00.001").compare(read("2026-12-03T14:05")),
            Some(Ordering::Greater)
        );
    }

    #[test]
    fn names_round_trip() {
        for format in Format::ALL {
            assert_eq!(Format::parse(format.as_str()), Some(format));
        }
        assert_eq!(Format::parse("datetime"), None);
    }
}
