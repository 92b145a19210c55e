//! Sign in with an email and a password, or (for developers) with an API token.

use leptos::{prelude::*, task::spawn_local};

use super::one_time_links::ForgotPassword;
use crate::{
    api::{Api, ApiError},
    i18n::use_texts,
    session::use_session,
};

/// The sign-in forms; say why when the previous session ended with a 401.
#[component]
pub fn SignIn() -> impl IntoView {
    let t = use_texts();
    let session = use_session();
    let (email, password, token) =
        (RwSignal::new(String::new()), RwSignal::new(String::new()), RwSignal::new(String::new()));
    // Shown once the server asks for it (the password was right, two-factor sign-in is on).
    let code = RwSignal::new(None::<String>);
    let refused = RwSignal::new(None::<&'static str>);
    let token_refused = RwSignal::new(None::<&'static str>);
    let busy = RwSignal::new(false);
    let why = move |e: ApiError, wrong: &'static str| {
        if e.is_network() {
            t().error_network
        } else if e.http == 429 {
            t().sign_in_slowed
        } else {
            wrong
        }
    };
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        busy.set(true);
        let (given_email, given_password, given_code) =
            (email.get_untracked(), password.get_untracked(), code.get_untracked());
        spawn_local(async move {
            let answer = Api::new(session).sign_in(given_email.trim(), &given_password, given_code.clone()).await;
            busy.set(false);
            match answer {
                Err(e) if e.problems.iter().any(|(_, p)| p == "an authentication code is needed") => {
                    code.set(Some(String::new()));
                    refused.set(None);
                }
                Err(e) if given_code.is_some() && e.http == 401 => refused.set(Some(t().code_refused)),
                answer => refused.set(answer.err().map(|e| why(e, t().sign_in_refused))),
            }
        });
    };
    let submit_token = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let given = token.get_untracked().trim().to_owned();
        if given.is_empty() {
            token_refused.set(Some(t().token_refused));
            return;
        }
        busy.set(true);
        spawn_local(async move {
            let answer = Api::new(session).try_token(&given).await;
            busy.set(false);
            token_refused.set(answer.err().map(|e| why(e, t().token_refused)));
        });
    };
    view! {
        <section class="sign-in">
            <h1>{move || t().sign_in_title}</h1>
            <Show when=move || session.expired.get()>
                <p class="alert" role="alert">{move || t().session_ended}</p>
            </Show>
            <form on:submit=submit>
                <label for="email">{move || t().sign_in_email}</label>
                <input id="email" type="email" autocomplete="username" required
                    prop:value=move || email.get() on:input=move |ev| email.set(event_target_value(&ev)) />
                <label for="password">{move || t().password}</label>
                <input id="password" type="password" autocomplete="current-password" required
                    aria-invalid=move || (refused.get().is_some() && code.get().is_none()).to_string()
                    aria-describedby=move || refused.get().filter(|_| code.get().is_none()).map(|_| "password-problem")
                    prop:value=move || password.get() on:input=move |ev| password.set(event_target_value(&ev)) />
                {move || code.get().is_some().then(|| view! {
                    <label for="code">{t().authentication_code}</label>
                    <input id="code" inputmode="numeric" autocomplete="one-time-code" required
                        aria-invalid=move || refused.get().is_some().to_string()
                        aria-describedby=move || refused.get().map(|_| "password-problem")
                        prop:value=move || code.get().unwrap_or_default() on:input=move |ev| code.set(Some(event_target_value(&ev))) />
                    <p class="hint">{t().authentication_code_hint}</p>
                })}
                {move || refused.get().map(|why| view! { <p class="field-error" id="password-problem" role="alert">{why}</p> })}
                <button type="submit" class="primary" disabled=move || busy.get()>{move || t().sign_in}</button>
            </form>
            <ForgotPassword />
            <details class="token-sign-in">
                <summary>{move || t().sign_in_with_token}</summary>
                <p>{move || t().sign_in_intro}</p>
                <form on:submit=submit_token>
                    <label for="token">{move || t().api_token}</label>
                    <input id="token" type="password" autocomplete="off"
                        aria-invalid=move || token_refused.get().is_some().to_string()
                        aria-describedby=move || token_refused.get().map(|_| "token-problem")
                        prop:value=move || token.get() on:input=move |ev| token.set(event_target_value(&ev)) />
                    {move || token_refused.get().map(|why| view! { <p class="field-error" id="token-problem" role="alert">{why}</p> })}
                    <button type="submit" disabled=move || busy.get()>{move || t().sign_in_token_button}</button>
                </form>
            </details>
        </section>
    }
}
