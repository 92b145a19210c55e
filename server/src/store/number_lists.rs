//! The account's NPAI list and blacklist: numbers every send leaves out (docs/interface.md §3).

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::{AccountId, Page, columns::Columns};
use crate::Error;

/// Which of the two number lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NumberList {
    /// Numbers found unknown (delivery code 5) or added by the client.
    Npai,
    /// Numbers that asked not to receive messages.
    Blacklist,
}

impl NumberList {
    /// The table that holds it.
    pub(crate) fn table(self) -> &'static str {
        match self {
            NumberList::Npai => "npai",
            NumberList::Blacklist => "blacklist",
        }
    }

    /// Its name on the wire (`npai`, `blacklist`): the JSON root and the path.
    pub(crate) fn name(self) -> &'static str {
        self.table()
    }
}

/// A number to store with its four information fields (a list contact, an NPAI or blacklist
/// entry).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct NewContact {
    /// International digits, validated.
    pub(crate) number: u64,
    /// `info1`…`info4`, empty when not given.
    pub(crate) info: [String; 4],
    /// What to record on the number's contact (lists only).
    pub(crate) card: Option<super::account_contacts::ContactChange>,
}

/// A stored NPAI or blacklist entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NumberEntry {
    /// Entry id.
    pub(crate) id: i64,
    /// International digits.
    pub(crate) number: u64,
    /// `info1`…`info4`.
    pub(crate) info: [String; 4],
    /// The campaign in which the number was found; `None` for a manual addition.
    pub(crate) campaign_id: Option<i64>,
    /// When it was added.
    pub(crate) created_at: DateTime<Utc>,
    /// Who added it: `api` (the customer), `stop` (a STOP reply), `receipt` (the carrier
    /// found the number unknown).
    pub(crate) source: String,
}

/// Which entries of a number list a listing shows; the default shows them all.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct NumberFilter {
    /// Only this number.
    pub(crate) destination: Option<u64>,
    /// Only numbers whose international digits contain these digits (digits only).
    pub(crate) digits: Option<String>,
}

/// One page of entries with the counts the answer carries.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct NumberPage {
    /// The entries of the page, oldest first.
    pub(crate) entries: Vec<NumberEntry>,
    /// Entries of the account in the list.
    pub(crate) total: i64,
    /// Entries matching the filter.
    pub(crate) matching: i64,
}

/// Reading and changing the NPAI list and the blacklist of an account.
/// How a request names an entry of a number list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EntryRef {
    /// By its number (`DELETE /blacklist/:number`).
    Number(u64),
    /// By the `id` the list shows it with (`DELETE /blacklist/contact/:id`).
    Id(i64),
}

impl EntryRef {
    /// The column that names it, and its value as stored.
    pub(crate) fn column(self) -> (&'static str, i64) {
        match self {
            EntryRef::Number(number) => ("number", number as i64),
            EntryRef::Id(id) => ("id", id),
        }
    }
}

#[async_trait]
pub(crate) trait NumberListStore: Send + Sync {
    /// A page of the entries of the account's `list` that pass `filter`.
    async fn number_entries(
        &self,
        account: AccountId,
        list: NumberList,
        filter: &NumberFilter,
        page: Page,
    ) -> Result<NumberPage, Error>;
    /// Adds `contacts` to the account's `list` in one transaction, found in `campaign` if any;
    /// numbers already there keep their entry. Returns how many were added.
    async fn add_numbers(
        &self,
        account: AccountId,
        list: NumberList,
        contacts: &[NewContact],
        campaign: Option<i64>,
        now: DateTime<Utc>,
    ) -> Result<u64, Error>;
    /// Removes an entry of the account's `list`, by its number or its id; false when it was
    /// not there.
    async fn remove_number(&self, account: AccountId, list: NumberList, entry: EntryRef) -> Result<bool, Error>;
}

/// One [`NumberEntry`], read from a row.
pub(super) fn read_number_entry<R: Columns>(row: &R) -> Result<NumberEntry, R::Fault> {
    Ok(NumberEntry {
        id: row.column(0)?,
        number: row.column::<i64>(1)? as u64,
        info: [row.column(2)?, row.column(3)?, row.column(4)?, row.column(5)?],
        campaign_id: row.column(6)?,
        created_at: row.time(7)?,
        source: row.column(8)?,
    })
}
