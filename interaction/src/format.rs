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
            Self::Number => Decimal::parse(text).map(Value::Number),
            Self::Date => date(text).map(Value::Date),
            Self::DateTime => date_time(text).map(Value::DateTime),
            Self::Email => is_email(text).then_some(Value::Unordered),
            Self::Uri => is_uri(text).then_some(Value::Unordered),
        }
    }
}

/// A number, date or text given as a question's `minimum`, `maximum` or
/// `default`: JSON numbers stay numbers on the wire, and text stays text.
#[derive(Debug, Clone, PartialEq, Serialize)]
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

/// Read by what the value is, with a visitor of its own: `untagged`'s
/// buffering of the whole value would reach every browser bundle that
/// reads a question.
impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Scalar;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a number or a string")
            }
            fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<Scalar, E> {
                Ok(Scalar::Integer(n))
            }
            fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<Scalar, E> {
                Ok(i64::try_from(n).map_or(Scalar::Number(n as f64), Scalar::Integer))
            }
            fn visit_f64<E: serde::de::Error>(self, n: f64) -> Result<Scalar, E> {
                // JavaScript has only doubles: a whole one is an integer.
                if n.fract() == 0.0 && n.abs() < 9_007_199_254_740_992.0 {
                    Ok(Scalar::Integer(n as i64))
                } else {
                    Ok(Scalar::Number(n))
                }
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Scalar, E> {
                Ok(Scalar::Text(text.to_owned()))
            }
            fn visit_string<E: serde::de::Error>(self, text: String) -> Result<Scalar, E> {
                Ok(Scalar::Text(text))
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

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
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Integer(i64),
    Number(Decimal),
    Date(Date),
    /// In UTC.
    DateTime(PrimitiveDateTime),
    /// An email address or a URI: valid, with no order.
    Unordered,
}

impl Value {
    /// How this value compares with `other`, when both are ordered values
    /// of one format.
    pub(crate) fn compare(&self, other: &Self) -> Option<Ordering> {
        match (self, other) {
            (Self::Integer(a), Self::Integer(b)) => Some(a.cmp(b)),
            (Self::Number(a), Self::Number(b)) => Some(a.cmp(b)),
            (Self::Date(a), Self::Date(b)) => Some(a.cmp(b)),
            (Self::DateTime(a), Self::DateTime(b)) => Some(a.cmp(b)),
            _ => None,
        }
    }
}

/// A decimal number read exactly from its text, e.g. `-3.50` or `1e3`:
/// compared digit by digit, so bounds hold exactly, and the browser's
/// bundle needs no floating-point parser (whose tables would reach every
/// bundle that reads a question).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Decimal {
    negative: bool,
    /// The significant digits, without leading or trailing zeros; empty
    /// for zero.
    digits: Vec<u8>,
    /// The power of ten of the first significant digit.
    exponent: i64,
}

impl Decimal {
    /// Reads `[+-]digits[.digits][(e|E)[+-]digits]`; `None` for anything
    /// else (`inf`, `1,5`, a lone `.`).
    fn parse(text: &str) -> Option<Self> {
        let (negative, rest) = match text.as_bytes().first()? {
            b'-' => (true, &text[1..]),
            b'+' => (false, &text[1..]),
            _ => (false, text),
        };
        let (mantissa, power) = match rest.find(['e', 'E']) {
            Some(at) => {
                let power = &rest[at + 1..];
                let digits = power.strip_prefix(['+', '-']).unwrap_or(power);
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                (&rest[..at], power.parse::<i64>().ok()?)
            }
            None => (rest, 0),
        };
        let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        if whole.is_empty() && fraction.is_empty()
            || !whole
                .bytes()
                .chain(fraction.bytes())
                .all(|b| b.is_ascii_digit())
        {
            return None;
        }
        let all: Vec<u8> = whole
            .bytes()
            .chain(fraction.bytes())
            .map(|b| b - b'0')
            .collect();
        let Some(first) = all.iter().position(|&d| d != 0) else {
            return Some(Self::zero());
        };
        let last = all.iter().rposition(|&d| d != 0).unwrap_or(first);
        let exponent = i64::try_from(whole.len()).ok()? - 1 - i64::try_from(first).ok()? + power;
        Some(Self {
            negative,
            digits: all[first..=last].to_vec(),
            exponent,
        })
    }

    fn zero() -> Self {
        Self {
            negative: false,
            digits: Vec::new(),
            exponent: 0,
        }
    }

    /// The order of the magnitudes of `self` and `other`.
    fn cmp_magnitude(&self, other: &Self) -> Ordering {
        match (self.digits.is_empty(), other.digits.is_empty()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            (false, false) => self
                .exponent
                .cmp(&other.exponent)
                .then_with(|| self.digits.cmp(&other.digits)),
        }
    }
}

impl Ord for Decimal {
    fn cmp(&self, other: &Self) -> Ordering {
        let sign = |d: &Self| match (d.digits.is_empty(), d.negative) {
            (true, _) => 0,
            (false, true) => -1,
            (false, false) => 1,
        };
        match sign(self).cmp(&sign(other)) {
            Ordering::Equal if sign(self) < 0 => other.cmp_magnitude(self),
            Ordering::Equal => self.cmp_magnitude(other),
            unequal => unequal,
        }
    }
}

impl PartialOrd for Decimal {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
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

pub(crate) fn is_email(text: &str) -> bool {
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
mod tests;
