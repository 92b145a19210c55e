//! Replies: the SMS received in a period (`GET /messages/mo`), newest first, each with the
//! campaign it answers.

use chrono::Duration;
use leptos::prelude::*;
use leptos_router::components::A;
use texto_core::{format_paris, wire::RepliesResponse};

use crate::{
    api::{Paging, use_api, with_query},
    components::{errors::ErrorAlert, pager::Pager, table::rows_or},
    format,
    i18n::{use_lang, use_texts},
};

/// Replies per page.
const PAGE: i64 = 50;

/// The Paris day `days` from today, as `Y-m-d`.
fn paris_day(days: i64) -> String {
    format_paris(crate::clock::now() + Duration::days(days))[..10].to_owned()
}

/// The replies page.
#[component]
pub fn Replies() -> impl IntoView {
    let t = use_texts();
    let lang = use_lang();
    let api = use_api();
    let paging = RwSignal::new(Paging::first(PAGE));
    let from = RwSignal::new(paris_day(-30));
    let to = RwSignal::new(paris_day(0));
    let page = LocalResource::new(move || {
        let path = with_query("/messages/mo", paging.get(), &[("date_start", &from.get()), ("date_end", &to.get())]);
        async move { api.get::<RepliesResponse>(&path).await }
    });
    let total = Signal::derive(move || page.get().and_then(Result::ok).map_or(0, |p| p.total_records));
    let error = Signal::derive(move || page.get().and_then(Result::err));
    let rows = move || {
        page.get().and_then(Result::ok).map(|answer| {
            rows_or(answer.replies, 4, t().no_replies, move |r| {
                let lang = lang.get();
                let campaign = (r.campaign_id > 0).then(|| {
                    view! { <A href=format!("/app/campaigns/{}", r.campaign_id)>{r.campaign_id.to_string()}</A> }
                });
                view! {
                    <tr>
                        <td data-label=t().date>{format::wire_date(lang, &r.date)}</td>
                        <td data-label=t().number>{r.destination}</td>
                        <td data-label=t().reply class="text">{r.message}</td>
                        <td data-label=t().campaign_word>{campaign}</td>
                    </tr>
                }
            })
        })
    };
    let set = move |day: RwSignal<String>, value: String| {
        day.set(value);
        paging.update(|p| p.start = 0);
    };
    view! {
        <h1>{move || t().replies_title}</h1>
        <form class="row filters" role="search" on:submit=|ev| ev.prevent_default()>
            <div class="field">
                <label for="replies-from">{move || t().from_day}</label>
                <input id="replies-from" type="date" required prop:value=move || from.get() on:change=move |ev| set(from, event_target_value(&ev)) />
            </div>
            <div class="field">
                <label for="replies-to">{move || t().to_day}</label>
                <input id="replies-to" type="date" required prop:value=move || to.get() on:change=move |ev| set(to, event_target_value(&ev)) />
            </div>
        </form>
        <ErrorAlert error=error />
        <div class="table-wrap">
            <table class="stack" data-testid="replies">
                <thead><tr>
                    <th scope="col">{move || t().date}</th><th scope="col">{move || t().number}</th>
                    <th scope="col">{move || t().reply}</th><th scope="col">{move || t().campaign_word}</th>
                </tr></thead>
                <tbody><Suspense fallback=move || view! { <tr><td colspan="4">{t().loading}</td></tr> }>{rows}</Suspense></tbody>
            </table>
        </div>
        <Pager paging total />
    }
}
