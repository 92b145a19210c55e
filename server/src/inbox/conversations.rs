//! The inbox (texto's additions): `GET /conversations`, `GET /conversation/:number`
//! (what was sent to the number and what it answered, in one timeline), `POST
//! /conversation/:number/reply` (an answer, sent as any send is) and `PUT
//! /conversation/:number/read`.

use axum::{
    Router,
    extract::{Path, Query, State, rejection::QueryRejection},
    response::Response,
    routing::{get, post, put},
};
use chrono::DateTime;
use texto_core::{
    FieldError, Keyword, format_paris,
    wire::{
        ConversationDto, ConversationEntryDto, ConversationReplyRequest, ConversationResponse, ConversationsResponse,
        StatusResponse,
    },
};

use crate::{
    Error,
    http::{
        Accept,
        auth::Caller,
        body::WireBody,
        inputs::{optional_id, path_number, query},
    },
    inbox::outgoing,
    sending::messages::{message_dto, reply_dto},
    state::AppState,
    store::{ConversationFilter, MessageFilter, Page, ReplyFilter, SortOrder, answer_sender},
};

/// Entries of each kind a timeline shows: the most recent.
const TIMELINE_LENGTH: i64 = 200;

pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .route("/conversations", get(list))
        .route("/conversation/{number}", get(timeline))
        .route("/conversation/{number}/reply", post(reply))
        .route("/conversation/{number}/read", put(read))
}

/// The query of `GET /conversations`.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub(crate) struct ConversationsQuery {
    start: Option<i64>,
    length: Option<i64>,
    unread: Option<String>,
    campaign: Option<String>,
    keyword: Option<String>,
    search: Option<String>,
}

/// `GET /conversations`: the numbers that wrote, the most recent first.
#[utoipa::path(get, path = "/conversations", tag = "inbox",
    params(
        ("start" = Option<i64>, Query, description = "First record (default 0)"),
        ("length" = Option<i64>, Query, description = "Records per page (default 100, at most 1000)"),
        ("unread" = Option<String>, Query, description = "1: only those with unread replies"),
        ("campaign" = Option<String>, Query, description = "Only the numbers that answered this campaign"),
        ("keyword" = Option<String>, Query, description = "Only the numbers that wrote this keyword (first word, any case or accents)"),
        ("search" = Option<String>, Query, description = "Digits of the number, or text of the last reply")
    ),
    responses((status = 200, description = "Conversations", body = texto_core::wire::ConversationsResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn list(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    asked: Result<Query<ConversationsQuery>, QueryRejection>,
) -> Result<Response, Error> {
    let asked = query(asked)?;
    let campaign = optional_id("campaign", asked.campaign.as_deref(), "a campaign's ticket")?;
    let keyword = match asked.keyword.as_deref().map(str::trim).filter(|k| !k.is_empty()) {
        Some(word) => Some(Keyword::parse(word, "keyword").map_err(|error| Error::Invalid(vec![error]))?),
        None => None,
    };
    let filter = ConversationFilter {
        page: Page { start: asked.start.unwrap_or(0), length: asked.length.unwrap_or(100) },
        unread_only: matches!(asked.unread.as_deref(), Some("1" | "true")),
        campaign,
        keyword,
        search: asked.search,
    };
    let page = state.store.conversations(caller.account, filter).await?;
    Ok(accept.ok(&ConversationsResponse {
        status: 1,
        message: "OK".into(),
        conversations: page
            .conversations
            .into_iter()
            .map(|c| ConversationDto {
                number: c.number.to_string(),
                last_message: c.last_text,
                last_date: format_paris(c.last_at),
                unread: c.unread,
            })
            .collect(),
        total_display_records: page.matching,
        unread_conversations: page.unread,
    }))
}

/// `GET /conversation/:number`: the last messages sent to the number and its last replies,
/// oldest first.
#[utoipa::path(get, path = "/conversation/{number}", tag = "inbox",
    params(("number" = String, Path, description = "The number, international digits")),
    responses((status = 200, description = "The timeline", body = texto_core::wire::ConversationResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn timeline(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(number): Path<String>,
) -> Result<Response, Error> {
    let number = path_number(&number, "conversation")?;
    let recent = Page { start: 0, length: TIMELINE_LENGTH };
    let sent = MessageFilter {
        page: recent,
        destination: Some(number as u64),
        order: SortOrder::Desc,
        ..MessageFilter::default()
    };
    let received = ReplyFilter {
        page: recent,
        from: DateTime::UNIX_EPOCH,
        // Stored times compare as text: a bound past any reply, not the calendar's end.
        until: chrono::Utc::now() + chrono::Duration::days(1),
        order: SortOrder::Desc,
        number: Some(number),
    };
    let ((messages, _, _), (replies, _)) = futures_util::future::try_join(
        state.store.messages(caller.account, sent),
        state.store.replies(caller.account, received),
    )
    .await?;
    let mut timeline: Vec<(chrono::DateTime<chrono::Utc>, ConversationEntryDto)> = Vec::new();
    // Both came newest first; oldest first here, and a stable sort keeps that order within a
    // second (times are stored to the second).
    for record in messages.iter().rev() {
        let dto = message_dto(&state, record);
        timeline.push((
            record.created_at,
            ConversationEntryDto {
                direction: "sent".into(),
                message_id: dto.message_id,
                campaign_id: dto.campaign_id,
                message: dto.message,
                date: dto.date,
                status: dto.status,
                status_details: dto.status_details,
            },
        ));
    }
    for record in replies.iter().rev() {
        let dto = reply_dto(record);
        timeline.push((
            record.received_at,
            ConversationEntryDto {
                direction: "received".into(),
                message_id: dto.message_id,
                campaign_id: dto.campaign_id,
                message: dto.message,
                date: dto.date,
                ..ConversationEntryDto::default()
            },
        ));
    }
    timeline.sort_by_key(|(at, _)| *at);
    Ok(accept.ok(&ConversationResponse {
        status: 1,
        message: "OK".into(),
        number: number.to_string(),
        timeline: timeline.into_iter().map(|(_, entry)| entry).collect(),
    }))
}

/// `POST /conversation/:number/reply` (`{"reply": {"text"}}`): answers a number that wrote, at
/// once, from the number it wrote to, charged and answered as `POST /send` is.
#[utoipa::path(post, path = "/conversation/{number}/reply", tag = "inbox", request_body = texto_core::wire::ConversationReplyRequest,
    params(("number" = String, Path, description = "The number, international digits")),
    responses((status = 200, description = "As POST /send answers, with the ticket", body = texto_core::wire::CampaignResultDto), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn reply(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(number): Path<String>,
    body: WireBody,
) -> Result<Response, Error> {
    let number = path_number(&number, "conversation")?;
    let ConversationReplyRequest { reply } = body.decode()?;
    let text = reply.text.filter(|t| !t.trim().is_empty());
    let text =
        text.ok_or_else(|| Error::Invalid(vec![FieldError::new("reply.text", "the answer's text is needed")]))?;
    // Only a number that wrote is answered (the inbox is no way round the send's rules), and
    // answering it reads its replies.
    if !state.store.mark_read(caller.account, number).await? {
        return Err(Error::NotFound(format!("conversation {number}")));
    }
    let written_to = state.store.written_to(caller.account, number).await?;
    let sender = written_to.as_deref().and_then(answer_sender);
    let answered = outgoing::send_one(&state, caller.sender(), &number.to_string(), &text, sender).await?;
    Ok(crate::sending::send::respond(accept, &answered.result))
}

/// `PUT /conversation/:number/read`: its replies are read.
#[utoipa::path(put, path = "/conversation/{number}/read", tag = "inbox",
    params(("number" = String, Path, description = "The number, international digits")),
    responses((status = 200, description = "Read", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn read(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(number): Path<String>,
) -> Result<Response, Error> {
    let number = path_number(&number, "conversation")?;
    if !state.store.mark_read(caller.account, number).await? {
        return Err(Error::NotFound(format!("conversation {number}")));
    }
    Ok(accept.ok(&StatusResponse::ok()))
}
