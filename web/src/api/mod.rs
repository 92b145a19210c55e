//! The one place the app talks to the server: JSON over the interface, with the bearer token.
//!
//! Bodies are written and read with `texto-core`'s own codec, so the app speaks exactly the
//! documents the server does. A 401 anywhere ends the session.

mod error;
mod paths;

use gloo_net::http::{Method, RequestBuilder};
use leptos::prelude::*;
use serde::de::DeserializeOwned;
use texto_core::wire::{
    ConversationsResponse, CreditsResponse, Document, Format, SessionResponse, SignInDto, SignInRequest, encode,
};

pub use error::ApiError;
pub use paths::{Paging, with_query};

use crate::session::{Session, SignedIn, use_session};

/// A handle on the server for the signed-in session.
#[derive(Clone, Copy)]
pub struct Api {
    session: Session,
}

/// The API client of the current session.
pub fn use_api() -> Api {
    Api { session: use_session() }
}

impl Api {
    /// An API client acting with `session`'s token.
    pub fn new(session: Session) -> Api {
        Api { session }
    }

    /// `GET path`.
    pub async fn get<T: Document + DeserializeOwned>(self, path: &str) -> Result<T, ApiError> {
        read(&self.call(Method::GET, path, None).await?)
    }

    /// `DELETE path`.
    pub async fn delete<T: Document + DeserializeOwned>(self, path: &str) -> Result<T, ApiError> {
        read(&self.call(Method::DELETE, path, None).await?)
    }

    /// `DELETE path` with `body`.
    pub async fn delete_with<B: Document, T: Document + DeserializeOwned>(
        self,
        path: &str,
        body: &B,
    ) -> Result<T, ApiError> {
        read(&self.call(Method::DELETE, path, Some(encode(body, Format::Json))).await?)
    }

    /// `GET path`, answered as text (a CSV export).
    pub async fn get_text(self, path: &str) -> Result<String, ApiError> {
        self.call(Method::GET, path, None).await
    }

    /// `POST path` without a body.
    pub async fn post_empty<T: Document + DeserializeOwned>(self, path: &str) -> Result<T, ApiError> {
        read(&self.call(Method::POST, path, None).await?)
    }

    /// `POST path` with `body`.
    pub async fn post<B: Document, T: Document + DeserializeOwned>(self, path: &str, body: &B) -> Result<T, ApiError> {
        read(&self.call(Method::POST, path, Some(encode(body, Format::Json))).await?)
    }

    /// `method path` with `body`, answered as its text, for an answer that borrows from it
    /// (read it with [`read_borrowed`]).
    pub async fn text_of<B: Document>(self, method: Method, path: &str, body: Option<&B>) -> Result<String, ApiError> {
        self.call(method, path, body.map(|body| encode(body, Format::Json))).await
    }

    /// `PUT path` without a body.
    pub async fn put_empty<T: Document + DeserializeOwned>(self, path: &str) -> Result<T, ApiError> {
        read(&self.call(Method::PUT, path, None).await?)
    }

    /// `PUT path` with `body`.
    pub async fn put<B: Document, T: Document + DeserializeOwned>(self, path: &str, body: &B) -> Result<T, ApiError> {
        read(&self.call(Method::PUT, path, Some(encode(body, Format::Json))).await?)
    }

    /// Exchanges an API token for a session, if the server accepts it.
    pub async fn try_token(self, token: &str) -> Result<(), ApiError> {
        let answer =
            request(Method::POST, "/session", Credentials { token: Some(token), ..Credentials::default() }, None)
                .await?;
        self.signed_in(&answer)
    }

    /// `POST path` with `body` before anyone is signed in (one-time links, password resets).
    pub async fn post_public<B: Document, T: Document + DeserializeOwned>(path: &str, body: &B) -> Result<T, ApiError> {
        read(&request(Method::POST, path, Credentials::default(), Some(encode(body, Format::Json))).await?)
    }

    /// Signs a person in with their email and password (and the authentication code, when
    /// two-factor sign-in is on).
    pub async fn sign_in(self, email: &str, password: &str, code: Option<String>) -> Result<(), ApiError> {
        let session = SignInDto { email: Some(email.into()), password: Some(password.into()), code };
        let body = SignInRequest { session };
        let answer =
            request(Method::POST, "/session", Credentials::default(), Some(encode(&body, Format::Json))).await?;
        self.signed_in(&answer)
    }

    /// Asks the server whether this browser has a session open (after a reload).
    pub async fn resume(self) {
        match request(Method::GET, "/me", Credentials::default(), None).await {
            Ok(answer) => {
                let _ = self.signed_in(&answer);
            }
            Err(error) if error.is_unauthorized() => self.session.none_on_load(),
            Err(_) => self.session.checked.set(true),
        }
    }

    /// Ends the session on the server, then here.
    pub async fn sign_out(self) {
        let _ = self.call(Method::DELETE, "/session", None).await;
        self.session.sign_out();
    }

    /// Keeps the session a `SessionResponse` describes.
    fn signed_in(self, answer: &str) -> Result<(), ApiError> {
        let who: SessionResponse = read(answer)?;
        let role = who.role.parse().map_err(|_| ApiError::unreadable(200, "an unknown role"))?;
        self.session.sign_in(SignedIn {
            actor: who.actor,
            role,
            csrf: who.csrf_token.unwrap_or_default(),
            two_factor_required: who.two_factor_required == 1,
        });
        Ok(())
    }

    /// Reads the balance again into the session (the header shows it).
    pub async fn refresh_credits(self) {
        if let Ok(answer) = self.get::<CreditsResponse>("/credits").await {
            self.session.credits.set(answer.credits.parse().ok());
        }
    }

    /// Reads again how many conversations have unread replies (the navigation shows it).
    pub async fn refresh_unread(self) {
        if let Ok(answer) = self.get::<ConversationsResponse>("/conversations?length=1").await {
            self.session.unread.set(Some(answer.unread_conversations));
        }
    }

    /// Sets the balance the server just reported (after a send or a cancel).
    pub fn set_credits(self, credits: f64) {
        self.session.credits.set(Some(credits));
    }

    /// `GET path` in the person's own account, whichever sub-account the tab acts in (the
    /// account switcher's list).
    pub async fn get_at_home<T: Document + DeserializeOwned>(self, path: &str) -> Result<T, ApiError> {
        read(&self.call_in(None, Method::GET, path, None).await?)
    }

    /// One call in the account the tab acts in.
    async fn call(self, method: Method, path: &str, body: Option<String>) -> Result<String, ApiError> {
        let account = self.session.account.get_untracked();
        self.call_in(account.as_deref(), method, path, body).await
    }

    /// One call with the session's cookie (and its CSRF value), in the sub-account `account`
    /// if one is named; a 401 ends the session.
    async fn call_in(
        self,
        account: Option<&str>,
        method: Method,
        path: &str,
        body: Option<String>,
    ) -> Result<String, ApiError> {
        let Some(csrf) = self.session.signed_in.with_untracked(|who| who.as_ref().map(|w| w.csrf.clone())) else {
            return Err(ApiError::unauthorized());
        };
        let answer = request(method, path, Credentials { token: None, csrf: Some(&csrf), account }, body).await;
        if answer.as_ref().err().is_some_and(ApiError::is_unauthorized) {
            self.session.expire();
        }
        answer
    }
}

/// One call with a bearer `token` alone, no session (the operator's console); JSON both ways.
pub async fn with_bearer<T: Document + DeserializeOwned>(
    method: Method,
    path: &str,
    token: &str,
    body: Option<String>,
) -> Result<T, ApiError> {
    read(&request(method, path, Credentials { token: Some(token), ..Credentials::default() }, body).await?)
}

/// A success answer read into `T`. Kept apart from the request so that the request code is
/// compiled once, not once per answer type (it is most of the app's size otherwise).
fn read<T: Document + DeserializeOwned>(text: &str) -> Result<T, ApiError> {
    read_borrowed(text)
}

/// A success answer read into `T`, which may borrow from `text` (a draft's recipients).
pub fn read_borrowed<'a, T: Document + serde::Deserialize<'a>>(text: &'a str) -> Result<T, ApiError> {
    serde_json::from_str(text).map_err(|e| ApiError::unreadable(200, &e.to_string()))
}

/// How a request proves who sends it, and the sub-account it acts in.
#[derive(Default, Clone, Copy)]
struct Credentials<'a> {
    /// A bearer token (exchanged for a session).
    token: Option<&'a str>,
    /// The session's CSRF value (the browser adds the cookie).
    csrf: Option<&'a str>,
    /// The sub-account acted in.
    account: Option<&'a str>,
}

/// One request with `credentials`; JSON both ways; the body of a 2xx answer, or an
/// [`ApiError`].
async fn request(
    method: Method,
    path: &str,
    credentials: Credentials<'_>,
    body: Option<String>,
) -> Result<String, ApiError> {
    let mut builder = RequestBuilder::new(path).method(method).header("Accept", "application/json");
    if let Some(token) = credentials.token {
        builder = builder.header("Authorization", &format!("Bearer {token}"));
    }
    if let Some(csrf) = credentials.csrf {
        builder = builder.header("X-CSRF-Token", csrf);
    }
    if let Some(account) = credentials.account {
        builder = builder.header("X-Texto-Account", account);
    }
    let request = match body {
        Some(body) => builder.header("Content-Type", "application/json").body(body),
        None => builder.build(),
    }
    .map_err(|_| ApiError::network())?;
    let response = request.send().await.map_err(|_| ApiError::network())?;
    let status = response.status();
    let text = response.text().await.map_err(|_| ApiError::network())?;
    if !(200..300).contains(&status) {
        return Err(ApiError::from_answer(status, &text));
    }
    Ok(text)
}
