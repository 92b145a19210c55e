//! The marketing window in the recipient's own time, through the real writers: a campaign to
//! Paris's numbers and overseas ones is written zone by zone, and each wave takes marketing
//! only from the zones whose window is open; an A/B test's rest still waits for its winner.

use chrono::{TimeZone, Utc};
use texto_core::{
    Credits, Endpoint, FilterContext, MessageOptions, OpenWindows, Territory, Zone, simulate, validate_send,
    wire::{Format, SmsRequest, decode},
};

use super::backends::Backend;
use crate::store::{CampaignStatus, Created, HandOff, NewCampaign, Queued, Store};

/// Sends `body` (a `POST /send` body) for a new account; the ticket.
async fn sent(store: &dyn Store, body: &str) -> i64 {
    let account = store.create_account("acme", Credits::whole(100)).await.expect("an account");
    let request: SmsRequest = decode(body, Format::Json).expect("a request");
    // Monday 30 November 2026, 10:00 UTC.
    let now = Utc.with_ymd_and_hms(2026, 11, 30, 10, 0, 0).unwrap();
    let campaign = validate_send(request, Endpoint::Send, &MessageOptions::default(), now).expect("valid");
    let context = FilterContext { balance: Credits::whole(100), ..FilterContext::default() };
    let simulation = simulate(&campaign, &context, now).expect("a simulation");
    let new = NewCampaign {
        campaign: &campaign,
        simulation: &simulation,
        gsmsmsids: Vec::new(),
        infos: Vec::new(),
        text_hash: 0,
        status: CampaignStatus::Sending,
        now,
        idempotency: None,
        utm: None,
        template: None,
    };
    match store.create_campaign(account, new).await.expect("written") {
        Created::New { ticket, .. } => ticket,
        Created::Replayed(_) => unreachable!("no idempotency key"),
    }
}

/// Hands over what `open` lets go; the numbers, in order.
async fn wave(store: &dyn Store, open: OpenWindows) -> Vec<u64> {
    let queued: Vec<Queued> = store.hand_off(Vec::new(), 100.into(), open, Utc::now()).await.expect("a wave");
    let numbers = queued.iter().map(|q| q.number).collect();
    let done = queued.iter().map(|q| HandOff::Submitted { id: q.id, smsc_id: format!("s{}", q.id) }).collect();
    store.hand_off(done, 0.into(), OpenWindows::NONE, Utc::now()).await.expect("stored");
    numbers
}

const REUNION: Zone = Zone::Overseas(Territory::Reunion);
const NOUMEA: Zone = Zone::Overseas(Territory::NewCaledonia);

#[tokio::test]
async fn marketing_goes_to_each_zone_while_its_window_is_open() {
    let numbers = ["262692000001", "33600000001", "687750001", "262692000002", "32470000001"];
    let recipients: Vec<String> = numbers.iter().map(|n| format!(r#"{{"value":"{n}"}}"#)).collect();
    let body = format!(
        r#"{{"sms":{{"message":{{"text":"Soldes","pushtype":"marketing"}},"recipients":{{"gsm":[{}]}}}}}}"#,
        recipients.join(",")
    );
    for backend in Backend::all().await {
        let store = backend.store();
        let ticket = sent(store, &body).await;
        assert_eq!(wave(store, OpenWindows::NONE).await, [0u64; 0], "{backend}: every window closed");
        assert_eq!(
            wave(store, OpenWindows::NONE.with(REUNION)).await,
            [262692000001, 262692000002],
            "{backend}: La Réunion's, in request order"
        );
        assert_eq!(
            wave(store, OpenWindows::NONE.with(Zone::Paris).with(REUNION)).await,
            [33600000001, 32470000001],
            "{backend}: Paris's window holds every other country"
        );
        let status = store.campaign(1, ticket).await.expect("a read").expect("the campaign").status;
        assert_eq!(status, CampaignStatus::Sending, "{backend}: Nouméa's number still waits");
        assert_eq!(wave(store, OpenWindows::NONE.with(NOUMEA)).await, [687750001], "{backend}");
        assert_eq!(wave(store, OpenWindows::NONE.with(NOUMEA)).await, [0u64; 0], "{backend}");
        let status = store.campaign(1, ticket).await.expect("a read").expect("the campaign").status;
        assert_eq!(status, CampaignStatus::Sent, "{backend}");
    }
}

#[tokio::test]
async fn an_alert_goes_everywhere_at_once() {
    let body = r#"{"sms":{"message":{"text":"Code 1234","pushtype":"alert"},"recipients":{"gsm":[{"value":"262692000001"},{"value":"33600000001"}]}}}"#;
    for backend in Backend::all().await {
        let store = backend.store();
        sent(store, body).await;
        assert_eq!(wave(store, OpenWindows::NONE).await, [262692000001, 33600000001], "{backend}");
    }
}

#[tokio::test]
async fn an_ab_tests_sample_goes_by_zone_and_its_rest_waits_for_the_winner() {
    // Ten recipients, half in La Réunion: a 50% sample of two texts.
    let numbers: Vec<String> =
        (1..=5).flat_map(|i| [format!("2626920000{i:02}"), format!("336000000{i:02}")]).collect();
    let recipients: Vec<String> = numbers.iter().map(|n| format!(r#"{{"value":"{n}"}}"#)).collect();
    let body = format!(
        r#"{{"sms":{{"message":{{"text":"Soldes","pushtype":"marketing","variants":["Promo"],"ab":{{"share":50,"wait":"1h","criterion":"clicks"}}}},"recipients":{{"gsm":[{}]}}}}}}"#,
        recipients.join(",")
    );
    for backend in Backend::all().await {
        let store = backend.store();
        sent(store, &body).await;
        let reunion = wave(store, OpenWindows::NONE.with(REUNION)).await;
        let paris = wave(store, OpenWindows::NONE.with(Zone::Paris).with(REUNION)).await;
        assert_eq!(reunion.len() + paris.len(), 5, "{backend}: the sample only: {reunion:?} {paris:?}");
        assert!(reunion.iter().all(|n| n / 1_000_000 == 262692), "{backend}: {reunion:?}");
        assert!(paris.iter().all(|n| n / 10_000_000 == 3360), "{backend}: {paris:?}");
    }
}
