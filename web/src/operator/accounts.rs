//! Accounts: every customer account with its balance, plan, moderation, limit, webhook backlog
//! and state; "Manage" opens one ([`super::account_card::Manage`]); a form creates one.

use gloo_net::http::Method;
use leptos::{prelude::*, task::spawn_local};
use texto_core::wire::{
    CreatedResponse, Format, ModerationResponse, NewOperatorAccountRequest, OperatorAccountDto,
    OperatorAccountsResponse, PlansResponse, encode,
};

use super::{
    account_card::Manage,
    client::{use_console, use_op_texts},
    plans::plan_options,
};
use crate::{
    api::ApiError,
    components::{errors::ErrorAlert, field::TextField, table::rows_or},
    format,
    i18n::use_lang,
};

/// The accounts page.
#[component]
pub fn Accounts() -> impl IntoView {
    let (t, console) = (use_op_texts(), use_console());
    let version = RwSignal::new(0u32);
    let list = LocalResource::new(move || {
        version.track();
        async move { console.get::<OperatorAccountsResponse>("/operator/accounts").await }
    });
    let plans = LocalResource::new(move || async move {
        console.get::<PlansResponse>("/operator/plans").await.map(|p| p.plans).unwrap_or_default()
    });
    let plans = Signal::derive(move || plans.get().unwrap_or_default());
    let selected = RwSignal::new(None::<i64>);
    let load_error = Signal::derive(move || list.get().and_then(Result::err));
    let accounts = Signal::derive(move || list.get().and_then(Result::ok).map(|a| a.accounts).unwrap_or_default());
    let rows = move || {
        list.get().and_then(Result::ok).map(|answer| {
            let all = answer.accounts.clone();
            rows_or(answer.accounts, 8, t().empty, move |account| {
                let parent = account.parent.and_then(|p| all.iter().find(|a| a.id == p)).map(|p| p.name.clone());
                view! { <Row account parent selected /> }
            })
        })
    };
    let chosen = move || selected.get().and_then(|id| accounts.get().into_iter().find(|a| a.id == id));
    view! {
        <h1>{move || t().accounts_title}</h1>
        <p class="hint">{move || t().accounts_intro}</p>
        <ErrorAlert error=load_error />
        <div class="table-wrap">
            <table class="stack" data-testid="accounts">
                <thead><tr>
                    <th scope="col">{move || t().name}</th>
                    <th scope="col">{move || t().credits}</th>
                    <th scope="col">{move || t().plan}</th>
                    <th scope="col">{move || t().moderated}</th>
                    <th scope="col">{move || t().limit}</th>
                    <th scope="col">{move || t().backlog}</th>
                    <th scope="col">{move || t().state}</th>
                    <th scope="col">{move || t().actions}</th>
                </tr></thead>
                <tbody><Suspense fallback=move || view! { <tr><td colspan="8">{t().loading}</td></tr> }>{rows}</Suspense></tbody>
            </table>
        </div>
        {move || chosen().map(|account| view! { <Manage account plans version /> })}
        <CreateForm plans version />
    }
}

/// One account's line.
#[component]
fn Row(account: OperatorAccountDto, parent: Option<String>, selected: RwSignal<Option<i64>>) -> impl IntoView {
    let (t, lang) = (use_op_texts(), use_lang());
    let id = account.id;
    let flag = move |on: bool| if on { t().yes } else { t().no };
    let limit =
        account.per_second.map_or_else(|| t().no_limit.to_owned(), |n| format::integer(lang.get_untracked(), n));
    let suspended = account.suspended == 1;
    let open = move |_| {
        selected.set(Some(id));
        request_animation_frame(|| super::focus("manage-heading"));
    };
    view! {
        <tr>
            <td data-label=t().name class="text">
                {account.name.clone()}
                {parent.map(|p| view! { <span class="hint">" · "{t().sub_account_of}" "{p}</span> })}
            </td>
            <td data-label=t().credits>{format::credits(lang.get_untracked(), account.credits)}</td>
            <td data-label=t().plan class="text">{account.plan.clone()}</td>
            <td data-label=t().moderated>{flag(account.moderated == 1)}</td>
            <td data-label=t().limit>{limit}</td>
            <td data-label=t().backlog>{format::integer(lang.get_untracked(), account.webhook_backlog)}</td>
            <td data-label=t().state>
                {if suspended {
                    view! { <span class="badge failing">{t().suspended}</span> }.into_any()
                } else {
                    view! { <span class="badge live">{t().active}</span> }.into_any()
                }}
            </td>
            <td data-label=t().actions class="actions">
                <button type="button" class="small" aria-label=format!("{} {}", t().manage, account.name) on:click=open>{t().manage}</button>
            </td>
        </tr>
    }
}

/// "New account": its name, opening credits, plan and moderation.
#[component]
fn CreateForm(plans: Signal<Vec<String>>, version: RwSignal<u32>) -> impl IntoView {
    let (t, console) = (use_op_texts(), use_console());
    let (name, credits, plan) =
        (RwSignal::new(String::new()), RwSignal::new(String::new()), RwSignal::new(String::new()));
    let moderated = RwSignal::new(false);
    // Ticked when new accounts are moderated by default (`texto moderation new-accounts on`).
    spawn_local(async move {
        if let Ok(answer) = console.get::<ModerationResponse>("/operator/moderation").await {
            moderated.set(answer.new_accounts_moderated == 1);
        }
    });
    let (error, created) = (RwSignal::new(None::<ApiError>), RwSignal::new(None::<String>));
    let create = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let amount = credits.get_untracked().trim().replace(',', ".");
        let request = NewOperatorAccountRequest {
            name: Some(name.get_untracked()),
            credits: if amount.is_empty() { None } else { Some(amount.parse().unwrap_or(f64::NAN)) },
            moderated: Some(i64::from(moderated.get_untracked())),
            plan: Some(plan.get_untracked()).filter(|p| !p.is_empty()),
        };
        spawn_local(async move {
            let body = Some(encode(&request, Format::Json));
            match console.call::<CreatedResponse>(Method::POST, "/operator/accounts", body).await {
                Ok(_) => {
                    error.set(None);
                    created.set(Some(name.get_untracked()));
                    name.set(String::new());
                    credits.set(String::new());
                    version.update(|v| *v += 1);
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    view! {
        <section class="card">
            <h2>{move || t().new_account}</h2>
            <form on:submit=create>
                <div class="row">
                    <div class="field grow"><TextField id="new-name" label=Signal::derive(move || t().name) value=name error field="name" autocomplete="off" required=true /></div>
                    <div class="field"><TextField id="new-credits" label=Signal::derive(move || t().opening_credits) value=credits error field="credits" inputmode="decimal" autocomplete="off" /></div>
                    <div class="field">
                        <label for="new-plan">{move || t().plan}</label>
                        <select id="new-plan" on:change=move |ev| plan.set(event_target_value(&ev))>
                            {move || plan_options(plans.get(), "shipped")}
                        </select>
                    </div>
                </div>
                <label class="check">
                    <input type="checkbox" prop:checked=move || moderated.get() on:change=move |ev| moderated.set(event_target_checked(&ev)) />
                    {move || t().moderated_label}
                </label>
                <ErrorAlert error=error />
                {move || created.get().map(|name| view! { <p role="status">{format!("{} {name}", t().account_created)}</p> })}
                <button type="submit" class="primary">{move || t().create_account}</button>
            </form>
        </section>
    }
}
