//! Sending and simulating campaigns: `/send`, `/send/lists`, their simulations, `GET /send`
//! and `DELETE /send/:ticket`.

use std::borrow::Cow;

use axum::{
    Router,
    extract::{Path, Query, State},
    response::Response,
    routing::{delete, post},
};
use serde::Deserialize;
use texto_core::{
    Endpoint,
    wire::{CampaignResultDto, CancelledResponse, GsmDto, MessageDto, RecipientsDto, SmsRequest},
};

use crate::{
    Error,
    http::{Accept, access::noted, auth::Caller, body::WireBody, inputs::path_id},
    sending::{
        idempotency::RetryKey,
        service::{self, Blacklist},
    },
    state::AppState,
};

pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .route("/send", post(send).get(send_by_query))
        .route("/send/lists", post(send_lists))
        .route("/send/simulate", post(simulate_send).get(simulate_by_query))
        .route("/send/lists/simulate", post(simulate_lists))
        .route("/send/{ticket}", delete(cancel))
}

#[utoipa::path(
    post,
    path = "/send",
    tag = "send",
    request_body = texto_core::wire::SmsRequest,
    responses((status = 200, description = "The campaign result, with its ticket", body = texto_core::wire::CampaignResultDto), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn send(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    retry: RetryKey,
    body: WireBody,
) -> Result<Response, Error> {
    run_body(state, caller, accept, retry, body, Endpoint::Send).await
}

#[utoipa::path(
    post,
    path = "/send/lists",
    tag = "send",
    request_body = texto_core::wire::SmsRequest,
    responses((status = 200, description = "The campaign result, with its ticket", body = texto_core::wire::CampaignResultDto), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn send_lists(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    retry: RetryKey,
    body: WireBody,
) -> Result<Response, Error> {
    run_body(state, caller, accept, retry, body, Endpoint::SendLists).await
}

#[utoipa::path(
    post,
    path = "/send/simulate",
    tag = "send",
    request_body = texto_core::wire::SmsRequest,
    responses((status = 200, description = "The campaign result, without ticket; nothing is created", body = texto_core::wire::CampaignResultDto), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn simulate_send(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    body: WireBody,
) -> Result<Response, Error> {
    run_body(state, caller, accept, RetryKey::NONE, body, Endpoint::Simulate).await
}

#[utoipa::path(
    post,
    path = "/send/lists/simulate",
    tag = "send",
    request_body = texto_core::wire::SmsRequest,
    responses((status = 200, description = "The campaign result, without ticket; nothing is created", body = texto_core::wire::CampaignResultDto), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn simulate_lists(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    body: WireBody,
) -> Result<Response, Error> {
    run_body(state, caller, accept, RetryKey::NONE, body, Endpoint::SimulateLists).await
}

/// `GET /send?text=…&to=…` (one SMS), as by the public service.
#[derive(Deserialize)]
pub(crate) struct SendQuery {
    text: Option<String>,
    to: Option<String>,
    pushtype: Option<String>,
    delay: Option<String>,
    sender: Option<String>,
    gsmsmsid: Option<String>,
}

impl SendQuery {
    fn into_request(self) -> SmsRequest<'static> {
        SmsRequest {
            message: MessageDto {
                text: self.text,
                pushtype: self.pushtype.or_else(|| Some("alert".to_owned())),
                sender: self.sender,
                delay: self.delay,
                ..MessageDto::default()
            },
            recipients: self.to.map(|to| RecipientsDto {
                gsm: to
                    .split(',')
                    .map(|n| GsmDto {
                        value: Cow::Owned(n.trim().to_owned()),
                        gsmsmsid: self.gsmsmsid.clone().map(Cow::Owned),
                    })
                    .collect(),
            }),
            lists: None,
            segments: None,
        }
    }
}

#[utoipa::path(
    get,
    path = "/send",
    tag = "send",
    params(("text" = String, Query, description = "Message text"), ("to" = String, Query, description = "Recipient number(s), comma-separated"), ("pushtype" = Option<String>, Query, description = "alert (default) or marketing"), ("delay" = Option<String>, Query, description = "Y-m-d H:i:s, Europe/Paris"), ("sender" = Option<String>, Query, description = "Sender"), ("gsmsmsid" = Option<String>, Query, description = "Client id of the message"), ("token" = Option<String>, Query, description = "The token, instead of Authorization")),
    responses((status = 200, description = "The campaign result, with its ticket", body = texto_core::wire::CampaignResultDto), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn send_by_query(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    retry: RetryKey,
    Query(query): Query<SendQuery>,
) -> Result<Response, Error> {
    // On a task of its own, as `run_body` does.
    let task =
        tokio::spawn(
            async move { run(&state, caller, accept, (&retry, ""), query.into_request(), Endpoint::Send).await },
        );
    task.await.map_err(|_| Error::Unavailable("a send stopped unexpectedly"))?
}

#[utoipa::path(
    get,
    path = "/send/simulate",
    tag = "send",
    params(("text" = String, Query, description = "Message text"), ("to" = String, Query, description = "Recipient number(s), comma-separated"), ("token" = Option<String>, Query, description = "The token, instead of Authorization")),
    responses((status = 200, description = "The campaign result, without ticket; nothing is created", body = texto_core::wire::CampaignResultDto), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn simulate_by_query(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Query(query): Query<SendQuery>,
) -> Result<Response, Error> {
    run(&state, caller, accept, (&RetryKey::NONE, ""), query.into_request(), Endpoint::Simulate).await
}

/// Bodies from this size on are handled on the blocking pool.
const OFF_THE_ASYNC_THREADS: usize = 256 * 1024;

/// [`run`] on a posted body. A large one (a campaign of ten thousand numbers or more) takes
/// tens of milliseconds of CPU to decode and filter: it runs on a blocking thread so that the
/// async threads go on serving the small requests meanwhile.
async fn run_body(
    state: AppState,
    caller: Caller,
    accept: Accept,
    retry: RetryKey,
    body: WireBody,
    endpoint: Endpoint,
) -> Result<Response, Error> {
    // On a task of its own: a request that arrived whole is carried out even if its client
    // leaves before the answer (a retry with its idempotency key then gets that answer).
    let task = if body.text.len() < OFF_THE_ASYNC_THREADS {
        tokio::spawn(
            async move { run(&state, caller, accept, (&retry, &body.text), body.decode_sms()?, endpoint).await },
        )
    } else {
        let runtime = tokio::runtime::Handle::current();
        tokio::task::spawn_blocking(move || {
            runtime.block_on(async {
                run(&state, caller, accept, (&retry, &body.text), body.decode_sms()?, endpoint).await
            })
        })
    };
    task.await.map_err(|_| Error::Unavailable("a send stopped unexpectedly"))?
}

/// The send flow ([`service::answer`]) answered over HTTP, with the audit log's note of what it
/// did. `retry`: the request's idempotency key and its body, which with its target tells a retry
/// from another request.
async fn run(
    state: &AppState,
    caller: Caller,
    accept: Accept,
    retry: (&RetryKey, &str),
    request: SmsRequest<'_>,
    endpoint: Endpoint,
) -> Result<Response, Error> {
    let answered = service::answer(state, caller.sender(), retry, request, endpoint, Blacklist::Applies).await?;
    Ok(match answered.note {
        Some((object, summary)) => noted(respond(accept, &answered.result), object, summary),
        None => respond(accept, &answered.result),
    })
}

/// A send's answer: 202 for a campaign held for moderation (status -8, REFERENCE §1), 200 otherwise.
pub(crate) fn respond(accept: Accept, result: &CampaignResultDto) -> Response {
    match result.status {
        crate::operator::moderation::UNDER_MODERATION => accept.reply(axum::http::StatusCode::ACCEPTED, result),
        _ => accept.ok(result),
    }
}

/// `DELETE /send/:ticket`: cancels a scheduled campaign and refunds it.
#[utoipa::path(
    delete,
    path = "/send/{ticket}",
    tag = "send",
    params(("ticket" = String, Path, description = "The campaign ticket")),
    responses((status = 200, description = "Cancelled and refunded: the balance after the refund", body = texto_core::wire::CancelledResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn cancel(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(ticket): Path<String>,
) -> Result<Response, Error> {
    let id = path_id(&ticket).ok_or_else(|| Error::NotFound(format!("campaign {ticket}")))?;
    let cancelled = state.store.cancel_campaign(caller.account, id).await?;
    tracing::info!(ticket = id, refund = %cancelled.cost, "campaign cancelled");
    let balance = state.store.balance(caller.account).await?;
    let answer = accept.ok(&CancelledResponse { status: 1, message: "OK".into(), credits: balance.to_string() });
    Ok(noted(answer, format!("campaign {id}"), format!("campaign {id} cancelled")))
}
