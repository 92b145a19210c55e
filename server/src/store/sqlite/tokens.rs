//! API tokens in SQLite.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use rusqlite::{Connection, OptionalExtension, params};

use super::{SqliteStore, numbered};
use crate::{
    Error,
    store::{
        AccountId, NewToken, TokenGrant, TokenRecord, TokenStore, ranges_to_column, time,
        token_rows::{read_grant, read_token},
        tokens::{ADD_TOKEN, LIVE_TOKEN, LIVE_TOKENS, TOKEN_COLUMNS, TOKEN_GRANT},
    },
};

fn live_token(db: &Connection, account: AccountId, id: i64) -> Result<Option<TokenRecord>, Error> {
    Ok(db
        .prepare_cached(&numbered(&format!("{TOKEN_COLUMNS} {LIVE_TOKEN}")))?
        .query_row([id, account], |row| read_token(row))
        .optional()?)
}

#[async_trait]
impl TokenStore for SqliteStore {
    async fn add_token(
        &self,
        account: AccountId,
        hash: &[u8; 32],
        hint: &str,
        new: &NewToken,
        now: DateTime<Utc>,
    ) -> Result<TokenRecord, Error> {
        let (hash, hint, new) = (*hash, hint.to_owned(), new.clone());
        self.db
            .write(move |db| {
                let id: i64 = db.query_row(
                    &numbered(ADD_TOKEN),
                    params![
                        account,
                        hash.as_slice(),
                        new.http_errors.is_on(),
                        new.name.as_str(),
                        hint,
                        new.expires_at(now).map(time::store),
                        ranges_to_column(&new.allowed),
                        time::store(now),
                        new.role.as_str(),
                        new.made_by,
                    ],
                    |row| row.get(0),
                )?;
                live_token(db, account, id)?.ok_or(Error::Unavailable("a token vanished as it was written"))
            })
            .await
    }

    async fn tokens(&self, account: AccountId) -> Result<Vec<TokenRecord>, Error> {
        self.db
            .read(move |db| {
                let mut query = db.prepare_cached(&numbered(&format!("{TOKEN_COLUMNS} {LIVE_TOKENS}")))?;
                Ok(query.query_map([account], |row| read_token(row))?.collect::<Result<_, _>>()?)
            })
            .await
    }

    async fn token(&self, account: AccountId, id: i64) -> Result<Option<TokenRecord>, Error> {
        self.db.read(move |db| live_token(db, account, id)).await
    }

    async fn revoke_token_id(&self, account: AccountId, id: i64) -> Result<bool, Error> {
        self.db
            .write(move |db| {
                let revoked = db.execute(
                    "UPDATE api_tokens SET revoked_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
                     WHERE id = ? AND account_id = ? AND revoked_at IS NULL",
                    [id, account],
                )?;
                Ok(revoked > 0)
            })
            .await
    }

    async fn revoke_token(&self, hash: &[u8; 32]) -> Result<bool, Error> {
        let hash = *hash;
        self.db
            .write(move |db| {
                let revoked = db.execute(
                    "UPDATE api_tokens SET revoked_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE token_hash = ? AND revoked_at IS NULL",
                    [hash.as_slice()],
                )?;
                Ok(revoked > 0)
            })
            .await
    }

    async fn token_grant(&self, hash: &[u8; 32]) -> Result<Option<TokenGrant>, Error> {
        self.db
            .look_up(|db| {
                let found = db
                    .prepare_cached(&numbered(TOKEN_GRANT))?
                    .query_row([hash.as_slice()], |row| read_grant(row, 0))
                    .optional()?;
                Ok(found.flatten())
            })
            .await
    }

    async fn touch_token(&self, token: i64, at: DateTime<Utc>) -> Result<(), Error> {
        self.db
            .write(move |db| {
                db.execute("UPDATE api_tokens SET last_used_at = ? WHERE id = ?", params![time::store(at), token])?;
                Ok(())
            })
            .await
    }
}
