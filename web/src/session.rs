//! Who is signed in: the server's session (an HttpOnly cookie the app never sees, and the CSRF
//! value it repeats with every change), the role in force, the account's credits, and why the
//! last session ended. No secret is kept in the browser's storage.

use leptos::prelude::*;
use texto_core::{Action, Role};

/// The signed-in person or token, as `GET /me` and `POST /session` answer.
#[derive(Debug, Clone, PartialEq)]
pub struct SignedIn {
    /// An email or a token's name.
    pub actor: String,
    /// The role in force.
    pub role: Role,
    /// The value sent in `X-CSRF-Token` with every change.
    pub csrf: String,
    /// The account requires two-factor sign-in and this person has not set it up yet.
    pub two_factor_required: bool,
}

/// The signed-in state, shared through the context.
#[derive(Clone, Copy)]
pub struct Session {
    /// Who is signed in; `None` shows the sign-in page.
    pub signed_in: RwSignal<Option<SignedIn>>,
    /// Whether the server was asked yet whether a session is open (nothing is shown before).
    pub checked: RwSignal<bool>,
    /// The account's balance as last read from the server.
    pub credits: RwSignal<Option<f64>>,
    /// The account's conversations with unread replies, as last read (the navigation shows it).
    pub unread: RwSignal<Option<i64>>,
    /// Set when the server ended the session mid-use (a 401): sign-in explains it.
    pub expired: RwSignal<bool>,
    /// The sub-account this tab acts in (the account switcher's choice); `None`: the person's own.
    pub account: RwSignal<Option<String>>,
    /// Moves when a sub-account is created, so that the account switcher lists it.
    pub sub_accounts_changed: RwSignal<u32>,
}

/// Where the tab's chosen sub-account is kept, so that it holds across page loads.
const ACCOUNT_KEY: &str = "texto.account";

/// Set while the tab has a session (no secret: only that it has one), so that a page loading
/// after the session ended elsewhere can say why sign-in shows.
const SIGNED_IN_KEY: &str = "texto.signed_in";

impl Session {
    /// Signed in as `who`.
    pub fn sign_in(self, who: SignedIn) {
        crate::storage::tab_set(SIGNED_IN_KEY, Some("1"));
        self.expired.set(false);
        self.checked.set(true);
        self.signed_in.set(Some(who));
    }

    /// Forgets the session (the server ended it or was asked to).
    pub fn sign_out(self) {
        crate::storage::tab_set(SIGNED_IN_KEY, None);
        self.credits.set(None);
        self.signed_in.set(None);
        self.switch_to(None);
    }

    /// No session on the server as the page loads: if this tab had one (it ended elsewhere,
    /// or expired, while another page of the app was open), sign-in says so.
    pub fn none_on_load(self) {
        self.expired.set(crate::storage::tab_get(SIGNED_IN_KEY).is_some());
        crate::storage::tab_set(SIGNED_IN_KEY, None);
        self.checked.set(true);
    }

    /// Acts in the sub-account `account` from now on (`None`: the person's own account).
    pub fn switch_to(self, account: Option<String>) {
        crate::storage::tab_set(ACCOUNT_KEY, account.as_deref());
        self.account.set(account);
    }

    /// The server answered 401: back to sign-in, with a message. Only the first of several
    /// refused calls in flight acts: a later one must not take the message away.
    pub fn expire(self) {
        if self.signed_in.with_untracked(Option::is_some) {
            self.sign_out();
            self.expired.set(true);
        }
    }

    /// Whether the role in force may do `action` (the server decides; the app hides the rest).
    pub fn may(self, action: Action) -> bool {
        self.signed_in.with(|who| who.as_ref().is_some_and(|who| who.role.may(action)))
    }
}

/// Provides the session, not yet checked with the server.
pub fn provide_session() -> Session {
    let session = Session {
        signed_in: RwSignal::new(None),
        checked: RwSignal::new(false),
        credits: RwSignal::new(None),
        unread: RwSignal::new(None),
        expired: RwSignal::new(false),
        account: RwSignal::new(crate::storage::tab_get(ACCOUNT_KEY)),
        sub_accounts_changed: RwSignal::new(0),
    };
    provide_context(session);
    session
}

/// The session provided by [`provide_session`].
pub fn use_session() -> Session {
    expect_context::<Session>()
}
