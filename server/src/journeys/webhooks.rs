//! The addresses a journey's webhook steps post to. Each is one of the account's `JOURNEY`
//! webhooks, whose secret signs the posts, whose log keeps them and whose pause holds them, as
//! for any webhook. Saving a journey that names a new address adds its webhook (live, without a
//! secret) when the caller may change webhooks; a role that may not names only the addresses
//! someone who may has added, so that a composer cannot send contacts' numbers elsewhere.

use texto_core::{Action, FieldError, Journey, NodeKind, Program};

use super::wire_path;
use crate::{
    Error,
    account::webhooks::check_url,
    http::auth::Caller,
    state::AppState,
    store::{NewWebhook, Page, WebhookType},
};

/// The addresses `journey` posts to that the account has no `JOURNEY` webhook for yet, each
/// once; an address the caller may not add, or that webhooks may not use, goes to `errors`.
pub(super) async fn missing(
    state: &AppState,
    caller: &Caller,
    journey: &Journey,
    errors: &mut Vec<FieldError>,
) -> Result<Vec<String>, Error> {
    let program = Program::of(journey);
    let mut posts: Vec<(String, &str)> = Vec::new();
    for node in &program.nodes {
        if let NodeKind::Webhook(url) = &node.kind {
            posts.push((format!("{}.url", wire_path(&node.path)), url));
        }
    }
    if posts.is_empty() {
        return Ok(Vec::new());
    }
    let known = journey_webhooks(state, caller).await?;
    let mut missing: Vec<String> = Vec::new();
    for (path, url) in posts {
        if known.iter().any(|k| k == url) || missing.iter().any(|m| m == url) {
            continue;
        }
        if !caller.role.may(Action::EditDelivery) {
            let why = "the account has no JOURNEY webhook at this address: someone who may change webhooks adds it";
            errors.push(FieldError::new(path, why));
            continue;
        }
        match check_url(url, state.config.allow_private_webhooks) {
            Ok(()) => missing.push(url.to_owned()),
            Err(why) => errors.push(FieldError::new(path, why)),
        }
    }
    Ok(missing)
}

/// Adds a `JOURNEY` webhook, live and without a secret, at each address.
pub(super) async fn add(state: &AppState, caller: &Caller, urls: Vec<String>) -> Result<(), Error> {
    for url in urls {
        let new = NewWebhook { kind: WebhookType::Journey, url: &url, secret: None };
        let record = state.store.create_webhook(caller.account, new).await?;
        tracing::info!(webhook = record.id, "JOURNEY webhook added by a journey's step");
    }
    Ok(())
}

/// The addresses of the account's `JOURNEY` webhooks.
async fn journey_webhooks(state: &AppState, caller: &Caller) -> Result<Vec<String>, Error> {
    let mut urls = Vec::new();
    let mut start = 0;
    loop {
        let (page, total) = state.store.webhooks(caller.account, Page { start, length: 100 }).await?;
        start += page.len() as i64;
        let done = page.is_empty() || start >= total;
        urls.extend(page.into_iter().filter(|w| w.kind == WebhookType::Journey).map(|w| w.url));
        if done {
            return Ok(urls);
        }
    }
}
