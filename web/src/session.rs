//! Who is signed in: the API token (kept in the browser), the account's credits, and why the
//! last session ended.

use leptos::prelude::*;

use crate::storage;

const TOKEN_KEY: &str = "texto.token";

/// The signed-in state, shared through the context.
#[derive(Clone, Copy)]
pub struct Session {
    /// The bearer token; `None` shows the sign-in page.
    pub token: RwSignal<Option<String>>,
    /// The account's balance as last read from the server.
    pub credits: RwSignal<Option<f64>>,
    /// Set when the server refused the token mid-session (a 401): sign-in explains it.
    pub expired: RwSignal<bool>,
}

impl Session {
    /// Keeps `token` in the browser and signs in with it.
    pub fn sign_in(self, token: String) {
        storage::set(TOKEN_KEY, &token);
        self.expired.set(false);
        self.token.set(Some(token));
    }

    /// Forgets the token.
    pub fn sign_out(self) {
        storage::remove(TOKEN_KEY);
        self.credits.set(None);
        self.token.set(None);
    }

    /// The server answered 401: back to sign-in, with a message.
    pub fn expire(self) {
        self.sign_out();
        self.expired.set(true);
    }
}

/// Provides the session, signed in when the browser kept a token.
pub fn provide_session() -> Session {
    let session = Session {
        token: RwSignal::new(storage::get(TOKEN_KEY).filter(|t| !t.is_empty())),
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
