//! Contacts: the account's contacts (its cards and the numbers of its lists), searched and
//! filtered by tag, list and consent; each opens its page (`card`).

pub mod card;

use leptos::prelude::*;
use leptos_router::components::A;
use texto_core::wire::{ContactCardDto, ContactCardsResponse, ListsResponse};

use crate::{
    api::{Paging, use_api, with_query},
    components::{errors::ErrorAlert, pager::Pager, table::rows_or},
    format,
    i18n::{Lang, Texts, use_lang, use_texts},
};

/// Contacts per page.
const PAGE: i64 = 50;

/// A contact's consent in words.
pub(crate) fn consent_label(t: &'static Texts, lang: Lang, contact: &ContactCardDto) -> String {
    let consent = contact.consent.clone().unwrap_or_default();
    match (consent.opt_in_date, consent.opt_out_date) {
        (_, Some(out)) => format!("{} {}", t.opted_out_on, format::wire_date(lang, &out)),
        (Some(date), None) => format!("{} {}", t.opted_in_on, format::wire_date(lang, &date)),
        (None, None) => t.no_consent.to_owned(),
    }
}

/// The contacts page.
#[component]
pub fn Contacts() -> impl IntoView {
    let (t, lang, api) = (use_texts(), use_lang(), use_api());
    let paging = RwSignal::new(Paging::first(PAGE));
    let (search, tag, list, consent) = (
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
    );
    let lists = LocalResource::new(move || async move {
        api.get::<ListsResponse>(&with_query("/lists", Paging::first(1000), &[]))
            .await
            .map(|a| a.lists)
            .unwrap_or_default()
    });
    let page = LocalResource::new(move || {
        let path = with_query(
            "/contacts",
            paging.get(),
            &[("search", &search.get()), ("tag", tag.get().trim()), ("list", &list.get()), ("consent", &consent.get())],
        );
        async move { api.get::<ContactCardsResponse>(&path).await }
    });
    let total = Signal::derive(move || page.get().and_then(Result::ok).map_or(0, |p| p.total_records));
    let error = Signal::derive(move || page.get().and_then(Result::err));
    let reset = move || paging.update(|p| p.start = 0);
    let rows = move || {
        page.get().and_then(Result::ok).map(|answer| {
            rows_or(answer.contacts, 4, t().no_contacts, move |c| {
                let number = c.number.clone().unwrap_or_default();
                let name =
                    format!("{} {}", c.firstname.clone().unwrap_or_default(), c.lastname.clone().unwrap_or_default());
                let tags = c.tags.clone().unwrap_or_default().join(", ");
                let consent = consent_label(t(), lang.get(), &c);
                view! {
                    <tr>
                        <td data-label=t().number><A href=format!("/app/contacts/{number}")>{number.clone()}</A></td>
                        <td data-label=t().contact_name class="text">{name.trim().to_owned()}</td>
                        <td data-label=t().contact_tags class="text">{tags}</td>
                        <td data-label=t().consent class="text">{consent}</td>
                    </tr>
                }
            })
        })
    };
    view! {
        <h1>{move || t().contacts_title}</h1>
        <form class="row filters" role="search" on:submit=|ev| ev.prevent_default()>
            <div class="field grow">
                <label for="contacts-search">{move || t().contacts_search}</label>
                <input id="contacts-search" type="search" prop:value=move || search.get()
                    on:input=move |ev| { search.set(event_target_value(&ev)); reset(); } />
            </div>
            <div class="field">
                <label for="contacts-tag">{move || t().contact_tag}</label>
                <input id="contacts-tag" type="search" size="10" prop:value=move || tag.get()
                    on:input=move |ev| { tag.set(event_target_value(&ev)); reset(); } />
            </div>
            <div class="field">
                <label for="contacts-list">{move || t().keyword_list}</label>
                <select id="contacts-list" on:change=move |ev| { list.set(event_target_value(&ev)); reset(); }>
                    <option value="">{move || t().all}</option>
                    {move || lists.get().unwrap_or_default().into_iter().map(|l| view! { <option value=l.id.clone()>{l.name.clone()}</option> }).collect_view()}
                </select>
            </div>
            <div class="field">
                <label for="contacts-consent">{move || t().consent}</label>
                <select id="contacts-consent" on:change=move |ev| { consent.set(event_target_value(&ev)); reset(); }>
                    <option value="">{move || t().all}</option>
                    <option value="1">{move || t().with_consent}</option>
                    <option value="0">{move || t().without_consent}</option>
                </select>
            </div>
        </form>
        <ErrorAlert error=error />
        <div class="table-wrap">
            <table class="stack" data-testid="contacts">
                <thead><tr>
                    <th scope="col">{move || t().number}</th><th scope="col">{move || t().contact_name}</th>
                    <th scope="col">{move || t().contact_tags}</th><th scope="col">{move || t().consent}</th>
                </tr></thead>
                <tbody><Suspense fallback=move || view! { <tr><td colspan="4">{t().loading}</td></tr> }>{rows}</Suspense></tbody>
            </table>
        </div>
        <Pager paging total />
    }
}
