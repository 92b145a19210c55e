//! The journeys' planner: puts contacts in the journeys the clock or a segment triggers. A
//! schedule, each time it comes round (Paris time), enters its segment's contacts; a date
//! trigger enters, a day ahead, the contacts whose date falls on that day, each due at the
//! trigger's time of its own day (core's [`DateTrigger`]); a segment trigger enters, every few
//! seconds, the contacts that started matching its segment, whatever made them match. Each plan
//! is written with the mark of how far planning got, so whichever node plans first, a day, a
//! time or a look is planned once; a schedule missed while texto was down comes round once, and
//! dates missed are not celebrated late.

use chrono::{DateTime, Duration, NaiveTime, Utc};
use texto_core::{DateTrigger, Msisdn, Schedule, Trigger, Zone, local_instant};

use crate::{
    Error,
    state::AppState,
    store::journey_plans::{KeepOut, Plan, PlanMark, TimedJourney},
};

/// How often a segment trigger looks for the contacts that started matching its segment.
const SEGMENT_EVERY: Duration = Duration::seconds(10);

/// Plans what the clock brought by `now` for every live timed journey; how many entered.
pub(crate) async fn plan(state: &AppState, now: DateTime<Utc>) -> Result<usize, Error> {
    let mut entered = 0;
    for journey in state.store.timed_journeys().await? {
        entered += match &journey.trigger {
            Trigger::Schedule { schedule, segment } => scheduled(state, &journey, schedule, *segment, now).await?,
            Trigger::Date(date) => dated(state, &journey, date, now).await?,
            Trigger::Segment(segment) => newcomers(state, &journey, *segment, now).await?,
            Trigger::List(_) | Trigger::Api | Trigger::Keyword(_) | Trigger::Click(_) => 0,
        };
    }
    Ok(entered)
}

/// The zone whose clock a number keeps.
pub(super) fn zone_of(number: i64) -> Zone {
    u64::try_from(number).ok().and_then(|n| Msisdn::from_u64(n).ok()).map_or(Zone::Paris, Zone::of)
}

/// Enters the segment's contacts if the schedule came round since the mark.
async fn scheduled(
    state: &AppState,
    journey: &TimedJourney,
    schedule: &Schedule,
    segment: i64,
    now: DateTime<Utc>,
) -> Result<usize, Error> {
    let since = match journey.planned_until {
        PlanMark::Instant(since) => since,
        PlanMark::Day(day) => local_instant(Zone::Paris.time_zone(), day, NaiveTime::MIN),
        PlanMark::None => return write(state, journey, PlanMark::Instant(now), Vec::new(), KeepOut::InJourney).await,
    };
    let Some(came) = schedule.latest(since, now) else { return Ok(0) };
    let numbers = state.store.segment_numbers(journey.account, segment).await?;
    let entries = numbers.into_iter().map(|n| (n, now)).collect();
    write(state, journey, PlanMark::Instant(came), entries, KeepOut::InJourney).await
}

/// Plans each day from the mark (or today) to tomorrow, Paris's calendar.
async fn dated(
    state: &AppState,
    journey: &TimedJourney,
    date: &DateTrigger,
    now: DateTime<Utc>,
) -> Result<usize, Error> {
    let today = now.with_timezone(&Zone::Paris.time_zone()).date_naive();
    let mut was = journey.planned_until;
    let first = match was {
        PlanMark::Day(day) => day + Duration::days(1),
        PlanMark::Instant(_) | PlanMark::None => today,
    };
    let mut entered = 0;
    let mut day = first.max(today);
    while day <= today + Duration::days(1) {
        let numbers =
            state.store.dated_numbers(journey.account, date.field.clone(), date.field_dates(day), date.yearly);
        let entries = numbers.await?.into_iter().map(|n| (n, date.entry_time(zone_of(n).time_zone(), day))).collect();
        let mark = PlanMark::Day(day);
        let keep_out = if date.yearly { KeepOut::InJourney } else { KeepOut::Ever };
        let plan = Plan { was, ..plan_for(journey, mark, entries, keep_out) };
        let count = plan.entries.len();
        if !state.store.enter_planned(plan).await? {
            // Another node planned it (or the journey stopped): its plan stands.
            return Ok(entered);
        }
        entered += count;
        was = mark;
        day += Duration::days(1);
    }
    Ok(entered)
}

/// Enters the contacts that started matching the segment since the last look, every
/// [`SEGMENT_EVERY`]. The first look after going live only notes who matches: those who
/// matched before do not enter, as a list's members before do not.
async fn newcomers(state: &AppState, journey: &TimedJourney, segment: i64, now: DateTime<Utc>) -> Result<usize, Error> {
    let first = match journey.planned_until {
        PlanMark::Instant(last) if now - last < SEGMENT_EVERY => return Ok(0),
        PlanMark::None => true,
        PlanMark::Instant(_) | PlanMark::Day(_) => false,
    };
    let now_in = state.store.segment_numbers(journey.account, segment).await?;
    let before = state.store.segment_seen(journey.id).await?;
    let (started, stopped) = changes(now_in, before);
    let entries = if first { Vec::new() } else { started.iter().map(|n| (*n, now)).collect() };
    let count = entries.len();
    let keep_out = KeepOut::after(journey.reentry, now);
    let plan = Plan { members: (started, stopped), ..plan_for(journey, PlanMark::Instant(now), entries, keep_out) };
    Ok(if state.store.enter_planned(plan).await? { count } else { 0 })
}

/// The numbers in `now_in` and not in `before` (who started matching), and those in `before`
/// and not in `now_in` (who stopped), each in ascending order. A look at a segment of a million
/// contacts compares two million numbers: sorted and walked side by side, they cost half the
/// CPU that two hash sets did (docs/performance.md).
fn changes(mut now_in: Vec<i64>, mut before: Vec<i64>) -> (Vec<i64>, Vec<i64>) {
    now_in.sort_unstable();
    now_in.dedup();
    before.sort_unstable();
    before.dedup();
    let (mut started, mut stopped) = (Vec::new(), Vec::new());
    let (mut new, mut old) = (now_in.into_iter().peekable(), before.into_iter().peekable());
    loop {
        match (new.peek(), old.peek()) {
            (Some(n), Some(o)) if n < o => started.extend(new.next()),
            (Some(n), Some(o)) if n > o => stopped.extend(old.next()),
            (Some(_), Some(_)) => {
                new.next();
                old.next();
            }
            (Some(_), None) => started.extend(new.by_ref()),
            (None, Some(_)) => stopped.extend(old.by_ref()),
            (None, None) => return (started, stopped),
        }
    }
}

/// Writes a plan moving `journey`'s mark to `mark`; how many it put in (none if another node
/// planned first).
async fn write(
    state: &AppState,
    journey: &TimedJourney,
    mark: PlanMark,
    entries: Vec<(i64, DateTime<Utc>)>,
    keep_out: KeepOut,
) -> Result<usize, Error> {
    let count = entries.len();
    Ok(if state.store.enter_planned(plan_for(journey, mark, entries, keep_out)).await? { count } else { 0 })
}

/// The plan moving `journey`'s mark from where it is to `mark`, entering `entries`, with no
/// segment members to note.
fn plan_for(journey: &TimedJourney, mark: PlanMark, entries: Vec<(i64, DateTime<Utc>)>, keep_out: KeepOut) -> Plan {
    Plan {
        journey: journey.id,
        version: journey.version,
        account: journey.account,
        was: journey.planned_until,
        mark,
        entries,
        keep_out,
        members: (Vec::new(), Vec::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_keeps_its_territorys_clock_and_any_other_paris() {
        assert_eq!(zone_of(262_692_123_456), Zone::of(Msisdn::from_u64(262_692_123_456).unwrap()));
        assert_ne!(zone_of(262_692_123_456), Zone::Paris);
        assert_eq!(zone_of(33_612_345_678), Zone::Paris);
        assert_eq!(zone_of(-1), Zone::Paris);
    }

    #[test]
    fn a_look_finds_who_started_and_who_stopped_matching() {
        let (started, stopped) = changes(vec![9, 3, 5, 7, 5], vec![1, 5, 3, 11]);
        assert_eq!((started, stopped), (vec![7, 9], vec![1, 11]));
        assert_eq!(changes(vec![2, 1], Vec::new()), (vec![1, 2], Vec::new()));
        assert_eq!(changes(Vec::new(), vec![4]), (Vec::new(), vec![4]));
        assert_eq!(changes(vec![1, 2], vec![2, 1]), (Vec::new(), Vec::new()));
    }

    #[test]
    fn a_look_agrees_with_set_differences_on_many_numbers() {
        use std::collections::HashSet;
        // Two overlapping, shuffled ranges: 0..60,000 now and 40,000..100,000 seen before.
        let now_in: Vec<i64> = (0..60_000).map(|i| (i * 7_919) % 60_000).collect();
        let before: Vec<i64> = (0..60_000).map(|i| 40_000 + (i * 104_729) % 60_000).collect();
        let (now_set, before_set): (HashSet<i64>, HashSet<i64>) =
            (now_in.iter().copied().collect(), before.iter().copied().collect());
        let mut expected_started: Vec<i64> = now_set.difference(&before_set).copied().collect();
        let mut expected_stopped: Vec<i64> = before_set.difference(&now_set).copied().collect();
        expected_started.sort_unstable();
        expected_stopped.sort_unstable();
        let (started, stopped) = changes(now_in, before);
        assert_eq!((started.len(), stopped.len()), (40_000, 40_000));
        assert_eq!((started, stopped), (expected_started, expected_stopped));
    }
}
