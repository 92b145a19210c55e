//! The moderation queue: `GET /operator/moderation` lists the campaigns held for an
//! operator; `POST /operator/campaign/:ticket/release` lets one go (at the time it asked for,
//! or at once; or, when it needs the team's approval, on to the team) and `…/refuse` cancels
//! it with a reason, its credits given back. Either is told to whoever sent it (by email, when
//! texto has SMTP) and written in the account's audit log.
//! The rules that hold campaigns, and whether new accounts are moderated, are changed here as
//! `texto moderation …` changes them; every node reads them again within a second.

use axum::{
    Extension, Router,
    extract::{Path, State},
    response::Response,
    routing::{delete, get, post, put},
};
use chrono::Utc;
use texto_core::{
    format_paris,
    wire::{
        CreatedResponse, HeldCampaignDto, ModerationResponse, ModerationRuleDto, ModerationRuleRequest,
        NewAccountsModerationRequest, StatusResponse,
    },
};

use crate::{
    Error,
    http::{
        Accept,
        body::WireBody,
        inputs::{flag, path_id},
    },
    operator::{caller::OperatorCaller, moderation::rule_value, moderation_commands::rule_added},
    sending::approval::{required_reason, tell_author},
    state::AppState,
    store::{
        HeldCampaign,
        moderation::{Released, RuleKind},
    },
};

pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .route("/operator/moderation", get(queue))
        .route("/operator/campaign/{ticket}/release", post(release))
        .route("/operator/campaign/{ticket}/refuse", post(refuse))
        .route("/operator/moderation/rules", post(add_rule))
        .route("/operator/moderation/rule/{id}", delete(remove_rule))
        .route("/operator/moderation/new-accounts", put(new_accounts))
}

/// `GET /operator/moderation`: the held campaigns, oldest first, and the rules.
#[utoipa::path(get, path = "/operator/moderation", tag = "operator",
    responses((status = 200, description = "The held campaigns, the rules, and whether new accounts are moderated", body = texto_core::wire::ModerationResponse), (status = "default", description = "Error envelope (403 -12 for an account's token)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn queue(State(state): State<AppState>, accept: Accept) -> Result<Response, Error> {
    let campaigns = state
        .store
        .held_campaigns()
        .await?
        .into_iter()
        .map(|held| HeldCampaignDto {
            ticket: held.ticket.to_string(),
            account: held.account_name,
            text: held.text,
            recipients: held.sent,
            reason: held.reason,
            date: format_paris(held.created_at),
        })
        .collect();
    let new_accounts_moderated = i64::from(state.store.new_accounts_moderated().await?);
    let (_, rules) = state.store.moderation().await?;
    let rules = rules
        .into_iter()
        .map(|rule| ModerationRuleDto { id: rule.id, kind: rule.kind.as_str().to_owned(), value: rule.value })
        .collect();
    Ok(accept.ok(&ModerationResponse { status: 1, message: "OK".into(), campaigns, new_accounts_moderated, rules }))
}

/// The held campaign `ticket`: -5 when there is no campaign held under it.
async fn held(state: &AppState, ticket: &str) -> Result<HeldCampaign, Error> {
    let not_found = || Error::NotFound(format!("held campaign {ticket}"));
    let id = path_id(ticket).ok_or_else(not_found)?;
    state.store.held_campaign(id).await?.ok_or_else(not_found)
}

/// Records what the operator did in the operators' log and the campaign's account's.
fn audit(state: &AppState, caller: &OperatorCaller, held: &HeldCampaign, action: &str, summary: String) {
    caller.record(state, Some(held.account), action, format!("campaign {}", held.ticket), summary);
}

/// `POST /operator/campaign/:ticket/release`.
#[utoipa::path(post, path = "/operator/campaign/{ticket}/release", tag = "operator",
    params(("ticket" = i64, Path, description = "The held campaign's ticket")),
    responses((status = 200, description = "Released: it goes at the time it asked for, or now; or, when it needs the team's approval, it now awaits it", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn release(
    State(state): State<AppState>,
    Extension(caller): Extension<OperatorCaller>,
    accept: Accept,
    Path(ticket): Path<String>,
) -> Result<Response, Error> {
    let held = held(&state, &ticket).await?;
    let Some(released) = state.store.release_held(held.account, held.ticket, Utc::now()).await? else {
        return Err(Error::Contended(format!("campaign {} changed while it was being released", held.ticket)));
    };
    let ticket = held.ticket;
    // The operator's release is no approval by the team: a campaign that needs one waits for it.
    let (next, summary) = match released {
        Released::Going => {
            state.dispatch.notify_one();
            ("it is on its way", format!("campaign {ticket} released by moderation"))
        }
        Released::ToTheTeam => (
            "it now waits for your team's approval",
            format!("campaign {ticket} released by moderation; it awaits the team's approval"),
        ),
    };
    let sender = state.store.campaign_sender(held.account, ticket).await?;
    let body = format!("texto's moderation released your campaign {ticket}: {next}.");
    tell_author(&state, sender.email.as_deref(), "Your campaign was released", body).await;
    audit(&state, &caller, &held, "campaign.release", summary);
    Ok(accept.ok(&StatusResponse::ok()))
}

/// `POST /operator/campaign/:ticket/refuse` with `{"reason": "…"}`.
#[utoipa::path(post, path = "/operator/campaign/{ticket}/refuse", tag = "operator",
    request_body = texto_core::wire::RejectRequest,
    params(("ticket" = i64, Path, description = "The held campaign's ticket")),
    responses((status = 200, description = "Refused: cancelled and its credits given back", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn refuse(
    State(state): State<AppState>,
    Extension(caller): Extension<OperatorCaller>,
    accept: Accept,
    Path(ticket): Path<String>,
    body: WireBody,
) -> Result<Response, Error> {
    let reason = required_reason(&body)?;
    let held = held(&state, &ticket).await?;
    state.store.cancel_campaign(held.account, held.ticket).await?;
    state.store.note_rejection(held.account, held.ticket, &reason).await?;
    let sender = state.store.campaign_sender(held.account, held.ticket).await?;
    let body =
        format!("texto's moderation refused your campaign {}, and its credits were given back: {reason}", held.ticket);
    tell_author(&state, sender.email.as_deref(), "Your campaign was refused", body).await;
    audit(
        &state,
        &caller,
        &held,
        "campaign.refuse",
        format!("campaign {} refused by moderation: {reason}", held.ticket),
    );
    Ok(accept.ok(&StatusResponse::ok()))
}

/// `POST /operator/moderation/rules`: holds the campaigns whose text matches a pattern, or that
/// link to a domain.
#[utoipa::path(post, path = "/operator/moderation/rules", tag = "operator",
    request_body = texto_core::wire::ModerationRuleRequest,
    responses((status = 200, description = "Added: its id; every node holds by it within a second", body = texto_core::wire::CreatedResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn add_rule(
    State(state): State<AppState>,
    Extension(caller): Extension<OperatorCaller>,
    accept: Accept,
    body: WireBody,
) -> Result<Response, Error> {
    let asked: ModerationRuleRequest = body.decode()?;
    let kind = asked
        .kind
        .as_deref()
        .map(str::trim)
        .and_then(RuleKind::named)
        .ok_or_else(|| Error::invalid("kind", "pattern or domain"))?;
    let text = asked.value.as_deref().map(str::trim).filter(|v| !v.is_empty());
    let value = rule_value(kind, text.ok_or_else(|| Error::invalid("value", "required"))?)
        .map_err(|why| Error::invalid("value", why))?;
    let id = state.store.add_moderation_rule(kind, &value).await?;
    caller.record(&state, None, "moderation.rule_add", format!("rule {id}"), rule_added(id, kind, &value));
    Ok(accept.ok(&CreatedResponse { status: 1, message: "OK".into(), id }))
}

/// `DELETE /operator/moderation/rule/:id`.
#[utoipa::path(delete, path = "/operator/moderation/rule/{id}", tag = "operator",
    params(("id" = i64, Path, description = "The rule's id")),
    responses((status = 200, description = "Removed", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn remove_rule(
    State(state): State<AppState>,
    Extension(caller): Extension<OperatorCaller>,
    accept: Accept,
    Path(id): Path<String>,
) -> Result<Response, Error> {
    let not_found = || Error::NotFound(format!("moderation rule {id}"));
    let id = path_id(&id).ok_or_else(not_found)?;
    if !state.store.remove_moderation_rule(id).await? {
        return Err(not_found());
    }
    caller.record(&state, None, "moderation.rule_remove", format!("rule {id}"), format!("rule {id} removed"));
    Ok(accept.ok(&StatusResponse::ok()))
}

/// `PUT /operator/moderation/new-accounts` with `{"moderated": 1}` or `0`.
#[utoipa::path(put, path = "/operator/moderation/new-accounts", tag = "operator",
    request_body = texto_core::wire::NewAccountsModerationRequest,
    responses((status = 200, description = "Saved: accounts created from now on without saying otherwise follow it", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn new_accounts(
    State(state): State<AppState>,
    Extension(caller): Extension<OperatorCaller>,
    accept: Accept,
    body: WireBody,
) -> Result<Response, Error> {
    let asked: NewAccountsModerationRequest = body.decode()?;
    let moderated = flag("moderated", asked.moderated)?.ok_or_else(|| Error::invalid("moderated", "0 or 1"))?;
    state.store.set_new_accounts_moderated(moderated).await?;
    let summary = match moderated {
        true => "new accounts are moderated unless their creation says otherwise",
        false => "new accounts are not moderated unless their creation says so",
    };
    caller.record(&state, None, "moderation.new_accounts", "new accounts".into(), summary.into());
    Ok(accept.ok(&StatusResponse::ok()))
}
