//! One account, managed: its plan, moderation and limit; credits added; its registered
//! senders; suspension; and its ledger.

use gloo_net::http::Method;
use leptos::{prelude::*, task::spawn_local};
use texto_core::wire::{
    Format, LedgerLineDto, LedgerResponse, OperatorAccountChange, OperatorAccountDto, StatusResponse, TopUpRequest,
    encode,
};

use super::{
    client::{use_console, use_op_texts},
    plans::plan_options,
};
use crate::{
    api::ApiError,
    components::{errors::ErrorAlert, field::TextField, table::rows_or},
    format,
    i18n::use_lang,
};

/// The "Manage" card of `account`; `version` is bumped after each change.
#[component]
pub fn Manage(account: OperatorAccountDto, plans: Signal<Vec<String>>, version: RwSignal<u32>) -> impl IntoView {
    let (t, console) = (use_op_texts(), use_console());
    let id = account.id;
    let (ledger_version, page) = (RwSignal::new(0u32), RwSignal::new(1i64));
    let ledger = LocalResource::new(move || {
        ledger_version.track();
        version.track();
        let page = page.get();
        async move { console.get::<LedgerResponse>(&format!("/operator/account/{id}/ledger?page={page}")).await }
    });
    let more = move || ledger.get().and_then(Result::ok).is_some_and(|answer| answer.more == 1);
    let plan = RwSignal::new(account.plan.clone());
    let moderated = RwSignal::new(account.moderated == 1);
    let limit = RwSignal::new(account.per_second.map(|n| n.to_string()).unwrap_or_default());
    let (error, saved) = (RwSignal::new(None::<ApiError>), RwSignal::new(false));
    let save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let limit = limit.get_untracked().trim().to_owned();
        let change = OperatorAccountChange {
            plan: Some(plan.get_untracked()),
            moderated: Some(i64::from(moderated.get_untracked())),
            per_second: Some(if limit.is_empty() { 0 } else { limit.parse().unwrap_or(-1) }),
        };
        spawn_local(async move {
            let done = console.send(Method::PUT, &format!("/operator/account/{id}"), Some(&change)).await;
            saved.set(done.is_ok());
            error.set(done.err());
            version.update(|v| *v += 1);
        });
    };
    let suspended = account.suspended == 1;
    let (standing_error, name) = (RwSignal::new(None::<ApiError>), account.name.clone());
    let toggle = move |_| {
        let action = if suspended { "restore" } else { "suspend" };
        spawn_local(async move {
            let done =
                console.send::<StatusResponse>(Method::POST, &format!("/operator/account/{id}/{action}"), None).await;
            standing_error.set(done.err());
            version.update(|v| *v += 1);
        });
    };
    view! {
        <section class="card" aria-labelledby="manage-heading" data-testid="manage">
            <h2 id="manage-heading" tabindex="-1">{move || t().manage_title}" "{name.clone()}</h2>
            <h3>{move || t().settings_title}</h3>
            <form on:submit=save>
                <div class="row">
                    <div class="field">
                        <label for="manage-plan">{move || t().plan}</label>
                        <select id="manage-plan" on:change=move |ev| plan.set(event_target_value(&ev))>
                            {move || plan_options(plans.get(), &plan.get_untracked())}
                        </select>
                    </div>
                    <div class="field">
                        <TextField id="manage-limit" label=Signal::derive(move || t().limit) value=limit error field="per_second" inputmode="numeric" autocomplete="off" />
                    </div>
                </div>
                <p class="hint">{move || t().limit_hint}</p>
                <label class="check">
                    <input type="checkbox" prop:checked=move || moderated.get() on:change=move |ev| moderated.set(event_target_checked(&ev)) />
                    {move || t().moderated_label}
                </label>
                <ErrorAlert error=error />
                <Show when=move || saved.get()><p role="status">{move || t().saved}</p></Show>
                <button type="submit" class="primary">{move || t().save}</button>
            </form>
            <TopUp id ledger_version page />
            <super::account_senders::AccountSenders id />
            <h3>{move || t().suspend_title}</h3>
            <p class="hint">{move || t().suspend_intro}</p>
            <ErrorAlert error=standing_error />
            <button type="button" class=if suspended { "primary" } else { "danger" } on:click=toggle>
                {move || if suspended { t().restore } else { t().suspend }}
            </button>
            <h3>{move || t().ledger_title}</h3>
            <div class="table-wrap">
                <table class="stack" data-testid="ledger">
                    <thead><tr>
                        <th scope="col">{move || t().date}</th>
                        <th scope="col">{move || t().kind}</th>
                        <th scope="col">{move || t().amount}</th>
                        <th scope="col">{move || t().campaign}</th>
                    </tr></thead>
                    <tbody>
                        <Suspense fallback=move || view! { <tr><td colspan="4">{t().loading}</td></tr> }>
                            {move || ledger.get().and_then(Result::ok).map(|answer| rows_or(answer.ledger, 4, t().empty, |line| view! { <LedgerRow line /> }))}
                        </Suspense>
                    </tbody>
                </table>
            </div>
            <div class="pager">
                <button type="button" disabled=move || page.get() == 1 on:click=move |_| page.update(|p| *p = (*p - 1).max(1))>
                    {move || t().newer}
                </button>
                <span aria-live="polite">{move || format!("{} {}", t().page, page.get())}</span>
                <button type="button" disabled=move || !more() on:click=move |_| page.update(|p| *p += 1)>
                    {move || t().older}
                </button>
            </div>
        </section>
    }
}

/// "Add credits" (then the ledger's first page, where the top-up is).
#[component]
fn TopUp(id: i64, ledger_version: RwSignal<u32>, page: RwSignal<i64>) -> impl IntoView {
    let (t, console) = (use_op_texts(), use_console());
    let amount = RwSignal::new(String::new());
    let error = RwSignal::new(None::<ApiError>);
    let add = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let request = TopUpRequest { credits: amount.get_untracked().trim().replace(',', ".").parse().ok() };
        spawn_local(async move {
            let body = Some(encode(&request, Format::Json));
            match console.call::<LedgerResponse>(Method::POST, &format!("/operator/account/{id}/credits"), body).await {
                Ok(_) => {
                    error.set(None);
                    amount.set(String::new());
                    page.set(1);
                    ledger_version.update(|v| *v += 1);
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    view! {
        <h3>{move || t().top_up_title}</h3>
        <form class="row" on:submit=add>
            <div class="field"><TextField id="top-up" label=Signal::derive(move || t().credits_to_add) value=amount error field="credits" inputmode="decimal" autocomplete="off" required=true /></div>
            <button type="submit">{move || t().add_credits}</button>
        </form>
        <ErrorAlert error=error />
    }
}

/// One movement.
#[component]
fn LedgerRow(line: LedgerLineDto) -> impl IntoView {
    let (t, lang) = (use_op_texts(), use_lang());
    let kind = match line.kind.as_str() {
        "topup" => t().kind_topup,
        "debit" => t().kind_debit,
        "refund" => t().kind_refund,
        _ => t().kind_transfer,
    };
    view! {
        <tr>
            <td data-label=t().date>{line.date.clone()}</td>
            <td data-label=t().kind class="text">{kind}</td>
            <td data-label=t().amount>{format::credits(lang.get_untracked(), line.amount)}</td>
            <td data-label=t().campaign>{line.campaign.map(|c| c.to_string()).unwrap_or_default()}</td>
        </tr>
    }
}
