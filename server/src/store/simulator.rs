//! What texto asks before it shows an account what the built-in SMSC simulator received, or
//! lets it simulate a reply: whose the messages are, and whose a reply would be.

use std::collections::HashSet;

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::{AccountId, effects};
use crate::Error;

/// Ownership questions about the simulator's traffic.
#[async_trait]
pub(crate) trait SimulatorStore: Send + Sync {
    /// Which of `smsc_ids` (as the default connector stores them) are the SMSC ids of the
    /// account's messages.
    async fn own_smsc_ids(&self, account: AccountId, smsc_ids: Vec<String>) -> Result<HashSet<String>, Error>;
    /// The account a reply from `number` arriving at `now` is kept for, if any: the last to
    /// send to it, within [`effects::REPLIES_WITHIN_DAYS`] days.
    async fn reply_owner(&self, number: i64, now: DateTime<Utc>) -> Result<Option<AccountId>, Error>;
}

/// The account that owns a number's replies (`$1` the number, `$2` the oldest send that
/// still does, as stored): the same rule the arrival of a reply applies.
pub(crate) const REPLY_OWNER: &str = "SELECT account_id FROM last_sent WHERE number = $1 AND sent_at >= $2";

/// The oldest send that still owns a reply arriving at `now`, as stored.
pub(crate) fn owned_since(now: DateTime<Utc>) -> String {
    super::time::store(effects::replies_owned_since(now))
}
