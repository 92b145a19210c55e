//! The daily counts behind Home and `GET /metrics/daily` (migrations
//! `0019_daily_counts` and PostgreSQL's `0016`): per account and Paris day, the messages handed
//! to the carrier and their cost, the receipts that say delivered, the clicks, the replies and
//! the STOPs. Each is added in the transaction that stores the fact ([`Tally`]), so the counts
//! are read without scanning `messages` and never go down (an erasure or the retention period
//! leaves past days as they were).

use std::collections::BTreeMap;

use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, Utc};
use texto_core::format_paris;

use super::{AccountId, columns::Columns};
use crate::Error;

/// One account's counts of one day.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct DayCounts {
    /// Messages handed to the carrier.
    pub(crate) sent: i64,
    /// Final receipts that say delivered.
    pub(crate) delivered: i64,
    /// Clicks on short links.
    pub(crate) clicks: i64,
    /// Replies kept (MO, STOP and START included).
    pub(crate) replies: i64,
    /// Replies that were stop words.
    pub(crate) stops: i64,
    /// The cost of the messages handed over, in hundredths of a credit.
    pub(crate) cost: i64,
}

/// What one transaction adds to the daily counts, by account and Paris day (in key order, so
/// that writers on several nodes lock the rows in the same order).
#[derive(Debug, Default)]
pub(crate) struct Tally(BTreeMap<(AccountId, String), DayCounts>);

impl Tally {
    /// Adds to `account`'s counts of the Paris day of `at`.
    pub(crate) fn add(&mut self, account: AccountId, at: DateTime<Utc>, change: impl FnOnce(&mut DayCounts)) {
        change(self.0.entry((account, paris_day(at))).or_default());
    }

    /// The rows to add, emptying the tally.
    pub(crate) fn take(&mut self) -> BTreeMap<(AccountId, String), DayCounts> {
        std::mem::take(&mut self.0)
    }
}

/// The Paris day of `at`, `YYYY-MM-DD`.
pub(crate) fn paris_day(at: DateTime<Utc>) -> String {
    format_paris(at).chars().take(10).collect()
}

/// Adds a row of counts (both stores; `$1` account, `$2` day, `$3`…`$8` sent, delivered,
/// clicks, replies, stops, cost).
pub(crate) const ADD_TO_DAY: &str =
    "INSERT INTO daily_counts (account_id, day, sent, delivered, clicks, replies, stops, cost)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (account_id, day) DO UPDATE SET sent = daily_counts.sent + excluded.sent,
         delivered = daily_counts.delivered + excluded.delivered, clicks = daily_counts.clicks + excluded.clicks,
         replies = daily_counts.replies + excluded.replies, stops = daily_counts.stops + excluded.stops,
         cost = daily_counts.cost + excluded.cost";

/// An account's days in a range (`$1` account, `$2` first day, `$3` last day).
pub(crate) const DAYS: &str = "SELECT day, sent, delivered, clicks, replies, stops, cost FROM daily_counts
     WHERE account_id = $1 AND day >= $2 AND day <= $3 ORDER BY day";

/// The daily counts.
#[async_trait]
pub(crate) trait DailyStore: Send + Sync {
    /// The account's days from `first` to `last` (Paris days, both included) that have counts.
    async fn daily_counts(
        &self,
        account: AccountId,
        first: NaiveDate,
        last: NaiveDate,
    ) -> Result<Vec<(NaiveDate, DayCounts)>, Error>;
}

/// A stored day, `YYYY-MM-DD`.
pub(crate) fn stored_day(day: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(day, "%Y-%m-%d").ok()
}

/// A day's counts from a row of [`DAYS`]; `None` when its day is no date.
pub(super) fn read_day<R: Columns>(row: &R) -> Result<Option<(NaiveDate, DayCounts)>, R::Fault> {
    let counts = DayCounts {
        sent: row.column(1)?,
        delivered: row.column(2)?,
        clicks: row.column(3)?,
        replies: row.column(4)?,
        stops: row.column(5)?,
        cost: row.column(6)?,
    };
    Ok(stored_day(&row.column::<String>(0)?).map(|day| (day, counts)))
}

#[cfg(test)]
mod tests {
    use chrono::{TimeZone, Utc};

    use super::Tally;

    #[test]
    fn counts_go_to_the_paris_day_in_key_order() {
        let mut tally = Tally::default();
        let late = Utc.with_ymd_and_hms(2026, 7, 1, 22, 30, 0).unwrap();
        tally.add(2, late, |c| c.sent += 1);
        tally.add(1, late, |c| c.clicks += 1);
        tally.add(2, late, |c| c.cost += 150);
        let rows: Vec<_> = tally.take().into_iter().collect();
        assert_eq!(rows[0].0, (1, "2026-07-02".to_owned()), "22:30 UTC in summer is the next day in Paris");
        assert_eq!((rows[1].1.sent, rows[1].1.cost), (1, 150));
        assert!(tally.take().is_empty());
    }
}
