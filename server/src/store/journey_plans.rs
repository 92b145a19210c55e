//! What the journeys' planner reads and writes to put contacts in journeys (a date field, a
//! schedule over a segment, a segment's newcomers): the live journeys so triggered, the
//! contacts whose date falls on a day, the members a segment trigger saw last, and a plan of
//! entries written with the mark of how far planning got, in one transaction, so that a day, a
//! schedule's time or a segment's look is planned once whichever node gets there first.

use async_trait::async_trait;
use chrono::{DateTime, Duration, NaiveDate, Utc};
use texto_core::{ContactField, Trigger, parse_day};

use super::{
    AccountId,
    columns::Columns,
    journeys::loaded_definition,
    segment_sql::{Dialect, field_value},
    time,
};
use crate::Error;

/// How far a journey's planning got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PlanMark {
    /// Nothing planned yet (a journey live before marks were kept).
    None,
    /// Planned up to this instant: it went live, or its schedule came round, then.
    Instant(DateTime<Utc>),
    /// A date trigger planned this day.
    Day(NaiveDate),
}

impl PlanMark {
    /// A mark as stored: a day `YYYY-MM-DD`, or an instant.
    fn read(stored: Option<&str>) -> PlanMark {
        match stored {
            None => PlanMark::None,
            Some(day) if day.len() == 10 => parse_day(day).map_or(PlanMark::None, PlanMark::Day),
            Some(instant) => PlanMark::Instant(time::load(instant)),
        }
    }

    /// The mark as stored ('' for none, as [`MARK`] compares).
    pub(crate) fn stored(self) -> String {
        match self {
            PlanMark::None => String::new(),
            PlanMark::Instant(at) => time::store(at),
            PlanMark::Day(day) => day.format("%Y-%m-%d").to_string(),
        }
    }
}

/// A live journey the clock puts contacts in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TimedJourney {
    /// The journey.
    pub(crate) id: i64,
    /// Its account.
    pub(crate) account: AccountId,
    /// Its current version.
    pub(crate) version: i64,
    /// The current version's trigger.
    pub(crate) trigger: Trigger,
    /// How far planning got.
    pub(crate) planned_until: PlanMark,
    /// After how long a contact that went through may enter again (`None`: never).
    pub(crate) reentry: Option<Duration>,
}

/// Which earlier entry keeps a number out of a plan's entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeepOut {
    /// Only being in the journey now.
    InJourney,
    /// Any entry, ever.
    Ever,
    /// Being in it now, or an entry after this time.
    Since(DateTime<Utc>),
}

impl KeepOut {
    /// The rule of a journey letting contacts in again after `reentry` (`None`: never).
    pub(crate) fn after(reentry: Option<Duration>, now: DateTime<Utc>) -> KeepOut {
        reentry.map_or(KeepOut::Ever, |after| KeepOut::Since(now - after))
    }

    /// [`ENTER_PLANNED`]'s sixth and seventh parameters: whether any entry keeps a number out,
    /// and the time after which an entry does.
    pub(crate) fn columns(self) -> (bool, String) {
        const NEVER: &str = "9999-12-31T23:59:59Z";
        match self {
            KeepOut::InJourney => (false, NEVER.to_owned()),
            KeepOut::Ever => (true, NEVER.to_owned()),
            KeepOut::Since(at) => (false, time::store(at)),
        }
    }
}

/// Entries the clock plans, and how far that takes planning.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Plan {
    /// The journey.
    pub(crate) journey: i64,
    /// The version they enter.
    pub(crate) version: i64,
    /// Its account.
    pub(crate) account: AccountId,
    /// The mark as read: the plan is written only if it is still so.
    pub(crate) was: PlanMark,
    /// The mark after it.
    pub(crate) mark: PlanMark,
    /// Each number and when it enters.
    pub(crate) entries: Vec<(i64, DateTime<Utc>)>,
    /// Which earlier entry keeps a number out.
    pub(crate) keep_out: KeepOut,
    /// For a segment trigger: the numbers now seen in the segment, and those no longer.
    pub(crate) members: (Vec<i64>, Vec<i64>),
}

/// The runner's clock-triggered entries.
#[async_trait]
pub(crate) trait JourneyPlanStore: Send + Sync {
    /// The live journeys a date, a schedule or a segment triggers.
    async fn timed_journeys(&self) -> Result<Vec<TimedJourney>, Error>;
    /// The account's numbers whose custom `field` holds one of `dates`: whole `YYYY-MM-DD`
    /// dates, or (`yearly`) their `-MM-DD` endings.
    async fn dated_numbers(
        &self,
        account: AccountId,
        field: String,
        dates: Vec<String>,
        yearly: bool,
    ) -> Result<Vec<i64>, Error>;
    /// Writes `plan` if its journey is still live and its mark still as read; whether it did.
    async fn enter_planned(&self, plan: Plan) -> Result<bool, Error>;
    /// The numbers a segment trigger saw in its segment last.
    async fn segment_seen(&self, journey: i64) -> Result<Vec<i64>, Error>;
}

/// The live journeys a date or a schedule triggers, with their current version's definition.
pub(crate) const TIMED: &str = "SELECT j.id, j.account_id, j.version, v.definition, j.planned_until, j.reentry_seconds
     FROM journeys j JOIN journey_versions v ON v.journey_id = j.id AND v.version = j.version
     WHERE j.status = 'live' AND j.trigger_timed = TRUE ORDER BY j.id";

/// Moves a live journey's mark (`$1` id, `$2` the mark as read, '' for none, `$3` the new one).
pub(crate) const MARK: &str = "UPDATE journeys SET planned_until = $3
     WHERE id = $1 AND status = 'live' AND COALESCE(planned_until, '') = $2";

/// Enters a number (`$1` journey, `$2` version, `$3` account, `$4` number, `$5` when, `$6`
/// whether any earlier entry keeps it out, `$7` the time after which one does) unless it is in
/// the journey now.
pub(crate) const ENTER_PLANNED: &str =
    "INSERT INTO journey_entries (journey_id, version, account_id, number, node, arrived, state, due_at, entered_at)
     SELECT $1, $2, $3, $4, 0, FALSE, 'active', $5, $5
     WHERE NOT EXISTS (SELECT 1 FROM journey_entries e WHERE e.journey_id = $1 AND e.number = $4
         AND (e.state = 'active' OR $6 OR e.entered_at > $7))
     ON CONFLICT (journey_id, number) WHERE state = 'active' DO NOTHING";

/// The numbers a segment trigger saw in its segment last (`$1` journey).
pub(crate) const SEEN: &str = "SELECT number FROM journey_segment_members WHERE journey_id = $1";

/// Notes a number now seen in the segment (`$1` journey, `$2` number; PostgreSQL notes them all
/// in one statement).
pub(crate) const SEE: &str =
    "INSERT INTO journey_segment_members (journey_id, number) VALUES ($1, $2) ON CONFLICT DO NOTHING";

/// Forgets a number no longer in the segment (`$1` journey, `$2` number).
pub(crate) const UNSEE: &str = "DELETE FROM journey_segment_members WHERE journey_id = $1 AND number = $2";

/// The statement of [`JourneyPlanStore::dated_numbers`] in `dialect`, numbered as it numbers
/// (the first the account, the second and third the dates or endings). SQLite's JSON paths hold
/// a `$`, so its parameters are written `?N` here.
pub(crate) fn dated_sql(field: &str, yearly: bool, dialect: Dialect) -> String {
    let value = field_value(&ContactField::Custom(field.to_owned()), dialect);
    let mark = if dialect == Dialect::Sqlite { '?' } else { '$' };
    let test = match yearly {
        true => format!("length({value}) = 10 AND substr({value}, 5, 6) IN ({mark}2, {mark}3)"),
        false => format!("{value} IN ({mark}2, {mark}3)"),
    };
    format!("SELECT a.number FROM account_contacts a WHERE a.account_id = {mark}1 AND {test}")
}

/// The two dates [`dated_sql`] compares with: the second repeats the first when there is one.
pub(crate) fn two_dates(dates: &[String]) -> (String, String) {
    let first = dates.first().cloned().unwrap_or_default();
    let second = dates.get(1).cloned().unwrap_or_else(|| first.clone());
    (first, second)
}

/// Reads a row of [`TIMED`].
pub(crate) fn read_timed<R: Columns>(row: &R) -> Result<Result<TimedJourney, Error>, R::Fault> {
    let definition: String = row.column(3)?;
    let (id, account, version) = (row.column(0)?, row.column(1)?, row.column(2)?);
    let planned_until = PlanMark::read(row.column::<Option<String>>(4)?.as_deref());
    let reentry = row.column::<Option<i64>>(5)?.map(Duration::seconds);
    Ok(loaded_definition(&definition).map(|journey| TimedJourney {
        id,
        account,
        version,
        trigger: journey.trigger,
        planned_until,
        reentry,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mark_is_a_day_an_instant_or_nothing_and_reads_back_as_written() {
        assert_eq!(PlanMark::read(None), PlanMark::None);
        for stored in ["2026-11-30", "2026-11-30T09:00:00Z"] {
            assert_eq!(PlanMark::read(Some(stored)).stored(), stored);
        }
        assert_eq!(PlanMark::read(Some("2026-11-30")), PlanMark::Day(NaiveDate::from_ymd_opt(2026, 11, 30).unwrap()));
        assert_eq!(PlanMark::None.stored(), "");
    }
}
