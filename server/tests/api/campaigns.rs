//! Campaign history and detail: what each campaign shows besides the public samples' fields
//! (`total`, `sent`, `pushtype`, and `pending` until the receipts arrive), in JSON and XML.

use reqwest::Method;
use serde_json::{Value, json};
use texto_core::wire::{CampaignDetailResponse, CampaignsResponse, Format, decode};

use crate::helpers::{TestApp, spawn_app, spawn_app_with};

/// Sends `text` to `numbers` as Alice; returns the ticket.
async fn send(app: &TestApp, pushtype: &str, numbers: &[&str], delay: Option<String>) -> String {
    let gsm: Vec<Value> = numbers.iter().map(|n| json!({"value": n})).collect();
    let mut body = json!({"sms": {"message": {"text": "Hello", "pushtype": pushtype}, "recipients": {"gsm": gsm}}});
    if let Some(delay) = delay {
        body["sms"]["message"]["delay"] = json!(delay);
    }
    let (status, sent) = app.json(Method::POST, "/send", Some(body)).await;
    assert_eq!(status, 200, "{sent}");
    sent["ticket"].as_str().expect("a ticket").to_owned()
}

/// Gives the campaign's message to `number` the delivery `code`, as a receipt would.
async fn deliver(app: &TestApp, ticket: &str, number: &str, code: i64) {
    let ticket: i64 = ticket.parse().expect("a numeric ticket");
    let number: i64 = number.parse().expect("a number");
    let changed = app
        .sql(&format!(
            "UPDATE messages SET delivery = {code} WHERE campaign_id = {ticket} AND number = {number} RETURNING id"
        ))
        .await;
    assert_eq!(changed.len(), 1, "one message to {number} in campaign {ticket}");
}

/// The one campaign of `GET /campaign/{ticket}`.
async fn detail(app: &TestApp, ticket: &str) -> Value {
    let (status, body) = app.json(Method::GET, &format!("/campaign/{ticket}"), None).await;
    assert_eq!(status, 200, "{body}");
    body["campaign"][0].clone()
}

#[tokio::test]
async fn the_history_shows_recipients_before_and_after_filtering_and_the_push_type() {
    let app = spawn_app().await;
    let alert = send(&app, "alert", &["33612345678", "0612345678", "33612345678"], None).await;
    let marketing = send(&app, "marketing", &["33612345677", "33612345676"], None).await;
    let (status, history) = app.json(Method::GET, "/campaigns", None).await;
    assert_eq!(status, 200, "{history}");
    let fields = |c: &Value| {
        (
            c["id"].as_str().map(str::to_owned),
            c["total"].as_i64(),
            c["sent"].as_i64(),
            c["pushtype"].as_str().map(str::to_owned),
        )
    };
    let campaigns: Vec<_> = history["campaigns"].as_array().expect("campaigns").iter().map(fields).collect();
    assert_eq!(
        campaigns,
        [
            (Some(marketing), Some(2), Some(2), Some("marketing".to_owned())),
            (Some(alert), Some(3), Some(1), Some("alert".to_owned()))
        ],
        "newest first: {history}"
    );

    let (status, xml) = app.xml(Method::GET, "/campaigns", None).await;
    assert_eq!(status, 200, "{xml}");
    let history: CampaignsResponse = decode(&xml, Format::Xml).unwrap();
    let last = &history.campaigns[1];
    assert_eq!((last.total, last.sent, last.pushtype.as_deref()), (Some(3), Some(1), Some("alert")), "{xml}");
}

#[tokio::test]
async fn the_detail_counts_messages_still_waiting_for_a_final_delivery_code() {
    // An SMSC nobody answers at: nothing is handed over, the test sets the codes itself.
    let app =
        spawn_app_with(|config| config.smsc = "smpp://nobody:none@127.0.0.1:9".parse().expect("an SMSC URL")).await;
    let ticket = send(&app, "alert", &["33612345678", "33612345677", "33612345676", "0612"], None).await;
    let campaign = detail(&app, &ticket).await;
    assert_eq!(
        (
            campaign["total"].as_i64(),
            campaign["sent"].as_i64(),
            campaign["pending"].as_i64(),
            campaign["pushtype"].as_str()
        ),
        (Some(4), Some(3), Some(3), Some("alert")),
        "nothing delivered yet: {campaign}"
    );
    deliver(&app, &ticket, "33612345678", 1).await;
    deliver(&app, &ticket, "33612345677", 3).await;
    let campaign = detail(&app, &ticket).await;
    assert_eq!(
        (campaign["pending"].as_i64(), campaign["delivered"].as_i64()),
        (Some(2), Some(1)),
        "SENT is not final, DELIVERED is: {campaign}"
    );
    deliver(&app, &ticket, "33612345678", 5).await;
    deliver(&app, &ticket, "33612345676", 2).await;
    let campaign = detail(&app, &ticket).await;
    assert_eq!(
        (campaign["pending"].as_i64(), campaign["error"].as_i64(), campaign["sent"].as_i64()),
        (Some(0), Some(1), Some(3)),
        "{campaign}"
    );

    let (status, xml) = app.xml(Method::GET, &format!("/campaign/{ticket}"), None).await;
    assert_eq!(status, 200, "{xml}");
    let detail: CampaignDetailResponse = decode(&xml, Format::Xml).unwrap();
    let campaign = &detail.campaign[0];
    assert_eq!(
        (campaign.sent, campaign.pending, campaign.pushtype.as_deref()),
        (Some(3), Some(0), Some("alert")),
        "{xml}"
    );
}

#[tokio::test]
async fn a_cancelled_campaign_has_nothing_pending() {
    let app = spawn_app().await;
    // Paris is UTC+1 or +2; one hour either way does not matter 30 days ahead.
    let later =
        (chrono::Utc::now() + chrono::Duration::days(30)).with_timezone(&chrono::FixedOffset::east_opt(3600).unwrap());
    let ticket =
        send(&app, "marketing", &["33612345678", "33612345677"], Some(later.format("%Y-%m-%d %H:%M:%S").to_string()))
            .await;
    let campaign = detail(&app, &ticket).await;
    assert_eq!(
        (campaign["status"].as_str(), campaign["pending"].as_i64(), campaign["pushtype"].as_str()),
        (Some("Scheduled"), Some(2), Some("marketing"))
    );
    let (status, _) = app.json(Method::DELETE, &format!("/send/{ticket}"), None).await;
    assert_eq!(status, 200);
    let campaign = detail(&app, &ticket).await;
    assert_eq!(
        (campaign["status"].as_str(), campaign["sent"].as_i64(), campaign["pending"].as_i64()),
        (Some("Cancelled"), Some(2), Some(0)),
        "{campaign}"
    );
}
