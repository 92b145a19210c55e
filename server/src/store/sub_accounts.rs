//! Sub-accounts (SMSFactor's `POST /account` with `isChild`): accounts under a parent,
//! created with their first owner, fed with credits moved from the parent or, when
//! `unlimited`, drawing on the parent's balance.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use texto_core::Credits;

use super::{AccountId, columns::Columns};
use crate::{
    Error,
    team::names::{Email, PersonName},
};

/// Where an account stands among accounts: under a parent or not, and who pays for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Family {
    /// The parent, for a sub-account.
    pub(crate) parent: Option<AccountId>,
    /// A sub-account that draws on its parent's balance when its own runs short.
    pub(crate) unlimited: bool,
}

impl Family {
    /// The account that tops this one up when its balance runs short: the parent of an
    /// unlimited sub-account.
    pub(crate) fn payer(self) -> Option<AccountId> {
        self.parent.filter(|_| self.unlimited)
    }
}

/// A sub-account to create, with its first owner.
#[derive(Debug, Clone)]
pub(crate) struct NewSubAccount {
    /// The account it belongs to.
    pub(crate) parent: AccountId,
    /// Its name (unique among all accounts).
    pub(crate) name: String,
    /// Whether it draws on the parent's balance.
    pub(crate) unlimited: bool,
    /// Whether its every campaign is held for moderation.
    pub(crate) moderated: bool,
    /// Its first owner's email.
    pub(crate) owner_email: Email,
    /// Its first owner's name.
    pub(crate) owner_name: PersonName,
    /// Its first owner's password, hashed.
    pub(crate) password_hash: String,
    /// When it is created.
    pub(crate) now: DateTime<Utc>,
}

/// A sub-account as listed to its parent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SubAccountRecord {
    /// Its id.
    pub(crate) id: AccountId,
    /// Its name.
    pub(crate) name: String,
    /// Whether it draws on the parent's balance.
    pub(crate) unlimited: bool,
    /// Its own balance.
    pub(crate) balance: Credits,
    /// The email of its first owner (empty if none is left).
    pub(crate) owner_email: String,
    /// The name of its first owner.
    pub(crate) owner_name: String,
    /// When it was created.
    pub(crate) created_at: DateTime<Utc>,
}

/// Why a sub-account could not be created.
pub(crate) fn name_taken() -> Error {
    Error::Invalid(vec![texto_core::FieldError::new("company", "an account with this name exists already")])
}

/// Why a sub-account could not be created: its owner's email belongs to someone.
pub(crate) fn email_taken() -> Error {
    Error::Invalid(vec![texto_core::FieldError::new("email", "a person with this email exists already")])
}

/// Sub-accounts and the credits moved between accounts.
#[async_trait]
pub(crate) trait SubAccountStore: Send + Sync {
    /// Creates the sub-account and its owner in one transaction; [`name_taken`] or
    /// [`email_taken`] when either is in use.
    async fn create_sub_account(&self, new: &NewSubAccount) -> Result<AccountId, Error>;
    /// The parent's sub-accounts, oldest first.
    async fn sub_accounts(&self, parent: AccountId) -> Result<Vec<SubAccountRecord>, Error>;
    /// One of the parent's sub-accounts; `None` if `id` is not one of them.
    async fn sub_account(&self, parent: AccountId, id: AccountId) -> Result<Option<SubAccountRecord>, Error>;
    /// Where the account stands (never changes once the account exists).
    async fn family(&self, account: AccountId) -> Result<Family, Error>;
    /// Moves `credits` from `from` to `to`, a `transfer` row in each ledger, in one
    /// transaction; `NotEnoughCredits` if `from` has fewer. Answers both balances after.
    async fn transfer(&self, from: AccountId, to: AccountId, credits: Credits) -> Result<(Credits, Credits), Error>;
}

/// The columns of a [`SubAccountRecord`], on `accounts a` (both stores; `$1` the parent).
pub(crate) const SUB_ACCOUNT_COLUMNS: &str = "SELECT a.id, a.name, a.unlimited, a.balance,
        coalesce((SELECT u.email FROM users u WHERE u.account_id = a.id AND u.role = 'owner' ORDER BY u.id LIMIT 1), ''),
        coalesce((SELECT u.name FROM users u WHERE u.account_id = a.id AND u.role = 'owner' ORDER BY u.id LIMIT 1), ''),
        a.created_at
     FROM accounts a WHERE a.parent_id = $1";

pub(super) fn read_sub_account<R: Columns>(row: &R) -> Result<SubAccountRecord, R::Fault> {
    Ok(SubAccountRecord {
        id: row.column(0)?,
        name: row.column(1)?,
        unlimited: row.column(2)?,
        balance: Credits::from_hundredths(row.column(3)?),
        owner_email: row.column(4)?,
        owner_name: row.column(5)?,
        created_at: row.time(6)?,
    })
}

/// One [`Family`], read from a row.
pub(super) fn read_family<R: Columns>(row: &R) -> Result<Family, R::Fault> {
    Ok(Family { parent: row.column(0)?, unlimited: row.column(1)? })
}
