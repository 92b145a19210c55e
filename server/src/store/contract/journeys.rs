//! Journeys in both stores: a list's joiners enter its live journeys in the join's own
//! transaction, once; a claim holds its contacts until it runs out (a node that stopped), and
//! two PostgreSQL nodes never claim the same contact, while a dead node's claims go to the
//! other at once.

use std::collections::HashSet;

use chrono::{Duration, Utc};
use texto_core::{Journey, JourneyStatus, wire::JourneyDto};

use super::{
    backends::Backend,
    nodes::{kill, two_nodes},
};
use crate::store::{
    JourneyRunStore, Store,
    approval::Hand,
    journey_runs::{EntryMove, Moves},
    journeys::{EntryState, JourneySaved},
};

/// An account (1) with a list (1) holding one number before the journey goes live.
const SET_UP: &str = "
    INSERT INTO accounts (id, name) VALUES (1, 'acme');
    INSERT INTO lists (id, account_id, name) VALUES (1, 1, 'Club');
    INSERT INTO contacts (list_id, number) VALUES (1, 33600000000);";

/// `count` numbers join list 1, from 33600000001 on.
fn joiners(from: i64, count: i64) -> String {
    (from..from + count)
        .map(|n| format!("INSERT INTO contacts (list_id, number) VALUES (1, {});", 33600000000 + n))
        .collect()
}

fn welcome() -> Journey {
    let wire: JourneyDto = serde_json::from_value(serde_json::json!({
        "name": "Bienvenue", "trigger": {"type": "list", "list": "1"},
        "steps": [{"type": "wait", "duration": "1h"}, {"type": "send", "text": "Bienvenue"}]
    }))
    .expect("a journey");
    Journey::parse(&wire).expect("valid")
}

async fn live_journey(store: &dyn Store) -> i64 {
    let JourneySaved::Saved(saved) = store.save_journey(1, None, welcome(), Hand::Unknown).await.expect("saved") else {
        panic!("a draft is saved");
    };
    let live = store.set_journey_status(1, saved.id, JourneyStatus::Live).await.expect("live").expect("found");
    assert_eq!(live.status, JourneyStatus::Live);
    saved.id
}

#[tokio::test]
async fn joiners_enter_once_and_a_claim_holds_until_it_runs_out() {
    for backend in Backend::all().await {
        backend.execute(SET_UP).await;
        let store = backend.store();
        let id = live_journey(store).await;
        backend.execute(&joiners(1, 3)).await;
        // Leaving and joining again while in it does not enter it twice.
        backend.execute("DELETE FROM contacts WHERE number = 33600000001").await;
        backend.execute(&joiners(1, 1)).await;
        let later = Utc::now() + Duration::seconds(5);
        let claimed = store.claim_journey_steps(later, later + Duration::minutes(5), 100).await.expect("a claim");
        let numbers: HashSet<i64> = claimed.iter().map(|c| c.number).collect();
        assert_eq!(numbers, HashSet::from([33600000001, 33600000002, 33600000003]), "{backend}");
        assert!(claimed.iter().all(|c| c.journey == id && c.node == 0 && !c.arrived), "{backend}");
        // Held: nobody else takes them; once the claim ran out (its node stopped), they are due again.
        assert!(store.claim_journey_steps(later, later, 100).await.expect("a claim").is_empty(), "{backend}");
        let after = later + Duration::minutes(6);
        let again = store.claim_journey_steps(after, after + Duration::minutes(5), 100).await.expect("a claim");
        assert_eq!(again.len(), 3, "{backend}");
        // Moved on and let go: due only when their wait is over; one is through.
        let entries = again
            .iter()
            .enumerate()
            .map(|(i, c)| EntryMove {
                id: c.id,
                node: 0,
                arrived: true,
                state: if i == 0 { EntryState::Done } else { EntryState::Active },
                due_at: after + Duration::hours(1),
                sent: None,
                note: None,
            })
            .collect();
        store.move_journey_entries(Moves { entries, ..Moves::default() }).await.expect("moved");
        assert!(store.claim_journey_steps(after, after, 100).await.expect("a claim").is_empty(), "{backend}");
        let over = after + Duration::hours(2);
        assert_eq!(store.claim_journey_steps(over, over, 100).await.expect("a claim").len(), 2, "{backend}");
        // A paused journey's contacts wait where they are.
        store.set_journey_status(1, id, JourneyStatus::Paused).await.expect("paused");
        let much_later = over + Duration::hours(1);
        assert!(store.claim_journey_steps(much_later, much_later, 100).await.expect("a claim").is_empty(), "{backend}");
    }
}

#[tokio::test]
async fn two_nodes_never_claim_the_same_contact() {
    let Some((first, second)) = two_nodes().await else { return };
    first.execute_batch(SET_UP).await.expect("set up");
    live_journey(&first).await;
    first.execute_batch(&joiners(1, 10)).await.expect("joiners");
    let later = Utc::now() + Duration::seconds(5);
    let until = later + Duration::minutes(5);
    let (a, b) = tokio::join!(first.claim_journey_steps(later, until, 6), second.claim_journey_steps(later, until, 6));
    let (a, b) = (a.expect("a claim"), b.expect("a claim"));
    let ids =
        |claimed: &[crate::store::journey_runs::ClaimedEntry]| claimed.iter().map(|c| c.id).collect::<HashSet<_>>();
    assert!(ids(&a).is_disjoint(&ids(&b)), "no contact is claimed twice");
    let rest = first.claim_journey_steps(later, until, 10).await.expect("a claim");
    assert_eq!(a.len() + b.len() + rest.len(), 10, "every contact is claimed once");
}

#[tokio::test]
async fn a_dead_nodes_claims_go_to_the_other_node_at_once() {
    let Some((first, second)) = two_nodes().await else { return };
    first.execute_batch(SET_UP).await.expect("set up");
    live_journey(&first).await;
    first.execute_batch(&joiners(1, 10)).await.expect("joiners");
    let later = Utc::now() + Duration::seconds(5);
    let until = later + Duration::minutes(5);
    assert_eq!(first.claim_journey_steps(later, until, 10).await.expect("a claim").len(), 10);
    assert!(second.claim_journey_steps(later, until, 10).await.expect("a claim").is_empty(), "held by the first");
    kill(&first, &second).await;
    let taken = second.claim_journey_steps(later, until, 10).await.expect("a claim");
    assert_eq!(taken.len(), 10, "the dead node's claims are free before they run out");
}
