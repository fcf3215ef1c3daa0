//! Timestamps as the API shows them.

use time::OffsetDateTime;

/// Milliseconds since the Unix epoch as RFC 3339 in UTC with milliseconds,
/// e.g. `2026-11-30T11:16:18.042Z`; the same length for every instant from
/// year 0 to 9999, so the strings also sort by time.
pub fn rfc3339(ms: i64) -> String {
    let at = OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
        .unwrap_or(OffsetDateTime::UNIX_EPOCH);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        at.year(),
        u8::from(at.month()),
        at.day(),
        at.hour(),
        at.minute(),
        at.second(),
        at.millisecond()
    )
}

#[cfg(test)]
mod tests {
    use super::rfc3339;

    #[test]
    fn formats_utc_with_milliseconds() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(rfc3339(1_796_123_778_042), "2026-12-01T11:16:18.042Z");
    }
}
