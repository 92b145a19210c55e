//! The side navigation: the app's pages in four sections, as marketing tools group them
//! (sending, audience, conversations, account) and the profile under the person's name; on a
//! phone it folds behind a menu button. The current page is marked (`aria-current="page"`).

use leptos::prelude::*;
use leptos_router::{components::A, hooks::use_location};
use texto_core::Action;

use crate::{i18n::use_texts, session::use_session};

/// Which bundle runs: links to the other bundle's pages load that page in full.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bundle {
    /// Sign-in, Home, Compose.
    Marketing,
    /// The audience and conversations ([`texto_core::AUDIENCE_AREA`]).
    Audience,
    /// The campaigns and the account area ([`texto_core::ACCOUNT_AREA`]).
    Account,
    /// Automation: journeys and sign-up pages ([`texto_core::AUTOMATION_AREA`]).
    Automation,
}

impl Bundle {
    /// The bundle that holds the page `path`.
    pub(crate) fn of(path: &str) -> Bundle {
        match texto_core::app_area(path) {
            texto_core::AppArea::Marketing => Bundle::Marketing,
            texto_core::AppArea::Audience => Bundle::Audience,
            texto_core::AppArea::Account => Bundle::Account,
            texto_core::AppArea::Automation => Bundle::Automation,
        }
    }
}

/// Set by a link to the other bundle's page, so that the page it opens focuses its heading.
pub(crate) const FOCUS_HEADING_KEY: &str = "texto.focus_heading";

/// A link of the navigation: within the bundle, the router's; to the other bundle's page, a
/// full page load.
#[component]
pub(crate) fn NavLink(href: &'static str, children: Children) -> impl IntoView {
    let here = use_context::<Bundle>().unwrap_or(Bundle::Marketing);
    let there = Bundle::of(href.split('?').next().unwrap_or(href));
    if here == there {
        view! { <A href=href>{children()}</A> }.into_any()
    } else {
        // A full page load: the page that opens moves the focus to its heading, as the
        // router's navigations do.
        let arriving = |_| crate::storage::tab_set(FOCUS_HEADING_KEY, Some("1"));
        view! { <a href=href rel="external" on:click=arriving>{children()}</a> }.into_any()
    }
}

/// One section: its name, then its links.
#[component]
fn Section(id: &'static str, title: Signal<&'static str>, children: Children) -> impl IntoView {
    view! {
        <div class="nav-section" role="group" aria-labelledby=id>
            <p class="nav-heading" id=id>{title}</p>
            <ul>{children()}</ul>
        </div>
    }
}

/// The navigation, with its menu button for narrow screens.
#[component]
pub(crate) fn SideNav() -> impl IntoView {
    let t = use_texts();
    let session = use_session();
    let may = move |action| session.may(action);
    let open = RwSignal::new(false);
    // A page chosen folds the menu again.
    let location = use_location();
    Effect::new(move |_| {
        location.pathname.track();
        open.set(false);
    });
    let title = |pick: fn(&crate::i18n::Texts) -> &'static str| Signal::derive(move || pick(t()));
    let person = move || session.signed_in.with(|who| who.as_ref().map(|w| w.actor.clone()).unwrap_or_default());
    view! {
        <button type="button" class="menu-button" aria-controls="side-nav"
            aria-expanded=move || open.get().to_string() on:click=move |_| open.update(|o| *o = !*o)>
            <span aria-hidden="true">"☰ "</span>{move || t().menu}
        </button>
        <nav id="side-nav" class="side-nav" class:open=move || open.get() aria-label=move || t().nav_label>
            <Section id="nav-sending" title=title(|t| t.nav_sending)>
                <li><NavLink href="/app/home">{move || t().nav_home}</NavLink></li>
                <li><NavLink href="/app/compose">{move || t().nav_compose}</NavLink></li>
                <li><NavLink href="/app/campaigns">{move || t().nav_campaigns}</NavLink></li>
                <li><NavLink href="/app/templates">{move || t().nav_templates}</NavLink></li>
                <li><NavLink href="/app/journeys">{move || t().nav_journeys}</NavLink></li>
            </Section>
            <Section id="nav-audience" title=title(|t| t.nav_audience)>
                <li><NavLink href="/app/contacts">{move || t().nav_contacts}</NavLink></li>
                <li><NavLink href="/app/segments">{move || t().nav_segments}</NavLink></li>
                <li><NavLink href="/app/lists">{move || t().nav_lists}</NavLink></li>
                <li><NavLink href="/app/signup-pages">{move || t().nav_signup_pages}</NavLink></li>
                <li><NavLink href="/app/blacklist">{move || t().nav_blacklist}</NavLink></li>
                <li><NavLink href="/app/npai">{move || t().nav_npai}</NavLink></li>
            </Section>
            <Section id="nav-conversations" title=title(|t| t.nav_conversations)>
                <li><NavLink href="/app/inbox">{move || t().nav_inbox}{move || session.unread.get().filter(|n| *n > 0).map(|n| view! {
                    " "<span class="badge" aria-label=format!("{n} {}", t().unread)>{n}</span>
                })}</NavLink></li>
                <li><NavLink href="/app/replies">{move || t().nav_replies}</NavLink></li>
            </Section>
            <Section id="nav-account" title=title(|t| t.nav_account)>
                <li><NavLink href="/app/team">{move || t().nav_team}</NavLink></li>
                <li><NavLink href="/app/sub-accounts">{move || t().nav_sub_accounts}</NavLink></li>
                <Show when=move || may(Action::Manage)>
                    <li><NavLink href="/app/tokens">{move || t().nav_tokens}</NavLink></li>
                </Show>
                <li><NavLink href="/app/webhooks">{move || t().nav_webhooks}</NavLink></li>
                <Show when=move || may(Action::ReadAudit)>
                    <li><NavLink href="/app/audit">{move || t().nav_audit}</NavLink></li>
                </Show>
                <Show when=move || may(Action::Manage)>
                    <li><NavLink href="/app/settings">{move || t().nav_settings}</NavLink></li>
                </Show>
            </Section>
            <div class="nav-person">
                <p class="nav-heading" id="nav-person">{person}</p>
                <ul aria-labelledby="nav-person"><li><NavLink href="/app/profile">{move || t().nav_profile}</NavLink></li></ul>
            </div>
        </nav>
    }
}
