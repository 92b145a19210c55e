//! Who an operator's request comes from: the operator whose token it carries, and what that
//! operator did, recorded in the operators' log.

use axum::http::request::Parts;
use chrono::Utc;

use crate::{
    Error,
    account::audit_log::PLATFORM_LOG,
    http::auth,
    state::AppState,
    store::{AccountId, AuditEntry, OperatorRecord, token_hash},
};

/// An operator making a request.
#[derive(Debug, Clone)]
pub(crate) struct OperatorCaller {
    /// Who.
    pub(crate) operator: OperatorRecord,
    /// From which address.
    pub(crate) address: std::net::IpAddr,
}

/// The operator whose token the request carries: 401 without valid credentials, 403 with an
/// account's.
pub(crate) async fn authenticate(parts: &Parts, state: &AppState) -> Result<OperatorCaller, Error> {
    if let Some(operator) = operator_of(parts, state).await? {
        return Ok(operator);
    }
    auth::authenticate(parts, state, false).await?;
    Err(Error::OperatorsOnly)
}

/// The operator whose token the request carries, if it carries one.
pub(crate) async fn operator_of(parts: &Parts, state: &AppState) -> Result<Option<OperatorCaller>, Error> {
    let Some(token) = auth::bearer(parts) else { return Ok(None) };
    let operator = state.store.operator_by_token(&token_hash(&token), Utc::now()).await?;
    Ok(operator
        .map(|operator| OperatorCaller { operator, address: auth::client(parts, &state.config.trusted_proxies) }))
}

impl OperatorCaller {
    /// Records what the operator did in the operators' log and, when it concerns an account,
    /// in that account's log too.
    pub(crate) fn record(
        &self,
        state: &AppState,
        account: Option<AccountId>,
        action: &str,
        object: String,
        summary: String,
    ) {
        let entry = AuditEntry {
            account: PLATFORM_LOG,
            at: Utc::now(),
            actor: format!("operator {}", self.operator.name),
            address: self.address.to_string(),
            action: action.to_owned(),
            object,
            summary,
        };
        if let Some(account) = account {
            state.audit.record(AuditEntry { account, ..entry.clone() });
        }
        state.audit.record(entry);
    }
}
