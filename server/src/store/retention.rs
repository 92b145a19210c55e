//! How long each account keeps its data, and the removals the retention pass makes in bounded
//! batches (docs/interface.md §9).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use texto_core::RetentionPeriod;

use super::{AccountId, columns::Columns};
use crate::Error;

/// An account's periods; `None` keeps that data for good (the default).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct RetentionSettings {
    /// Sent messages: numbers and contact fields masked.
    pub(crate) message: Option<RetentionPeriod>,
    /// List contacts: deleted.
    pub(crate) list: Option<RetentionPeriod>,
    /// Surveys: texto has none; kept as set.
    pub(crate) survey: Option<RetentionPeriod>,
    /// Campaigns: texts and senders masked.
    pub(crate) campaign: Option<RetentionPeriod>,
    /// Replies: deleted.
    pub(crate) mo: Option<RetentionPeriod>,
    /// Lookups: texto does none; kept as set.
    pub(crate) lookup: Option<RetentionPeriod>,
}

impl RetentionSettings {
    /// The six periods in the order of the wire (`message`, `list`, `survey`, `campaign`,
    /// `mo`, `lookup`).
    pub(crate) fn periods(&self) -> [Option<RetentionPeriod>; 6] {
        [self.message, self.list, self.survey, self.campaign, self.mo, self.lookup]
    }

    /// Settings from the six periods, in the order of [`RetentionSettings::periods`].
    pub(crate) fn from_periods([message, list, survey, campaign, mo, lookup]: [Option<RetentionPeriod>; 6]) -> Self {
        RetentionSettings { message, list, survey, campaign, mo, lookup }
    }
}

/// What one batch of the retention pass is to do: data of `account` older than `before`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Expiry {
    /// Mask the numbers and contact fields of sent messages (those still to be sent are left).
    MessageNumbers,
    /// Mask the texts and senders of campaigns (those still to be sent are left).
    CampaignTexts,
    /// Delete replies.
    Replies,
    /// Delete list contacts.
    ListContacts,
    /// Delete the contacts with nothing recorded that no list holds any more.
    EmptyContacts,
}

/// Where a masking pass over an account has got to: the stored time and id of the last row it
/// changed (rows are walked in that order, so each is looked at once per pass).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Cursor {
    /// The last row's stored time (`created_at`).
    pub(crate) at: String,
    /// The last row's id.
    pub(crate) id: i64,
}

/// Retention settings, and the pass's batches.
#[async_trait]
pub(crate) trait RetentionStore: Send + Sync {
    /// The account's periods.
    async fn retention(&self, account: AccountId) -> Result<RetentionSettings, Error>;
    /// Stores the account's periods.
    async fn set_retention(&self, account: AccountId, settings: RetentionSettings) -> Result<(), Error>;
    /// Every account that has a period set, with its periods.
    async fn retained_accounts(&self) -> Result<Vec<(AccountId, RetentionSettings)>, Error>;
    /// One batch: applies `expiry` to at most `batch` rows of `account` older than `before`
    /// (and past `after`, for the masks), in one short transaction. How many rows it changed
    /// (fewer than `batch`: none are left) and where a mask got to.
    async fn expire(
        &self,
        account: AccountId,
        expiry: Expiry,
        before: DateTime<Utc>,
        batch: i64,
        after: &Cursor,
    ) -> Result<(i64, Cursor), Error>;
}

/// The statement of one batch of `expiry`, the same for both stores but for their parameter
/// marks: `$1` the account, `$2` the time, `$3` the batch size; the masks also take the cursor
/// (`$4` its time and `$5` its id for messages, `$4` its id for campaigns) and return the
/// time and id of each row they change.
pub(crate) fn expiry_statement(expiry: Expiry) -> &'static str {
    match expiry {
        // On the index by account and time: each batch starts where the last one stopped.
        Expiry::MessageNumbers => {
            "UPDATE messages SET number = 0, info = NULL WHERE id IN (SELECT id FROM messages
             WHERE account_id = $1 AND created_at < $2 AND (created_at, id) > ($4, $5) AND number <> 0 AND delivery <> 0
             ORDER BY created_at, id LIMIT $3) RETURNING created_at, id"
        }
        Expiry::CampaignTexts => {
            "UPDATE campaigns SET text = '', sender = NULL WHERE id IN (SELECT id FROM campaigns
             WHERE account_id = $1 AND id > $4 AND created_at < $2 AND text <> '' AND status IN ('sent', 'cancelled')
             ORDER BY id LIMIT $3) RETURNING created_at, id"
        }
        Expiry::Replies => {
            "DELETE FROM replies WHERE id IN (SELECT id FROM replies WHERE account_id = $1 AND received_at < $2 LIMIT $3)"
        }
        Expiry::ListContacts => {
            "DELETE FROM contacts WHERE id IN (SELECT c.id FROM contacts c JOIN lists l ON l.id = c.list_id
             WHERE l.account_id = $1 AND c.added_at < $2 LIMIT $3)"
        }
        Expiry::EmptyContacts => {
            "DELETE FROM account_contacts WHERE account_id = $1 AND number IN (SELECT a.number FROM account_contacts a
             WHERE a.account_id = $1 AND a.created_at < $2 AND a.firstname = '' AND a.lastname = '' AND a.fields = '{}'
                 AND a.tags = '[]' AND a.opt_in_at IS NULL AND a.opt_out_at IS NULL
                 AND NOT EXISTS (SELECT 1 FROM contacts c JOIN lists l ON l.id = c.list_id WHERE l.account_id = $1 AND c.number = a.number)
             LIMIT $3)"
        }
    }
}

pub(super) fn read_settings<R: Columns>(row: &R, from: usize) -> Result<RetentionSettings, R::Fault> {
    let mut periods = [None; 6];
    for (i, period) in periods.iter_mut().enumerate() {
        *period = row.column::<Option<String>>(from + i)?.and_then(|p| p.parse().ok());
    }
    Ok(RetentionSettings::from_periods(periods))
}
