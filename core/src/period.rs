//! The bounds of a period asked for in a query (`date_start`, `date_end` of `GET /campaigns`,
//! `GET /messages`, `GET /metrics/consumption`): `Y-m-d H:i:s` or `Y-m-d`, in Europe/Paris.

use chrono::{DateTime, Duration, NaiveDate, Utc};

use crate::{DelayError, parse_paris};

/// Which end of a period a time bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PeriodBound {
    /// `date_start`: a bare date means the start of that day.
    Start,
    /// `date_end`: a bare date means the last second of that day, so the day is included.
    End,
}

/// Reads a period bound: `Y-m-d H:i:s` (as the SMSFactor documentation writes it) or `Y-m-d`
/// (as its SDKs' examples do), in Paris wall-clock time; surrounding whitespace is ignored.
/// Errors as [`parse_paris`], with [`DelayError::Format`] for anything else.
pub fn parse_period_bound(input: &str, bound: PeriodBound) -> Result<DateTime<Utc>, DelayError> {
    let input = input.trim();
    if input.len() != 10 {
        return parse_paris(input);
    }
    let day = crate::parse_day(input).ok_or(DelayError::Format)?;
    let midnight = |day: NaiveDate| parse_paris(&format!("{day} 00:00:00"));
    match bound {
        PeriodBound::Start => midnight(day),
        PeriodBound::End => {
            let next = day.succ_opt().ok_or(DelayError::Format)?;
            Ok(midnight(next)? - Duration::seconds(1))
        }
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    #[test]
    fn a_bare_date_covers_the_whole_paris_day() {
        let start = parse_period_bound("2026-07-14", PeriodBound::Start);
        let end = parse_period_bound(" 2026-07-14 ", PeriodBound::End);
        assert_eq!(start, Ok(Utc.with_ymd_and_hms(2026, 7, 13, 22, 0, 0).unwrap()));
        assert_eq!(end, Ok(Utc.with_ymd_and_hms(2026, 7, 14, 21, 59, 59).unwrap()));
    }

    #[test]
    fn a_full_time_is_read_as_the_delay_format() {
        let at = parse_period_bound("2026-12-24 09:30:00", PeriodBound::End);
        assert_eq!(at, Ok(Utc.with_ymd_and_hms(2026, 12, 24, 8, 30, 0).unwrap()));
    }

    #[test]
    fn anything_else_is_refused() {
        for input in ["2026-7-14", "14/07/2026", "2026-02-30", "2026-07-14T10:00:00", ""] {
            assert_eq!(parse_period_bound(input, PeriodBound::Start), Err(DelayError::Format), "{input}");
        }
    }
}
