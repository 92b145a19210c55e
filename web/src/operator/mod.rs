//! The operator's console (issue 25): its own bundle (`operator.html`, built into
//! `dist/console`), served at `/app/operator/…`, for the people who run texto for every
//! account: accounts, carriers and routes, the moderation queue, traffic and their log. It
//! signs in with an operator's token, which it keeps in the tab only.

mod accounts;
mod carriers;
mod client;
mod ledger;
mod log;
mod moderation;
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

/// The console's root: the sign-in gate, the navigation and its five pages.
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
                    <button type="button" class="link-button" on:click=move |_| console.sign_out()>{move || t().sign_out}</button>
                </Show>
            </header>
            <Show when=signed_in fallback=|| view! { <main id="content" tabindex="-1"><SignIn /></main> }>
                <nav class="nav" aria-label=move || t().nav_label>
                    <A href="/app/operator" exact=true>{move || t().nav_accounts}</A>
                    <A href="/app/operator/carriers">{move || t().nav_carriers}</A>
                    <A href="/app/operator/moderation">{move || t().nav_moderation}</A>
                    <A href="/app/operator/traffic">{move || t().nav_traffic}</A>
                    <A href="/app/operator/log">{move || t().nav_log}</A>
                </nav>
                <main id="content" tabindex="-1">
                    <FocusHeadingOnNavigation />
                    <Routes fallback=NotFound>
                        <Route path=path!("/app/operator") view=accounts::Accounts />
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

/// The operator's sign-in: their token.
#[component]
fn SignIn() -> impl IntoView {
    let (t, console) = (use_op_texts(), client::use_console());
    let token = RwSignal::new(String::new());
    let error = RwSignal::new(None::<ApiError>);
    let refusal = move || {
        error.get().map(|e| match e.http {
            403 => t().not_operator.to_owned(),
            401 => t().wrong_token.to_owned(),
            _ => e.summary(),
        })
    };
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        spawn_local(async move {
            match console.sign_in(token.get_untracked()).await {
                Ok(()) => error.set(None),
                Err(e) => error.set(Some(e)),
            }
        });
    };
    view! {
        <section class="card">
            <h1>{move || t().sign_in_title}</h1>
            <p class="hint">{move || t().sign_in_intro}</p>
            <form on:submit=submit>
                <label for="operator-token">{move || t().token}</label>
                <input id="operator-token" type="password" autocomplete="off" required
                    prop:value=move || token.get() on:input=move |ev| token.set(event_target_value(&ev)) />
                {move || refusal().map(|text| view! { <p class="alert error" role="alert">{text}</p> })}
                <button type="submit" class="primary">{move || t().sign_in}</button>
            </form>
        </section>
    }
}

/// Calls `refresh` every `seconds` while the page is shown.
fn every(seconds: u64, refresh: impl Fn() + 'static) {
    if let Ok(handle) = set_interval_with_handle(refresh, std::time::Duration::from_secs(seconds)) {
        on_cleanup(move || handle.clear());
    }
}
