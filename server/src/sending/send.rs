//! Sending and simulating campaigns: `/send`, `/send/lists`, their simulations, `GET /send`
//! and `DELETE /send/:ticket`.

use std::{borrow::Cow, hash::Hasher};

use axum::{
    Router,
    extract::{Path, Query, State},
    response::Response,
    routing::{delete, post},
};
use chrono::Utc;
use serde::Deserialize;
use texto_core::{
    Audience, Campaign, Credits, Endpoint, FieldError, FilterContext, PriceTable, PushType, parse_international,
    simulate, validate_send,
    wire::{CampaignResultDto, CancelledResponse, GsmDto, MessageDto, RecipientsDto, SmsRequest},
};

use crate::{
    Error,
    state::AppState,
    store::{AccountId, CampaignStatus, Created, NewCampaign, approval, moderation, moderation::Hold},
};
use crate::{
    http::{Accept, access::noted, auth::Caller, body::WireBody, path_id},
    sending::idempotency::{RetryKey, replayed},
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

/// The one send flow (issue 4): validate → the account's context → simulate → for a real
/// send, one transaction writes the campaign, its messages and the debit.
/// `retry`: the request's idempotency key and its body, which with its target tells a retry
/// from another request.
async fn run(
    state: &AppState,
    caller: Caller,
    accept: Accept,
    retry: (&RetryKey, &str),
    request: SmsRequest<'_>,
    endpoint: Endpoint,
) -> Result<Response, Error> {
    let answered = answer(state, caller, retry, request, endpoint, Blacklist::Applies).await?;
    Ok(match answered.note {
        Some((object, summary)) => noted(respond(accept, &answered.result), object, summary),
        None => respond(accept, &answered.result),
    })
}

/// A send's answer: 202 for a campaign held for moderation (status -8, REFERENCE §1), 200 otherwise.
pub(crate) fn respond(accept: Accept, result: &CampaignResultDto) -> Response {
    match result.status {
        UNDER_MODERATION => accept.reply(axum::http::StatusCode::ACCEPTED, result),
        _ => accept.ok(result),
    }
}

/// The status of a campaign created but held for moderation.
pub(crate) const UNDER_MODERATION: i64 = -8;
/// Its message.
pub(crate) const UNDER_MODERATION_MESSAGE: &str = "Campaign under moderation";

/// What a send or simulation answers, and the audit log's note of what it did.
pub(crate) struct Answered {
    /// The answer.
    pub(crate) result: CampaignResultDto,
    /// The object and summary of a campaign written.
    note: Option<(String, String)>,
}

/// Whether the recipients' blacklist applies to a send.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Blacklist {
    /// It does: every send but one.
    Applies,
    /// It does not: the confirmation of a STOP, sent to the number that has just been
    /// blacklisted.
    Waived,
}

/// [`run`] without the HTTP answer.
pub(crate) async fn answer(
    state: &AppState,
    caller: Caller,
    retry: (&RetryKey, &str),
    request: SmsRequest<'_>,
    endpoint: Endpoint,
    blacklist: Blacklist,
) -> Result<Answered, Error> {
    let (retry, body) = retry;
    // The request's hash, once. A retry is told in the write, which replays the first answer;
    // a retry refused before it (its first try spent the balance) is told here.
    let fingerprint = retry.fingerprint(body);
    let account = caller.account;
    match attempt(state, caller, (retry, fingerprint.clone()), request, endpoint, blacklist).await {
        Err(refusal) => match retry.first_answer(state, account, fingerprint.as_deref()).await {
            Ok(Some(first)) => Ok(Answered { result: first, note: None }),
            Err(reused @ Error::IdempotencyKeyReused) => Err(reused),
            Ok(None) | Err(_) => Err(refusal),
        },
        answered => answered,
    }
}

/// An unlimited sub-account short of `cost` draws what it lacks from its parent (a transfer in
/// both ledgers, before its campaign is written); any other account is refused.
async fn draw_on_payer(state: &AppState, account: AccountId, cost: Credits, balance: Credits) -> Result<(), Error> {
    let Some(payer) = state.store.family(account).await?.payer() else {
        return Err(Error::NotEnoughCredits { cost, balance });
    };
    let lacking = Credits::from_hundredths(cost.hundredths() - balance.hundredths());
    match state.store.transfer(payer, account, lacking).await {
        Ok(_) => Ok(()),
        Err(Error::NotEnoughCredits { balance: available, .. }) => {
            Err(Error::NotEnoughCredits { cost, balance: balance + available })
        }
        Err(error) => Err(error),
    }
}

/// [`run`] once its request's fingerprint is known.
async fn attempt(
    state: &AppState,
    caller: Caller,
    (retry, fingerprint): (&RetryKey, Option<String>),
    request: SmsRequest<'_>,
    endpoint: Endpoint,
    blacklist: Blacklist,
) -> Result<Answered, Error> {
    let recipients = request.recipients.as_ref().map_or(0, |r| r.gsm.len());
    if recipients > state.config.max_recipients {
        return Err(Error::Invalid(vec![FieldError::new(
            "sms.recipients.gsm",
            format!("{recipients} recipients: at most {} per request", state.config.max_recipients),
        )]));
    }
    let now = Utc::now();
    let campaign = validate_send(request, endpoint, &state.message, now)?;
    let text_hash = text_hash(campaign.text());
    let (lists, segments) = match campaign.audience() {
        Audience::Lists { lists, segments } => (
            state.store.list_contacts(caller.account, lists).await?,
            match segments.is_empty() {
                true => Default::default(),
                false => state.store.segment_contacts(caller.account, segments).await?,
            },
        ),
        Audience::Numbers(_) => Default::default(),
    };
    let numbers = numbers(&campaign, &lists, &segments);
    let consented = match campaign.pushtype() {
        PushType::Marketing if state.store.settings(caller.account).await?.marketing_needs_consent => {
            Some(state.store.consented(caller.account).await?)
        }
        _ => None,
    };
    let inputs = state.store.filter_inputs(caller.account, &numbers, text_hash, now).await?;
    let context = FilterContext {
        blacklist: if blacklist == Blacklist::Applies { inputs.blacklist } else { Default::default() },
        npai: inputs.npai,
        allowed_countries: inputs.allowed_countries,
        recent: inputs.recent,
        monthly_usage: inputs.monthly_usage,
        monthly_caps: inputs.monthly_caps,
        balance: inputs.balance,
        flood: inputs.flood,
        prices: PriceTable::clone(&state.plans.for_account(caller.account).1),
        message: state.message.clone(),
        lists,
        segments,
        consented,
    };
    let simulation = simulate(&campaign, &context, now)?;
    if matches!(endpoint, Endpoint::Simulate | Endpoint::SimulateLists) {
        return Ok(Answered { result: simulation.to_wire(None), note: None });
    }
    if !simulation.affordable() {
        // The filter's balance may come from the node's copy of the account, which a write
        // ending just after a top-up can leave below the stored one: refused on the stored
        // balance only (the store checks it again as it writes).
        let balance = state.store.balance(caller.account).await?;
        if simulation.cost > balance {
            draw_on_payer(state, caller.account, simulation.cost, balance).await?;
        }
    }
    let (gsmsmsids, infos) = match campaign.audience() {
        Audience::Numbers(recipients) => (recipients.iter().map(|r| r.gsmsmsid).collect(), Vec::new()),
        Audience::Lists { lists, segments } => {
            (Vec::new(), contact_infos([(lists, &context.lists), (segments, &context.segments)]))
        }
    };
    // A role that may not send (an author) sends for approval, and so does anyone sending to
    // more recipients than the team's rule allows (read only for campaigns to several, so a
    // one-recipient send pays nothing for it): the campaign is written waiting, with its
    // credits held, and goes once approved.
    // Moderation and approval are two gates: a held campaign waits for an operator first, and
    // once released, if it needs the team's approval, for the team.
    let recipients = simulation.counters.sent;
    let held = state.moderation.hold_reason(caller.account, campaign.text(), campaign.links());
    let awaits = !caller.role.may(texto_core::Action::Send)
        || (recipients > 1 && state.store.team_rules(caller.account).await?.needs_approval(recipients));
    let waits_until = match (&held, awaits) {
        (Some(_), _) => Some(moderation::held()),
        (None, true) => Some(approval::awaiting()),
        (None, false) => None,
    };
    let written = waits_until.map(|send_at| texto_core::Simulation { send_at, ..simulation.clone() });
    let status = if written.as_ref().unwrap_or(&simulation).send_at > now {
        CampaignStatus::Scheduled
    } else {
        CampaignStatus::Sending
    };
    let idempotency = fingerprint.and_then(|fingerprint| retry.to_store(fingerprint));
    let new = NewCampaign {
        campaign: &campaign,
        simulation: written.as_ref().unwrap_or(&simulation),
        gsmsmsids,
        infos,
        text_hash,
        status,
        now,
        idempotency,
    };
    let (ticket, balance) = match state.store.create_campaign(caller.account, new).await? {
        Created::New { ticket, balance } => (ticket, balance),
        // A retry that raced its first try past the check above.
        Created::Replayed(first) => return Ok(Answered { result: replayed(state, &first).await?, note: None }),
    };
    let mut result = simulation.to_wire(Some(ticket.to_string()));
    result.credits = balance.as_f64();
    let sent = simulation.counters.sent;
    metrics::counter!("texto_messages_accepted_total").increment(sent);
    metrics::counter!("texto_sends_total", "account" => caller.account.to_string()).increment(1);
    tracing::info!(ticket, sent, cost = %simulation.cost, awaits, held = held.is_some(), "campaign created");
    if let Some(reason) = held {
        let hold = Hold {
            reason,
            actor: caller.actor.clone(),
            hand: caller.hand(),
            requested: simulation.send_at,
            awaits_team: awaits,
        };
        state.store.mark_held(caller.account, ticket, &hold).await?;
        result.status = UNDER_MODERATION;
        result.message = UNDER_MODERATION_MESSAGE.into();
        let then = if awaits { ", then the team's approval" } else { "" };
        let summary = format!("campaign {ticket} to {sent} recipients held for moderation: {}{then}", hold.reason);
        return Ok(Answered { result, note: Some((format!("campaign {ticket}"), summary)) });
    }
    if awaits {
        state.store.mark_awaiting(caller.account, ticket, simulation.send_at, &caller.actor, caller.hand()).await?;
        let summary = format!("campaign {ticket} to {sent} recipients awaits approval");
        return Ok(Answered { result, note: Some((format!("campaign {ticket}"), summary)) });
    }
    state.dispatch.notify_one();
    let summary = format!("campaign {ticket} sent to {sent} recipients");
    Ok(Answered { result, note: Some((format!("campaign {ticket}"), summary)) })
}

/// The contacts' info1…info4 as stored with their messages (JSON; `None` when all are
/// empty), in the order the filter saw the contacts: the lists', then the segments'.
fn contact_infos(sources: [(&Vec<String>, &ContactsById); 2]) -> Vec<Option<String>> {
    sources
        .into_iter()
        .flat_map(|(ids, contacts)| ids.iter().flat_map(|id| contacts.get(id).into_iter().flatten()))
        .map(|contact| {
            contact
                .info
                .iter()
                .any(|field| !field.is_empty())
                .then(|| serde_json::to_string(&contact.info).unwrap_or_default())
        })
        .collect()
}

/// Contacts by the id of their list or segment.
type ContactsById = std::collections::HashMap<String, Vec<texto_core::Contact>>;

/// The valid numbers a campaign names, for the store's look-ups.
fn numbers(campaign: &Campaign, lists: &ContactsById, segments: &ContactsById) -> Vec<u64> {
    let parse = |n: &str| parse_international(n).ok().map(|m| m.as_u64());
    match campaign.audience() {
        Audience::Numbers(recipients) => recipients.iter().filter_map(|r| parse(r.number)).collect(),
        Audience::Lists { .. } => {
            lists.values().chain(segments.values()).flatten().filter_map(|c| parse(&c.number)).collect()
        }
    }
}

/// A stable hash of the text, for anti-flood's "identical texts".
fn text_hash(text: &str) -> i64 {
    let mut hasher = rustc_hash::FxHasher::default();
    hasher.write(text.as_bytes());
    hasher.finish() as i64
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
    Ok(accept.ok(&CancelledResponse { status: 1, message: "OK".into(), credits: balance.to_string() }))
}
