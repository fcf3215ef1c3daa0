//! Times as the API writes them (RFC 3339 UTC) and as people read them.
//!
//! Plain functions over strings and milliseconds, so they are tested
//! natively; only [`now_ms`] reads a clock: the browser's in the bundle,
//! the system's on the server.

pub use interaction::short_time;

/// Milliseconds since the Unix epoch of an RFC 3339 UTC time
/// (`2026-11-30T11:20:00.000Z`), as the API writes them.
pub fn parse_time(rfc3339: &str) -> Option<i64> {
    let num = |range: std::ops::Range<usize>| rfc3339.get(range)?.parse::<i64>().ok();
    let (year, month, day) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (hour, minute, second) = (num(11..13)?, num(14..16)?, num(17..19)?);
    let millis = num(20..23).unwrap_or(0);
    // Days from civil (Howard Hinnant's algorithm): a date crate would
    // cost the bundle more than these lines.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millis)
}

/// Now, in milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    #[cfg(feature = "hydrate")]
    {
        // Whole milliseconds fit an i64 for the next 290 million years.
        #[allow(clippy::cast_possible_truncation)]
        let now = leptos::web_sys::js_sys::Date::now() as i64;
        now
    }
    #[cfg(not(feature = "hydrate"))]
    {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::{Lang, Speak};

    #[test]
    fn times_parse_to_epoch_milliseconds() {
        assert_eq!(parse_time("1970-01-01T00:00:00.000Z"), Some(0));
        assert_eq!(
            parse_time("2026-12-01T11:16:18.042Z"),
            Some(1_796_123_778_042)
        );
        assert_eq!(
            parse_time("2000-02-29T12:00:00.500Z"),
            Some(951_825_600_500)
        );
        assert_eq!(parse_time("soon"), None);
    }

    #[test]
    fn short_times_keep_the_day_and_the_minute() {
        assert_eq!(
            short_time("2026-11-30T11:20:05.000Z"),
            "2026-11-30 11:20 UTC"
        );
        assert_eq!(short_time("soon"), "soon");
    }

    #[test]
    fn spans_read_naturally_in_both_languages() {
        let (en, zh) = (Lang::En.t().span, Lang::Zh.t().span);
        assert_eq!(en(45_000), "45 s");
        assert_eq!(en(180_000), "3 min");
        assert_eq!(en(7_500_000), "2 h 5 min");
        assert_eq!(en(-5), "0 s");
        assert_eq!(zh(7_500_000), "2 小时 5 分钟");
    }
}
