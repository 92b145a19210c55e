//! When an event that failed is tried again (docs/interface.md §7.7: 30 s, 2 min, 10 min, 1 h, 6 h, then
//! every 12 h, for 3 days), with jitter so that the retries of many events do not go together.

use std::time::Duration;

use chrono::{DateTime, TimeDelta, Utc};

/// `--webhook-retry-delays` and `--webhook-give-up-after`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetrySchedule {
    /// The wait before each retry; the last repeats.
    pub delays: Vec<Duration>,
    /// How long after the event was raised retries stop.
    pub give_up_after: Duration,
}

impl RetrySchedule {
    /// The schedule of docs/interface.md §7.7.
    pub fn reference() -> RetrySchedule {
        let minutes = |m: u64| Duration::from_secs(60 * m);
        RetrySchedule {
            delays: vec![Duration::from_secs(30), minutes(2), minutes(10), minutes(60), minutes(360), minutes(720)],
            give_up_after: minutes(3 * 24 * 60),
        }
    }

    /// Parses `30s,2m,10m` (humantime units).
    pub fn parse_delays(text: &str) -> Result<Vec<Duration>, String> {
        let delays: Vec<Duration> = text
            .split(',')
            .map(|d| humantime::parse_duration(d.trim()).map_err(|e| format!("{d}: {e}")))
            .collect::<Result<_, _>>()?;
        if delays.is_empty() || delays.iter().any(Duration::is_zero) {
            return Err("the delays must be positive durations, e.g. 30s,2m,10m,1h,6h,12h".into());
        }
        Ok(delays)
    }

    /// After the `attempts`-th failed attempt of an event raised at `raised`: when to try
    /// again, or `None` to give up. `jitter` in [0, 1) spreads the wait by up to ±10%.
    pub fn next(&self, raised: DateTime<Utc>, attempts: i64, now: DateTime<Utc>, jitter: f64) -> Option<DateTime<Utc>> {
        let index = usize::try_from(attempts.max(1) - 1).unwrap_or(0).min(self.delays.len().saturating_sub(1));
        let base = self.delays.get(index)?.as_secs_f64();
        let wait = base * (0.9 + 0.2 * jitter.clamp(0.0, 1.0));
        let at = now + TimeDelta::milliseconds((wait * 1000.0) as i64);
        let deadline = raised + TimeDelta::from_std(self.give_up_after).unwrap_or(TimeDelta::MAX);
        (at <= deadline).then_some(at)
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    #[test]
    fn the_reference_schedule_backs_off_then_repeats_and_gives_up_after_three_days() {
        let schedule = RetrySchedule::reference();
        let raised = Utc.with_ymd_and_hms(2026, 11, 24, 10, 0, 0).unwrap();
        let after = |attempts: i64, now: DateTime<Utc>| {
            schedule.next(raised, attempts, now, 0.5).map(|at| (at - now).num_seconds())
        };
        assert_eq!(after(1, raised), Some(30));
        assert_eq!(after(2, raised), Some(120));
        assert_eq!(after(5, raised), Some(6 * 3600));
        assert_eq!(after(6, raised), Some(12 * 3600));
        assert_eq!(after(9, raised + TimeDelta::days(1)), Some(12 * 3600), "the last delay repeats");
        assert_eq!(after(9, raised + TimeDelta::hours(61)), None, "past three days");
        let early = schedule.next(raised, 1, raised, 0.0).unwrap();
        let late = schedule.next(raised, 1, raised, 0.999).unwrap();
        assert_eq!(((early - raised).num_seconds(), (late - raised).num_seconds()), (27, 32), "±10% jitter");
    }

    #[test]
    fn delays_parse_from_the_command_line() {
        assert_eq!(
            RetrySchedule::parse_delays("100ms, 1s,2m").unwrap(),
            [Duration::from_millis(100), Duration::from_secs(1), Duration::from_secs(120)]
        );
        assert!(RetrySchedule::parse_delays("0s").is_err());
        assert!(RetrySchedule::parse_delays("soon").is_err());
    }
}
