//! Campaigns waiting for approval. Such a campaign is written as scheduled at [`AWAITING`],
//! a time no campaign is sent at, in the same transaction as the campaign itself: nothing
//! goes out until it is approved (it is then scheduled at the time asked for, or at once) or
//! rejected (cancelled and refunded).

use async_trait::async_trait;
use chrono::{DateTime, TimeZone, Utc};

use super::AccountId;
use crate::Error;

/// The send time of a campaign awaiting approval.
pub(crate) fn awaiting() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(9999, 12, 31, 0, 0, 0).single().unwrap_or(DateTime::<Utc>::MAX_UTC)
}

/// Notes who asked for an awaiting campaign and when it should go; `$1` ticket, `$2`
/// account, `$3` the time asked for, `$4` who.
pub(crate) const MARK_AWAITING: &str =
    "UPDATE campaigns SET approval = 'awaiting', requested_send_at = $3, created_by = $4
     WHERE id = $1 AND account_id = $2";

/// Schedules an awaiting campaign at the time asked for, or `$3` (now) if that has passed.
pub(crate) const APPROVE: &str = "UPDATE campaigns SET approval = 'approved',
         send_at = CASE WHEN requested_send_at IS NOT NULL AND requested_send_at > $3 THEN requested_send_at ELSE $3 END
     WHERE id = $1 AND account_id = $2 AND status = 'scheduled' AND send_at = $4";

/// Notes the rejection of a campaign (cancelled by the same request); `$3` the reason.
pub(crate) const NOTE_REJECTION: &str =
    "UPDATE campaigns SET approval = 'rejected', approval_note = $3 WHERE id = $1 AND account_id = $2";

/// Who asked for a campaign (for the author's notice).
pub(crate) const AUTHOR: &str = "SELECT coalesce(created_by, '') FROM campaigns WHERE id = $1 AND account_id = $2";

/// Why a campaign was rejected, if it was.
pub(crate) const REJECTION: &str =
    "SELECT approval_note FROM campaigns WHERE id = $1 AND account_id = $2 AND approval = 'rejected'";

/// Campaigns awaiting approval since before `$1`, at most `$3`; `$2` the awaiting time.
pub(crate) const STALE: &str = "SELECT account_id, id FROM campaigns
     WHERE status = 'scheduled' AND send_at = $2 AND created_at < $1 ORDER BY id LIMIT $3";

/// Approving and rejecting.
#[async_trait]
pub(crate) trait ApprovalStore: Send + Sync {
    /// Notes who asked for the awaiting campaign `ticket` and when it should go.
    async fn mark_awaiting(
        &self,
        account: AccountId,
        ticket: i64,
        requested: DateTime<Utc>,
        by: &str,
    ) -> Result<(), Error>;
    /// Schedules an awaiting campaign; whether one was awaiting.
    async fn approve(&self, account: AccountId, ticket: i64, now: DateTime<Utc>) -> Result<bool, Error>;
    /// Notes why a (cancelled) campaign was rejected.
    async fn note_rejection(&self, account: AccountId, ticket: i64, reason: &str) -> Result<(), Error>;
    /// Up to `limit` campaigns awaiting approval since before `before`: `(account, ticket)`.
    async fn stale_approvals(&self, before: DateTime<Utc>, limit: i64) -> Result<Vec<(AccountId, i64)>, Error>;
    /// Who asked for a campaign that waited for approval (empty when unknown).
    async fn campaign_author(&self, account: AccountId, ticket: i64) -> Result<String, Error>;
    /// Why the campaign was rejected; `None` if it was not.
    async fn rejection(&self, account: AccountId, ticket: i64) -> Result<Option<String>, Error>;
}
