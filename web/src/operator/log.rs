//! The operators' log: what operators did, newest first (the last 100 lines).

use leptos::prelude::*;
use texto_core::wire::{AuditEntryDto, AuditResponse};

use super::client::{use_console, use_op_texts};
use crate::components::{errors::ErrorAlert, table::rows_or};

/// The log page.
#[component]
pub fn Log() -> impl IntoView {
    let (t, console) = (use_op_texts(), use_console());
    let list =
        LocalResource::new(move || async move { console.get::<AuditResponse>("/operator/audit?length=100").await });
    let load_error = Signal::derive(move || list.get().and_then(Result::err));
    let rows = move || {
        list.get()
            .and_then(Result::ok)
            .map(|answer| rows_or(answer.audit, 5, t().empty, |line| view! { <Line line /> }))
    };
    view! {
        <h1>{move || t().log_title}</h1>
        <p class="hint">{move || t().log_intro}</p>
        <ErrorAlert error=load_error />
        <div class="table-wrap">
            <table class="stack" data-testid="log">
                <thead><tr>
                    <th scope="col">{move || t().date}</th>
                    <th scope="col">{move || t().who}</th>
                    <th scope="col">{move || t().action}</th>
                    <th scope="col">{move || t().object}</th>
                    <th scope="col">{move || t().summary}</th>
                </tr></thead>
                <tbody><Suspense fallback=move || view! { <tr><td colspan="5">{t().loading}</td></tr> }>{rows}</Suspense></tbody>
            </table>
        </div>
    }
}

/// One line of the log.
#[component]
fn Line(line: AuditEntryDto) -> impl IntoView {
    let t = use_op_texts();
    view! {
        <tr>
            <td data-label=t().date>{line.date}</td>
            <td data-label=t().who class="text">{line.actor}</td>
            <td data-label=t().action class="text">{line.action}</td>
            <td data-label=t().object class="text">{line.object}</td>
            <td data-label=t().summary class="text">{line.summary}</td>
        </tr>
    }
}
