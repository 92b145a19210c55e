//! Clock-triggered entries in both stores: a plan is written only from the mark it read, so a
//! day or a schedule's time is planned once, on two PostgreSQL nodes too; the numbers whose date
//! falls on a day are found by their `-MM-DD` or whole date; and a number in the journey, or
//! (once) ever in it, is not entered again; and a segment trigger's members are kept with its
//! plans.

use chrono::{Duration, NaiveDate, Utc};
use texto_core::{Journey, JourneyStatus, wire::JourneyDto};

use super::{backends::Backend, nodes::two_nodes};
use crate::store::{
    JourneyPlanStore, JourneyStore, Store,
    approval::Hand,
    journey_plans::{KeepOut, Plan, PlanMark},
    journeys::JourneySaved,
};

/// An account (1) with three contacts' birthdays.
const SET_UP: &str = "
    INSERT INTO accounts (id, name) VALUES (1, 'acme');
    INSERT INTO account_contacts (account_id, number, fields, created_at, updated_at) VALUES
        (1, 33600000001, '{\"birthday\": \"1990-11-30\"}', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z'),
        (1, 33600000002, '{\"birthday\": \"2026-11-30\"}', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z'),
        (1, 33600000003, '{\"birthday\": \"1990-12-01\"}', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z'),
        (1, 33600000004, '{\"birthday\": \"30/11/1990\"}', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z');";

async fn live_birthdays(store: &dyn Store) -> i64 {
    let wire: JourneyDto = serde_json::from_value(serde_json::json!({
        "name": "Anniversaire", "trigger": {"type": "date", "field": "birthday", "at": "09:00"},
        "steps": [{"type": "send", "text": "Joyeux anniversaire"}]
    }))
    .expect("a journey");
    let journey = Journey::parse(&wire).expect("valid");
    let JourneySaved::Saved(saved) = store.save_journey(1, None, journey, Hand::Unknown).await.expect("saved") else {
        panic!("a draft is saved");
    };
    store.set_journey_status(1, saved.id, JourneyStatus::Live).await.expect("live").expect("found");
    saved.id
}

fn plan(journey: i64, was: PlanMark, day: NaiveDate, numbers: &[i64]) -> Plan {
    let at = Utc::now();
    Plan {
        journey,
        version: 1,
        account: 1,
        was,
        mark: PlanMark::Day(day),
        entries: numbers.iter().map(|n| (*n, at)).collect(),
        keep_out: KeepOut::InJourney,
        members: (Vec::new(), Vec::new()),
    }
}

#[tokio::test]
async fn a_day_is_planned_once_from_the_mark_read_and_dates_are_found_by_day() {
    let day = NaiveDate::from_ymd_opt(2026, 11, 30).expect("a day");
    for backend in Backend::all().await {
        backend.execute(SET_UP).await;
        let store = backend.store();
        let id = live_birthdays(store).await;
        let timed = store.timed_journeys().await.expect("timed journeys");
        assert_eq!(timed.len(), 1);
        assert!(matches!(timed[0].planned_until, PlanMark::Instant(_)), "going live marks now");
        let mut yearly = store.dated_numbers(1, "birthday".into(), vec!["-11-30".into()], true).await.expect("dates");
        yearly.sort();
        assert_eq!(yearly, [33600000001, 33600000002], "each year's 30 November; other shapes are not dates");
        let once = store.dated_numbers(1, "birthday".into(), vec!["2026-11-30".into()], false).await.expect("dates");
        assert_eq!(once, [33600000002]);

        let was = timed[0].planned_until;
        assert!(store.enter_planned(plan(id, was, day, &yearly)).await.expect("planned"));
        // The same plan from the mark as it was: refused, nobody enters twice.
        assert!(!store.enter_planned(plan(id, was, day, &yearly)).await.expect("refused"));
        let next = day + Duration::days(1);
        // A number still in the journey is not entered again; once: nor one that ever was.
        assert!(store.enter_planned(plan(id, PlanMark::Day(day), next, &[33600000001])).await.expect("planned"));
        let once =
            Plan { keep_out: KeepOut::Ever, ..plan(id, PlanMark::Day(next), next + Duration::days(1), &[33600000002]) };
        backend.execute("UPDATE journey_entries SET state = 'done'").await;
        assert!(store.enter_planned(once).await.expect("planned"));
        let timed = store.timed_journeys().await.expect("timed journeys");
        assert_eq!(timed[0].planned_until, PlanMark::Day(next + Duration::days(1)));
        let (entered, _) = store.journey_counts(1, id, 1).await.expect("counts");
        assert_eq!(entered, 2, "two entries, whatever was planned again");

        // A segment trigger's members: those seen are kept with the plan, those gone forgotten.
        // An entry after the cut-off keeps a number out (a re-entry delay); an older one does not.
        let later = PlanMark::Day(next + Duration::days(2));
        let seen = Plan {
            keep_out: KeepOut::Since(Utc::now() - Duration::days(1)),
            members: (vec![33600000001, 33600000003], Vec::new()),
            ..plan(id, PlanMark::Day(next + Duration::days(1)), next + Duration::days(2), &[33600000001])
        };
        assert!(store.enter_planned(seen).await.expect("planned"));
        let mut members = store.segment_seen(id).await.expect("seen");
        members.sort();
        assert_eq!(members, [33600000001, 33600000003]);
        assert_eq!(store.journey_counts(1, id, 1).await.expect("counts").0, 2, "entered today, so kept out");
        let gone = Plan {
            keep_out: KeepOut::Since(Utc::now() + Duration::hours(1)),
            members: (Vec::new(), vec![33600000001]),
            ..plan(id, later, next + Duration::days(3), &[33600000001, 33600000003])
        };
        assert!(store.enter_planned(gone).await.expect("planned"));
        assert_eq!(store.segment_seen(id).await.expect("seen"), [33600000003]);
        let (entered, _) = store.journey_counts(1, id, 1).await.expect("counts");
        assert_eq!(entered, 4, "33600000001 again (its entry is before the cut-off), 33600000003 the first time");
    }
}

#[tokio::test]
async fn two_nodes_planning_the_same_day_plan_it_once() {
    let Some((first, second)) = two_nodes().await else { return };
    first.execute_batch(SET_UP).await.expect("set up");
    let id = live_birthdays(&first).await;
    let was = first.timed_journeys().await.expect("timed")[0].planned_until;
    let day = NaiveDate::from_ymd_opt(2026, 11, 30).expect("a day");
    let numbers = [33600000001, 33600000002];
    let (a, b) = tokio::join!(
        first.enter_planned(plan(id, was, day, &numbers)),
        second.enter_planned(plan(id, was, day, &numbers))
    );
    assert_eq!([a.expect("a plan"), b.expect("a plan")].iter().filter(|done| **done).count(), 1);
    let (entered, _) = first.journey_counts(1, id, 1).await.expect("counts");
    assert_eq!(entered, 2);
}
