//! Durations as people write them on the command line.

/// A duration as people write it: `90s`, `30m`, `2h`, `1d`, or a number of
/// seconds.
pub fn parse_duration(text: &str) -> Result<std::time::Duration, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let scale = match unit.trim() {
        "" | "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        other => {
            return Err(format!(
                "{other:?} is not a unit askdesk knows; write e.g. 90s, 30m, 2h or 1d"
            ))
        }
    };
    let n: u64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a duration; write e.g. 90s, 30m, 2h or 1d"))?;
    if n == 0 {
        return Err("a duration of 0 means nothing here; write e.g. 30m".to_owned());
    }
    Ok(std::time::Duration::from_secs(n.saturating_mul(scale)))
}

#[cfg(test)]
mod tests {
    use super::parse_duration;

    #[test]
    fn durations_read_as_people_write_them() {
        use std::time::Duration;
        assert_eq!(parse_duration("90"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("90s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("30m"), Ok(Duration::from_secs(1800)));
        assert_eq!(parse_duration("2h"), Ok(Duration::from_secs(7200)));
        assert_eq!(parse_duration("1d"), Ok(Duration::from_secs(86_400)));
        for bad in ["", "0", "0m", "m", "2w", "1.5h", "-1h"] {
            let refused = parse_duration(bad).expect_err(bad);
            assert!(
                refused.contains("30m") || refused.contains("2h"),
                "{bad}: {refused}"
            );
        }
    }
}
