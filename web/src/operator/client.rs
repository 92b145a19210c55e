//! The console's side of the server: every call carries the operator's token, kept in this
//! tab only (sessionStorage); a 401 signs the operator out.

use gloo_net::http::Method;
use leptos::prelude::*;
use serde::de::DeserializeOwned;
use texto_core::wire::{Document, Format, StatusResponse, encode};

use crate::{api::ApiError, storage};

const TOKEN_KEY: &str = "texto.operator_token";
/// How a session's token (from a password sign-in) begins.
const SESSION_PREFIX: &str = "texto_ops_";

/// The operator's token, provided to the console.
#[derive(Clone, Copy)]
pub struct Console {
    token: RwSignal<Option<String>>,
}

impl Console {
    /// The console of this tab, signed in if the tab kept a token.
    pub fn provide() -> Console {
        let console = Console { token: RwSignal::new(storage::tab_get(TOKEN_KEY)) };
        provide_context(console);
        console
    }

    /// Whether an operator is signed in.
    pub fn signed_in(self) -> bool {
        self.token.with(Option::is_some)
    }

    /// Checks `token` with the server and keeps it if it is an operator's.
    pub async fn sign_in(self, token: String) -> Result<(), ApiError> {
        let token = token.trim().to_owned();
        crate::api::with_bearer::<texto_core::wire::PlansResponse>(Method::GET, "/operator/plans", &token, None)
            .await?;
        storage::tab_set(TOKEN_KEY, Some(&token));
        self.token.set(Some(token));
        Ok(())
    }

    /// Signs in with the operator's name and password: keeps the session's token.
    pub async fn sign_in_with_password(self, name: String, password: String) -> Result<(), ApiError> {
        let request = texto_core::wire::OperatorSignInRequest { name: Some(name), password: Some(password) };
        let answer: texto_core::wire::OperatorSessionResponse =
            crate::api::Api::post_public("/operator/session", &request).await?;
        storage::tab_set(TOKEN_KEY, Some(&answer.token));
        self.token.set(Some(answer.token));
        Ok(())
    }

    /// Ends the session on the server when the operator signed in with a password, then
    /// forgets the token here.
    pub async fn end(self) {
        if self.token.with_untracked(|t| t.as_deref().is_some_and(|t| t.starts_with(SESSION_PREFIX))) {
            let _ = self.send::<StatusResponse>(Method::DELETE, "/operator/session", None).await;
        }
        self.sign_out();
    }

    /// Forgets the token.
    pub fn sign_out(self) {
        storage::tab_set(TOKEN_KEY, None);
        self.token.set(None);
    }

    /// `GET path`.
    pub async fn get<T: Document + DeserializeOwned>(self, path: &str) -> Result<T, ApiError> {
        self.call(Method::GET, path, None).await
    }

    /// `method path` with `body`, answered with a status.
    pub async fn send<B: Document>(self, method: Method, path: &str, body: Option<&B>) -> Result<(), ApiError> {
        self.call::<StatusResponse>(method, path, body.map(|b| encode(b, Format::Json))).await.map(|_| ())
    }

    /// `method path` with `body`, answered with `T`.
    pub async fn call<T: Document + DeserializeOwned>(
        self,
        method: Method,
        path: &str,
        body: Option<String>,
    ) -> Result<T, ApiError> {
        let Some(token) = self.token.get_untracked() else { return Err(ApiError::unauthorized()) };
        let answer = crate::api::with_bearer(method, path, &token, body).await;
        if answer.as_ref().err().is_some_and(ApiError::is_unauthorized) {
            self.sign_out();
        }
        answer
    }
}

/// The console provided by [`Console::provide`].
pub fn use_console() -> Console {
    expect_context::<Console>()
}

/// A reactive accessor of the console's texts in the current language.
pub fn use_op_texts() -> impl Fn() -> &'static super::texts::Texts + Copy + Send + Sync + 'static {
    let lang = crate::i18n::use_lang();
    move || match lang.get() {
        crate::i18n::Lang::En => &super::texts::EN,
        crate::i18n::Lang::Fr => &super::texts::FR,
    }
}
