//! The account switcher in the header: people of an account with sub-accounts choose which one
//! this tab acts in, with their own role. Shown only when there are sub-accounts.

use leptos::prelude::*;
use texto_core::wire::SubAccountsResponse;

use crate::{api::use_api, i18n::use_texts, session::use_session};

/// The select of the person's own account and its sub-accounts; choosing one reloads the page
/// in that account.
#[component]
pub fn AccountSwitcher() -> impl IntoView {
    let t = use_texts();
    let api = use_api();
    let session = use_session();
    let list = LocalResource::new(move || {
        session.sub_accounts_changed.track();
        async move { api.get_at_home::<SubAccountsResponse>("/sub-accounts").await }
    });
    let accounts = move || list.get().and_then(Result::ok).map(|answer| answer.sub_accounts).unwrap_or_default();
    // A sub-account chosen earlier that is no longer one: back to the person's own.
    Effect::new(move |_| {
        if let Some(Ok(answer)) = list.get()
            && let Some(chosen) = session.account.get_untracked()
            && !answer.sub_accounts.iter().any(|a| a.client_id == chosen)
        {
            session.switch_to(None);
        }
    });
    let choose = move |ev| {
        let value = event_target_value(&ev);
        session.switch_to((!value.is_empty()).then_some(value));
        let _ = window().location().reload();
    };
    view! {
        <Show when=move || !accounts().is_empty()>
            <span class="switcher">
                <label for="account-switcher">{move || t().account_label}</label>
                <select id="account-switcher" on:change=choose>
                    <option value="" selected=move || session.account.get().is_none()>{move || t().own_account}</option>
                    {move || accounts().into_iter().map(|account| {
                        let id = account.client_id.clone();
                        let selected = move || session.account.get().as_deref() == Some(id.as_str());
                        view! { <option value=account.client_id.clone() selected=selected>{account.company.clone()}</option> }
                    }).collect_view()}
                </select>
            </span>
        </Show>
    }
}
