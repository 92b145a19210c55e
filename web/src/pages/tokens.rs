//! Tokens: the account's API tokens (name, role, first characters, expiry, allowed addresses,
//! last use), creating one (shown once, with a Copy button) and revoking one.

use leptos::{prelude::*, task::spawn_local};
use texto_core::wire::{
    NewTokenDto, NewTokenRequest, TokenCreatedResponse, TokenDeletedResponse, TokenDto, TokensResponse,
};

use crate::{
    api::{ApiError, use_api},
    components::{
        errors::ErrorAlert,
        field::TextField,
        role::{RoleSelect, role_label},
        table::rows_or,
    },
    format,
    i18n::{Texts, use_lang, use_texts},
    session::use_session,
};

/// The lifetimes offered, in seconds (`None`: until revoked).
const LIFETIMES: [Option<i64>; 6] =
    [None, Some(86_400), Some(7 * 86_400), Some(30 * 86_400), Some(90 * 86_400), Some(365 * 86_400)];

/// A lifetime in words.
fn lifetime_label(t: &'static Texts, seconds: Option<i64>) -> String {
    match seconds {
        None => t.never.to_owned(),
        Some(s) if s % 86_400 == 0 => format!("{} {}", s / 86_400, if s == 86_400 { t.day } else { t.days }),
        Some(s) => format!("{s} s"),
    }
}

/// The addresses typed in the form: one per line or separated by commas or spaces.
fn addresses(text: &str) -> Vec<String> {
    text.split([',', '\n', ' ']).map(str::trim).filter(|a| !a.is_empty()).map(str::to_owned).collect()
}

/// The tokens page.
#[component]
pub fn Tokens() -> impl IntoView {
    let t = use_texts();
    let lang = use_lang();
    let api = use_api();
    let version = RwSignal::new(0u32);
    let tokens = LocalResource::new(move || {
        version.track();
        async move { api.get::<TokensResponse>("/token").await }
    });
    let load_error = Signal::derive(move || tokens.get().and_then(Result::err));
    let name = RwSignal::new(String::new());
    let lifetime = RwSignal::new(0usize);
    let allowed = RwSignal::new(String::new());
    // A new token gets the creator's role unless a lesser one is chosen.
    let own_role = use_session().signed_in.with_untracked(|who| who.as_ref().map(|w| w.role.as_str().to_owned()));
    let role = RwSignal::new(own_role.unwrap_or_else(|| "analyst".to_owned()));
    let error = RwSignal::new(None::<ApiError>);
    let created = RwSignal::new(None::<TokenCreatedResponse>);
    let copied = RwSignal::new(false);
    let create = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let request = NewTokenRequest {
            token: NewTokenDto {
                name: Some(name.get_untracked().trim().to_owned()),
                ttl: LIFETIMES.get(lifetime.get_untracked()).copied().flatten(),
                allowed_ips: Some(addresses(&allowed.get_untracked())),
                http_errors: None,
                role: Some(role.get_untracked()),
            },
        };
        spawn_local(async move {
            match api.post::<_, TokenCreatedResponse>("/token", &request).await {
                Ok(answer) => {
                    error.set(None);
                    name.set(String::new());
                    allowed.set(String::new());
                    copied.set(false);
                    created.set(Some(answer));
                    version.update(|v| *v += 1);
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let copy = move |_| {
        let Some((answer, navigator)) = created.get_untracked().zip(web_sys::window().map(|w| w.navigator())) else {
            return;
        };
        // Browsers offer the clipboard only to secure pages (HTTPS or this machine); elsewhere
        // the token stays on screen to be selected.
        if js_sys::Reflect::get(&navigator, &"clipboard".into()).is_ok_and(|c| !c.is_undefined()) {
            let _ = navigator.clipboard().write_text(&answer.token);
            copied.set(true);
        }
    };
    let rows = move || {
        tokens.get().and_then(Result::ok).map(|answer| {
            rows_or(answer.tokens, 8, t().no_tokens, move |token| view! { <TokenRow token version lang=lang.get() /> })
        })
    };
    view! {
        <h1>{move || t().tokens_title}</h1>
        <p class="hint">{move || t().tokens_hint}</p>
        <ErrorAlert error=load_error />
        {move || created.get().map(|answer| view! {
            <div class="alert ok" role="status" data-testid="new-token">
                <p><strong>{t().token_created}</strong></p>
                <p><code class="secret">{answer.token.clone()}</code></p>
                <button type="button" on:click=copy>{move || if copied.get() { t().copied } else { t().copy }}</button>
                <button type="button" on:click=move |_| created.set(None)>{t().done}</button>
            </div>
        })}
        <div class="table-wrap">
            <table class="stack">
                <thead><tr>
                    <th scope="col">{move || t().token_name}</th><th scope="col">{move || t().role}</th>
                    <th scope="col">{move || t().token_word}</th>
                    <th scope="col">{move || t().created_on}</th><th scope="col">{move || t().expires}</th>
                    <th scope="col">{move || t().allowed_addresses}</th><th scope="col">{move || t().last_used}</th>
                    <th scope="col">{move || t().actions}</th>
                </tr></thead>
                <tbody><Suspense fallback=move || view! { <tr><td colspan="8">{t().loading}</td></tr> }>{rows}</Suspense></tbody>
            </table>
        </div>
        <section class="card">
            <h2>{move || t().create_token}</h2>
            <form on:submit=create>
                <div class="row">
                    <div class="field grow">
                        <TextField id="token-name" label=Signal::derive(move || t().token_name) value=name error field="name" required=true />
                    </div>
                    <div class="field">
                        <label for="token-role">{move || t().role}</label>
                        <RoleSelect id="token-role" value=role />
                    </div>
                    <div class="field">
                        <label for="token-lifetime">{move || t().expires_after}</label>
                        <select id="token-lifetime" on:change=move |ev| lifetime.set(event_target_value(&ev).parse().unwrap_or(0))>
                            {move || LIFETIMES.iter().enumerate().map(|(i, seconds)| view! {
                                <option value=i.to_string() selected=move || lifetime.get() == i>{lifetime_label(t(), *seconds)}</option>
                            }).collect_view()}
                        </select>
                    </div>
                </div>
                <TextField id="token-addresses" label=Signal::derive(move || t().allowed_addresses) value=allowed error field="allowed_ips" placeholder="203.0.113.0/24, 2001:db8::1" />
                <p class="hint">{move || t().allowed_addresses_hint}</p>
                <ErrorAlert error=error />
                <button type="submit" class="primary">{move || t().create_token}</button>
            </form>
        </section>
    }
}

/// One token with its Revoke button.
#[component]
fn TokenRow(token: TokenDto, version: RwSignal<u32>, lang: crate::i18n::Lang) -> impl IntoView {
    let t = use_texts();
    let api = use_api();
    let error = RwSignal::new(None::<ApiError>);
    let id = token.api_token_id;
    let revoke = move |_| {
        spawn_local(async move {
            match api.delete::<TokenDeletedResponse>(&format!("/token/{id}")).await {
                Ok(_) => version.update(|v| *v += 1),
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let label = format!("{} {}", t().revoke, token.name);
    let expires = match (&token.expired_at, token.is_active) {
        (None, _) => t().never.to_owned(),
        (Some(at), 1) => format::wire_date(lang, at),
        (Some(at), _) => format!("{} ({})", format::wire_date(lang, at), t().token_expired),
    };
    let addresses = if token.allowed_ips.is_empty() { t().anywhere.to_owned() } else { token.allowed_ips.join(", ") };
    view! {
        <tr>
            <td data-label=t().token_name class="text">{token.name.clone()}</td>
            <td data-label=t().role>{role_label(t(), token.role.as_deref().unwrap_or("owner"))}</td>
            <td data-label=t().token_word><code>{token.api_token.clone()}</code></td>
            <td data-label=t().created_on>{format::wire_date(lang, &token.created_at)}</td>
            <td data-label=t().expires>{expires}</td>
            <td data-label=t().allowed_addresses class="text">{addresses}</td>
            <td data-label=t().last_used>{token.last_used_at.as_deref().map_or_else(|| t().never.to_owned(), |at| format::wire_date(lang, at))}</td>
            <td data-label=t().actions>
                <button type="button" class="small danger" aria-label=label on:click=revoke>{t().revoke}</button>
                <ErrorAlert error=error />
            </td>
        </tr>
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn addresses_are_read_one_per_line_or_comma_separated() {
        assert_eq!(addresses(" 10.0.0.0/8,\n::1  192.0.2.1 ,"), ["10.0.0.0/8", "::1", "192.0.2.1"]);
        assert!(addresses("  \n ").is_empty());
    }
}
