//! A campaign's Messages table: each recipient with its status, delivery date and status
//! details, filtered by status, paged, and exported as CSV (`GET /messages?campaign_id=`,
//! `GET /campaign/:id/messages.csv`).

use leptos::{prelude::*, task::spawn_local};
use texto_core::wire::MessagesResponse;

use crate::{
    api::{ApiError, Paging, use_api, with_query},
    components::{download::download_csv, errors::ErrorAlert, pager::Pager, table::rows_or},
    format,
    i18n::{Texts, use_lang, use_texts},
};

/// Messages per page.
const PAGE: i64 = 20;

/// The statuses offered by the filter (the labels of `GET /messages`).
const STATUSES: [&str; 10] = [
    "pending",
    "sent",
    "delivered",
    "not_delivered",
    "npai",
    "expired",
    "rejected",
    "network_error",
    "no_route",
    "invalid_sender",
];

/// A status of `GET /messages` in the user's language.
fn message_status(t: &'static Texts, status: &str) -> &'static str {
    match status {
        "pending" => t.msg_pending,
        "sent" => t.msg_sent,
        "delivered" => t.msg_delivered,
        "not_delivered" => t.msg_not_delivered,
        "npai" => t.msg_npai,
        "expired" => t.msg_expired,
        "rejected" => t.msg_rejected,
        "network_error" => t.msg_network_error,
        "no_route" => t.msg_no_route,
        "invalid_sender" => t.msg_invalid_sender,
        _ => t.msg_not_allowed,
    }
}

/// What a status of `GET /messages` means, in the user's language (the server's
/// `status_details` is English).
fn status_details(t: &'static Texts, status: &str) -> &'static str {
    match status {
        "pending" => t.msgd_pending,
        "sent" => t.msgd_sent,
        "delivered" => t.msgd_delivered,
        "not_delivered" => t.msgd_not_delivered,
        "npai" => t.msgd_npai,
        "expired" => t.msgd_expired,
        "rejected" => t.msgd_rejected,
        "network_error" => t.msgd_network_error,
        "no_route" => t.msgd_no_route,
        "invalid_sender" => t.msgd_invalid_sender,
        _ => t.msgd_not_allowed,
    }
}

/// The Messages section of campaign `id`, read again whenever `revision` changes (the detail
/// page bumps it as receipts arrive).
#[component]
pub fn CampaignMessages(id: String, #[prop(into)] revision: Signal<i64>) -> impl IntoView {
    let t = use_texts();
    let lang = use_lang();
    let api = use_api();
    let paging = RwSignal::new(Paging::first(PAGE));
    let status = RwSignal::new(String::new());
    let error = RwSignal::new(None::<ApiError>);
    let campaign = StoredValue::new(id);
    let page = LocalResource::new(move || {
        revision.track();
        let path = with_query(
            "/messages",
            paging.get(),
            &[("campaign_id", &campaign.get_value()), ("status", &status.get()), ("sort", "asc")],
        );
        async move { api.get::<MessagesResponse>(&path).await }
    });
    let total = Signal::derive(move || page.get().and_then(Result::ok).map_or(0, |p| p.total_display_records));
    let load_error = Signal::derive(move || page.get().and_then(Result::err));
    let export = move |_| {
        let id = campaign.get_value();
        let filter = status.get_untracked();
        spawn_local(async move {
            let path = with_query(&format!("/campaign/{id}/messages.csv"), Paging::first(1000), &[("status", &filter)]);
            match api.get_text(&path).await {
                Ok(csv) => download_csv(&format!("campaign-{id}-messages.csv"), &csv),
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let rows = move || {
        page.get().and_then(Result::ok).map(|answer| {
            rows_or(answer.messages, 4, t().empty, move |m| {
                let lang = lang.get();
                view! {
                    <tr>
                        <td data-label=t().number>{m.destination}</td>
                        <td data-label=t().status>{message_status(t(), &m.status)}</td>
                        <td data-label=t().delivery_date>{if m.dlr_date.is_empty() { "—".to_owned() } else { format::wire_date(lang, &m.dlr_date) }}</td>
                        <td data-label=t().status_details class="text">{status_details(t(), &m.status)}</td>
                    </tr>
                }
            })
        })
    };
    view! {
        <h2 id="messages-heading">{move || t().messages_title}</h2>
        <div class="row">
            <div class="field">
                <label for="messages-status">{move || t().filter_status}</label>
                <select id="messages-status" on:change=move |ev| { status.set(event_target_value(&ev)); paging.update(|p| p.start = 0); }>
                    <option value="">{move || t().all_statuses}</option>
                    {STATUSES.map(|s| view! { <option value=s>{move || message_status(t(), s)}</option> }).collect_view()}
                </select>
            </div>
            <button type="button" on:click=export>{move || t().export_csv}</button>
        </div>
        <ErrorAlert error=load_error />
        <ErrorAlert error=error />
        <div class="table-wrap">
            <table class="stack" aria-labelledby="messages-heading" data-testid="campaign-messages">
                <thead><tr>
                    <th scope="col">{move || t().number}</th><th scope="col">{move || t().status}</th>
                    <th scope="col">{move || t().delivery_date}</th><th scope="col">{move || t().status_details}</th>
                </tr></thead>
                <tbody><Suspense fallback=move || view! { <tr><td colspan="4">{t().loading}</td></tr> }>{rows}</Suspense></tbody>
            </table>
        </div>
        <Pager paging total />
    }
}
