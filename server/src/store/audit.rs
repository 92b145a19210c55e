//! The audit log: who did what, when and from where; append-only, pruned after
//! `--audit-keep`.

use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::{AccountId, Page, SqlValue, columns::Columns, conditions::Conditions, time};
use crate::Error;

/// One line of the audit log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AuditEntry {
    /// The account it happened in.
    pub(crate) account: AccountId,
    /// When.
    pub(crate) at: DateTime<Utc>,
    /// Who: a person's email, a token's name, or the address tried at a failed sign-in.
    pub(crate) actor: String,
    /// From which address.
    pub(crate) address: String,
    /// What (`campaign.send`, `session.create`).
    pub(crate) action: String,
    /// On what (`campaign 42`), or empty.
    pub(crate) object: String,
    /// One line saying what happened.
    pub(crate) summary: String,
}

/// Which lines `GET /audit` reads: all filters optional.
#[derive(Debug, Clone, Default)]
pub(crate) struct AuditFilter {
    /// Who, exactly as recorded (any case).
    pub(crate) actor: Option<String>,
    /// The action, or its family (`campaign` keeps `campaign.send` and `campaign.cancel`).
    pub(crate) action: Option<String>,
    /// From this time on.
    pub(crate) from: Option<DateTime<Utc>>,
    /// Up to this time.
    pub(crate) until: Option<DateTime<Utc>>,
}

impl AuditFilter {
    /// The filter's conditions on the `audit` table, the account's first.
    pub(crate) fn conditions(&self, account: AccountId) -> Conditions {
        let mut conditions = Conditions::default();
        conditions.require("account_id = ?", [SqlValue::Int(account)]);
        if let Some(actor) = &self.actor {
            conditions.require("lower(actor) = ?", [SqlValue::Text(actor.trim().to_lowercase())]);
        }
        if let Some(action) = &self.action {
            let action = action.trim().to_lowercase();
            let family = SqlValue::Text(format!("{action}.%"));
            conditions.require("(action = ? OR action LIKE ?)", [SqlValue::Text(action), family]);
        }
        if let Some(from) = self.from {
            conditions.require("at >= ?", [SqlValue::Text(time::store(from))]);
        }
        if let Some(until) = self.until {
            conditions.require("at <= ?", [SqlValue::Text(time::store(until))]);
        }
        conditions
    }
}

/// A page of the audit log and its totals.
#[derive(Debug, Clone, Default)]
pub(crate) struct AuditPage {
    /// The lines, newest first.
    pub(crate) entries: Vec<AuditEntry>,
    /// Lines the filter keeps.
    pub(crate) kept: i64,
    /// Lines of the account.
    pub(crate) total: i64,
}

/// The count of the account's lines; `$1` the account.
pub(crate) const AUDIT_TOTAL: &str = "SELECT COUNT(*) FROM audit WHERE account_id = $1";

/// Writing and reading the audit log.
#[async_trait]
pub(crate) trait AuditStore: Send + Sync {
    /// Appends lines, in one transaction.
    async fn record_audit(&self, entries: Arc<Vec<AuditEntry>>) -> Result<(), Error>;
    /// The account's lines `filter` keeps, newest first, in `page`; how many it keeps; and
    /// how many the account has.
    async fn audit(&self, account: AccountId, filter: &AuditFilter, page: Page) -> Result<AuditPage, Error>;
    /// Deletes up to `limit` lines older than `before`; how many went.
    async fn prune_audit(&self, before: DateTime<Utc>, limit: i64) -> Result<u64, Error>;
}

/// One [`AuditEntry`], read from a row.
pub(super) fn read_entry<R: Columns>(row: &R) -> Result<AuditEntry, R::Fault> {
    Ok(AuditEntry {
        account: row.column(0)?,
        at: row.time(1)?,
        actor: row.column(2)?,
        address: row.column(3)?,
        action: row.column(4)?,
        object: row.column(5)?,
        summary: row.column(6)?,
    })
}
