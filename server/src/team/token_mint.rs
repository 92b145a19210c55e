//! Minting API tokens, for the command line and `POST /token` alike: a random secret, stored
//! only by its hash, with its first characters to tell it apart.

use chrono::{DateTime, Utc};

use crate::{
    Error,
    store::{AccountId, NewToken, OneTimeLink, Store, TokenRecord, token_hash},
};

/// Characters of a token kept to tell it apart (`texto_` and four of its secret's).
const HINT_CHARS: usize = 10;

/// A new random token for `account`, stored by its hash; the token (shown this once) and
/// what was stored.
pub(crate) async fn mint(
    store: &dyn Store,
    account: AccountId,
    new: &NewToken,
    now: DateTime<Utc>,
) -> Result<(String, TokenRecord), Error> {
    let mut secret = [0u8; 24];
    getrandom::fill(&mut secret).map_err(|e| Error::Command(format!("no randomness for a token: {e}")))?;
    let token = format!("texto_{}", hex::encode(secret));
    let hint = format!("{}…", &token[..HINT_CHARS]);
    let record = store.add_token(account, &token_hash(&token), &hint, new, now).await?;
    Ok((token, record))
}

/// A random secret for a session, its CSRF value or a one-time link: 32 bytes, hex.
pub(crate) fn secret() -> Result<String, Error> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| Error::Command(format!("no randomness for a secret: {e}")))?;
    Ok(hex::encode(bytes))
}

/// Stores `link` under a new secret (by its hash); the secret, to put in the link's URL.
pub(crate) async fn issue_link(store: &dyn Store, link: &OneTimeLink) -> Result<String, Error> {
    let secret = secret()?;
    store.add_link(&token_hash(&secret), link).await?;
    Ok(secret)
}
