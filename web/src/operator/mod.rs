//! The operator's console: its own bundle (`operator.html`, built into
//! `dist/console`), served at `/app/operator/…`, for the people who run texto for every
//! account: accounts, carriers and routes, the moderation queue, traffic and their log. It
//! signs in with an operator's token, which it keeps in the tab only.

mod account_card;
mod account_senders;
mod accounts;
mod carriers;
mod client;
mod log;
mod moderation;
mod moderation_rules;
mod plans;
mod routes;
mod texts;
mod traffic;

use leptos::{prelude::*, task::spawn_local};
use leptos_router::{
    components::{A, Route, Router, Routes},
    path,
};

use self::client::{Console, use_op_texts};
use crate::{
    api::ApiError,
    app::{FocusHeadingOnNavigation, LanguageToggle, NotFound},
    i18n::provide_lang,
};

/// The console's root: the sign-in gate, the navigation and its six pages.
#[component]
pub fn OperatorApp() -> impl IntoView {
    provide_lang();
    let console = Console::provide();
    let t = use_op_texts();
    let signed_in = move || console.signed_in();
    view! {
        <Router>
            <a class="skip" href="#content">{move || t().skip_link}</a>
            <header class="topbar">
                <span class="brand">{move || t().brand}</span>
                <LanguageToggle />
                <Show when=signed_in>
                    <button type="button" class="link-button" on:click=move |_| spawn_local(console.end())>{move || t().sign_out}</button>
                </Show>
            </header>
            <Show when=signed_in fallback=|| view! { <main id="content" tabindex="-1"><SignIn /></main> }>
                <nav class="nav" aria-label=move || t().nav_label>
                    <A href="/app/operator" exact=true>{move || t().nav_accounts}</A>
                    <A href="/app/operator/plans">{move || t().nav_plans}</A>
                    <A href="/app/operator/carriers">{move || t().nav_carriers}</A>
                    <A href="/app/operator/moderation">{move || t().nav_moderation}</A>
                    <A href="/app/operator/traffic">{move || t().nav_traffic}</A>
                    <A href="/app/operator/log">{move || t().nav_log}</A>
                </nav>
                <main id="content" tabindex="-1">
                    <FocusHeadingOnNavigation />
                    <Routes fallback=NotFound>
                        <Route path=path!("/app/operator") view=accounts::Accounts />
                        <Route path=path!("/app/operator/plans") view=plans::Plans />
                        <Route path=path!("/app/operator/carriers") view=carriers::Carriers />
                        <Route path=path!("/app/operator/moderation") view=moderation::Queue />
                        <Route path=path!("/app/operator/traffic") view=traffic::Traffic />
                        <Route path=path!("/app/operator/log") view=log::Log />
                    </Routes>
                </main>
            </Show>
        </Router>
    }
}

/// The operator's sign-in: their name and password, or their token.
#[component]
fn SignIn() -> impl IntoView {
    let (t, console) = (use_op_texts(), client::use_console());
    let (name, password, token) =
        (RwSignal::new(String::new()), RwSignal::new(String::new()), RwSignal::new(String::new()));
    let error = RwSignal::new(None::<ApiError>);
    let refusal = move || {
        error.get().map(|e| match e.http {
            403 => t().not_operator.to_owned(),
            401 => t().wrong_token.to_owned(),
            _ => e.summary(),
        })
    };
    let with_password = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        spawn_local(async move {
            let signed = console.sign_in_with_password(name.get_untracked(), password.get_untracked()).await;
            error.set(signed.err());
        });
    };
    let with_token = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        spawn_local(async move { error.set(console.sign_in(token.get_untracked()).await.err()) });
    };
    view! {
        <section class="card">
            <h1>{move || t().sign_in_title}</h1>
            {move || refusal().map(|text| view! { <p class="alert error" role="alert">{text}</p> })}
            <form on:submit=with_password>
                <label for="operator-name">{move || t().name}</label>
                <input id="operator-name" type="text" autocomplete="username" required
                    prop:value=move || name.get() on:input=move |ev| name.set(event_target_value(&ev)) />
                <label for="operator-password">{move || t().password}</label>
                <input id="operator-password" type="password" autocomplete="current-password" required
                    prop:value=move || password.get() on:input=move |ev| password.set(event_target_value(&ev)) />
                <button type="submit" class="primary">{move || t().sign_in}</button>
            </form>
            <details>
                <summary>{move || t().sign_in_with_token}</summary>
                <p class="hint">{move || t().sign_in_intro}</p>
                <form on:submit=with_token>
                    <label for="operator-token">{move || t().token}</label>
                    <input id="operator-token" type="password" autocomplete="off" required
                        prop:value=move || token.get() on:input=move |ev| token.set(event_target_value(&ev)) />
                    <button type="submit">{move || t().sign_in_token_button}</button>
                </form>
            </details>
        </section>
    }
}

/// Calls `refresh` every `seconds` while the page is shown.
fn every(seconds: u64, refresh: impl Fn() + 'static) {
    if let Ok(handle) = set_interval_with_handle(refresh, std::time::Duration::from_secs(seconds)) {
        on_cleanup(move || handle.clear());
    }
}

/// Moves the keyboard focus to the element `id`, if the page has it.
fn focus(id: &str) {
    if let Some(element) = document().get_element_by_id(id) {
        let _ = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(element).map(|e| e.focus());
    }
}
