//! Operators (in migrations `0022_operator` and PostgreSQL's `0019`): the people who
//! run texto for every account, with a bearer token of their own, and what their console reads
//! of the accounts.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use texto_core::Credits;

use super::{AccountId, columns::Columns};
use crate::Error;

/// An operator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OperatorRecord {
    /// Its id.
    pub(crate) id: i64,
    /// Its name, as the audit log names it.
    pub(crate) name: String,
}

/// An account as the operator's console lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AccountOverview {
    /// Its id.
    pub(crate) id: AccountId,
    /// Its name.
    pub(crate) name: String,
    /// Its balance.
    pub(crate) balance: Credits,
    /// Its price plan (`None`: the shipped prices).
    pub(crate) plan: Option<String>,
    /// The account it is a sub-account of.
    pub(crate) parent: Option<AccountId>,
    /// Whether its every campaign is held for moderation.
    pub(crate) moderated: bool,
    /// Its throughput limit, in messages a second.
    pub(crate) per_second: Option<i64>,
    /// Whether an operator suspended it.
    pub(crate) suspended: bool,
}

/// A movement of an account's balance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LedgerLine {
    /// When.
    pub(crate) at: DateTime<Utc>,
    /// How much (a debit is negative).
    pub(crate) amount: Credits,
    /// `topup`, `debit`, `refund` or `transfer`.
    pub(crate) kind: String,
    /// The campaign it is for, if any.
    pub(crate) campaign: Option<i64>,
}

/// Where operators live.
#[async_trait]
pub(crate) trait OperatorStore: Send + Sync {
    /// Creates an operator with the token of this hash; `false` when the name is taken.
    async fn create_operator(&self, name: &str, token_hash: &[u8; 32]) -> Result<bool, Error>;
    /// The operator whose token, or whose session unexpired at `now`, has this hash.
    async fn operator_by_token(
        &self,
        token_hash: &[u8; 32],
        now: DateTime<Utc>,
    ) -> Result<Option<OperatorRecord>, Error>;
    /// Sets the operator's password hash; `false` when there is no operator of that name.
    async fn set_operator_password(&self, name: &str, password_hash: &str) -> Result<bool, Error>;
    /// The operator of that name and their password hash (`None` when they have none).
    async fn operator_sign_in(&self, name: &str) -> Result<Option<(OperatorRecord, Option<String>)>, Error>;
    /// Opens a session: a token of this hash for the operator until `expires_at`.
    async fn add_operator_session(
        &self,
        token_hash: &[u8; 32],
        operator: i64,
        expires_at: DateTime<Utc>,
    ) -> Result<(), Error>;
    /// Ends the session of this token hash (nothing when there is none).
    async fn end_operator_session(&self, token_hash: &[u8; 32]) -> Result<(), Error>;
    /// Every account, by id.
    async fn account_overviews(&self) -> Result<Vec<AccountOverview>, Error>;
    /// Suspends the account from `at`, or restores it (`None`).
    async fn set_suspended(&self, account: AccountId, at: Option<DateTime<Utc>>) -> Result<(), Error>;
    /// The account's balance movements, newest first: `limit` of them after the newest `skip`.
    async fn ledger(&self, account: AccountId, limit: i64, skip: i64) -> Result<Vec<LedgerLine>, Error>;
}

/// Creates an operator (`$1` name, `$2` token hash, `$3` now) unless the name is taken.
pub(crate) const CREATE: &str =
    "INSERT INTO operators (name, token_hash, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING";
/// The operator of a token or of a session (`$1` hash) unexpired at `$2`.
pub(crate) const BY_TOKEN: &str = "SELECT id, name FROM operators WHERE token_hash = $1
     UNION ALL SELECT o.id, o.name FROM operator_sessions s JOIN operators o ON o.id = s.operator_id
     WHERE s.token_hash = $1 AND s.expires_at > $2";
/// Sets the password hash (`$2`) of the operator called `$1`.
pub(crate) const SET_PASSWORD: &str = "UPDATE operators SET password_hash = $2 WHERE name = $1";
/// The operator called `$1` with their password hash.
pub(crate) const SIGN_IN: &str = "SELECT id, name, password_hash FROM operators WHERE name = $1";
/// Opens a session (`$1` token hash, `$2` operator, `$3` expiry).
pub(crate) const ADD_SESSION: &str =
    "INSERT INTO operator_sessions (token_hash, operator_id, expires_at) VALUES ($1, $2, $3)";
/// Forgets the sessions expired at `$1`.
pub(crate) const FORGET_SESSIONS: &str = "DELETE FROM operator_sessions WHERE expires_at <= $1";
/// Ends a session (`$1` token hash).
pub(crate) const END_SESSION: &str = "DELETE FROM operator_sessions WHERE token_hash = $1";
/// Every account with its balance, plan, parent and standing.
pub(crate) const OVERVIEWS: &str =
    "SELECT a.id, a.name, a.balance, p.plan, a.parent_id, a.moderated, a.per_second, a.suspended_at IS NOT NULL
     FROM accounts a LEFT JOIN account_plans p ON p.account_id = a.id ORDER BY a.id";
/// Suspends (`$2` the time) or restores (`$2` NULL) the account `$1`.
pub(crate) const SET_SUSPENDED: &str = "UPDATE accounts SET suspended_at = $2 WHERE id = $1";
/// The account's (`$1`) ledger lines, newest first: `$2` of them after the newest `$3`.
pub(crate) const LEDGER: &str = "SELECT created_at, amount, kind, campaign_id FROM ledger WHERE account_id = $1
     ORDER BY id DESC LIMIT $2 OFFSET $3";

/// One [`AccountOverview`], read from a row.
pub(super) fn read_overview<R: Columns>(row: &R) -> Result<AccountOverview, R::Fault> {
    Ok(AccountOverview {
        id: row.column(0)?,
        name: row.column(1)?,
        balance: Credits::from_hundredths(row.column(2)?),
        plan: row.column(3)?,
        parent: row.column(4)?,
        moderated: row.column(5)?,
        per_second: row.column(6)?,
        suspended: row.column(7)?,
    })
}

/// One [`LedgerLine`], read from a row.
pub(super) fn read_ledger_line<R: Columns>(row: &R) -> Result<LedgerLine, R::Fault> {
    Ok(LedgerLine {
        at: row.time(0)?,
        amount: Credits::from_hundredths(row.column(1)?),
        kind: row.column(2)?,
        campaign: row.column(3)?,
    })
}

/// One [`OperatorRecord`], read from a row.
pub(super) fn read_operator<R: Columns>(row: &R) -> Result<OperatorRecord, R::Fault> {
    Ok(OperatorRecord { id: row.column(0)?, name: row.column(1)? })
}
