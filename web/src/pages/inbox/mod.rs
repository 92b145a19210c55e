//! Inbox: the numbers that wrote, newest first with their unread replies (filters: unread, a
//! keyword, search by number or text), and one conversation's timeline with an answer box.

mod conversation;

use leptos::prelude::*;
use leptos_router::components::A;
use texto_core::wire::ConversationsResponse;

pub use conversation::Conversation;

use crate::{
    api::{Paging, use_api, with_query},
    components::{errors::ErrorAlert, pager::Pager, table::rows_or},
    format,
    i18n::{use_lang, use_texts},
};

/// Conversations per page.
const PAGE: i64 = 50;

/// The inbox page.
#[component]
pub fn Inbox() -> impl IntoView {
    let (t, lang, api) = (use_texts(), use_lang(), use_api());
    let paging = RwSignal::new(Paging::first(PAGE));
    let unread_only = RwSignal::new(false);
    let search = RwSignal::new(String::new());
    let keyword = RwSignal::new(String::new());
    let page = LocalResource::new(move || {
        let unread = if unread_only.get() { "1" } else { "" };
        let path = with_query(
            "/conversations",
            paging.get(),
            &[("unread", unread), ("keyword", keyword.get().trim()), ("search", &search.get())],
        );
        async move { api.get::<ConversationsResponse>(&path).await }
    });
    let total = Signal::derive(move || page.get().and_then(Result::ok).map_or(0, |p| p.total_display_records));
    let error = Signal::derive(move || page.get().and_then(Result::err));
    let rows = move || {
        page.get().and_then(Result::ok).map(|answer| {
            rows_or(answer.conversations, 4, t().no_conversations, move |c| {
                let has_unread = c.unread > 0;
                let unread = has_unread
                    .then(|| view! { <strong class="badge">{format::integer(lang.get(), c.unread)}</strong> });
                view! {
                    <tr class:unread=has_unread>
                        <td data-label=t().number><A href=format!("/app/inbox/{}", c.number)>{c.number.clone()}</A></td>
                        <td data-label=t().reply class="text">{c.last_message}</td>
                        <td data-label=t().date>{format::wire_date(lang.get(), &c.last_date)}</td>
                        <td data-label=t().unread_column>{unread}</td>
                    </tr>
                }
            })
        })
    };
    view! {
        <h1>{move || t().inbox_title}</h1>
        <form class="row filters" role="search" on:submit=|ev| ev.prevent_default()>
            <div class="field grow">
                <label for="inbox-search">{move || t().inbox_search}</label>
                <input id="inbox-search" type="search" prop:value=move || search.get()
                    on:input=move |ev| { search.set(event_target_value(&ev)); paging.update(|p| p.start = 0); } />
            </div>
            <div class="field">
                <label for="inbox-keyword">{move || t().keyword_word}</label>
                <input id="inbox-keyword" type="search" size="10" prop:value=move || keyword.get()
                    on:input=move |ev| { keyword.set(event_target_value(&ev)); paging.update(|p| p.start = 0); } />
            </div>
            <label class="check">
                <input type="checkbox" prop:checked=move || unread_only.get()
                    on:change=move |ev| { unread_only.set(event_target_checked(&ev)); paging.update(|p| p.start = 0); } />
                {move || t().unread_only}
            </label>
        </form>
        <ErrorAlert error=error />
        <div class="table-wrap">
            <table class="stack" data-testid="conversations">
                <thead><tr>
                    <th scope="col">{move || t().number}</th><th scope="col">{move || t().reply}</th>
                    <th scope="col">{move || t().date}</th><th scope="col">{move || t().unread_column}</th>
                </tr></thead>
                <tbody><Suspense fallback=move || view! { <tr><td colspan="4">{t().loading}</td></tr> }>{rows}</Suspense></tbody>
            </table>
        </div>
        <Pager paging total />
    }
}
