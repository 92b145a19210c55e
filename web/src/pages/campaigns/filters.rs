//! The filters of the campaign history: a date range, a text search, a number search and
//! "Awaiting approval", sent as the `date_start`, `date_end`, `text`, `destination` and
//! `approval` of `GET /campaigns`.

use leptos::prelude::*;

use crate::{api::Paging, i18n::use_texts};

/// What the user filters the history by; empty fields do not narrow it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HistoryFilters {
    /// First day (`Y-m-d`, Paris), from the date picker.
    pub from: String,
    /// Last day, included.
    pub to: String,
    /// Text the message contains.
    pub text: String,
    /// A number the campaign was sent to.
    pub number: String,
    /// `awaiting`: only the campaigns that wait for approval; empty: all.
    pub approval: String,
}

impl HistoryFilters {
    /// The query parameters of `GET /campaigns` for these filters.
    pub fn query(&self) -> [(&'static str, &str); 5] {
        [
            ("date_start", &self.from),
            ("date_end", &self.to),
            ("text", &self.text),
            ("destination", &self.number),
            ("approval", &self.approval),
        ]
    }
}

/// The filter fields; each change goes back to the first page.
#[component]
pub fn FilterFields(filters: RwSignal<HistoryFilters>, paging: RwSignal<Paging>) -> impl IntoView {
    let t = use_texts();
    let set = move |change: fn(&mut HistoryFilters, String), value: String| {
        filters.update(|f| change(f, value));
        paging.update(|p| p.start = 0);
    };
    view! {
        <form class="row filters" role="search" on:submit=|ev| ev.prevent_default()>
            <div class="field">
                <label for="history-from">{move || t().from_day}</label>
                <input id="history-from" type="date" prop:value=move || filters.get().from
                    on:change=move |ev| set(|f, v| f.from = v, event_target_value(&ev)) />
            </div>
            <div class="field">
                <label for="history-to">{move || t().to_day}</label>
                <input id="history-to" type="date" prop:value=move || filters.get().to
                    on:change=move |ev| set(|f, v| f.to = v, event_target_value(&ev)) />
            </div>
            <div class="field grow">
                <label for="history-text">{move || t().search_text}</label>
                <input id="history-text" type="search" prop:value=move || filters.get().text
                    on:input=move |ev| set(|f, v| f.text = v, event_target_value(&ev)) />
            </div>
            <div class="field">
                <label for="history-number">{move || t().search_number}</label>
                <input id="history-number" type="search" inputmode="tel" prop:value=move || filters.get().number
                    on:input=move |ev| set(|f, v| f.number = v, event_target_value(&ev)) />
            </div>
            <div class="field">
                <label for="history-approval">{move || t().status}</label>
                <select id="history-approval" on:change=move |ev| set(|f, v| f.approval = v, event_target_value(&ev))>
                    <option value="" selected=move || filters.get().approval.is_empty()>{move || t().all_campaigns}</option>
                    <option value="awaiting" selected=move || !filters.get().approval.is_empty()>{move || t().awaiting_approval}</option>
                </select>
            </div>
        </form>
    }
}
