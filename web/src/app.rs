//! The frame of every page: header with the balance, navigation, the sign-in gate, and the
//! routes under `/app/`.

use leptos::prelude::*;
use leptos_router::{
    components::{A, Route, Router, Routes},
    hooks::use_location,
    path,
};

use crate::{
    api::Api,
    format,
    i18n::{Lang, provide_lang, use_texts},
    pages::{
        audit::Audit,
        campaigns::{CampaignDetail, Campaigns},
        compose::Compose,
        lists::{ListDetail, Lists},
        number_list::{Blacklist, Npai},
        one_time_links::{AcceptInvitation, ResetPassword},
        profile::Profile,
        replies::Replies,
        settings::Settings,
        sign_in::SignIn,
        team::Team,
        tokens::Tokens,
        webhooks::Webhooks,
    },
    session::provide_session,
};

/// The whole app.
#[component]
pub fn App() -> impl IntoView {
    let lang = provide_lang();
    let session = provide_session();
    let t = use_texts();
    let signed_in = move || session.signed_in.with(Option::is_some);
    leptos::task::spawn_local(Api::new(session).resume());
    Effect::new(move |_| {
        if signed_in() {
            leptos::task::spawn_local(Api::new(session).refresh_credits());
        }
    });
    let credits = move || session.credits.get().map(|c| format::credits(lang.get(), c)).unwrap_or_else(|| "…".into());

    view! {
        <Router>
            <a class="skip" href="#content">{move || t().skip_link}</a>
            <header class="topbar">
                <span class="brand">"texto"</span>
                <LanguageToggle />
                <Show when=signed_in>
                    <span class="balance" data-testid="credits">{move || t().credits}": "<strong>{credits}</strong></span>
                    <button type="button" class="link-button" on:click=move |_| leptos::task::spawn_local(Api::new(session).sign_out())>{move || t().sign_out}</button>
                </Show>
            </header>
            <Show when=signed_in fallback=move || view! { <main id="content" tabindex="-1"><Show when=move || session.checked.get()><SignedOut /></Show></main> }>
                <Nav />
                <main id="content" tabindex="-1">
                    <FocusHeadingOnNavigation />
                    <Routes fallback=move || view! { <h1 tabindex="-1">{move || t().not_found}</h1> }>
                        <Route path=path!("/app") view=Compose />
                        <Route path=path!("/app/compose") view=Compose />
                        <Route path=path!("/app/campaigns") view=Campaigns />
                        <Route path=path!("/app/campaigns/:id") view=CampaignDetail />
                        <Route path=path!("/app/replies") view=Replies />
                        <Route path=path!("/app/lists") view=Lists />
                        <Route path=path!("/app/lists/:id") view=ListDetail />
                        <Route path=path!("/app/webhooks") view=Webhooks />
                        <Route path=path!("/app/blacklist") view=Blacklist />
                        <Route path=path!("/app/npai") view=Npai />
                        <Route path=path!("/app/tokens") view=Tokens />
                        <Route path=path!("/app/settings") view=Settings />
                        <Route path=path!("/app/team") view=Team />
                        <Route path=path!("/app/profile") view=Profile />
                        <Route path=path!("/app/audit") view=Audit />
                    </Routes>
                </main>
            </Show>
        </Router>
    }
}

/// What shows before sign-in: the page an emailed link opens, or the sign-in forms.
#[component]
fn SignedOut() -> impl IntoView {
    let path = use_location().pathname.get_untracked();
    if path.starts_with("/app/invitation/") {
        view! { <AcceptInvitation /> }.into_any()
    } else if path.starts_with("/app/password-reset/") {
        view! { <ResetPassword /> }.into_any()
    } else {
        view! { <SignIn /> }.into_any()
    }
}

/// Switches between French and English; names the other language in that language.
#[component]
fn LanguageToggle() -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let other = move || if lang.get() == Lang::Fr { Lang::En } else { Lang::Fr };
    view! {
        <button type="button" class="link-button" lang=move || other().tag() data-testid="language-toggle"
            on:click=move |_| lang.set(other())>
            {move || if other() == Lang::Fr { "Français" } else { "English" }}
        </button>
    }
}

/// The navigation links.
#[component]
fn Nav() -> impl IntoView {
    let t = use_texts();
    let session = crate::session::use_session();
    let may = move |action| session.may(action);
    view! {
        <nav class="nav" aria-label=move || t().nav_label>
            <A href="/app/compose">{move || t().nav_compose}</A>
            <A href="/app/campaigns">{move || t().nav_campaigns}</A>
            <A href="/app/replies">{move || t().nav_replies}</A>
            <A href="/app/lists">{move || t().nav_lists}</A>
            <A href="/app/webhooks">{move || t().nav_webhooks}</A>
            <A href="/app/blacklist">{move || t().nav_blacklist}</A>
            <A href="/app/npai">{move || t().nav_npai}</A>
            <A href="/app/team">{move || t().nav_team}</A>
            <A href="/app/profile">{move || t().nav_profile}</A>
            <Show when=move || may(texto_core::Action::ReadAudit)><A href="/app/audit">{move || t().nav_audit}</A></Show>
            <Show when=move || may(texto_core::Action::Manage)>
                <A href="/app/tokens">{move || t().nav_tokens}</A>
                <A href="/app/settings">{move || t().nav_settings}</A>
            </Show>
        </nav>
    }
}

/// Moves the focus to the page's heading after each navigation, so screen readers announce
/// the new page (the first load keeps the browser's own focus).
#[component]
fn FocusHeadingOnNavigation() -> impl IntoView {
    let location = use_location();
    Effect::new(move |previous: Option<String>| {
        let path = location.pathname.get();
        if previous.is_some_and(|p| p != path) {
            request_animation_frame(|| {
                let heading = document().query_selector("main h1").ok().flatten();
                if let Some(heading) =
                    heading.and_then(|h| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(h).ok())
                {
                    let _ = heading.set_attribute("tabindex", "-1");
                    let _ = heading.focus();
                }
            });
        }
        path
    });
}
