//! A wave of messages to hand over: alerts first, then marketing while its hours are open, by
//! campaign then message, up to the wave's size; a campaign found with nothing queued is sent.
//! (On PostgreSQL, small campaigns are claimed from many at a time, large ones alone.)

use chrono::Utc;

use texto_core::{DeliveryCode, OpenWindows, Zone};

use super::backends::Backend;
use crate::store::{Arrival, CampaignStatus, HandOff, Queued, Store, campaigns::DeliveryCounts};

/// Campaigns 1 (marketing, 2 queued), 2 (alert, 1 queued), 3 (marketing, large: 3 queued of
/// 200), 4 (alert, nothing queued) and 5 (alert, large, nothing queued).
const CAMPAIGNS: &str = "
    INSERT INTO accounts (id, name) VALUES (1, 'acme');
    INSERT INTO campaigns (id, account_id, text, pushtype, status, send_at, created_at, cost, total, sent, blacklisted,
        duplicated, invalid, npai, not_allowed, flood, country_limit)
    VALUES (1, 1, 'Soldes', 'marketing', 'sending', '2026-11-24T10:00:00Z', '2026-11-24T10:00:00Z', 2, 2, 2, 0, 0, 0, 0, 0, 0, 0),
           (2, 1, 'Code 1', 'alert', 'sending', '2026-11-24T10:00:00Z', '2026-11-24T10:00:00Z', 1, 1, 1, 0, 0, 0, 0, 0, 0, 0),
           (3, 1, 'Promo', 'marketing', 'sending', '2026-11-24T10:00:00Z', '2026-11-24T10:00:00Z', 200, 200, 200, 0, 0, 0, 0, 0, 0, 0),
           (4, 1, 'Code 2', 'alert', 'sending', '2026-11-24T10:00:00Z', '2026-11-24T10:00:00Z', 1, 1, 1, 0, 0, 0, 0, 0, 0, 0),
           (5, 1, 'Code 3', 'alert', 'sending', '2026-11-24T10:00:00Z', '2026-11-24T10:00:00Z', 300, 300, 300, 0, 0, 0, 0, 0, 0, 0);
    INSERT INTO messages (id, campaign_id, account_id, number, country, parts, cost, text_hash, created_at, delivery)
    VALUES (11, 1, 1, 33611111111, 'FR', 1, 100, 0, '2026-11-24T10:00:00Z', 0),
           (12, 1, 1, 33611111112, 'FR', 1, 100, 0, '2026-11-24T10:00:00Z', 0),
           (21, 2, 1, 33611111121, 'FR', 1, 100, 0, '2026-11-24T10:00:00Z', 0),
           (31, 3, 1, 33611111131, 'FR', 1, 100, 0, '2026-11-24T10:00:00Z', 0),
           (32, 3, 1, 33611111132, 'FR', 1, 100, 0, '2026-11-24T10:00:00Z', 0),
           (33, 3, 1, 33611111133, 'FR', 1, 100, 0, '2026-11-24T10:00:00Z', 0),
           (41, 4, 1, 33611111141, 'FR', 1, 100, 0, '2026-11-24T10:00:00Z', 1),
           (51, 5, 1, 33611111151, 'FR', 1, 100, 0, '2026-11-24T10:00:00Z', 1);";

/// A wave's messages, each accepted by the SMSC.
fn submitted(wave: &[Queued]) -> Vec<HandOff> {
    wave.iter().map(|queued| HandOff::Submitted { id: queued.id, smsc_id: format!("s{}", queued.id) }).collect()
}

async fn status(store: &dyn Store, campaign: i64) -> CampaignStatus {
    store.campaign(1, campaign).await.expect("a read").expect("the campaign").status
}

#[tokio::test]
async fn a_wave_takes_alerts_first_then_campaigns_in_order_up_to_its_size() {
    for backend in Backend::all().await {
        backend.execute(CAMPAIGNS).await;
        let store = backend.store();
        let now = Utc::now();
        let ids = |wave: Vec<crate::store::Queued>| wave.iter().map(|q| q.id).collect::<Vec<i64>>();
        let closed = ids(store.hand_off(Vec::new(), 10.into(), OpenWindows::NONE, now).await.expect("a wave"));
        assert_eq!(closed, [21], "{backend}: marketing waits while its hours are closed");
        let wave =
            ids(store.hand_off(Vec::new(), 4.into(), OpenWindows::NONE.with(Zone::Paris), now).await.expect("a wave"));
        assert_eq!(wave, [21, 11, 12, 31], "{backend}: alerts first, then by campaign and id, four at most");
        assert_eq!(status(store, 4).await, CampaignStatus::Sent, "{backend}: nothing queued: sent");
        assert_eq!(status(store, 5).await, CampaignStatus::Sent, "{backend}");
        assert_eq!(status(store, 3).await, CampaignStatus::Sending, "{backend}: still has messages queued");
        let submitted = wave.iter().map(|&id| HandOff::Submitted { id, smsc_id: format!("s{id}") }).collect();
        let rest =
            ids(store.hand_off(submitted, 4.into(), OpenWindows::NONE.with(Zone::Paris), now).await.expect("a wave"));
        assert_eq!(rest, [32, 33], "{backend}: the rest");
        for campaign in [1, 2] {
            assert_eq!(status(store, campaign).await, CampaignStatus::Sent, "{backend}: campaign {campaign}");
        }
    }
}

/// `count` one-message campaigns of `account` from id `first` on, of `pushtype`, with `zones`
/// (an SQL literal: `NULL` for Paris's window), their messages queued (`delivery` 0) or
/// already handed over (1).
fn one_message_campaigns(account: i64, first: i64, count: i64, delivery: i64, pushtype: &str, zones: &str) -> String {
    (first..first + count)
        .map(|id| {
            format!(
                "INSERT INTO campaigns (id, account_id, text, pushtype, status, send_at, created_at, cost, total, sent,
                     blacklisted, duplicated, invalid, npai, not_allowed, flood, country_limit, zones)
                 VALUES ({id}, {account}, 'Code', '{pushtype}', 'sending', '2026-11-24T10:00:00Z', '2026-11-24T10:00:00Z',
                     1, 1, 1, 0, 0, 0, 0, 0, 0, 0, {zones});
                 INSERT INTO messages (id, campaign_id, account_id, number, country, parts, cost, text_hash, created_at, delivery)
                 VALUES ({id}00, {id}, {account}, {}, 'FR', 1, 100, 0, '2026-11-24T10:00:00Z', {delivery});",
                33_611_000_000 + id
            )
        })
        .collect()
}

/// A wave reads each account's first campaigns, a wave's worth each, not every sending one:
/// another account's backlog does not hold an account's message back, and campaigns with
/// nothing to take do not leave the wave short.
#[tokio::test]
async fn a_wave_reads_on_past_campaigns_with_nothing_to_take_and_each_account_gets_its_share() {
    for backend in Backend::all().await {
        let store = backend.store();
        let now = Utc::now();
        backend.execute("INSERT INTO accounts (id, name) VALUES (1, 'acme'), (2, 'globex');").await;
        // Account 1: six campaigns already handed over (nothing queued), then 30 queued; account
        // 2: one queued, sent last.
        backend.execute(&one_message_campaigns(1, 1, 6, 1, "alert", "NULL")).await;
        backend.execute(&one_message_campaigns(1, 7, 30, 0, "alert", "NULL")).await;
        backend.execute(&one_message_campaigns(2, 37, 1, 0, "alert", "NULL")).await;
        let wave = store.hand_off(Vec::new(), 4.into(), OpenWindows::NONE, now).await.expect("a wave");
        let ids: Vec<i64> = wave.iter().map(|queued| queued.id).collect();
        assert_eq!(ids.len(), 4, "{backend}: a full wave past the campaigns with nothing queued: {ids:?}");
        assert!(ids.contains(&3700), "{backend}: account 2's message is in the first wave: {ids:?}");
        assert!(ids.iter().all(|id| *id >= 700), "{backend}: nothing handed over is taken again: {ids:?}");
        assert_eq!(status(store, 1).await, CampaignStatus::Sent, "{backend}: nothing queued: sent");
        // Wave after wave, every queued message goes once.
        let mut taken: Vec<i64> = ids;
        let mut done = submitted(&wave);
        loop {
            let wave = store.hand_off(done, 4.into(), OpenWindows::NONE, now).await.expect("a wave");
            if wave.is_empty() {
                break;
            }
            taken.extend(wave.iter().map(|queued| queued.id));
            done = submitted(&wave);
        }
        taken.sort_unstable();
        let expected: Vec<i64> = (7..=37).map(|id| id * 100).collect();
        assert_eq!(taken, expected, "{backend}");
    }
}

/// Campaigns waiting for a closed zone do not hold back an account's campaigns behind them,
/// however many they are, while another account's backlog could fill the wave.
#[tokio::test]
async fn campaigns_waiting_for_a_closed_zone_do_not_take_their_accounts_share() {
    for backend in Backend::all().await {
        let store = backend.store();
        let now = Utc::now();
        backend.execute("INSERT INTO accounts (id, name) VALUES (1, 'acme'), (2, 'globex');").await;
        // Account 1: ten marketing campaigns to La Réunion, then one to Paris's numbers;
        // account 2: 30 alerts.
        for id in 1..=10 {
            let zones = format!("'[[\"RE\", {id}00]]'");
            backend.execute(&one_message_campaigns(1, id, 1, 0, "marketing", &zones)).await;
        }
        backend.execute(&one_message_campaigns(1, 11, 1, 0, "marketing", "NULL")).await;
        backend.execute(&one_message_campaigns(2, 12, 30, 0, "alert", "NULL")).await;
        let wave =
            store.hand_off(Vec::new(), 4.into(), OpenWindows::NONE.with(Zone::Paris), now).await.expect("a wave");
        let ids: Vec<i64> = wave.iter().map(|queued| queued.id).collect();
        assert!(ids.contains(&1100), "{backend}: account 1's message to Paris is in the wave: {ids:?}");
        assert_eq!(ids.len(), 4, "{backend}: {ids:?}");
        assert!(ids.iter().all(|id| *id > 1000), "{backend}: La Réunion's window is closed: {ids:?}");
    }
}

/// [`CAMPAIGNS`] stored, and a wave of one message taken: campaign 2's alert, message 21.
async fn alert_of_campaign_2(backend: &Backend, now: chrono::DateTime<Utc>) -> Vec<Queued> {
    backend.execute(CAMPAIGNS).await;
    let wave = backend.store().hand_off(Vec::new(), 1.into(), OpenWindows::NONE, now).await.expect("a wave");
    assert_eq!(wave.iter().map(|q| q.id).collect::<Vec<_>>(), [21], "{backend}");
    wave
}

/// Campaign 2's messages counted by delivery code.
async fn deliveries_of_campaign_2(store: &dyn Store) -> DeliveryCounts {
    store.campaign(1, 2).await.expect("a read").expect("campaign 2").deliveries
}

#[tokio::test]
async fn a_receipt_that_comes_before_its_hand_overs_outcome_is_applied_with_it_and_once() {
    for backend in Backend::all().await {
        let (store, now) = (backend.store(), Utc::now());
        let wave = alert_of_campaign_2(&backend, now).await;
        // The SMSC's receipt can reach texto before the wave's outcomes are stored.
        let early = Arrival::Receipt { smsc_id: "s21".into(), code: DeliveryCode::Delivered };
        store.store_arrivals(vec![early.clone()], now).await.expect("the receipt kept");
        let delivered = || deliveries_of_campaign_2(store);
        assert_eq!(delivered().await.of(DeliveryCode::Delivered), 0, "{backend}: not applied to a message unknown yet");
        store.hand_off(submitted(&wave), 1.into(), OpenWindows::NONE, now).await.expect("the outcomes");
        let counts = delivered().await;
        assert_eq!(counts.of(DeliveryCode::Delivered), 1, "{backend}: applied once its SMSC id is stored");
        assert_eq!(counts.of_any(&[DeliveryCode::NotSent, DeliveryCode::Sent]), 0, "{backend}: {counts:?}");
        // The same receipt again (an SMSC repeating itself) changes nothing.
        store.store_arrivals(vec![early], now).await.expect("the receipt again");
        assert_eq!(delivered().await, counts, "{backend}");
    }
}

#[tokio::test]
async fn a_message_the_smsc_refused_gets_its_final_code_once() {
    for backend in Backend::all().await {
        let (store, now) = (backend.store(), Utc::now());
        let wave = alert_of_campaign_2(&backend, now).await;
        let refused = vec![HandOff::Failed { id: wave[0].id, code: DeliveryCode::Rejected }];
        store.hand_off(refused.clone(), 1.into(), OpenWindows::NONE, now).await.expect("the outcome");
        let counts = deliveries_of_campaign_2(store).await;
        assert_eq!(counts.of(DeliveryCode::Rejected), 1, "{backend}: {counts:?}");
        // The same outcome again (a wave stored twice after a crash) changes nothing, and a
        // receipt for it cannot follow: it never had an SMSC id.
        store.hand_off(refused, 1.into(), OpenWindows::NONE, now).await.expect("the outcome again");
        assert_eq!(deliveries_of_campaign_2(store).await, counts, "{backend}");
    }
}
