//! Accounts, tokens and the ledger in SQLite.

use async_trait::async_trait;
use texto_core::Credits;

use super::SqliteStore;
use crate::{
    Error,
    store::{AccountId, AccountStore},
};

#[async_trait]
impl AccountStore for SqliteStore {
    async fn create_account(&self, name: &str, credits: Credits) -> Result<AccountId, Error> {
        let mut tx = self.write.begin().await?;
        let id: i64 = sqlx::query_scalar("INSERT INTO accounts (name) VALUES (?) RETURNING id")
            .bind(name)
            .fetch_one(&mut *tx)
            .await
            .map_err(|e| match e.as_database_error().is_some_and(|d| d.is_unique_violation()) {
                true => Error::Command(format!("an account called {name:?} already exists")),
                false => e.into(),
            })?;
        if credits > Credits::ZERO {
            sqlx::query("INSERT INTO ledger (account_id, amount, kind) VALUES (?, ?, 'topup')")
                .bind(id)
                .bind(credits.hundredths())
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(id)
    }

    async fn account_by_name(&self, name: &str) -> Result<Option<AccountId>, Error> {
        Ok(sqlx::query_scalar("SELECT id FROM accounts WHERE name = ?").bind(name).fetch_optional(&self.read).await?)
    }

    async fn top_up(&self, account: AccountId, credits: Credits) -> Result<Credits, Error> {
        let mut tx = self.write.begin().await?;
        sqlx::query("INSERT INTO ledger (account_id, amount, kind) VALUES (?, ?, 'topup')")
            .bind(account)
            .bind(credits.hundredths())
            .execute(&mut *tx)
            .await?;
        let balance: i64 = sqlx::query_scalar("SELECT balance FROM accounts WHERE id = ?").bind(account).fetch_one(&mut *tx).await?;
        tx.commit().await?;
        Ok(Credits::from_hundredths(balance))
    }

    async fn balance(&self, account: AccountId) -> Result<Credits, Error> {
        let balance: i64 = sqlx::query_scalar("SELECT balance FROM accounts WHERE id = ?").bind(account).fetch_one(&self.read).await?;
        Ok(Credits::from_hundredths(balance))
    }

    async fn add_token(&self, account: AccountId, hash: &[u8; 32]) -> Result<(), Error> {
        sqlx::query("INSERT INTO api_tokens (account_id, token_hash) VALUES (?, ?)")
            .bind(account)
            .bind(hash.as_slice())
            .execute(&self.write)
            .await?;
        Ok(())
    }

    async fn revoke_token(&self, hash: &[u8; 32]) -> Result<bool, Error> {
        let done = sqlx::query(
            "UPDATE api_tokens SET revoked_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE token_hash = ? AND revoked_at IS NULL",
        )
        .bind(hash.as_slice())
        .execute(&self.write)
        .await?;
        Ok(done.rows_affected() > 0)
    }

    async fn account_for_token(&self, hash: &[u8; 32]) -> Result<Option<AccountId>, Error> {
        Ok(sqlx::query_scalar("SELECT account_id FROM api_tokens WHERE token_hash = ? AND revoked_at IS NULL")
            .bind(hash.as_slice())
            .fetch_optional(&self.read)
            .await?)
    }
}
