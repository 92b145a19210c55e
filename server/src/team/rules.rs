//! `GET` and `PUT /team-rules` (texto's): campaigns over a number of recipients wait for
//! approval, and people must sign in with two factors (only an owner changes that one).

use std::num::NonZeroU32;

use axum::{Router, extract::State, response::Response, routing::get};
use texto_core::{
    Action, FieldError,
    wire::{TeamRulesDto, TeamRulesRequest, TeamRulesResponse},
};

use crate::{
    Error,
    http::{Accept, access::noted, auth::Caller, body::WireBody},
    state::AppState,
    store::TeamRules,
};

pub(crate) fn router() -> Router<AppState> {
    Router::new().route("/team-rules", get(show).put(save))
}

fn dto(rules: TeamRules) -> TeamRulesDto {
    TeamRulesDto {
        approval_over: Some(rules.approval_over.map_or(0, |n| i64::from(n.get()))),
        require_two_factor: Some(i64::from(rules.require_two_factor)),
    }
}

fn answer(accept: Accept, rules: TeamRules) -> Response {
    accept.ok(&TeamRulesResponse { status: 1, message: "OK".into(), team_rules: dto(rules) })
}

/// `GET /team-rules`: the account's rules.
#[utoipa::path(get, path = "/team-rules", tag = "team",
    responses((status = 200, description = "The team's rules", body = texto_core::wire::TeamRulesResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn show(State(state): State<AppState>, caller: Caller, accept: Accept) -> Result<Response, Error> {
    Ok(answer(accept, state.store.team_rules(caller.account).await?))
}

/// `PUT /team-rules` (`{"team_rules": {"approval_over", "require_two_factor"}}`): a field left
/// out keeps its value; `approval_over` 0 asks no approval.
#[utoipa::path(put, path = "/team-rules", tag = "team", request_body = texto_core::wire::TeamRulesRequest,
    responses((status = 200, description = "The rules now in force", body = texto_core::wire::TeamRulesResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn save(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    body: WireBody,
) -> Result<Response, Error> {
    let TeamRulesRequest { team_rules: asked } = body.decode()?;
    let mut rules = state.store.team_rules(caller.account).await?;
    if let Some(over) = asked.approval_over {
        let over = u32::try_from(over).map_err(|_| {
            Error::Invalid(vec![FieldError::new("team_rules.approval_over", "a number of recipients from 0 (none) up")])
        })?;
        rules.approval_over = NonZeroU32::new(over);
    }
    if let Some(required) = asked.require_two_factor {
        let required = match required {
            0 => false,
            1 => true,
            _ => return Err(Error::Invalid(vec![FieldError::new("team_rules.require_two_factor", "0 or 1")])),
        };
        if required != rules.require_two_factor {
            caller.require(Action::HandOver).map_err(|_| Error::Forbidden {
                role: caller.role,
                action: "change whether the team signs in with two factors (an owner does)".into(),
            })?;
        }
        rules.require_two_factor = required;
    }
    state.store.set_team_rules(caller.account, rules).await?;
    let summary = format!(
        "team rules: approval over {} recipients, two-factor sign-in {}",
        rules.approval_over.map_or_else(|| "no".to_owned(), |n| n.to_string()),
        if rules.require_two_factor { "required" } else { "optional" }
    );
    Ok(noted(answer(accept, rules), "team rules", summary))
}
