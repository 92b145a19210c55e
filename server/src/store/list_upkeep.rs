//! Keeping an account's lists clean: editing a contact, taking out duplicate numbers and the
//! numbers on the NPAI list.

use async_trait::async_trait;

use super::AccountId;
use crate::Error;

/// A change to a list contact: `None` keeps a field.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ContactChange {
    /// A new number (international, already checked).
    pub(crate) number: Option<u64>,
    /// New information fields.
    pub(crate) info: [Option<String>; 4],
    /// What to record on the number's contact.
    pub(crate) card: Option<super::account_contacts::ContactChange>,
}

/// What [`ListUpkeep::update_contact`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ContactUpdate {
    /// Changed.
    Updated,
    /// The account has no such contact.
    NotFound,
    /// Its list already holds the new number.
    NumberTaken,
}

/// Upkeep of the account's lists; another account's list or contact is as unknown as one that
/// does not exist (`None`, [`ContactUpdate::NotFound`]).
#[async_trait]
pub(crate) trait ListUpkeep: Send + Sync {
    /// Changes one contact of any of the account's lists.
    async fn update_contact(
        &self,
        account: AccountId,
        contact: i64,
        change: ContactChange,
    ) -> Result<ContactUpdate, Error>;
    /// Takes out every contact whose number an older contact of the list has; how many went.
    async fn deduplicate_list(&self, account: AccountId, list: i64) -> Result<Option<i64>, Error>;
    /// Takes out the contacts whose number is on the account's NPAI list; how many went.
    async fn clear_list_npai(&self, account: AccountId, list: i64) -> Result<Option<i64>, Error>;
}

/// The statement that takes out a list's duplicate numbers, keeping each number's oldest
/// contact. The list keeps each number once already (a unique index), so it finds none today;
/// it stays the one definition of a duplicate should that rule ever loosen.
pub(crate) const DEDUPLICATE: &str = "DELETE FROM contacts WHERE list_id = $1
     AND id NOT IN (SELECT MIN(id) FROM contacts WHERE list_id = $1 GROUP BY number)";

/// The statement that takes out a list's NPAI numbers (`$1` the list, `$2` the account).
pub(crate) const CLEAR_NPAI: &str =
    "DELETE FROM contacts WHERE list_id = $1 AND number IN (SELECT number FROM npai WHERE account_id = $2)";

/// The statement that changes a contact (`$1` the contact, `$2` the account, `$3` the number
/// or null, `$4`…`$7` the fields or null).
pub(crate) const UPDATE_CONTACT: &str = "UPDATE contacts SET number = COALESCE($3, number),
     info1 = COALESCE($4, info1), info2 = COALESCE($5, info2), info3 = COALESCE($6, info3), info4 = COALESCE($7, info4)
     WHERE id = $1 AND list_id IN (SELECT id FROM lists WHERE account_id = $2) RETURNING number";
