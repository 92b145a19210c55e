//! Sub-accounts: an agency's clients, each in a space of its own, with their balance and this
//! month's and last month's messages; "Move credits" to one, and a form to create one with its
//! first owner. Switching into one is the header's account switcher.

use leptos::{prelude::*, task::spawn_local};
use texto_core::{
    Action,
    wire::{
        AccountCreatedResponse, CreditsTransferRequest, CreditsTransferResponse, NewAccountDto, NewAccountRequest,
        SubAccountDto, SubAccountsResponse,
    },
};

use crate::{
    api::{ApiError, use_api},
    components::{errors::ErrorAlert, field::TextField, table::rows_or},
    format,
    i18n::{use_lang, use_texts},
    session::use_session,
};

/// The sub-accounts page.
#[component]
pub fn SubAccounts() -> impl IntoView {
    let t = use_texts();
    let api = use_api();
    let session = use_session();
    let version = RwSignal::new(0u32);
    let list = LocalResource::new(move || {
        version.track();
        async move { api.get::<SubAccountsResponse>("/sub-accounts").await }
    });
    let load_error = Signal::derive(move || list.get().and_then(Result::err));
    let manages = move || session.may(Action::Manage);
    let rows = move || {
        list.get().and_then(Result::ok).map(|answer| {
            rows_or(answer.sub_accounts, 6, t().no_sub_accounts, move |account| view! { <Row account version /> })
        })
    };
    view! {
        <h1>{move || t().sub_accounts_title}</h1>
        <p class="hint">{move || t().sub_accounts_intro}</p>
        <ErrorAlert error=load_error />
        <div class="table-wrap">
            <table class="stack">
                <thead><tr>
                    <th scope="col">{move || t().sub_account_name}</th>
                    <th scope="col">{move || t().sign_in_email}</th>
                    <th scope="col">{move || t().credits}</th>
                    <th scope="col">{move || t().this_month}</th>
                    <th scope="col">{move || t().last_month}</th>
                    <Show when=manages><th scope="col">{move || t().move_credits}</th></Show>
                </tr></thead>
                <tbody><Suspense fallback=move || view! { <tr><td colspan="6">{t().loading}</td></tr> }>{rows}</Suspense></tbody>
            </table>
        </div>
        <Show when=manages><CreateForm version /></Show>
    }
}

/// One sub-account's line, with its "Move credits" form for those who manage the account.
#[component]
fn Row(account: SubAccountDto, version: RwSignal<u32>) -> impl IntoView {
    let (t, lang, api, session) = (use_texts(), use_lang(), use_api(), use_session());
    let amount = RwSignal::new(String::new());
    let error = RwSignal::new(None::<ApiError>);
    let id = account.client_id.clone();
    let field_id = format!("move-{id}");
    let label = format!("{} {}", t().credits_to_move, account.company);
    let balance = account.credits.parse::<f64>().unwrap_or(0.0);
    let unlimited = account.unlimited == 1;
    let send = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let credits = amount.get_untracked().trim().replace(',', ".").parse::<f64>().ok();
        let request = CreditsTransferRequest { credits };
        let path = format!("/sub-accounts/{id}/credits");
        spawn_local(async move {
            match api.post::<_, CreditsTransferResponse>(&path, &request).await {
                Ok(answer) => {
                    error.set(None);
                    amount.set(String::new());
                    session.credits.set(answer.parent_credits.parse().ok());
                    version.update(|v| *v += 1);
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    view! {
        <tr>
            <td data-label=t().sub_account_name class="text">{account.company.clone()}</td>
            <td data-label=t().sign_in_email class="text">{account.email.clone()}</td>
            <td data-label=t().credits>
                {format::credits(lang.get_untracked(), balance)}
                {unlimited.then(|| view! { <span class="hint">" · "{t().draws_on_parent}</span> })}
            </td>
            <td data-label=t().this_month>{format::integer(lang.get_untracked(), account.current_month_consumption)}</td>
            <td data-label=t().last_month>{format::integer(lang.get_untracked(), account.previous_month_consumption)}</td>
            <Show when=move || session.may(Action::Manage)>
                <td data-label=t().move_credits>
                    <form class="inline" on:submit=send.clone()>
                        <input id=field_id.clone() aria-label=label.clone() type="text" inputmode="decimal" required
                            prop:value=move || amount.get() on:input=move |ev| amount.set(event_target_value(&ev)) />
                        <button type="submit" class="small">{t().move_button}</button>
                    </form>
                    <ErrorAlert error=error />
                </td>
            </Show>
        </tr>
    }
}

/// "New sub-account": its name, its first owner (email, names, password), and whether it
/// draws on this account's credits.
#[component]
fn CreateForm(version: RwSignal<u32>) -> impl IntoView {
    let (t, api, session) = (use_texts(), use_api(), use_session());
    let fields: [RwSignal<String>; 5] = std::array::from_fn(|_| RwSignal::new(String::new()));
    let [company, email, first, last, password] = fields;
    let unlimited = RwSignal::new(false);
    let (error, created) = (RwSignal::new(None::<ApiError>), RwSignal::new(None::<String>));
    let create = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let value = |field: RwSignal<String>| Some(field.get_untracked().trim().to_owned()).filter(|v| !v.is_empty());
        let request = NewAccountRequest {
            account: NewAccountDto {
                email: value(email),
                password: Some(password.get_untracked()),
                firstname: value(first),
                lastname: value(last),
                company: value(company),
                is_child: Some(1),
                unlimited: Some(i64::from(unlimited.get_untracked())),
            },
        };
        spawn_local(async move {
            match api.post::<_, AccountCreatedResponse>("/account", &request).await {
                Ok(_) => {
                    error.set(None);
                    created.set(Some(company.get_untracked()));
                    fields.iter().for_each(|field| field.set(String::new()));
                    version.update(|v| *v += 1);
                    session.sub_accounts_changed.update(|v| *v += 1);
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    view! {
        <section class="card">
            <h2>{move || t().new_sub_account}</h2>
            <form on:submit=create>
                <TextField id="sub-company" label=Signal::derive(move || t().sub_account_name) value=company error field="account.company" autocomplete="organization" required=true />
                <TextField id="sub-email" label=Signal::derive(move || t().owner_email) value=email error field="account.email" input_type="email" autocomplete="off" required=true />
                <div class="row">
                    <div class="field grow"><TextField id="sub-first" label=Signal::derive(move || t().first_name) value=first error field="account.firstname" autocomplete="off" /></div>
                    <div class="field grow"><TextField id="sub-last" label=Signal::derive(move || t().last_name) value=last error field="account.lastname" autocomplete="off" /></div>
                </div>
                <TextField id="sub-password" label=Signal::derive(move || t().owner_password) value=password error field="account.password" input_type="password" autocomplete="new-password" required=true />
                <p class="hint">{move || t().password_rule}</p>
                <label class="check">
                    <input type="checkbox" prop:checked=move || unlimited.get()
                        on:change=move |ev| unlimited.set(event_target_checked(&ev)) />
                    {move || t().draws_on_parent_label}
                </label>
                <ErrorAlert error=error />
                {move || created.get().map(|name| view! { <p role="status">{format!("{} {name}", t().sub_account_created)}</p> })}
                <button type="submit" class="primary">{move || t().create_sub_account}</button>
            </form>
        </section>
    }
}
