//! The one place the app talks to the server: JSON over the interface, with the bearer token.
//!
//! Bodies are written and read with `texto-core`'s own codec, so the app speaks exactly the
//! documents the server does. A 401 anywhere ends the session.

mod error;
mod paths;

use gloo_net::http::{Method, RequestBuilder};
use leptos::prelude::*;
use serde::de::DeserializeOwned;
use texto_core::wire::{CreditsResponse, Document, Format, encode};

pub use error::ApiError;
pub use paths::{Paging, with_query};

use crate::session::{Session, use_session};

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

    /// `PUT path` without a body.
    pub async fn put_empty<T: Document + DeserializeOwned>(self, path: &str) -> Result<T, ApiError> {
        read(&self.call(Method::PUT, path, None).await?)
    }

    /// `PUT path` with `body`.
    pub async fn put<B: Document, T: Document + DeserializeOwned>(self, path: &str, body: &B) -> Result<T, ApiError> {
        read(&self.call(Method::PUT, path, Some(encode(body, Format::Json))).await?)
    }

    /// Signs in with `token` if the server accepts it (reading the balance on the way).
    pub async fn try_token(self, token: &str) -> Result<(), ApiError> {
        let answer: CreditsResponse = read(&request(Method::GET, "/credits", token, None).await?)?;
        self.session.sign_in(token.to_owned());
        self.session.credits.set(answer.credits.parse().ok());
        Ok(())
    }

    /// Reads the balance again into the session (the header shows it).
    pub async fn refresh_credits(self) {
        if let Ok(answer) = self.get::<CreditsResponse>("/credits").await {
            self.session.credits.set(answer.credits.parse().ok());
        }
    }

    /// Sets the balance the server just reported (after a send or a cancel).
    pub fn set_credits(self, credits: f64) {
        self.session.credits.set(Some(credits));
    }

    /// One call with the session's token; a 401 ends the session.
    async fn call(self, method: Method, path: &str, body: Option<String>) -> Result<String, ApiError> {
        let Some(token) = self.session.token.get_untracked() else {
            return Err(ApiError::unauthorized());
        };
        let answer = request(method, path, &token, body).await;
        if answer.as_ref().err().is_some_and(ApiError::is_unauthorized) {
            self.session.expire();
        }
        answer
    }
}

/// A success answer read into `T`. Kept apart from the request so that the request code is
/// compiled once, not once per answer type (it is most of the app's size otherwise).
fn read<T: Document + DeserializeOwned>(text: &str) -> Result<T, ApiError> {
    serde_json::from_str(text).map_err(|e| ApiError::unreadable(200, &e.to_string()))
}

/// One request: the bearer token, JSON both ways; the body of a 2xx answer, or an [`ApiError`].
async fn request(method: Method, path: &str, token: &str, body: Option<String>) -> Result<String, ApiError> {
    let builder = RequestBuilder::new(path)
        .method(method)
        .header("Authorization", &format!("Bearer {token}"))
        .header("Accept", "application/json");
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
