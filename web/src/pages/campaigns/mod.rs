//! Campaign history with filters and paging, and one campaign's detail.

mod ab_results;
mod approval;
mod detail;
mod drafts;
mod filters;
mod hours;
mod messages;
mod report;

use leptos::prelude::*;
use leptos_router::components::A;
use texto_core::wire::CampaignsResponse;

pub use detail::CampaignDetail;
use filters::{FilterFields, HistoryFilters};

use crate::{
    api::{Paging, use_api, with_query},
    components::{errors::ErrorAlert, pager::Pager, table::rows_or},
    format,
    i18n::{Lang, use_lang, use_texts},
};

/// Campaigns per page.
const PAGE: i64 = 20;

/// The status label of the interface in the user's language.
pub fn status_label(lang: Lang, status: &str) -> &'static str {
    let t = lang.texts();
    match status.to_ascii_lowercase().as_str() {
        "scheduled" => t.status_scheduled,
        "sending" => t.status_sending,
        "cancelled" => t.status_cancelled,
        "paused" => t.status_paused,
        "awaiting approval" => t.awaiting_approval,
        "awaiting moderation" => t.awaiting_moderation,
        _ => t.status_sent,
    }
}

/// The history.
#[component]
pub fn Campaigns() -> impl IntoView {
    let t = use_texts();
    let lang = use_lang();
    let api = use_api();
    let paging = RwSignal::new(Paging::first(PAGE));
    let filters = RwSignal::new(HistoryFilters::default());
    let page = LocalResource::new(move || {
        let filters = filters.get();
        let path = with_query("/campaigns", paging.get(), &filters.query());
        async move { api.get::<CampaignsResponse>(&path).await }
    });
    let total = Signal::derive(move || page.get().and_then(|p| p.ok()).map_or(0, |p| p.total_records));
    let error = Signal::derive(move || page.get().and_then(Result::err));
    let rows = move || {
        page.get().and_then(Result::ok).map(|answer| {
            rows_or(answer.campaigns, 7, t().empty, |c| {
                let lang = lang.get();
                view! {
                    <tr>
                        <td data-label=t().date><A href=format!("/app/campaigns/{}", c.id)>{format::wire_date(lang, &c.date)}</A></td>
                        <td data-label=t().status>{status_label(lang, &c.status)}</td>
                        <td data-label=t().total class="num">{format::integer(lang, c.total.unwrap_or(0))}</td>
                        <td data-label=t().sent class="num">{format::integer(lang, c.sent.unwrap_or(0))}</td>
                        <td data-label=t().cost class="num">{format::credits(lang, c.cost)}</td>
                        <td data-label=t().delivered_pct class="num">{format::percent(lang, c.delivery_rate)}</td>
                        <td data-label=t().text class="text">{c.text}</td>
                    </tr>
                }
            })
        })
    };
    view! {
        <h1>{move || t().campaigns_title}</h1>
        <p><A href="/app/compose">{move || t().new_campaign}</A></p>
        <drafts::Drafts />
        <h2>{move || t().history}</h2>
        <FilterFields filters paging />
        <ErrorAlert error=error />
        <div class="table-wrap">
            <table class="campaigns stack">
                <thead>
                    <tr>
                        <th scope="col">{move || t().date}</th>
                        <th scope="col">{move || t().status}</th>
                        <th scope="col" class="num">{move || t().total}</th>
                        <th scope="col" class="num">{move || t().sent}</th>
                        <th scope="col" class="num">{move || t().cost}</th>
                        <th scope="col" class="num">{move || t().delivered_pct}</th>
                        <th scope="col">{move || t().text}</th>
                    </tr>
                </thead>
                <tbody>
                    <Suspense fallback=move || view! { <tr><td colspan="7">{t().loading}</td></tr> }>{rows}</Suspense>
                </tbody>
            </table>
        </div>
        <Pager paging total />
    }
}
