//! The moderation page: held campaigns, oldest first, each released or refused with a reason;
//! then the rules that hold them.

use gloo_net::http::Method;
use leptos::{prelude::*, task::spawn_local};
use texto_core::wire::{HeldCampaignDto, ModerationResponse, RejectRequest, StatusResponse};

use super::{
    client::{use_console, use_op_texts},
    moderation_rules::Rules,
};
use crate::{
    api::ApiError,
    components::{errors::ErrorAlert, table::rows_or},
    format,
    i18n::use_lang,
};

/// The moderation page.
#[component]
pub fn Queue() -> impl IntoView {
    let (t, console) = (use_op_texts(), use_console());
    let version = RwSignal::new(0u32);
    let list = LocalResource::new(move || {
        version.track();
        async move { console.get::<ModerationResponse>("/operator/moderation").await }
    });
    let load_error = Signal::derive(move || list.get().and_then(Result::err));
    let rows = move || {
        list.get()
            .and_then(Result::ok)
            .map(|answer| rows_or(answer.campaigns, 7, t().queue_empty, move |held| view! { <HeldRow held version /> }))
    };
    view! {
        <h1>{move || t().moderation_title}</h1>
        <p class="hint">{move || t().moderation_intro}</p>
        <ErrorAlert error=load_error />
        <div class="table-wrap">
            <table class="stack" data-testid="moderation">
                <thead><tr>
                    <th scope="col">{move || t().ticket}</th>
                    <th scope="col">{move || t().account}</th>
                    <th scope="col">{move || t().date}</th>
                    <th scope="col">{move || t().recipients}</th>
                    <th scope="col">{move || t().reason_held}</th>
                    <th scope="col">{move || t().text}</th>
                    <th scope="col">{move || t().actions}</th>
                </tr></thead>
                <tbody><Suspense fallback=move || view! { <tr><td colspan="7">{t().loading}</td></tr> }>{rows}</Suspense></tbody>
            </table>
        </div>
        <Rules list version />
    }
}

/// One held campaign, with "Release" and "Refuse" (and the reason told to its sender).
#[component]
fn HeldRow(held: HeldCampaignDto, version: RwSignal<u32>) -> impl IntoView {
    let (t, console, lang) = (use_op_texts(), use_console(), use_lang());
    let reason = RwSignal::new(String::new());
    let error = RwSignal::new(None::<ApiError>);
    let ticket = held.ticket.clone();
    let release = {
        let path = format!("/operator/campaign/{ticket}/release");
        move |_| {
            let path = path.clone();
            spawn_local(async move {
                let done = console.send::<StatusResponse>(Method::POST, &path, None).await;
                error.set(done.err());
                version.update(|v| *v += 1);
            });
        }
    };
    let refuse = {
        let path = format!("/operator/campaign/{ticket}/refuse");
        move |ev: leptos::ev::SubmitEvent| {
            ev.prevent_default();
            let (path, request) = (path.clone(), RejectRequest { reason: Some(reason.get_untracked()) });
            spawn_local(async move {
                let done = console.send(Method::POST, &path, Some(&request)).await;
                error.set(done.err());
                version.update(|v| *v += 1);
            });
        }
    };
    let reason_id = format!("refuse-{ticket}");
    view! {
        <tr data-ticket=ticket.clone()>
            <td data-label=t().ticket>{ticket.clone()}</td>
            <td data-label=t().account class="text">{held.account.clone()}</td>
            <td data-label=t().date>{held.date.clone()}</td>
            <td data-label=t().recipients>{format::integer(lang.get_untracked(), held.recipients)}</td>
            <td data-label=t().reason_held class="text">{held.reason.clone()}</td>
            <td data-label=t().text class="text">{held.text.clone()}</td>
            <td data-label=t().actions class="actions">
                <button type="button" class="small primary" aria-label=format!("{} {ticket}", t().release) on:click=release>{t().release}</button>
                <form class="inline" on:submit=refuse>
                    <input id=reason_id.clone() type="text" required placeholder=t().reason_placeholder aria-label=format!("{} {ticket}", t().refusal_reason)
                        prop:value=move || reason.get() on:input=move |ev| reason.set(event_target_value(&ev)) />
                    <button type="submit" class="small danger">{t().refuse}</button>
                </form>
                <ErrorAlert error=error />
            </td>
        </tr>
    }
}
