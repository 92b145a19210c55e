//! The built-in SMSC simulator's face under `/simulator/` (with `--smsc builtin`): what the
//! "carrier" received, replies from handsets and outages, each for the callers it concerns.
//! An operator sees and does everything. A caller in an account sees only the messages of that
//! account, and simulates a reply only from a number whose replies the account would get (it
//! was the last to send to it, within the days replies are kept for); outages and the
//! simulator's status are the operators'.

use std::collections::HashSet;

use axum::{
    Json, Router,
    extract::{FromRequestParts, Query, State},
    http::{StatusCode, request::Parts},
    routing::{get, post},
};
use chrono::Utc;
use serde_json::Value;
use texto_core::Action;

use crate::{
    Error,
    http::{access::two_factor_in_place, auth},
    operator::caller,
    smsc::{Face, Message, MessagesQuery, MoRequest, OutageRequest},
    state::AppState,
    store::{AccountId, reply_number},
};

/// Messages of the simulator looked at per store lookup when listing an account's.
const SCAN_BATCH: usize = 500;

/// The routes, to nest under `/simulator`.
pub(crate) fn router(face: Face, state: AppState) -> Router {
    Router::new()
        .route("/messages", get(messages))
        .route("/mo", post(mo))
        .route("/outage", post(outage))
        .route("/status", get(status))
        .with_state(Simulated { face, state })
}

/// What the handlers share: the simulator and texto's state.
#[derive(Clone)]
struct Simulated {
    face: Face,
    state: AppState,
}

/// Who calls: an operator, or a caller in an account.
enum Who {
    Operator(caller::OperatorCaller),
    /// Boxed: a caller carries its session's grant, far larger than an operator.
    Account(Box<auth::Caller>),
}

impl FromRequestParts<Simulated> for Who {
    type Rejection = Error;

    /// An operator's token, else an account's token or session (401 without either).
    async fn from_request_parts(parts: &mut Parts, simulated: &Simulated) -> Result<Who, Error> {
        let state = &simulated.state;
        if let Some(operator) = caller::operator_of(parts, state).await? {
            return Ok(Who::Operator(operator));
        }
        let caller = auth::authenticate(parts, state, !parts.method.is_safe()).await?;
        Ok(Who::Account(Box::new(two_factor_in_place(caller, parts.method.as_str(), parts.uri.path())?)))
    }
}

/// `GET /simulator/messages`: what the simulator received, newest first; an account's
/// callers see only the account's messages.
async fn messages(
    State(simulated): State<Simulated>,
    who: Who,
    Query(query): Query<MessagesQuery>,
) -> Result<Json<Value>, Error> {
    let destination = query.destination.as_deref();
    let listed = match who {
        Who::Operator(_) => simulated.face.messages(destination, None, query.limit()),
        Who::Account(caller) => {
            caller.require(Action::Read)?;
            accounts_messages(&simulated, caller.account, destination, query.limit()).await?
        }
    };
    Ok(Face::listing(&listed))
}

/// The newest `limit` messages of the simulator that are the account's: one of their parts
/// carries the SMSC id of one of its messages.
async fn accounts_messages(
    simulated: &Simulated,
    account: AccountId,
    destination: Option<&str>,
    limit: usize,
) -> Result<Vec<Message>, Error> {
    let mut listed = Vec::new();
    let mut before = None;
    while listed.len() < limit {
        let batch = simulated.face.messages(destination, before, SCAN_BATCH);
        let Some(oldest) = batch.last() else { break };
        before = Some(oldest.position);
        let ids = batch.iter().flat_map(|m| m.part_ids.iter().cloned()).collect();
        let own: HashSet<String> = simulated.state.store.own_smsc_ids(account, ids).await?;
        let theirs = batch.into_iter().filter(|m| m.part_ids.iter().any(|id| own.contains(id)));
        listed.extend(theirs.take(limit - listed.len()));
    }
    Ok(listed)
}

/// `POST /simulator/mo`: a reply from a handset; from an account's caller, only from a number
/// whose replies the account gets, and only for a role that may send (a reply can blacklist
/// the number and trigger automatic replies the account pays for).
async fn mo(
    State(simulated): State<Simulated>,
    who: Who,
    Json(request): Json<MoRequest>,
) -> Result<(StatusCode, Json<Value>), Error> {
    if let Who::Account(caller) = who {
        caller.require(Action::Send)?;
        let owner = match reply_number(&request.from) {
            Some(number) => simulated.state.store.reply_owner(number, Utc::now()).await?,
            None => None,
        };
        if owner != Some(caller.account) {
            return Err(Error::NotYourNumber);
        }
    }
    Ok(simulated.face.mo(&request))
}

/// `POST /simulator/outage`: operators only, since it stops delivery for every account.
async fn outage(
    State(simulated): State<Simulated>,
    who: Who,
    Json(request): Json<OutageRequest>,
) -> Result<Json<Value>, Error> {
    let Who::Operator(operator) = who else { return Err(Error::OperatorsOnly) };
    let answer = simulated.face.outage(&request);
    let summary =
        format!("simulated an SMSC outage ({}) for {} s", answer["mode"].as_str().unwrap_or_default(), request.seconds);
    operator.record(&simulated.state, None, "simulator.outage", "simulator".into(), summary);
    Ok(answer)
}

/// `GET /simulator/status`: operators only, since it counts every account's traffic.
async fn status(State(simulated): State<Simulated>, who: Who) -> Result<Json<Value>, Error> {
    match who {
        Who::Operator(_) => Ok(simulated.face.status()),
        Who::Account(_) => Err(Error::OperatorsOnly),
    }
}
