//! Durations as people write them in requests: `"30s"`, `"45m"`, `"2h"`, `"3d"`.

use chrono::Duration;

/// Reads a whole number followed by its unit: `s` (seconds), `m` or `min` (minutes), `h`
/// (hours) or `d` (days); blanks around it are ignored. The error says what was expected.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let digits = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    let (number, unit) = text.split_at(digits);
    let expected = || format!("a duration such as 30m, 2h or 1d, found {}", crate::excerpt(text));
    let number: i64 = number.parse().ok().filter(|n| *n <= 1_000_000).ok_or_else(expected)?;
    match unit {
        "s" => Ok(Duration::seconds(number)),
        "m" | "min" => Ok(Duration::minutes(number)),
        "h" => Ok(Duration::hours(number)),
        "d" => Ok(Duration::days(number)),
        _ => Err(expected()),
    }
}

/// How a duration of whole minutes is best written back (`"90m"`, `"2h"`, `"1d"`).
pub fn format_minutes(minutes: u32) -> String {
    match minutes {
        m if m > 0 && m % 1440 == 0 => format!("{}d", m / 1440),
        m if m > 0 && m % 60 == 0 => format!("{}h", m / 60),
        m => format!("{m}m"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_each_unit_and_refuses_the_rest() {
        assert_eq!(parse_duration("30s"), Ok(Duration::seconds(30)));
        assert_eq!(parse_duration(" 45m "), Ok(Duration::minutes(45)));
        assert_eq!(parse_duration("90min"), Ok(Duration::minutes(90)));
        assert_eq!(parse_duration("2h"), Ok(Duration::hours(2)));
        assert_eq!(parse_duration("3d"), Ok(Duration::days(3)));
        for bad in ["", "h", "2", "2 h", "-2h", "2.5h", "2w", "99999999999h"] {
            assert!(parse_duration(bad).is_err(), "{bad:?} is not a duration");
        }
    }

    #[test]
    fn writes_minutes_in_the_largest_whole_unit() {
        assert_eq!(format_minutes(90), "90m");
        assert_eq!(format_minutes(120), "2h");
        assert_eq!(format_minutes(1440), "1d");
        assert_eq!(format_minutes(0), "0m");
    }
}
