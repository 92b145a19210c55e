//! The frame of every page (header with the balance and the account switcher, navigation,
//! the sign-in gate) and the marketing bundle's routes under `/app/`.

use leptos::prelude::*;
use leptos_router::{
    components::{Redirect, Route, Router, Routes},
    hooks::use_location,
    path,
};

use crate::{
    api::Api,
    components::account_switcher::AccountSwitcher,
    format,
    i18n::{Lang, provide_lang, use_texts},
    nav::{Bundle, FOCUS_HEADING_KEY, NavLink, SideNav},
    pages::{
        compose::Compose,
        home::Home,
        one_time_links::{AcceptInvitation, ResetPassword},
        sign_in::SignIn,
    },
    session::provide_session,
};

/// The marketing bundle: the pages marketing staff use every day.
#[component]
pub fn App() -> impl IntoView {
    view! {
        <Frame bundle=Bundle::Marketing>
            <Routes fallback=NotFound>
                <Route path=path!("/app") view=|| view! { <Redirect path="/app/home" /> } />
                <Route path=path!("/app/home") view=Home />
                <Route path=path!("/app/compose") view=Compose />
            </Routes>
        </Frame>
    }
}

/// The heading of a path no page has; a page of another bundle (a link or a navigation that
/// crossed over) is loaded in full instead.
#[component]
pub fn NotFound() -> impl IntoView {
    let t = use_texts();
    let (location, here) = (use_location(), use_context::<Bundle>().unwrap_or(Bundle::Marketing));
    Effect::new(move |_| {
        location.pathname.track();
        // The router has put the new address in the history: loading it again asks the server,
        // which answers with the right bundle's page.
        let address = window().location();
        if address.pathname().is_ok_and(|path| Bundle::of(&path) != here) {
            crate::storage::tab_set(FOCUS_HEADING_KEY, Some("1"));
            let _ = address.reload();
        }
    });
    view! { <h1 tabindex="-1">{move || t().not_found}</h1> }
}

/// The frame of both bundles: the header with the balance and the account switcher, the
/// navigation, the sign-in gate, and the bundle's routes as `children`.
#[component]
pub fn Frame(
    /// The bundle running.
    bundle: Bundle,
    /// The bundle's routes.
    children: ChildrenFn,
) -> impl IntoView {
    provide_context(bundle);
    let lang = provide_lang();
    let session = provide_session();
    let t = use_texts();
    let signed_in = move || session.signed_in.with(Option::is_some);
    leptos::task::spawn_local(Api::new(session).resume());
    Effect::new(move |_| {
        if signed_in() {
            leptos::task::spawn_local(Api::new(session).refresh_credits());
            leptos::task::spawn_local(Api::new(session).refresh_unread());
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
                    <AccountSwitcher />
                    <span class="balance" data-testid="credits">{move || t().credits}": "<strong>{credits}</strong></span>
                    <button type="button" class="link-button" on:click=move |_| leptos::task::spawn_local(Api::new(session).sign_out())>{move || t().sign_out}</button>
                </Show>
            </header>
            <Show when=signed_in fallback=move || view! { <main id="content" tabindex="-1"><Show when=move || session.checked.get()><SignedOut /></Show></main> }>
                <div class="shell">
                <SideNav />
                <main id="content" tabindex="-1">
                    <FocusHeadingOnNavigation />
                    <Show when=move || session.signed_in.with(|who| who.as_ref().is_some_and(|w| w.two_factor_required))>
                        <p class="alert error" role="alert">{move || t().two_factor_required_banner}" "<NavLink href="/app/profile">{move || t().nav_profile}</NavLink></p>
                    </Show>
                    {children()}
                </main>
                </div>
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
pub(crate) fn LanguageToggle() -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let other = move || if lang.get() == Lang::Fr { Lang::En } else { Lang::Fr };
    view! {
        <button type="button" class="link-button" lang=move || other().tag() data-testid="language-toggle"
            on:click=move |_| lang.set(other())>
            {move || if other() == Lang::Fr { "Français" } else { "English" }}
        </button>
    }
}

/// Moves the focus to the page's heading after each navigation, so screen readers announce
/// the new page. A first load keeps the browser's own focus, unless a link of the other bundle
/// opened it.
#[component]
pub(crate) fn FocusHeadingOnNavigation() -> impl IntoView {
    let location = use_location();
    Effect::new(move |previous: Option<String>| {
        let path = location.pathname.get();
        let arrived = previous.is_none() && crate::storage::tab_get(FOCUS_HEADING_KEY).is_some();
        if arrived {
            crate::storage::tab_set(FOCUS_HEADING_KEY, None);
        }
        if arrived || previous.is_some_and(|p| p != path) {
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
