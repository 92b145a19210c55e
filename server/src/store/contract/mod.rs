//! The store contract: the same scenarios run against SQLite and, when `TEXTO_TEST_POSTGRES`
//! names a PostgreSQL server (as `scripts/test` does), against PostgreSQL in a fresh database;
//! then what only several PostgreSQL nodes do (claims shared between two stores on one
//! database, a dead node's work taken over).

mod account_copies;
mod backends;
mod contention;
mod nodes;
mod outbox;
mod waves;

use texto_core::Credits;

use crate::{
    Error,
    store::{HttpErrors, Store},
};
use backends::Backend;

#[tokio::test]
async fn an_account_name_is_taken_once_and_top_ups_add_up() {
    for backend in Backend::all().await {
        let store = backend.store();
        let account = store.create_account("acme", Credits::whole(10)).await.expect("an account");
        assert_eq!(store.account_by_name("acme").await.expect("a look-up"), Some(account), "{backend}");
        let again = store.create_account("acme", Credits::whole(1)).await;
        assert!(matches!(again, Err(Error::Command(_))), "{backend}: {again:?}");
        assert_eq!(store.top_up(account, Credits::whole(5)).await.expect("a top-up"), Credits::whole(15), "{backend}");
        assert_eq!(store.balance(account).await.expect("a balance"), Credits::whole(15), "{backend}");
    }
}

#[tokio::test]
async fn a_token_authenticates_its_account_until_it_is_revoked() {
    for backend in Backend::all().await {
        let store = backend.store();
        let account = store.create_account("acme", Credits::ZERO).await.expect("an account");
        let hash = [7u8; 32];
        store.add_token(account, &hash, HttpErrors::Off).await.expect("a token");
        let found = store.account_for_token(&hash).await.expect("a look-up");
        assert_eq!(found, Some((account, HttpErrors::Off)), "{backend}: the token's account and its http_errors");
        assert!(store.revoke_token(&hash).await.expect("revoked"), "{backend}");
        assert_eq!(store.account_for_token(&hash).await.expect("a look-up"), None, "{backend}");
        assert!(!store.revoke_token(&hash).await.expect("a second revoke"), "{backend}: nothing left to revoke");
    }
}

/// The store behind a backend, as the handlers see it.
fn as_store(store: &dyn Store) -> &dyn Store {
    store
}
