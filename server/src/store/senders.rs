//! Registered sender IDs (migrations `0038_senders` and PostgreSQL's `0033`). The statements
//! are shared; SQLite numbers their `$N` as `?N` (and reads its 0/1 as booleans).

use async_trait::async_trait;

use super::{AccountId, columns::Columns};
use crate::Error;

/// A registered sender.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SenderRecord {
    /// The sender ID (`Boutique`).
    pub(crate) name: String,
    /// Sends that name no sender go from it.
    pub(crate) default: bool,
}

/// Registered senders.
#[async_trait]
pub(crate) trait SenderStore: Send + Sync {
    /// The account's registered senders, by name.
    async fn senders(&self, account: AccountId) -> Result<Vec<SenderRecord>, Error>;
    /// Registers `name` for the account; whether it was new.
    async fn add_sender(&self, account: AccountId, name: &str) -> Result<bool, Error>;
    /// Unregisters `name`; whether the account had it.
    async fn remove_sender(&self, account: AccountId, name: &str) -> Result<bool, Error>;
    /// Makes `name` the account's default (`None`: no default); `false` when the account has
    /// no such sender.
    async fn set_default_sender(&self, account: AccountId, name: Option<&str>) -> Result<bool, Error>;
}

/// The account's senders (`$1`), by name.
pub(crate) const SENDERS: &str =
    "SELECT name, is_default FROM senders WHERE account_id = $1 ORDER BY lower(name), name";

/// Registers a sender (`$1` account, `$2` name, `$3` now), unless the account has it in any
/// case (`Boutique`, `BOUTIQUE`: one sender).
pub(crate) const ADD: &str = "INSERT INTO senders (account_id, name, created_at)
     SELECT CAST($1 AS BIGINT), CAST($2 AS TEXT), CAST($3 AS TEXT)
     WHERE NOT EXISTS (SELECT 1 FROM senders WHERE account_id = $1 AND lower(name) = lower($2))";

/// Unregisters a sender (`$1` account, `$2` name, in any case).
pub(crate) const REMOVE: &str = "DELETE FROM senders WHERE account_id = $1 AND lower(name) = lower($2)";

/// Makes `$2` (in any case) the account's (`$1`) default and no other; with `$2` naming none, no
/// default.
pub(crate) const SET_DEFAULT: &str =
    "UPDATE senders SET is_default = COALESCE(lower(name) = lower($2), false) WHERE account_id = $1";

/// Whether the account (`$1`) has the sender `$2`, in any case.
pub(crate) const HAS: &str = "SELECT EXISTS (SELECT 1 FROM senders WHERE account_id = $1 AND lower(name) = lower($2))";

/// A row of [`SENDERS`].
pub(crate) fn read_sender<R: Columns>(row: &R) -> Result<SenderRecord, R::Fault> {
    Ok(SenderRecord { name: row.column(0)?, default: row.column(1)? })
}
