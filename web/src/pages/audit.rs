//! Audit: who did what, when and from where, newest first, filtered by who and action, with
//! "Export CSV".

use leptos::{prelude::*, task::spawn_local};
use texto_core::wire::AuditResponse;

use crate::{
    api::{ApiError, Paging, use_api, with_query},
    components::{download::download_csv, errors::ErrorAlert, table::rows_or},
    format,
    i18n::{use_lang, use_texts},
};

/// The audit page.
#[component]
pub fn Audit() -> impl IntoView {
    let t = use_texts();
    let lang = use_lang();
    let api = use_api();
    let (actor, action) = (RwSignal::new(String::new()), RwSignal::new(String::new()));
    let path = move |base: &str| {
        let (who, what) = (actor.get(), action.get());
        with_query(base, Paging { start: 0, length: 200 }, &[("actor", who.trim()), ("action", what.trim())])
    };
    let lines = LocalResource::new(move || {
        let path = path("/audit");
        async move { api.get::<AuditResponse>(&path).await }
    });
    let load_error = Signal::derive(move || lines.get().and_then(Result::err));
    let export_error = RwSignal::new(None::<ApiError>);
    let export = move |_| {
        let path = path("/audit.csv");
        spawn_local(async move {
            match api.get_text(&path).await {
                Ok(text) => download_csv("audit.csv", &text),
                Err(e) => export_error.set(Some(e)),
            }
        });
    };
    let rows = move || {
        lines.get().and_then(Result::ok).map(|answer| {
            rows_or(answer.audit, 5, t().empty, move |line| {
                view! {
                    <tr>
                        <td data-label=t().date>{format::wire_date(lang.get_untracked(), &line.date)}</td>
                        <td data-label=t().audit_actor class="text">{line.actor}</td>
                        <td data-label=t().audit_action><code>{line.action}</code></td>
                        <td data-label=t().audit_summary class="text">{line.summary}</td>
                        <td data-label=t().audit_address>{line.address}</td>
                    </tr>
                }
            })
        })
    };
    view! {
        <h1>{move || t().audit_title}</h1>
        <div class="row filters">
            <div class="field">
                <label for="audit-actor">{move || t().audit_actor}</label>
                <input id="audit-actor" type="search" prop:value=move || actor.get() on:change=move |ev| actor.set(event_target_value(&ev)) />
            </div>
            <div class="field">
                <label for="audit-action">{move || t().audit_action}</label>
                <input id="audit-action" type="search" placeholder="campaign" prop:value=move || action.get() on:change=move |ev| action.set(event_target_value(&ev)) />
            </div>
            <button type="button" on:click=export>{move || t().export_csv}</button>
        </div>
        <ErrorAlert error=load_error />
        <ErrorAlert error=export_error />
        <div class="table-wrap">
            <table class="stack">
                <thead><tr>
                    <th scope="col">{move || t().date}</th><th scope="col">{move || t().audit_actor}</th>
                    <th scope="col">{move || t().audit_action}</th><th scope="col">{move || t().audit_summary}</th>
                    <th scope="col">{move || t().audit_address}</th>
                </tr></thead>
                <tbody><Suspense fallback=move || view! { <tr><td colspan="5">{t().loading}</td></tr> }>{rows}</Suspense></tbody>
            </table>
        </div>
    }
}
