//! API tokens in PostgreSQL.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use deadpool_postgres::GenericClient;

use super::{PgStore, query};
use crate::{
    Error,
    store::{
        AccountId, NewToken, TokenGrant, TokenRecord, TokenStore, ranges_to_column, time,
        token_rows::{read_grant, read_token},
        tokens::{ADD_TOKEN, LIVE_TOKEN, LIVE_TOKENS, TOKEN_COLUMNS, TOKEN_GRANT},
    },
};

/// The time it revokes a token at, as the database's clock gives it.
const NOW: &str = "to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')";

async fn live_token(db: &impl GenericClient, account: AccountId, id: i64) -> Result<Option<TokenRecord>, Error> {
    let sql = format!("{TOKEN_COLUMNS} {LIVE_TOKEN}");
    Ok(query(db, &sql, &[&id, &account]).await?.first().map(read_token).transpose()?)
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
        Ok(query(&client, &sql, &[&account]).await?.iter().map(read_token).collect::<Result<_, _>>()?)
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
        Ok(query(&client, TOKEN_GRANT, &[&hash.as_slice()])
            .await?
            .first()
            .map(|row| read_grant(row, 0))
            .transpose()?
            .flatten())
    }

    async fn touch_token(&self, token: i64, at: DateTime<Utc>) -> Result<(), Error> {
        let client = self.pool.get().await?;
        client.execute("UPDATE api_tokens SET last_used_at = $1 WHERE id = $2", &[&time::store(at), &token]).await?;
        Ok(())
    }
}
