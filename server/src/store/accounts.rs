//! Accounts, their tokens and their credits.

use async_trait::async_trait;
use texto_core::Credits;

use super::AccountId;
use crate::Error;

/// Accounts, tokens and the credit ledger.
#[async_trait]
pub(crate) trait AccountStore: Send + Sync {
    /// Creates the account `name` with `credits` (a top-up in the ledger).
    async fn create_account(&self, name: &str, credits: Credits) -> Result<AccountId, Error>;
    /// The account called `name`.
    async fn account_by_name(&self, name: &str) -> Result<Option<AccountId>, Error>;
    /// Adds `credits` to the account (a ledger row); returns the new balance.
    async fn top_up(&self, account: AccountId, credits: Credits) -> Result<Credits, Error>;
    /// The balance: the sum of the account's ledger.
    async fn balance(&self, account: AccountId) -> Result<Credits, Error>;
    /// Stores a token (by its hash) for the account.
    async fn add_token(&self, account: AccountId, hash: &[u8; 32]) -> Result<(), Error>;
    /// Revokes a token; false when no live token has that hash.
    async fn revoke_token(&self, hash: &[u8; 32]) -> Result<bool, Error>;
    /// The account of a live token.
    async fn account_for_token(&self, hash: &[u8; 32]) -> Result<Option<AccountId>, Error>;
    /// Whether the store answers (for `GET /health`).
    async fn ping(&self) -> Result<(), Error>;
}
