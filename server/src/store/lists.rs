//! Stored recipient lists: named sets of contacts a campaign can be sent to.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::{AccountId, NewContact, Page, columns::Columns};
use crate::Error;

/// A list with its size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ListSummary {
    /// List id.
    pub(crate) id: i64,
    /// Its name.
    pub(crate) name: String,
    /// Contacts in it.
    pub(crate) contacts: i64,
    /// When it was created.
    pub(crate) created_at: DateTime<Utc>,
}

/// A contact of a stored list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ListContact {
    /// Contact id.
    pub(crate) id: i64,
    /// International digits.
    pub(crate) number: u64,
    /// `info1`…`info4` (empty when not given).
    pub(crate) info: [String; 4],
}

/// What `GET /list/{id}?search=` looks for in a list's contacts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ContactSearch {
    /// Found, lowercased, in any of `info1`…`info4`.
    pub(crate) text: String,
    /// Found in the number's international digits; `None` when the search is not a number.
    pub(crate) digits: Option<String>,
}

impl ContactSearch {
    /// Whether `contact` matches: its number contains the digits, or one of its fields
    /// contains the text whatever the case (Unicode lowercase, so `É` finds `é`).
    pub(crate) fn matches(&self, contact: &ListContact) -> bool {
        self.digits.as_deref().is_some_and(|digits| contact.number.to_string().contains(digits))
            || contact.info.iter().any(|info| info.to_lowercase().contains(&self.text))
    }
}

/// A list with one page of its contacts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ListPage {
    /// The list and its size.
    pub(crate) summary: ListSummary,
    /// The page, in the order the contacts were added.
    pub(crate) contacts: Vec<ListContact>,
    /// Contacts matching the search (all of them without one).
    pub(crate) matching: i64,
}

/// What an addition of contacts did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Added {
    /// Contacts written.
    pub(crate) added: i64,
    /// Contacts left out because the list (or the request, earlier) already had the number.
    pub(crate) duplicates: i64,
}

/// Reading and changing an account's stored lists. Every method acts only on the account's
/// own lists: another account's list is as unknown as one that does not exist.
#[async_trait]
pub(crate) trait ListStore: Send + Sync {
    /// Creates the list `name` with `contacts`, in one transaction; returns its id.
    async fn create_list(&self, account: AccountId, name: &str, contacts: &[NewContact])
    -> Result<(i64, Added), Error>;
    /// Renames the list when `name` is given and adds `contacts`, in one transaction;
    /// [`Error::NotFound`] when the account has no such list.
    async fn update_list(
        &self,
        account: AccountId,
        list: i64,
        name: Option<&str>,
        contacts: &[NewContact],
    ) -> Result<Added, Error>;
    /// A page of the account's lists, oldest first, and how many there are.
    async fn lists(&self, account: AccountId, page: Page) -> Result<(Vec<ListSummary>, i64), Error>;
    /// The list and a page of its contacts that match `search` (all without one), in the
    /// order they were added; `None` when the account has no such list.
    async fn list(
        &self,
        account: AccountId,
        list: i64,
        search: Option<&ContactSearch>,
        page: Page,
    ) -> Result<Option<ListPage>, Error>;
    /// Deletes the list and its contacts; false when the account has no such list.
    async fn delete_list(&self, account: AccountId, list: i64) -> Result<bool, Error>;
    /// Deletes one contact of the account's `list`, or of any of its lists (`None`: the
    /// contact's id is enough, as `DELETE /list/contact/:id` has it); false when there is no
    /// such contact there.
    async fn delete_contact(&self, account: AccountId, list: Option<i64>, contact: i64) -> Result<bool, Error>;
}

/// A row of [`LIST_COLUMNS`].
pub(super) fn read_summary<R: Columns>(row: &R) -> Result<ListSummary, R::Fault> {
    Ok(ListSummary { id: row.column(0)?, name: row.column(1)?, contacts: row.column(2)?, created_at: row.time(3)? })
}

/// A row of [`CONTACT_COLUMNS`].
pub(super) fn read_contact<R: Columns>(row: &R) -> Result<ListContact, R::Fault> {
    Ok(ListContact {
        id: row.column(0)?,
        number: row.column::<i64>(1)? as u64,
        info: [row.column(2)?, row.column(3)?, row.column(4)?, row.column(5)?],
    })
}
