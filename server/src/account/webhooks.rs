//! Webhooks (docs/interface.md §2, §7): create, list, update, pause and resume, delete, and the
//! request log.

use std::net::IpAddr;

use axum::{
    Router,
    extract::{Path, Query, State, rejection::QueryRejection},
    response::Response,
    routing::{get, post, put},
};
use texto_core::{
    Action, FieldError, format_paris,
    wire::{
        WebhookDeletedResponse, WebhookDto, WebhookListResponse, WebhookLogEntryDto, WebhookLogResponse,
        WebhookRequest, WebhookResponse,
    },
};
use url::{Host, Url};

use crate::{
    Error,
    http::{
        Accept,
        auth::Caller,
        body::WireBody,
        inputs::{path_id, query},
    },
    state::AppState,
    store::{DeliveryRecord, NewWebhook, Page, WebhookChange, WebhookRecord, WebhookStatus, WebhookType},
    webhook_sender::net_guard,
};

pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .route("/webhook", post(create).get(list))
        .route("/webhook/{id}", put(update).delete(remove))
        .route("/webhook/{id}/status", put(set_status))
        .route("/webhook/{id}/log", get(log))
}

/// Longest `url` accepted: far above any real endpoint, low enough to keep rows small.
const MAX_URL_CHARS: usize = 2048;
/// Longest `signature` (secret) accepted.
const MAX_SECRET_CHARS: usize = 256;

/// What `signature` shows, in place of the secret, to a caller whose role may not change
/// webhooks: that one is set, in the string the SDKs expect, without what it is (with it, they
/// could sign events the receiver would take for texto's).
const HIDDEN_SECRET: &str = "********";

/// The webhook as the interface shows it to `caller`: `signature` and `last_http_code` are
/// null when unset, and a secret is [`HIDDEN_SECRET`] unless the caller may change webhooks.
fn dto(record: &WebhookRecord, caller: &Caller) -> WebhookDto {
    let shown = caller.role.may(Action::EditDelivery);
    WebhookDto {
        webhook_id: Some(record.id.to_string()),
        kind: Some(record.kind.as_str().to_owned()),
        url: Some(record.url.clone()),
        status: Some(record.status.as_str().to_owned()),
        signature: Some(record.secret.as_ref().map(|secret| if shown { secret.clone() } else { HIDDEN_SECRET.into() })),
        last_http_code: Some(record.last_http_code),
    }
}

fn answer(accept: Accept, record: &WebhookRecord, caller: &Caller) -> Response {
    accept.ok(&WebhookResponse { status: 1, message: "OK".into(), webhook: dto(record, caller) })
}

/// A webhook id from the path; anything that is not one names no webhook.
fn webhook_id(id: &str) -> Result<i64, Error> {
    path_id(id).ok_or_else(|| Error::NotFound(format!("webhook {id}")))
}

/// `Err` with every problem found, or `Ok` when there was none.
fn checked(problems: Vec<FieldError>) -> Result<(), Error> {
    if problems.is_empty() { Ok(()) } else { Err(Error::Invalid(problems)) }
}

/// `webhook.type`: one of the five names, as the interface spells them.
fn kind(value: &str, problems: &mut Vec<FieldError>) -> Option<WebhookType> {
    let kind = WebhookType::parse(value.trim());
    if kind.is_none() {
        let names: Vec<&str> = WebhookType::ALL.iter().map(|t| t.as_str()).collect();
        problems.push(FieldError::new(
            "webhook.type",
            format!("{} is not a webhook type: expected one of {}", texto_core::excerpt(value), names.join(", ")),
        ));
    }
    kind
}

/// `webhook.status`: `live` or `paused`.
fn status(value: &str, problems: &mut Vec<FieldError>) -> Option<WebhookStatus> {
    let status = WebhookStatus::parse(value.trim());
    if status.is_none() {
        problems.push(FieldError::new(
            "webhook.status",
            format!("{} is not a webhook status: expected live or paused", texto_core::excerpt(value)),
        ));
    }
    status
}

/// `webhook.url` (docs/interface.md §7.1): an absolute http or https URL with a host, which must not be
/// private, loopback, link-local or unspecified unless the server allows private webhooks.
/// Only literal addresses and `localhost` are recognised: names are not resolved, so a public
/// name pointing at a private address is the delivery's concern, not this check's.
fn url(value: &str, allow_private: bool, problems: &mut Vec<FieldError>) -> Option<String> {
    let value = value.trim();
    let problem = match check_url(value, allow_private) {
        Ok(()) => return Some(value.to_owned()),
        Err(problem) => problem,
    };
    problems.push(FieldError::new("webhook.url", problem));
    None
}

/// Why `value` may not be a webhook's address (empty, too long, not an absolute http(s) URL,
/// or private unless `allow_private`), if it may not.
pub(crate) fn check_url(value: &str, allow_private: bool) -> Result<(), String> {
    if value.is_empty() {
        return Err("the url is empty: give the absolute http(s) URL that receives the events".into());
    }
    if value.chars().count() > MAX_URL_CHARS {
        return Err(format!("the url is over {MAX_URL_CHARS} characters"));
    }
    // The URL parser drops tabs and line breaks silently; the value is stored as given.
    texto_core::LineText::parse(value).map_err(|why| format!("the url {why}"))?;
    let parsed =
        Url::parse(value).map_err(|e| format!("{} is not an absolute URL ({e})", texto_core::excerpt(value)))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(format!(
            "{} is a {} URL: webhooks are http or https",
            texto_core::excerpt(value),
            texto_core::excerpt(parsed.scheme())
        ));
    }
    let host = parsed.host().ok_or_else(|| format!("{} has no host", texto_core::excerpt(value)))?;
    if allow_private {
        return Ok(());
    }
    let private = match host {
        Host::Domain(name) => {
            let name = name.trim_end_matches('.').to_ascii_lowercase();
            name == "localhost" || name.ends_with(".localhost")
        }
        Host::Ipv4(ip) => net_guard::is_private(IpAddr::V4(ip)),
        Host::Ipv6(ip) => net_guard::is_private(IpAddr::V6(ip)),
    };
    if private {
        return Err(format!(
            "{} points at a private, loopback or link-local address: webhooks go to public addresses",
            texto_core::excerpt(value)
        ));
    }
    Ok(())
}

/// `webhook.signature`: empty or null means no secret.
fn secret(value: Option<&str>, problems: &mut Vec<FieldError>) -> Option<String> {
    let value = value.map(str::trim).filter(|s| !s.is_empty())?;
    if value.chars().count() > MAX_SECRET_CHARS {
        problems
            .push(FieldError::new("webhook.signature", format!("the secret is over {MAX_SECRET_CHARS} characters")));
        return None;
    }
    Some(value.to_owned())
}

fn required(path: &str, what: &str, problems: &mut Vec<FieldError>) {
    problems.push(FieldError::new(path, format!("{what} is required")));
}

/// `POST /webhook`: `type` and `url` required, `signature` optional. A new webhook is `live`,
/// never delivered.
#[utoipa::path(
    post,
    path = "/webhook",
    tag = "webhooks",
    request_body = texto_core::wire::WebhookRequest,
    responses((status = 200, description = "The new webhook (live)", body = texto_core::wire::WebhookResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn create(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    body: WireBody,
) -> Result<Response, Error> {
    let WebhookRequest { webhook } = body.decode()?;
    let mut problems = Vec::new();
    let kind = match webhook.kind.as_deref() {
        Some(value) => kind(value, &mut problems),
        None => {
            required("webhook.type", "the type (MO, DLR, STOP, CLICKER, BALANCE_ALERT or JOURNEY)", &mut problems);
            None
        }
    };
    let url = match webhook.url.as_deref() {
        Some(value) => url(value, state.config.allow_private_webhooks, &mut problems),
        None => {
            required("webhook.url", "the url", &mut problems);
            None
        }
    };
    let secret = secret(webhook.signature.flatten().as_deref(), &mut problems);
    // Each `None` pushed its problem.
    let (Some(kind), Some(url), true) = (kind, url, problems.is_empty()) else { return Err(Error::Invalid(problems)) };
    let record =
        state.store.create_webhook(caller.account, NewWebhook { kind, url: &url, secret: secret.as_deref() }).await?;
    tracing::info!(webhook = record.id, kind = kind.as_str(), "webhook created");
    Ok(answer(accept, &record, &caller))
}

/// `GET /webhook`: the account's webhooks, paged with `start` and `length`; their secrets only
/// to a role that may change webhooks.
#[utoipa::path(
    get,
    path = "/webhook",
    tag = "webhooks",
    params(("start" = Option<i64>, Query, description = "First record (default 0)"), ("length" = Option<i64>, Query, description = "Records per page (default 100, at most 1000)")),
    responses((status = 200, description = "The account's webhooks", body = texto_core::wire::WebhookListResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn list(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    page: Result<Query<Page>, QueryRejection>,
) -> Result<Response, Error> {
    let (records, total) = state.store.webhooks(caller.account, query(page)?).await?;
    let webhooks: Vec<_> = records.iter().map(|record| dto(record, &caller)).collect();
    Ok(accept.ok(&WebhookListResponse {
        status: 1,
        message: "OK".into(),
        webhook: webhooks.clone(),
        webhooks,
        total_records: total,
        total_display_records: total,
    }))
}

/// `PUT /webhook/:id`: changes the fields the body holds among `type`, `url`, `signature`
/// (null or empty stops signing) and `status`. A body holding only `status` pauses or
/// resumes the webhook, as `PUT /webhook/:id/status` does (docs/interface.md §2).
#[utoipa::path(
    put,
    path = "/webhook/{id}",
    tag = "webhooks",
    request_body = texto_core::wire::WebhookRequest,
    params(("id" = String, Path, description = "Webhook id")),
    responses((status = 200, description = "The webhook as changed", body = texto_core::wire::WebhookResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn update(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
    body: WireBody,
) -> Result<Response, Error> {
    let id = webhook_id(&id)?;
    let WebhookRequest { webhook } = body.decode()?;
    let mut problems = Vec::new();
    let change = WebhookChange {
        kind: webhook.kind.as_deref().and_then(|v| kind(v, &mut problems)),
        url: webhook.url.as_deref().and_then(|v| url(v, state.config.allow_private_webhooks, &mut problems)),
        secret: webhook.signature.as_ref().map(|v| secret(v.as_deref(), &mut problems)),
        status: webhook.status.as_deref().and_then(|v| status(v, &mut problems)),
    };
    if problems.is_empty() && change == WebhookChange::default() {
        problems.push(FieldError::new(
            "webhook",
            "nothing to change: give type, url or signature, or status (live or paused)",
        ));
    }
    checked(problems)?;
    let record = state.store.update_webhook(caller.account, id, change).await?;
    tracing::info!(webhook = id, "webhook updated");
    Ok(answer(accept, &record, &caller))
}

/// `PUT /webhook/:id/status`: `status` `live` or `paused`; other fields are ignored.
#[utoipa::path(
    put,
    path = "/webhook/{id}/status",
    tag = "webhooks",
    request_body = texto_core::wire::WebhookRequest,
    params(("id" = String, Path, description = "Webhook id")),
    responses((status = 200, description = "The webhook with its new status", body = texto_core::wire::WebhookResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn set_status(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
    body: WireBody,
) -> Result<Response, Error> {
    let id = webhook_id(&id)?;
    let WebhookRequest { webhook } = body.decode()?;
    let mut problems = Vec::new();
    let new_status = match webhook.status.as_deref() {
        Some(value) => status(value, &mut problems),
        None => {
            required("webhook.status", "the status (live or paused)", &mut problems);
            None
        }
    };
    checked(problems)?;
    let record = state
        .store
        .update_webhook(caller.account, id, WebhookChange { status: new_status, ..WebhookChange::default() })
        .await?;
    tracing::info!(webhook = id, status = record.status.as_str(), "webhook status changed");
    Ok(answer(accept, &record, &caller))
}

/// `DELETE /webhook/:id`: the webhook and its request log.
#[utoipa::path(
    delete,
    path = "/webhook/{id}",
    tag = "webhooks",
    params(("id" = String, Path, description = "Webhook id")),
    responses((status = 200, description = "Deleted; deleted_id is its id", body = texto_core::wire::WebhookDeletedResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn remove(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
) -> Result<Response, Error> {
    let id = webhook_id(&id)?;
    state.store.delete_webhook(caller.account, id).await?;
    tracing::info!(webhook = id, "webhook deleted");
    Ok(accept.ok(&WebhookDeletedResponse { status: 1, message: "OK".into(), deleted_id: id }))
}

fn log_entry(record: &DeliveryRecord) -> WebhookLogEntryDto {
    WebhookLogEntryDto {
        delivery_id: record.delivery_id.clone(),
        date: format_paris(record.at),
        event: record.event.clone(),
        attempt: record.attempt,
        http_code: record.http_code,
        latency_ms: record.latency_ms,
        error: record.error.clone(),
        body: record.body.clone(),
        id: Some(record.id),
        state: record.state.clone(),
    }
}

/// `GET /webhook/:id/log`: every delivery attempt (time, event, body, HTTP code, latency,
/// error, and its event's state), newest first, paged with `start` and `length`.
#[utoipa::path(
    get,
    path = "/webhook/{id}/log",
    tag = "webhooks",
    params(("id" = String, Path, description = "Webhook id"), ("start" = Option<i64>, Query, description = "First record (default 0)"), ("length" = Option<i64>, Query, description = "Records per page (default 100, at most 1000)")),
    responses((status = 200, description = "Delivery attempts, newest first", body = texto_core::wire::WebhookLogResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn log(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
    page: Result<Query<Page>, QueryRejection>,
) -> Result<Response, Error> {
    let id = webhook_id(&id)?;
    let (records, total) = state.store.webhook_log(caller.account, id, query(page)?).await?;
    Ok(accept.ok(&WebhookLogResponse {
        status: 1,
        message: "OK".into(),
        log: records.iter().map(log_entry).collect(),
        total_records: total,
        total_display_records: total,
    }))
}

#[cfg(test)]
mod tests {
    use super::check_url;

    #[test]
    fn public_urls_pass_and_private_ones_do_not() {
        for ok in [
            "https://example.com/hook",
            "http://93.184.216.34:8080/x?y=1",
            "https://[2606:2800:220:1::1]/",
            "https://user:pw@hooks.example.org",
        ] {
            assert_eq!(check_url(ok, false), Ok(()), "{ok}");
        }
        for refused in [
            "http://localhost/x",
            "http://LOCALHOST./x",
            "http://api.localhost/",
            "http://127.0.0.1/",
            "http://2130706433/",
            "http://0x7f.1/",
            "http://10.1.2.3/",
            "http://172.16.0.1/",
            "http://192.168.1.1/",
            "http://169.254.169.254/latest/meta-data",
            "http://100.64.0.1/",
            "http://0.0.0.0/",
            "http://255.255.255.255/",
            "http://[::1]/",
            "http://[::]/",
            "http://[fd00::1]/",
            "http://[fe80::1]/",
            "http://[::ffff:192.168.0.1]/",
            "http://[::ffff:127.0.0.1]/",
            "http://[64:ff9b::a9fe:a9fe]/",
            "http://[2002:a00:1::1]/",
            "http://[2001::f5ff:fffe]/",
            "http://224.0.0.1/",
        ] {
            assert!(check_url(refused, false).is_err(), "{refused}");
            assert_eq!(check_url(refused, true), Ok(()), "{refused} with private webhooks allowed");
        }
        for bad in [
            "",
            "example.com/hook",
            "/hook",
            "ftp://example.com/",
            "mailto:a@example.com",
            "file:///etc/passwd",
            "http://",
        ] {
            assert!(check_url(bad, true).is_err(), "{bad}");
        }
    }
}
