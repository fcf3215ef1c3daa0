//! The one timestamp type of the API.

use std::{fmt, str::FromStr};

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use time::{Date, Month, OffsetDateTime, PrimitiveDateTime, Time};

/// An instant to the millisecond, as the API writes it: RFC 3339 in UTC
/// with milliseconds, `2026-11-30T11:20:00.000Z`. Every instant from year
/// 0 to 9999 has the same length, so the text sorts by time.
///
/// The desk stores milliseconds since the Unix epoch; JSON carries the
/// text. The `time` crate does the calendar; the layout is written and read
/// by position, which keeps date formatting machinery out of the browser
/// bundles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(i64);

impl Timestamp {
    /// The instant `ms` milliseconds after the Unix epoch.
    pub const fn from_ms(ms: i64) -> Self {
        Self(ms)
    }

    /// Milliseconds since the Unix epoch.
    pub const fn ms(self) -> i64 {
        self.0
    }

    /// The instant as people read it: `2026-11-30 11:20 UTC`.
    pub fn short(self) -> String {
        let (at, _) = self.at();
        format!(
            "{:04}-{:02}-{:02} {:02}:{:02} UTC",
            at.year(),
            u8::from(at.month()),
            at.day(),
            at.hour(),
            at.minute()
        )
    }

    /// The whole second, and the milliseconds after it.
    fn at(self) -> (OffsetDateTime, i64) {
        let second = OffsetDateTime::from_unix_timestamp(self.0.div_euclid(1000))
            .unwrap_or(OffsetDateTime::UNIX_EPOCH);
        (second, self.0.rem_euclid(1000))
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (at, millis) = self.at();
        write!(
            f,
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
            at.year(),
            u8::from(at.month()),
            at.day(),
            at.hour(),
            at.minute(),
            at.second(),
            millis
        )
    }
}

/// Text that is not a time as the API writes them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotATime;

impl fmt::Display for NotATime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not an RFC 3339 UTC time such as 2026-11-30T11:20:00.000Z")
    }
}

impl std::error::Error for NotATime {}

impl FromStr for Timestamp {
    type Err = NotATime;

    /// Reads `YYYY-MM-DDTHH:MM:SS[.fff…]Z`: the API's layout, with the
    /// fraction optional and any number of its digits.
    fn from_str(text: &str) -> Result<Self, NotATime> {
        let bytes = text.as_bytes();
        let digits = |at: usize, len: usize| -> Result<u16, NotATime> {
            let part = bytes.get(at..at + len).ok_or(NotATime)?;
            part.iter().try_fold(0u16, |n, &b| match b {
                b'0'..=b'9' => Ok(n * 10 + u16::from(b - b'0')),
                _ => Err(NotATime),
            })
        };
        let marks = [(4, b'-'), (7, b'-'), (10, b'T'), (13, b':'), (16, b':')];
        if marks.iter().any(|&(at, mark)| bytes.get(at) != Some(&mark)) {
            return Err(NotATime);
        }
        let byte = |n: u16| u8::try_from(n).map_err(|_| NotATime);
        let month = Month::try_from(byte(digits(5, 2)?)?).map_err(|_| NotATime)?;
        let date = Date::from_calendar_date(i32::from(digits(0, 4)?), month, byte(digits(8, 2)?)?)
            .map_err(|_| NotATime)?;
        let (hour, minute, second) = (digits(11, 2)?, digits(14, 2)?, digits(17, 2)?);
        let fraction = match bytes.get(19..) {
            Some(b"Z") => &[][..],
            Some([b'.', rest @ .., b'Z']) if !rest.is_empty() => rest,
            _ => return Err(NotATime),
        };
        if !fraction.iter().all(u8::is_ascii_digit) {
            return Err(NotATime);
        }
        // Milliseconds: the first three digits, missing ones as zeros.
        let millis = (0..3).fold(0u16, |n, i| {
            n * 10 + fraction.get(i).map_or(0, |d| u16::from(d - b'0'))
        });
        let time =
            Time::from_hms(byte(hour)?, byte(minute)?, byte(second)?).map_err(|_| NotATime)?;
        let seconds = PrimitiveDateTime::new(date, time)
            .assume_utc()
            .unix_timestamp();
        Ok(Self(seconds * 1000 + i64::from(millis)))
    }
}

impl Serialize for Timestamp {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Timestamp {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::{NotATime, Timestamp};

    #[test]
    fn writes_utc_with_milliseconds() {
        assert_eq!(
            Timestamp::from_ms(0).to_string(),
            "1970-01-01T00:00:00.000Z"
        );
        assert_eq!(
            Timestamp::from_ms(1_796_123_778_042).to_string(),
            "2026-12-01T11:16:18.042Z"
        );
    }

    #[test]
    fn reads_what_it_writes() {
        for ms in [0, 951_825_600_500, 1_796_123_778_042, 253_402_300_799_999] {
            let at = Timestamp::from_ms(ms);
            assert_eq!(at.to_string().parse(), Ok(at));
        }
        let at = Timestamp::from_ms(1_796_123_778_000);
        assert_eq!("2026-12-01T11:16:18Z".parse(), Ok(at));
        assert_eq!("2026-12-01T11:16:18.0009Z".parse(), Ok(at));
    }

    #[test]
    fn refuses_what_is_not_the_api_s_layout() {
        for text in [
            "soon",
            "",
            "2026-12-01 11:16",
            "2026-12-01T11:16:18",
            "2026-12-01T11:16:18.Z",
            "2026-12-01T11:16:18.04xZ",
            "2026-12-01T11:16:18.042+01:00",
            "2026-02-30T11:16:18.042Z",
            "2026-13-01T11:16:18.042Z",
            "2026-12-01T24:16:18.042Z",
            "+026-12-01T11:16:18.042Z",
            "2026-12-01T11:16:18.042Zz",
        ] {
            assert_eq!(text.parse::<Timestamp>(), Err(NotATime), "{text}");
        }
    }

    #[test]
    fn people_read_the_day_and_the_minute() {
        assert_eq!(
            "2026-11-30T11:20:05.000Z"
                .parse::<Timestamp>()
                .map(Timestamp::short),
            Ok("2026-11-30 11:20 UTC".to_owned())
        );
    }

    #[test]
    fn json_is_the_rfc_3339_text() {
        let at = Timestamp::from_ms(1_796_123_778_042);
        let json = serde_json::to_string(&at).expect("json");
        assert_eq!(json, "\"2026-12-01T11:16:18.042Z\"");
        assert_eq!(serde_json::from_str::<Timestamp>(&json).expect("read"), at);
        let refused = serde_json::from_str::<Timestamp>("\"yesterday\"").expect_err("refused");
        assert!(refused.to_string().contains("RFC 3339"), "{refused}");
    }
}
