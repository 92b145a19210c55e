//! Drafts on the server (texto's additions): `GET /drafts`, `POST /campaign/draft` (the body
//! `POST /send` or `POST /send/lists` takes), a draft's `GET`, `PUT` and `DELETE
//! /campaign/:id`, `POST /campaign/:id/send` (sends it as it stands) and
//! `POST /campaign/:id/clone` (a draft from any campaign or draft). A draft is seen by the
//! whole team with who wrote it and who last changed it; its id is a campaign number.

use std::borrow::Cow;

use axum::{
    Router,
    extract::{Path, Query, State},
    response::Response,
    routing::{get, post},
};
use serde::Deserialize;
use texto_core::{
    Endpoint, FieldError, format_paris,
    wire::{
        DraftDto, DraftResponse, DraftsResponse, GsmDto, ListRefDto, MessageDto, RecipientsDto, SmsRequest,
        StatusResponse,
    },
};

use crate::{
    Error,
    http::{Accept, access::noted, auth::Caller, body::WireBody, inputs::path_id},
    sending::{
        idempotency::RetryKey,
        send::respond,
        service::{self, Blacklist},
    },
    state::AppState,
    store::{AccountId, SEGMENT_PREFIX, SavedDraft, SentCampaign, drafts::MOST_DRAFTS},
};

pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .route("/drafts", get(all))
        .route("/campaign/draft", post(create))
        .route("/campaign/{ticket}", axum::routing::put(update).delete(remove))
        .route("/campaign/{ticket}/send", post(send))
        .route("/campaign/{ticket}/clone", post(clone))
}

/// `?revision=N` of a send: the revision the sender saw.
#[derive(Debug, Deserialize)]
pub(crate) struct Seen {
    revision: Option<i64>,
}

/// The request a stored draft holds; a body this version cannot read is a fault of the store.
fn request(draft: &SavedDraft) -> Result<SmsRequest<'_>, Error> {
    serde_json::from_str(&draft.body).map_err(|_| Error::Unavailable("a stored draft is damaged"))
}

/// A draft as the wire shows it.
fn dto(draft: &SavedDraft) -> Result<DraftDto<'_>, Error> {
    Ok(DraftDto {
        id: draft.id.to_string(),
        sms: request(draft)?,
        author: draft.author.clone(),
        created_at: format_paris(draft.created_at),
        updated_by: draft.updated_by.clone(),
        updated_at: format_paris(draft.updated_at),
        revision: draft.revision,
    })
}

/// The answer to one draft.
pub(crate) fn answer(accept: Accept, draft: &SavedDraft) -> Result<Response, Error> {
    Ok(accept.ok(&DraftResponse { status: 1, message: "OK".into(), draft: dto(draft)? }))
}

/// The answer to a draft saved, noted in the audit log.
fn saved(accept: Accept, draft: &SavedDraft, verb: &str) -> Result<Response, Error> {
    let id = draft.id;
    Ok(noted(answer(accept, draft)?, format!("campaign {id}"), format!("draft {id} {verb}")))
}

/// The request of a posted body, kept as JSON whatever format it came in.
fn stored_body(body: &WireBody) -> Result<String, Error> {
    serde_json::to_string(&body.decode_sms()?).map_err(|_| Error::Unavailable("a draft cannot be written as JSON"))
}

/// -7 when the account already keeps [`MOST_DRAFTS`].
async fn room_for_one(state: &AppState, account: AccountId) -> Result<(), Error> {
    match state.store.draft_count(account).await? < MOST_DRAFTS {
        true => Ok(()),
        false => Err(Error::Invalid(vec![FieldError::new(
            "draft",
            format!("at most {MOST_DRAFTS} drafts: send or discard some first"),
        )])),
    }
}

fn unknown(id: &str) -> Error {
    Error::NotFound(format!("draft {id}"))
}

/// `GET /drafts`: the account's drafts, the last changed first.
#[utoipa::path(get, path = "/drafts", tag = "drafts",
    responses((status = 200, description = "The drafts", body = texto_core::wire::DraftsResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn all(State(state): State<AppState>, caller: Caller, accept: Accept) -> Result<Response, Error> {
    let stored = state.store.drafts(caller.account).await?;
    // A draft this version cannot read is left out (and logged) rather than hiding the others.
    let drafts = stored
        .iter()
        .filter_map(|draft| {
            dto(draft).map_err(|_| tracing::warn!(draft = draft.id, "a stored draft cannot be read")).ok()
        })
        .collect();
    Ok(accept.ok(&DraftsResponse { status: 1, message: "OK".into(), drafts }))
}

/// `POST /campaign/draft`: keeps the body `POST /send` or `POST /send/lists` takes, as it
/// stands (it is checked when it is sent).
#[utoipa::path(post, path = "/campaign/draft", tag = "drafts", request_body = texto_core::wire::SmsRequest,
    responses((status = 200, description = "The draft as saved, with its id", body = texto_core::wire::DraftResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn create(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    body: WireBody,
) -> Result<Response, Error> {
    let body = stored_body(&body)?;
    room_for_one(&state, caller.account).await?;
    let draft = state.store.save_draft(caller.account, None, body, caller.actor.clone()).await?;
    saved(accept, &draft.ok_or(Error::Unavailable("a draft just saved cannot be read"))?, "saved")
}

/// `GET /campaign/:id` of a draft (the campaign's handler asks here when it has no campaign).
pub(crate) async fn show(
    state: &AppState,
    caller: &Caller,
    accept: Accept,
    id: i64,
) -> Result<Option<Response>, Error> {
    match state.store.draft(caller.account, id).await? {
        Some(draft) => Ok(Some(answer(accept, &draft)?)),
        None => Ok(None),
    }
}

/// `PUT /campaign/:id`: replaces a draft's request.
#[utoipa::path(put, path = "/campaign/{ticket}", tag = "drafts", request_body = texto_core::wire::SmsRequest,
    params(("ticket" = String, Path, description = "The draft's id")),
    responses((status = 200, description = "The draft as saved", body = texto_core::wire::DraftResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn update(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
    body: WireBody,
) -> Result<Response, Error> {
    let number = path_id(&id).ok_or_else(|| unknown(&id))?;
    let body = stored_body(&body)?;
    let draft = state.store.save_draft(caller.account, Some(number), body, caller.actor.clone()).await?;
    saved(accept, &draft.ok_or_else(|| unknown(&id))?, "changed")
}

/// `DELETE /campaign/:id`: discards a draft.
#[utoipa::path(delete, path = "/campaign/{ticket}", tag = "drafts",
    params(("ticket" = String, Path, description = "The draft's id")),
    responses((status = 200, description = "Discarded", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn remove(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
) -> Result<Response, Error> {
    let number = path_id(&id).ok_or_else(|| unknown(&id))?;
    if !state.store.delete_draft(caller.account, number).await? {
        return Err(unknown(&id));
    }
    Ok(noted(accept.ok(&StatusResponse::ok()), format!("campaign {number}"), format!("draft {number} discarded")))
}

/// `POST /campaign/:id/send`: sends the draft as it stands, as `POST /send` (numbers) or
/// `POST /send/lists` (lists or segments) would, and discards it once sent. Sending it again
/// (a retry after a crash between the two) answers the first send: the draft's number is the
/// send's idempotency key. With `?revision=N`, only the revision the sender saw goes: one
/// changed since (by a teammate) is -7 and stays a draft.
#[utoipa::path(post, path = "/campaign/{ticket}/send", tag = "drafts",
    params(("ticket" = String, Path, description = "The draft's id"), ("revision" = Option<i64>, Query, description = "The revision seen: a draft changed since is not sent")),
    responses((status = 200, description = "The campaign result, with its ticket", body = texto_core::wire::CampaignResultDto), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn send(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
    Query(seen): Query<Seen>,
) -> Result<Response, Error> {
    let number = path_id(&id).ok_or_else(|| unknown(&id))?;
    let retry = RetryKey::internal(format!("draft {number}"));
    let Some(draft) = state.store.draft(caller.account, number).await? else {
        // Sent already (its answer lost on the way, say): the first send's answer, if kept.
        return match retry.first_answer(&state, caller.account, retry.fingerprint("").as_deref()).await? {
            Some(first) => Ok(respond(accept, &first)),
            None => Err(unknown(&id)),
        };
    };
    if let Some(seen) = seen.revision.filter(|seen| *seen != draft.revision) {
        let now = draft.revision;
        return Err(Error::Invalid(vec![FieldError::new(
            "revision",
            format!(
                "the draft changed since revision {seen}: it is at revision {now}, by {}",
                draft.updated_by.as_deref().unwrap_or("someone")
            ),
        )]));
    }
    let request = request(&draft)?;
    let endpoint = match request.lists.is_some() || request.segments.is_some() {
        true => Endpoint::SendLists,
        false => Endpoint::Send,
    };
    let answered =
        service::answer(&state, caller.sender(), (&retry, ""), request, endpoint, Blacklist::Applies).await?;
    state.store.delete_draft(caller.account, number).await?;
    let summary = match (&answered.result.ticket, answered.note) {
        (_, Some((_, summary))) => format!("draft {number} sent: {summary}"),
        (Some(ticket), None) => format!("draft {number} sent as campaign {ticket}"),
        (None, None) => format!("draft {number} sent"),
    };
    Ok(noted(respond(accept, &answered.result), format!("campaign {number}"), summary))
}

/// `POST /campaign/:id/clone`: a new draft from the account's campaign or draft `id`: the
/// same message, links, options and recipients (its lists, or the numbers it went to), to
/// send now.
#[utoipa::path(post, path = "/campaign/{ticket}/clone", tag = "drafts",
    params(("ticket" = String, Path, description = "The campaign's ticket or the draft's id")),
    responses((status = 200, description = "The new draft", body = texto_core::wire::DraftResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn clone(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
) -> Result<Response, Error> {
    let not_found = || Error::NotFound(format!("campaign {id}"));
    let number = path_id(&id).ok_or_else(not_found)?;
    let body = campaign_body(&state, caller.account, number, true).await?.ok_or_else(not_found)?;
    room_for_one(&state, caller.account).await?;
    let draft = state.store.save_draft(caller.account, None, body, caller.actor.clone()).await?;
    let draft = draft.ok_or(Error::Unavailable("a draft just saved cannot be read"))?;
    let new = draft.id;
    Ok(noted(answer(accept, &draft)?, format!("campaign {new}"), format!("draft {new} cloned from campaign {number}")))
}

/// The request of the account's draft `id` as it stands, or the one that sends its campaign
/// `id` again now (to the numbers it went to only `with_numbers`), as JSON; `None` when it has
/// neither.
pub(crate) async fn campaign_body(
    state: &AppState,
    account: AccountId,
    id: i64,
    with_numbers: bool,
) -> Result<Option<String>, Error> {
    if let Some(draft) = state.store.draft(account, id).await? {
        return Ok(Some(draft.body));
    }
    match state.store.sent_campaign(account, id, with_numbers).await? {
        Some(sent) => Ok(Some(
            serde_json::to_string(&sent_request(sent))
                .map_err(|_| Error::Unavailable("a draft cannot be written as JSON"))?,
        )),
        None => Ok(None),
    }
}

/// The request that sends `sent` again now.
fn sent_request(sent: SentCampaign) -> SmsRequest<'static> {
    let SentCampaign { text, pushtype, sender, links, lists, unicode, validity, numbers, ab } = sent;
    let (variants, ab) = ab.map_or((None, None), |(variants, ab)| (Some(variants), Some(ab)));
    let (recipients, lists) = match lists.is_empty() {
        true => {
            let gsm = numbers
                .into_iter()
                .map(|(number, gsmsmsid)| GsmDto {
                    value: Cow::Owned(number.to_string()),
                    gsmsmsid: gsmsmsid.map(Cow::Owned),
                })
                .collect();
            (Some(RecipientsDto { gsm }), None)
        }
        false => (None, Some(lists)),
    };
    // A campaign to segments keeps them beside its lists as `segment:ID`.
    let (segments, lists): (Vec<String>, Vec<String>) =
        lists.into_iter().flatten().partition(|id| id.starts_with(SEGMENT_PREFIX));
    let refs = |ids: Vec<String>, prefix: &str| {
        let refs: Vec<ListRefDto> =
            ids.into_iter().map(|id| ListRefDto { value: id.trim_start_matches(prefix).to_owned() }).collect();
        (!refs.is_empty()).then_some(refs)
    };
    let (lists, segments) = (refs(lists, ""), refs(segments, SEGMENT_PREFIX));
    SmsRequest {
        message: MessageDto {
            text: Some(text),
            pushtype: Some(pushtype),
            sender,
            links: (!links.is_empty()).then_some(links),
            unicode: unicode.then_some(true),
            validity,
            variants,
            ab,
            ..MessageDto::default()
        },
        recipients,
        lists,
        segments,
    }
}
