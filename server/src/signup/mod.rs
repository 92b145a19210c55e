//! Sign-up pages (texto's addition, issue 40): `api` sets an account's pages, `join` serves
//! them at `/join/{slug}` with double opt-in (a code by SMS, typed on the page), and `replies`
//! confirms the sign-ups whose SMS was answered OUI or YES. A confirmed number joins the page's
//! list with its consent recorded: the text shown, when, from where, and how it was confirmed.

pub(crate) mod api;
mod html;
mod join;
pub(crate) mod replies;

use axum::Router;
use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};
use texto_core::{CODE_DIGITS, PageLanguage, Role};

use crate::{
    Error,
    inbox::outgoing,
    sending::service::Sender,
    state::AppState,
    store::{
        account_contacts::ConsentRecord,
        approval::Hand,
        signups::{Confirmation, ConfirmedBy, PendingSignup, SavedSignupPage},
    },
};

pub(crate) fn router() -> Router<AppState> {
    api::router().merge(join::router())
}

/// A new code: [`CODE_DIGITS`] random figures.
fn new_code() -> Result<String, Error> {
    let random = getrandom::u32().map_err(|_| Error::Unavailable("no randomness for a code"))?;
    Ok(format!("{:0width$}", random % 10u32.pow(CODE_DIGITS as u32), width = CODE_DIGITS))
}

/// How a code is kept: the SHA-256 of the number and the code, in hex.
fn code_hash(number: i64, code: &str) -> String {
    hex::encode(Sha256::digest(format!("{number}:{}", code.trim())))
}

/// Sends sign-up `id`'s code to `number` as the page's account, through the send flow (its
/// rules and its cost); a send that fails lets the next sign-up of the number send again.
async fn send_code(
    state: &AppState,
    page: &SavedSignupPage,
    id: i64,
    number: i64,
    code: &str,
    language: PageLanguage,
) -> Result<(), Error> {
    let text = language.confirmation_text(&page.page.title, code);
    let from = Sender {
        account: page.account,
        role: Role::Sender,
        actor: format!("texto (sign-up page {})", page.page.slug.as_str()),
        hand: Hand::Unknown,
        replying: false,
        approved: true,
    };
    let key = format!("texto-signup-{id}");
    let sent = outgoing::send_once(state, from, key, &number.to_string(), &text).await;
    match sent {
        Ok(answered) if answered.result.sent > 0 => Ok(()),
        Ok(_) => {
            state.store.forget_signup_send(id).await?;
            Err(Error::Unavailable("the code's SMS (the number is blacklisted, NPAI or flooded)"))
        }
        Err(error) => {
            state.store.forget_signup_send(id).await?;
            Err(error)
        }
    }
}

/// Confirms `signup` of `page`: its number joins the list, its card takes the fields given, and
/// its opt-in records the consent text, when, the page and the visitor's address, and how it
/// was confirmed. `false` when it was already confirmed.
async fn confirm(
    state: &AppState,
    page: &SavedSignupPage,
    signup: PendingSignup,
    by: ConfirmedBy,
    now: DateTime<Utc>,
) -> Result<bool, Error> {
    let how = match by {
        ConfirmedBy::Code => "the code sent by SMS, typed on the page",
        ConfirmedBy::Reply => "a reply OUI or YES to the SMS",
    };
    let proof = format!(
        "ticked \"{}\" on the sign-up page at {} from {}; confirmed by {how}",
        page.page.consent_text,
        signup.created_at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        signup.address
    );
    let origin = state.config.public_url.as_deref().unwrap_or("").trim_end_matches('/');
    let consent = ConsentRecord {
        at: now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        source: "form".to_owned(),
        proof,
        address: format!("{origin}/join/{}", page.page.slug.as_str()),
    };
    let confirmation = Confirmation { signup, by, list: page.page.list, consent, at: now };
    state.store.confirm_signup(confirmation).await
}
