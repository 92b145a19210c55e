//! The outbox, as the webhook sender relies on it: a webhook's events come due in order, an
//! attempt moves its event on, a retry holds the later events back, and a paused or deleted
//! webhook's lane stops; pruning keeps what is recent or still pending.

use chrono::{DateTime, Duration, TimeZone, Utc};
use texto_core::{Credits, DeliveryCode};

use super::backends::Backend;
use crate::store::{
    AccountStore, Arrival, Attempt, AttemptResult, DueEvent, NewWebhook, NextStep, OutboxStore, Page, WebhookChange,
    WebhookStatus, WebhookStore, WebhookType,
};

fn answered(code: i64) -> AttemptResult {
    AttemptResult { http_code: Some(code), latency_ms: 3, error: None }
}

fn attempt(event: &DueEvent, result: AttemptResult, next: NextStep, at: DateTime<Utc>) -> Attempt {
    Attempt { event: event.clone(), result, next, at }
}

#[tokio::test]
async fn a_webhooks_events_come_due_in_order_and_each_attempt_moves_them_on() {
    for backend in Backend::all().await {
        let store = backend.store();
        let account = store.create_account("acme", Credits::ZERO).await.expect("an account");
        let hook = store
            .create_webhook(
                account,
                NewWebhook { kind: WebhookType::Mo, url: "https://example.com/hook", secret: Some("s3cret") },
            )
            .await
            .expect("a webhook")
            .id;
        backend
            .execute(&format!(
                "INSERT INTO outbox (webhook_id, event, body, created_at) VALUES
                 ({hook}, 'MO', '{{\"n\":1}}', '2026-11-24T10:00:00Z'), ({hook}, 'MO', '{{\"n\":2}}', '2026-11-24T10:00:00Z'),
                 ({hook}, 'MO', '{{\"n\":3}}', '2026-11-24T10:00:00Z')"
            ))
            .await;
        let now = Utc.with_ymd_and_hms(2026, 11, 24, 10, 0, 1).unwrap();
        assert_eq!(store.due_webhooks(now, Vec::new(), 10).await.expect("due webhooks"), [hook], "{backend}");
        assert!(
            store.due_webhooks(now, vec![hook], 10).await.expect("due webhooks").is_empty(),
            "{backend}: a running lane is not due again"
        );

        let events = store.next_events(hook, now, 10).await.expect("events");
        let bodies: Vec<&str> = events.iter().map(|e| e.body.as_str()).collect();
        assert_eq!(bodies, [r#"{"n":1}"#, r#"{"n":2}"#, r#"{"n":3}"#], "{backend}: in the order raised");
        assert!(
            events.iter().all(|e| e.secret.as_deref() == Some("s3cret") && e.attempts == 0),
            "{backend}: {events:?}"
        );
        assert_ne!(events[0].delivery_id, events[1].delivery_id, "{backend}");

        let retry_at = now + Duration::seconds(30);
        let two = vec![
            attempt(&events[0], answered(200), NextStep::Delivered, now),
            attempt(&events[1], answered(500), NextStep::RetryAt(retry_at), now),
        ];
        assert!(store.record_attempts(two).await.expect("stored"), "{backend}");
        assert!(
            store.next_events(hook, now, 10).await.expect("events").is_empty(),
            "{backend}: the rest waits behind the retry"
        );
        let later = store.next_events(hook, retry_at, 10).await.expect("events");
        assert_eq!(
            later.iter().map(|e| (e.id, e.attempts)).collect::<Vec<_>>(),
            [(events[1].id, 1), (events[2].id, 0)],
            "{backend}"
        );

        let (log, total) = store.webhook_log(account, hook, Page::default()).await.expect("the log");
        assert_eq!(total, 2, "{backend}");
        let seen: Vec<(Option<i64>, Option<&str>)> = log.iter().map(|r| (r.http_code, r.state.as_deref())).collect();
        assert_eq!(seen, [(Some(500), Some("pending")), (Some(200), Some("delivered"))], "{backend}: newest first");
        let webhooks = store.webhooks(account, Page::default()).await.expect("webhooks").0;
        assert_eq!(webhooks[0].last_http_code, Some(500), "{backend}");

        let pause = WebhookChange { status: Some(WebhookStatus::Paused), ..WebhookChange::default() };
        store.update_webhook(account, hook, pause).await.expect("paused");
        assert!(
            !store
                .record_attempts(vec![attempt(&later[0], answered(200), NextStep::Delivered, retry_at)])
                .await
                .expect("stored"),
            "{backend}: a paused lane stops"
        );
        assert!(
            store.due_webhooks(retry_at, Vec::new(), 10).await.expect("due webhooks").is_empty(),
            "{backend}: paused"
        );
        assert!(store.next_events(hook, retry_at, 10).await.expect("events").is_empty(), "{backend}: paused");

        store.delete_webhook(account, hook).await.expect("deleted");
        assert!(
            !store
                .record_attempts(vec![attempt(&later[1], answered(200), NextStep::Delivered, retry_at)])
                .await
                .expect("no error"),
            "{backend}: its event is gone"
        );
    }
}

#[tokio::test]
async fn pruning_takes_the_old_log_and_finished_events_and_keeps_pending_ones() {
    for backend in Backend::all().await {
        let store = backend.store();
        let account = store.create_account("acme", Credits::ZERO).await.expect("an account");
        let hook = store
            .create_webhook(
                account,
                NewWebhook { kind: WebhookType::Mo, url: "https://example.com/hook", secret: None },
            )
            .await
            .expect("a webhook")
            .id;
        // Events 1-3 of October (delivered, given up, still pending), 4 of November (delivered).
        backend
            .execute(&format!(
                "INSERT INTO outbox (id, webhook_id, event, body, created_at, state) VALUES
                 (1, {hook}, 'MO', '{{}}', '2026-10-01T10:00:00Z', 'delivered'), (2, {hook}, 'MO', '{{}}', '2026-10-01T11:00:00Z', 'failed'),
                 (3, {hook}, 'MO', '{{}}', '2026-10-01T12:00:00Z', 'pending'), (4, {hook}, 'MO', '{{}}', '2026-11-20T10:00:00Z', 'delivered');
                 INSERT INTO webhook_deliveries (id, webhook_id, delivery_id, event, body, http_code, created_at, outbox_id) VALUES
                 (1, {hook}, 'd1', 'MO', '{{}}', 200, '2026-10-01T10:00:01Z', 1), (2, {hook}, 'd2', 'MO', '{{}}', 500, '2026-10-01T11:00:01Z', 2),
                 (3, {hook}, 'd4', 'MO', '{{}}', 200, '2026-11-20T10:00:01Z', 4);"
            ))
            .await;
        let before = Utc.with_ymd_and_hms(2026, 10, 25, 0, 0, 0).unwrap();
        assert_eq!(store.prune(before, 1).await.expect("pruned"), 2, "{backend}: at most one row of each table");
        assert_eq!(store.prune(before, 100).await.expect("pruned"), 2, "{backend}: the rest of the old ones");
        assert_eq!(store.prune(before, 100).await.expect("pruned"), 0, "{backend}: nothing old is left");
        let (log, total) = store.webhook_log(account, hook, Page::default()).await.expect("the log");
        assert_eq!((total, log.len()), (1, 1), "{backend}: November's attempt stays");
        assert_eq!(store.due_webhooks(Utc::now(), Vec::new(), 10).await.expect("due webhooks"), [hook], "{backend}");
        let due = store.next_events(hook, Utc::now(), 10).await.expect("events");
        assert_eq!(
            due.iter().map(|e| e.id).collect::<Vec<_>>(),
            [3],
            "{backend}: a pending event stays whatever its age"
        );
    }
}

#[tokio::test]
async fn receipts_for_several_accounts_raise_dlr_in_order_for_the_accounts_listening_only() {
    for backend in Backend::all().await {
        let store = backend.store();
        let mut accounts = Vec::new();
        for name in ["acme", "bolt", "cora"] {
            accounts.push(store.create_account(name, Credits::ZERO).await.expect("an account"));
        }
        let (acme, cora) = (accounts[0], accounts[2]);
        let mut hooks = Vec::new();
        for account in [acme, cora] {
            let new = NewWebhook { kind: WebhookType::Dlr, url: "https://example.com/dlr", secret: None };
            hooks.push(store.create_webhook(account, new).await.expect("a webhook").id);
        }
        for (n, account) in accounts.iter().enumerate() {
            backend
                .execute(&format!(
                    "INSERT INTO campaigns (id, account_id, text, pushtype, status, send_at, created_at, cost, total, sent, blacklisted,
                         duplicated, invalid, npai, not_allowed, flood, country_limit)
                     VALUES ({n} + 1, {account}, 'Code', 'alert', 'sending', '2026-11-24T10:00:00Z', '2026-11-24T10:00:00Z', 1, 1, 1, 0, 0, 0, 0, 0, 0, 0);
                     INSERT INTO messages (campaign_id, account_id, number, country, parts, cost, text_hash, created_at, delivery, smsc_id)
                     VALUES ({n} + 1, {account}, 3361111111{n}, 'FR', 1, 100, 0, '2026-11-24T10:00:00Z', 1, 's{n}')"
                ))
                .await;
        }
        backend
            .execute(&format!(
                "INSERT INTO messages (campaign_id, account_id, number, country, parts, cost, text_hash, created_at, delivery, smsc_id)
                 VALUES (1, {acme}, 33611111113, 'FR', 1, 100, 0, '2026-11-24T10:00:00Z', 1, 's3')"
            ))
            .await;
        let receipts =
            [3, 0, 1, 2].map(|n| Arrival::Receipt { smsc_id: format!("s{n}"), code: DeliveryCode::Delivered }).to_vec();
        store.store_arrivals(receipts, Utc::now()).await.expect("receipts stored");
        let later = Utc::now() + Duration::seconds(1);
        let mut due = store.due_webhooks(later, Vec::new(), 10).await.expect("due webhooks");
        due.sort_unstable();
        assert_eq!(due, hooks, "{backend}: the two DLR webhooks have events");
        let mut raised = Vec::new();
        for hook in hooks {
            let events = store.next_events(hook, later, 10).await.expect("events");
            let numbers = ["33611111110", "33611111111", "33611111112", "33611111113"];
            let about = |body: &str| numbers.iter().find(|number| body.contains(*number)).copied().unwrap_or("none");
            raised.push(events.iter().map(|event| (event.event.clone(), about(&event.body))).collect::<Vec<_>>());
        }
        let dlr = |number: &'static str| ("DLR".to_owned(), number);
        assert_eq!(
            raised,
            [vec![dlr("33611111113"), dlr("33611111110")], vec![dlr("33611111112")]],
            "{backend}: a DLR for each listening account's message, in the receipts' order"
        );
    }
}

#[tokio::test]
async fn on_postgresql_a_deleted_webhooks_events_go_with_it_and_stray_ones_are_pruned() {
    let Some((store, _)) = super::nodes::two_nodes().await else { return };
    let account = store.create_account("acme", Credits::ZERO).await.expect("an account");
    let hook = store
        .create_webhook(account, NewWebhook { kind: WebhookType::Mo, url: "https://example.com/hook", secret: None })
        .await
        .expect("a webhook")
        .id;
    // No key ties an event to its webhook: events raised as a webhook (here 999999) was being
    // deleted can be left behind.
    store
        .execute_batch(&format!(
            "INSERT INTO outbox (webhook_id, event, body, created_at) VALUES
             ({hook}, 'MO', '{{}}', '2026-11-24T10:00:00Z'), ({hook}, 'MO', '{{}}', '2026-11-24T10:00:00Z'),
             (999999, 'MO', '{{}}', '2026-11-24T10:00:00Z'), (999999, 'MO', '{{}}', '2026-11-24T10:00:00Z')"
        ))
        .await
        .expect("events");
    store.delete_webhook(account, hook).await.expect("deleted");
    let long_ago = Utc.with_ymd_and_hms(2000, 1, 1, 0, 0, 0).unwrap();
    assert_eq!(
        store.prune(long_ago, 100).await.expect("a prune"),
        2,
        "the stray events only: the deleted webhook's went with it"
    );
    assert_eq!(store.prune(long_ago, 100).await.expect("a prune"), 0, "nothing left to prune");
}
