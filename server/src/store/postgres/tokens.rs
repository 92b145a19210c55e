//! API tokens in PostgreSQL.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use deadpool_postgres::GenericClient;
use tokio_postgres::Row;

use super::{PgStore, query};
use crate::{
    Error,
    store::{
        AccountId, HttpErrors, NewToken, TokenGrant, TokenRecord, TokenStore, ranges_from_column, ranges_to_column,
        role_from_column, time,
        tokens::{ADD_TOKEN, LIVE_TOKEN, LIVE_TOKENS, TOKEN_COLUMNS, TOKEN_GRANT, TokenMaker, capped},
    },
};

/// The time it revokes a token at, as the database's clock gives it.
const NOW: &str = "to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')";

fn record(row: &Row) -> TokenRecord {
    TokenRecord {
        id: row.get(0),
        name: row.get(1),
        hint: row.get(2),
        created_at: time::load(row.get(3)),
        expires_at: row.get::<_, Option<&str>>(4).map(time::load),
        allowed: ranges_from_column(row.get(5)),
        last_used_at: row.get::<_, Option<&str>>(6).map(time::load),
        http_errors: HttpErrors::from_bool(row.get(7)),
        role: capped(role_from_column(row.get(8)), row.get::<_, Option<&str>>(10).map(role_from_column)),
        made_by: row.get(9),
    }
}

/// The grant read from [`grant_columns`](crate::store::tokens::grant_columns) starting at column
/// `at`; `None` when they are null (a session of a person, or of a token revoked since).
pub(super) fn grant(row: &Row, at: usize) -> Option<TokenGrant> {
    let maker = row.get::<_, Option<i64>>(at + 8).map(|id| TokenMaker {
        id,
        email: row.get(at + 9),
        role: role_from_column(row.get(at + 10)),
    });
    Some(TokenGrant {
        account: row.get::<_, Option<AccountId>>(at)?,
        token: row.get(at + 1),
        http_errors: HttpErrors::from_bool(row.get(at + 2)),
        expires_at: row.get::<_, Option<&str>>(at + 3).map(time::load),
        allowed: ranges_from_column(row.get(at + 4)),
        last_used_at: row.get::<_, Option<&str>>(at + 5).map(time::load),
        role: capped(role_from_column(row.get(at + 6)), maker.as_ref().map(|m| m.role)),
        name: row.get(at + 7),
        maker,
    })
}

async fn live_token(db: &impl GenericClient, account: AccountId, id: i64) -> Result<Option<TokenRecord>, Error> {
    let sql = format!("{TOKEN_COLUMNS} {LIVE_TOKEN}");
    Ok(query(db, &sql, &[&id, &account]).await?.first().map(record))
}

#[async_trait]
impl TokenStore for PgStore {
    async fn add_token(
        &self,
        account: AccountId,
        hash: &[u8; 32],
        hint: &str,
        new: &NewToken,
        now: DateTime<Utc>,
    ) -> Result<TokenRecord, Error> {
        let client = self.pool.get().await?;
        let row = client
            .query_one(
                ADD_TOKEN,
                &[
                    &account,
                    &hash.as_slice(),
                    &new.http_errors.is_on(),
                    &new.name.as_str(),
                    &hint,
                    &new.expires_at(now).map(time::store),
                    &ranges_to_column(&new.allowed),
                    &time::store(now),
                    &new.role.as_str(),
                    &new.made_by,
                ],
            )
            .await?;
        live_token(&client, account, row.get(0)).await?.ok_or(Error::Unavailable("a token vanished as it was written"))
    }

    async fn tokens(&self, account: AccountId) -> Result<Vec<TokenRecord>, Error> {
        let client = self.pool.get().await?;
        let sql = format!("{TOKEN_COLUMNS} {LIVE_TOKENS}");
        Ok(query(&client, &sql, &[&account]).await?.iter().map(record).collect())
    }

    async fn token(&self, account: AccountId, id: i64) -> Result<Option<TokenRecord>, Error> {
        let client = self.pool.get().await?;
        live_token(&client, account, id).await
    }

    async fn revoke_token_id(&self, account: AccountId, id: i64) -> Result<bool, Error> {
        let client = self.pool.get().await?;
        let sql = format!(
            "UPDATE api_tokens SET revoked_at = {NOW} WHERE id = $1 AND account_id = $2 AND revoked_at IS NULL"
        );
        Ok(client.execute(&sql, &[&id, &account]).await? > 0)
    }

    async fn revoke_token(&self, hash: &[u8; 32]) -> Result<bool, Error> {
        let client = self.pool.get().await?;
        let sql = format!("UPDATE api_tokens SET revoked_at = {NOW} WHERE token_hash = $1 AND revoked_at IS NULL");
        Ok(client.execute(&sql, &[&hash.as_slice()]).await? > 0)
    }

    async fn token_grant(&self, hash: &[u8; 32]) -> Result<Option<TokenGrant>, Error> {
        let client = self.pool.get().await?;
        Ok(query(&client, TOKEN_GRANT, &[&hash.as_slice()]).await?.first().and_then(|row| grant(row, 0)))
    }

    async fn touch_token(&self, token: i64, at: DateTime<Utc>) -> Result<(), Error> {
        let client = self.pool.get().await?;
        client.execute("UPDATE api_tokens SET last_used_at = $1 WHERE id = $2", &[&time::store(at), &token]).await?;
        Ok(())
    }
}
