//! The `Idempotency-Key` header of `POST /send`, `POST /send/lists` and `GET /send`: a client
//! that sends a request again with the key of its first try gets the first answer back and is
//! charged once (docs/interface.md §3.6).

use axum::{extract::FromRequestParts, http::request::Parts};
use chrono::Utc;
use sha2::{Digest, Sha256};
use texto_core::{FieldError, wire::CampaignResultDto};

use crate::{
    Error,
    state::AppState,
    store::{AccountId, Created, IdempotencyKey, StoredAnswer, kept_since, replay_of},
};

/// The header.
const HEADER: &str = "idempotency-key";
/// The longest key taken.
const MOST_CHARS: usize = 255;

/// The request's key and what it is made of but its body; `None` without the header.
pub(crate) struct RetryKey(Option<KeyedRequest>);

/// A request that carries a key.
pub(crate) struct KeyedRequest {
    key: String,
    /// Method, path and query: with the body, what makes two requests the same.
    target: String,
}

impl FromRequestParts<AppState> for RetryKey {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, _: &AppState) -> Result<RetryKey, Error> {
        let Some(value) = parts.headers.get(HEADER) else { return Ok(RetryKey(None)) };
        let key = value.to_str().ok().map(str::trim).filter(|key| {
            !key.is_empty() && key.chars().count() <= MOST_CHARS && key.chars().all(|c| c.is_ascii_graphic())
        });
        let Some(key) = key else {
            return Err(Error::Invalid(vec![FieldError::new(
                "Idempotency-Key",
                format!("the key is 1 to {MOST_CHARS} visible ASCII characters"),
            )]));
        };
        let target = format!("{} {}", parts.method, parts.uri.path_and_query().map_or("", |p| p.as_str()));
        Ok(RetryKey(Some(KeyedRequest { key: key.to_owned(), target })))
    }
}

impl RetryKey {
    /// No key: what simulations, which write nothing, go with.
    pub(crate) const NONE: RetryKey = RetryKey(None);

    /// The key of a send texto makes itself (an automatic reply), so that sending it again
    /// after a crash replays the first send.
    pub(crate) fn internal(key: String) -> RetryKey {
        RetryKey(Some(KeyedRequest { key, target: "texto".to_owned() }))
    }

    /// The key, if the request has one.
    pub(crate) fn key(&self) -> Option<&str> {
        self.0.as_ref().map(|keyed| keyed.key.as_str())
    }

    /// What the store keeps for the request whose [`RetryKey::fingerprint`] is `fingerprint`.
    pub(crate) fn to_store(&self, fingerprint: String) -> Option<IdempotencyKey> {
        let keyed = self.0.as_ref()?;
        Some(IdempotencyKey { key: keyed.key.clone(), fingerprint })
    }

    /// The first answer to this key, when the request (whose [`RetryKey::fingerprint`] is
    /// `fingerprint`) is a retry; a refusal when the key was used for another request. Asked
    /// only of a request refused before its write: the write itself tells a retry that passes.
    pub(crate) async fn first_answer(
        &self,
        state: &AppState,
        account: AccountId,
        fingerprint: Option<&str>,
    ) -> Result<Option<CampaignResultDto>, Error> {
        let (Some(key), Some(fingerprint)) = (self.key(), fingerprint) else { return Ok(None) };
        let stored = state.store.idempotent_answer(account, key, kept_since(Utc::now())).await?;
        match replay_of(stored.as_ref(), fingerprint)? {
            Some(Created::Replayed(first)) => replayed(state, &first).await.map(Some),
            _ => Ok(None),
        }
    }

    /// The hash that tells a retry (the same) from another request (another).
    pub(crate) fn fingerprint(&self, body: &str) -> Option<String> {
        let keyed = self.0.as_ref()?;
        let mut hash = Sha256::new();
        hash.update(keyed.target.as_bytes());
        hash.update([0]);
        hash.update(body.as_bytes());
        // Half of SHA-256 (128 bits) tells requests apart as surely, in half the bytes kept.
        Some(hex::encode(&hash.finalize()[..16]))
    }
}

/// The first answer, as it was sent: -8 again while its campaign is held for moderation.
pub(crate) async fn replayed(state: &AppState, stored: &StoredAnswer) -> Result<CampaignResultDto, Error> {
    let mut answer: CampaignResultDto = serde_json::from_str(&stored.answer)
        .map_err(|_| Error::Unavailable("a stored answer to an idempotency key is damaged"))?;
    answer.ticket = Some(stored.ticket.to_string());
    answer.credits = stored.balance.as_f64();
    if state.store.held_campaign(stored.ticket).await?.is_some() {
        crate::operator::moderation::mark_held(&mut answer);
    }
    Ok(answer)
}
