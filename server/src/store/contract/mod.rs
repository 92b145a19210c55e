//! The store contract: the same scenarios run against SQLite and, when `TEXTO_TEST_POSTGRES`
//! names a PostgreSQL server (as `scripts/test` does), against PostgreSQL in a fresh database;
//! then what only several PostgreSQL nodes do (claims shared between two stores on one
//! database, a dead node's work taken over).

mod account_copies;
mod backends;
mod contention;
mod journey_plans;
mod journeys;
mod nodes;
mod outbox;
mod two_factor_steps;
mod waves;
mod zones;

use texto_core::Credits;

use crate::{
    Error,
    store::{HttpErrors, NewToken, Store},
    team::names::{TokenLifetime, TokenName},
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
        let other = store.create_account("other", Credits::ZERO).await.expect("an account");
        let hash = [7u8; 32];
        let now = chrono::DateTime::parse_from_rfc3339("2026-11-25T10:00:00Z").unwrap().to_utc();
        let new = NewToken {
            name: TokenName::parse("Boutique").unwrap(),
            lifetime: Some(TokenLifetime::from_seconds(3600).unwrap()),
            allowed: vec!["10.0.0.0/8".parse().unwrap(), "::1".parse().unwrap()],
            http_errors: HttpErrors::Off,
            role: texto_core::Role::Sender,
            made_by: None,
        };
        let created = store.add_token(account, &hash, "texto_07…", &new, now).await.expect("a token");
        assert_eq!(created.name, "Boutique", "{backend}");
        assert_eq!(created.expires_at, Some(now + chrono::Duration::hours(1)), "{backend}");
        assert_eq!((created.ttl(), created.hint.as_str()), (Some(3600), "texto_07…"), "{backend}");
        assert_eq!(created.allowed, new.allowed, "{backend}");
        let grant = store.token_grant(&hash).await.expect("a look-up").expect("a grant");
        assert_eq!(
            (grant.account, grant.token, grant.http_errors),
            (account, created.id, HttpErrors::Off),
            "{backend}"
        );
        assert_eq!((grant.expires_at, grant.last_used_at), (created.expires_at, None), "{backend}");
        store.touch_token(created.id, now).await.expect("touched");
        assert_eq!(store.token(account, created.id).await.expect("read").and_then(|t| t.last_used_at), Some(now));
        assert_eq!(store.tokens(account).await.expect("listed").len(), 1, "{backend}");
        assert_eq!(store.token(other, created.id).await.expect("read"), None, "{backend}: not another's");
        assert!(!store.revoke_token_id(other, created.id).await.expect("refused"), "{backend}: not another's");
        assert!(store.revoke_token_id(account, created.id).await.expect("revoked"), "{backend}");
        assert_eq!(store.token_grant(&hash).await.expect("a look-up"), None, "{backend}");
        assert!(store.tokens(account).await.expect("listed").is_empty(), "{backend}");
        let again = [8u8; 32];
        store.add_token(account, &again, "", &new, now).await.expect("a token");
        assert!(store.revoke_token(&again).await.expect("revoked"), "{backend}");
        assert!(!store.revoke_token(&again).await.expect("a second revoke"), "{backend}: nothing left to revoke");
    }
}

/// The store behind a backend, as the handlers see it.
fn as_store(store: &dyn Store) -> &dyn Store {
    store
}
