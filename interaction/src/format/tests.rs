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
        read("2026-12-03T14:05+02:00").compare(&read("2026-12-03T12:05Z")),
        Some(Ordering::Equal)
    );
    assert_eq!(
        read("2026-12-03T14:05:00.001").compare(&read("2026-12-03T14:05")),
        Some(Ordering::Greater)
    );
}

#[test]
fn decimals_compare_exactly() {
    let d = |t: &str| Decimal::parse(t).unwrap_or_else(|| panic!("{t}"));
    assert_eq!(d("2.50"), d("2.5"));
    assert_eq!(d("-0"), d("0.000"));
    assert_eq!(d("1e3"), d("1000"));
    assert_eq!(d("+12.5e-1"), d("1.25"));
    assert!(d("0.1") < d("0.10000000000000000001"));
    assert!(d("-3") < d("-2.999"));
    assert!(d("-0.5") < d("0"));
    assert!(d("99") < d("100"));
    for bad in ["", ".", "-", "1.2.3", "1e", "e5", "inf", "NaN", "1,5", " 1"] {
        assert_eq!(Decimal::parse(bad), None, "{bad:?}");
    }
}

#[test]
fn names_round_trip() {
    for format in Format::ALL {
        assert_eq!(Format::parse(format.as_str()), Some(format));
    }
    assert_eq!(Format::parse("datetime"), None);
}
