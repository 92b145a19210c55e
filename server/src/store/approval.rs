//! Campaigns waiting for approval. Such a campaign is written as scheduled at [`AWAITING`],
//! a time no campaign is sent at, in the same transaction as the campaign itself: nothing
//! goes out until it is approved (it is then scheduled at the time asked for, or at once) or
//! rejected (cancelled and refunded).

use async_trait::async_trait;
use chrono::{DateTime, TimeZone, Utc};

use super::{AccountId, columns::Columns};
use crate::Error;

/// The send time of a campaign awaiting approval.
pub(crate) fn awaiting() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(9999, 12, 31, 0, 0, 0).single().unwrap_or(DateTime::<Utc>::MAX_UTC)
}

/// Whose hand sent a campaign, or approves one: the person who answers for it (signed in, or
/// through a token they made), else the token (one of the command line answers for itself).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Hand {
    /// A person, by id.
    Person(i64),
    /// A token without a maker, by id.
    Token(i64),
    /// Nobody known: a campaign sent before texto recorded hands, or by texto itself.
    Unknown,
}

impl Hand {
    /// The hand of a person, else of a token.
    pub(crate) fn of(person: Option<i64>, token: Option<i64>) -> Hand {
        match (person, token) {
            (Some(person), _) => Hand::Person(person),
            (None, Some(token)) => Hand::Token(token),
            (None, None) => Hand::Unknown,
        }
    }

    /// As stored: `(sent_by_person, sent_by_token)`.
    pub(crate) fn columns(self) -> (Option<i64>, Option<i64>) {
        match self {
            Hand::Person(person) => (Some(person), None),
            Hand::Token(token) => (None, Some(token)),
            Hand::Unknown => (None, None),
        }
    }

    /// Whether `self` and `other` are known to be the same hand, so that one may not approve
    /// what the other sent (four eyes). Nobody known is nobody in particular.
    pub(crate) fn is(self, other: Hand) -> bool {
        self != Hand::Unknown && self == other
    }
}

/// Who sent a campaign: their hand, and the email of the person who answers for it (told what
/// becomes of it), if a person does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SentBy {
    /// Whose hand sent it.
    pub(crate) hand: Hand,
    /// The email of the person who answers for it.
    pub(crate) email: Option<String>,
}

/// Notes who asked for an awaiting campaign and when it should go; `$1` ticket, `$2`
/// account, `$3` the time asked for, `$4` who (as the audit log names them), `$5` and `$6`
/// their hand.
pub(crate) const MARK_AWAITING: &str = "UPDATE campaigns SET approval = 'awaiting', requested_send_at = $3,
        created_by = $4, sent_by_person = $5, sent_by_token = $6
     WHERE id = $1 AND account_id = $2";

/// Schedules an awaiting campaign at the time asked for, or `$3` (now) if that has passed.
pub(crate) const APPROVE: &str = "UPDATE campaigns SET approval = 'approved',
         send_at = CASE WHEN requested_send_at IS NOT NULL AND requested_send_at > $3 THEN requested_send_at ELSE $3 END
     WHERE id = $1 AND account_id = $2 AND status = 'scheduled' AND send_at = $4";

/// Notes the rejection of a campaign (cancelled by the same request); `$3` the reason.
pub(crate) const NOTE_REJECTION: &str =
    "UPDATE campaigns SET approval = 'rejected', approval_note = $3 WHERE id = $1 AND account_id = $2";

/// Who sent a campaign: their hand, and the email of the person who answers for it.
pub(crate) const SENT_BY: &str = "SELECT c.sent_by_person, c.sent_by_token, u.email
     FROM campaigns c LEFT JOIN users u ON u.id = c.sent_by_person WHERE c.id = $1 AND c.account_id = $2";

/// Why a campaign was rejected, if it was.
pub(crate) const REJECTION: &str =
    "SELECT approval_note FROM campaigns WHERE id = $1 AND account_id = $2 AND approval = 'rejected'";

/// Campaigns awaiting approval since before `$1` (since their creation, or their release by
/// moderation), at most `$3`; `$2` the awaiting time.
pub(crate) const STALE: &str = "SELECT account_id, id FROM campaigns
     WHERE status = 'scheduled' AND send_at = $2 AND coalesce(awaiting_since, created_at) < $1 ORDER BY id LIMIT $3";

/// Approving and rejecting.
#[async_trait]
pub(crate) trait ApprovalStore: Send + Sync {
    /// Notes who asked for the awaiting campaign `ticket` (`actor`, as the audit log names
    /// them, and their `hand`) and when it should go.
    async fn mark_awaiting(
        &self,
        account: AccountId,
        ticket: i64,
        requested: DateTime<Utc>,
        actor: &str,
        hand: Hand,
    ) -> Result<(), Error>;
    /// Schedules an awaiting campaign; whether one was awaiting.
    async fn approve(&self, account: AccountId, ticket: i64, now: DateTime<Utc>) -> Result<bool, Error>;
    /// Notes why a (cancelled) campaign was rejected.
    async fn note_rejection(&self, account: AccountId, ticket: i64, reason: &str) -> Result<(), Error>;
    /// Up to `limit` campaigns awaiting approval since before `before`: `(account, ticket)`.
    async fn stale_approvals(&self, before: DateTime<Utc>, limit: i64) -> Result<Vec<(AccountId, i64)>, Error>;
    /// Who sent a campaign that waited (nobody known when it is not the account's).
    async fn campaign_sender(&self, account: AccountId, ticket: i64) -> Result<SentBy, Error>;
    /// Why the campaign was rejected; `None` if it was not.
    async fn rejection(&self, account: AccountId, ticket: i64) -> Result<Option<String>, Error>;
}

/// One [`SentBy`], read from a row.
pub(super) fn read_sent_by<R: Columns>(row: &R) -> Result<SentBy, R::Fault> {
    Ok(SentBy { hand: Hand::of(row.column(0)?, row.column(1)?), email: row.column(2)? })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hand_is_a_person_else_a_token_and_nobody_known_is_nobody_in_particular() {
        assert_eq!(Hand::of(Some(4), Some(9)), Hand::Person(4), "a person's token is the person");
        assert!(Hand::Person(4).is(Hand::of(Some(4), None)));
        assert!(!Hand::Person(4).is(Hand::Person(5)));
        assert!(Hand::Token(9).is(Hand::Token(9)), "a token of the command line is itself");
        assert!(!Hand::Token(9).is(Hand::Token(8)));
        assert!(!Hand::Person(9).is(Hand::Token(9)));
        assert!(!Hand::Unknown.is(Hand::Unknown));
        for hand in [Hand::Person(4), Hand::Token(9), Hand::Unknown] {
            let (person, token) = hand.columns();
            assert_eq!(Hand::of(person, token), hand, "{hand:?} reads back");
        }
    }
}
