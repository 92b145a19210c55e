//! A two-factor code signs in once: the step of the last code used is recorded by one
//! statement, so that sign-ins sent at once with one code, on one node or several, pass once.

use chrono::Utc;
use texto_core::{Credits, Role};

use super::backends::Backend;
use crate::{
    store::TwoFactor,
    team::names::{Email, PersonName},
};

#[tokio::test]
async fn a_code_step_signs_in_once_even_when_tried_at_once() {
    for backend in Backend::all().await {
        let store = backend.store();
        let account = store.create_account("acme", Credits::ZERO).await.expect("an account");
        let (email, name) =
            (Email::parse("lea@acme.example").expect("an email"), PersonName::parse("Léa").expect("a name"));
        let user = store.add_user(account, &email, &name, "hash", Role::Sender, Utc::now()).await.expect("written");
        let user = user.expect("a new person");
        let on = TwoFactor { secret: Some("SECRET".into()), pending: None, recovery: String::new() };
        assert!(store.set_two_factor(user.id, &on, None).await.expect("on"));

        let tries = futures_util::future::join_all((0..8).map(|_| store.use_totp_step(user.id, 100))).await;
        assert_eq!(tries.iter().filter(|t| matches!(t, Ok(true))).count(), 1, "{backend}: {tries:?}");
        assert!(!store.use_totp_step(user.id, 99).await.expect("a try"), "{backend}: an earlier step");
        assert!(store.use_totp_step(user.id, 101).await.expect("a try"), "{backend}: a later step");

        let fewer_codes = TwoFactor { recovery: "used".into(), ..on.clone() };
        assert!(store.set_two_factor(user.id, &fewer_codes, None).await.expect("written"));
        assert!(!store.use_totp_step(user.id, 101).await.expect("a try"), "{backend}: the secret keeps its step");
        let replaced = TwoFactor { secret: Some("OTHER".into()), ..on };
        assert!(store.set_two_factor(user.id, &replaced, None).await.expect("written"));
        assert!(store.use_totp_step(user.id, 101).await.expect("a try"), "{backend}: a new secret starts afresh");
    }
}
