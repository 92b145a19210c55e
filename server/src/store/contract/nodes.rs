//! Several nodes on one PostgreSQL database (two stores here, as two `texto serve` would
//! have): they never take the same queued message or the same webhook lane, and when one
//! dies (its heartbeat stops), the other takes its work over.

use std::collections::HashSet;

use chrono::Utc;

use texto_core::{OpenWindows, Zone};

use super::backends::postgres_database;
use crate::store::{DeliveryStore, HandOff, OutboxStore, postgres::PgStore};

/// Two nodes on a fresh database, or `None` (said) when no PostgreSQL server is named.
pub(super) async fn two_nodes() -> Option<(PgStore, PgStore)> {
    let Some(url) = postgres_database().await else {
        eprintln!("TEXTO_TEST_POSTGRES is not set: the several-node scenarios need PostgreSQL");
        return None;
    };
    let first = PgStore::for_serving(&url, Utc::now()).await.expect("the first node");
    let second = PgStore::for_serving(&url, Utc::now()).await.expect("the second node");
    Some((first, second))
}

/// An account with a sending alert campaign of ten messages.
const CAMPAIGN: &str = "
    INSERT INTO accounts (id, name) VALUES (1, 'acme');
    INSERT INTO campaigns (id, account_id, text, pushtype, status, send_at, created_at, cost, total, sent, blacklisted,
        duplicated, invalid, npai, not_allowed, flood, country_limit)
    VALUES (1, 1, 'Code 1234', 'alert', 'sending', '2026-11-24T10:00:00Z', '2026-11-24T10:00:00Z', 10, 10, 10, 0, 0, 0, 0, 0, 0, 0);
    INSERT INTO messages (campaign_id, account_id, number, country, parts, cost, text_hash, created_at)
    SELECT 1, 1, 33611111100 + n, 'FR', 1, 100, 0, '2026-11-24T10:00:00Z' FROM generate_series(1, 10) AS n;";

/// Stops `node`'s heartbeat and makes it look long dead to the others.
pub(super) async fn kill(node: &PgStore, witness: &PgStore) {
    let id = node.node();
    node.close();
    // A beat already under way lands within the second.
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    witness
        .execute_batch(&format!("UPDATE nodes SET heartbeat_at = '2000-01-01T00:00:00Z' WHERE id = {id}"))
        .await
        .expect("the node looks dead");
}

#[tokio::test]
async fn two_nodes_never_hand_over_the_same_message_and_a_dead_nodes_messages_are_taken_over() {
    let Some((first, second)) = two_nodes().await else { return };
    first.execute_batch(CAMPAIGN).await.expect("a campaign");
    let now = Utc::now();
    let ids = |wave: &[crate::store::Queued]| wave.iter().map(|q| q.id).collect::<HashSet<i64>>();
    let taken_first =
        ids(&first.hand_off(Vec::new(), 6.into(), OpenWindows::NONE.with(Zone::Paris), now).await.expect("a wave"));
    let taken_second =
        ids(&second.hand_off(Vec::new(), 6.into(), OpenWindows::NONE.with(Zone::Paris), now).await.expect("a wave"));
    assert_eq!((taken_first.len(), taken_second.len()), (6, 4), "the second node takes what the first left");
    assert!(taken_first.is_disjoint(&taken_second), "no message is taken twice");
    let submitted = taken_second.iter().map(|&id| HandOff::Submitted { id, smsc_id: format!("s{id}") }).collect();
    assert!(
        second
            .hand_off(submitted, 6.into(), OpenWindows::NONE.with(Zone::Paris), now)
            .await
            .expect("a wave")
            .is_empty(),
        "nothing is left unclaimed"
    );

    kill(&first, &second).await;
    second.release_due(now).await.expect("a release pass");
    let taken_over =
        ids(&second.hand_off(Vec::new(), 10.into(), OpenWindows::NONE.with(Zone::Paris), now).await.expect("a wave"));
    assert_eq!(taken_over, taken_first, "the dead node's messages go out from the live one");
}

#[tokio::test]
async fn one_webhook_lane_runs_on_one_node_until_that_node_dies() {
    let Some((first, second)) = two_nodes().await else { return };
    first
        .execute_batch(
            "INSERT INTO accounts (id, name) VALUES (1, 'acme');
             INSERT INTO webhooks (id, account_id, type, url) VALUES (1, 1, 'MO', 'https://example.com/hook');
             INSERT INTO outbox (webhook_id, event, body, created_at) VALUES (1, 'MO', '{}', '2026-11-24T10:00:00Z');",
        )
        .await
        .expect("a webhook with an event");
    let now = Utc::now();
    assert_eq!(first.due_webhooks(now, Vec::new(), 10).await.expect("due"), [1]);
    assert!(second.due_webhooks(now, Vec::new(), 10).await.expect("due").is_empty(), "the lane is the first node's");
    kill(&first, &second).await;
    assert_eq!(second.due_webhooks(now, Vec::new(), 10).await.expect("due"), [1], "taken over once its node is dead");
}
