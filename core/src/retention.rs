//! How long an account keeps its data (`GET`/`PUT /retention`): periods written `2d` (days)
//! or `5m` (months), and the instant before which data is past its period.

use std::{fmt, str::FromStr};

use chrono::{DateTime, Days, Months, Utc};

/// Days or months.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RetentionUnit {
    /// `d`.
    Days,
    /// `m`.
    Months,
}

/// A retention period: 1 to 3,650 days or 1 to 120 months.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetentionPeriod {
    amount: u32,
    unit: RetentionUnit,
}

impl RetentionPeriod {
    /// The instant before which data kept for this period is past it, at `now`.
    pub fn cutoff(self, now: DateTime<Utc>) -> DateTime<Utc> {
        let earlier = match self.unit {
            RetentionUnit::Days => now.checked_sub_days(Days::new(u64::from(self.amount))),
            RetentionUnit::Months => now.checked_sub_months(Months::new(self.amount)),
        };
        earlier.unwrap_or(DateTime::<Utc>::MIN_UTC)
    }
}

impl FromStr for RetentionPeriod {
    type Err = String;

    /// `2d`, `5m` (case and surrounding spaces ignored).
    fn from_str(text: &str) -> Result<RetentionPeriod, String> {
        let refused = || format!("{}: a number of days or months, such as 30d or 6m", crate::excerpt(text));
        let text = text.trim().to_ascii_lowercase();
        let (digits, unit) = match text.strip_suffix('d') {
            Some(digits) => (digits, RetentionUnit::Days),
            None => (text.strip_suffix('m').ok_or_else(refused)?, RetentionUnit::Months),
        };
        let amount: u32 = digits.parse().map_err(|_| refused())?;
        let most = if unit == RetentionUnit::Days { 3_650 } else { 120 };
        if !(1..=most).contains(&amount) {
            return Err(format!("{amount}: from 1 to {most}"));
        }
        Ok(RetentionPeriod { amount, unit })
    }
}

impl fmt::Display for RetentionPeriod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let unit = if self.unit == RetentionUnit::Days { 'd' } else { 'm' };
        write!(f, "{}{unit}", self.amount)
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    #[test]
    fn periods_read_and_write_back() {
        for text in ["2d", "5m", "3650d", "120m"] {
            assert_eq!(text.parse::<RetentionPeriod>().map(|p| p.to_string()), Ok(text.to_owned()));
        }
        assert_eq!(" 30D ".parse::<RetentionPeriod>().map(|p| p.to_string()), Ok("30d".to_owned()));
        for bad in ["", "0d", "2", "2w", "d", "-1m", "3651d", "121m", "1.5m"] {
            assert!(bad.parse::<RetentionPeriod>().is_err(), "{bad}");
        }
    }

    #[test]
    fn the_cutoff_counts_calendar_days_and_months() {
        let now = Utc.with_ymd_and_hms(2026, 3, 31, 12, 0, 0).unwrap();
        let month: RetentionPeriod = "1m".parse().unwrap();
        assert_eq!(month.cutoff(now), Utc.with_ymd_and_hms(2026, 2, 28, 12, 0, 0).unwrap());
        let days: RetentionPeriod = "2d".parse().unwrap();
        assert_eq!(days.cutoff(now), Utc.with_ymd_and_hms(2026, 3, 29, 12, 0, 0).unwrap());
    }
}
