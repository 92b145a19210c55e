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
    /// Set when the server ended the session mid-use (a 401): sign-in explains it.
    pub expired: RwSignal<bool>,
}

impl Session {
    /// Signed in as `who`.
    pub fn sign_in(self, who: SignedIn) {
        self.expired.set(false);
        self.checked.set(true);
        self.signed_in.set(Some(who));
    }

    /// Forgets the session (the server ended it or was asked to).
    pub fn sign_out(self) {
        self.credits.set(None);
        self.signed_in.set(None);
    }

    /// The server answered 401: back to sign-in, with a message.
    pub fn expire(self) {
        let was_signed_in = self.signed_in.with_untracked(Option::is_some);
        self.sign_out();
        self.expired.set(was_signed_in);
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
        expired: RwSignal::new(false),
    };
    provide_context(session);
    session
}

/// The session provided by [`provide_session`].
pub fn use_session() -> Session {
    expect_context::<Session>()
}
