//! Contacts: the account's contacts (its cards and the numbers of its lists), searched and
//! filtered by tag, list, consent, segment, a field's value and engagement; each opens its page
//! (`card`).

pub mod card;

use leptos::prelude::*;
use leptos_router::components::A;
use texto_core::wire::{ContactCardDto, ContactCardsResponse, ListsResponse, SegmentsResponse};

use crate::{
    api::{Paging, use_api, with_query},
    components::{errors::ErrorAlert, pager::Pager, table::rows_or},
    format,
    i18n::{Lang, Texts, use_lang, use_texts},
};

/// Contacts per page.
const PAGE: i64 = 50;

/// A label in the current language.
type Label = fn(&'static Texts) -> &'static str;

/// The engagement filters, by their `engagement` query value.
const ENGAGEMENTS: [(&str, Label); 6] = [
    ("clicked", |t| t.rule_clicked),
    ("not_clicked", |t| t.never_clicked),
    ("delivered", |t| t.rule_delivered),
    ("not_delivered", |t| t.not_delivered_filter),
    ("replied", |t| t.rule_replied),
    ("not_replied", |t| t.never_replied),
];

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
    let (segment, field, value, engagement, days) = (
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
    );
    let segments = LocalResource::new(move || async move {
        api.get::<SegmentsResponse>("/segments").await.map(|a| a.segments).unwrap_or_default()
    });
    let lists = LocalResource::new(move || async move {
        api.get::<ListsResponse>(&with_query("/lists", Paging::first(1000), &[]))
            .await
            .map(|a| a.lists)
            .unwrap_or_default()
    });
    let page = LocalResource::new(move || {
        // A field filters once it has a value; a window, once an engagement is chosen.
        let (value, engagement) = (value.get().trim().to_owned(), engagement.get());
        let field = if value.is_empty() { String::new() } else { field.get().trim().to_owned() };
        let days = if engagement.is_empty() { String::new() } else { days.get() };
        let path = with_query(
            "/contacts",
            paging.get(),
            &[
                ("search", &search.get()),
                ("tag", tag.get().trim()),
                ("list", &list.get()),
                ("consent", &consent.get()),
                ("segment", &segment.get()),
                ("field", &field),
                ("value", &value),
                ("engagement", &engagement),
                ("days", &days),
            ],
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
            <details class="more-filters">
                <summary>{move || t().more_filters}</summary>
                <div class="row">
                    <div class="field">
                        <label for="contacts-segment">{move || t().segments_title}</label>
                        <select id="contacts-segment" on:change=move |ev| { segment.set(event_target_value(&ev)); reset(); }>
                            <option value="">{move || t().all}</option>
                            {move || segments.get().unwrap_or_default().into_iter().map(|s| view! { <option value=s.id.clone().unwrap_or_default()>{s.name.clone()}</option> }).collect_view()}
                        </select>
                    </div>
                    <div class="field">
                        <label for="contacts-field">{move || t().field_filter}</label>
                        <input id="contacts-field" type="text" size="8" placeholder="city" prop:value=move || field.get()
                            on:input=move |ev| { field.set(event_target_value(&ev)); reset(); } />
                    </div>
                    <div class="field">
                        <label for="contacts-value">{move || t().field_value}</label>
                        <input id="contacts-value" type="search" size="8" prop:value=move || value.get()
                            on:input=move |ev| { value.set(event_target_value(&ev)); reset(); } />
                    </div>
                    <div class="field">
                        <label for="contacts-engagement">{move || t().engagement}</label>
                        <select id="contacts-engagement" on:change=move |ev| { engagement.set(event_target_value(&ev)); reset(); }>
                            <option value="">{move || t().engagement_any}</option>
                            {move || ENGAGEMENTS.map(|(kind, label)| view! { <option value=kind>{label(t())}</option> }).collect_view()}
                        </select>
                    </div>
                    <div class="field">
                        <label for="contacts-days">{move || t().engagement_window}</label>
                        <select id="contacts-days" on:change=move |ev| { days.set(event_target_value(&ev)); reset(); }>
                            <option value="">{move || t().rule_ever}</option>
                            {[7, 30, 90].map(|n| view! { <option value=n.to_string()>{move || format!("{n} {}", t().rule_days)}</option> }).collect_view()}
                        </select>
                    </div>
                </div>
            </details>
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
