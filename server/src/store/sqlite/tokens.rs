//! API tokens in SQLite.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use rusqlite::{Connection, OptionalExtension, params};

use super::{SqliteStore, numbered};
use crate::{
    Error,
    store::{
        AccountId, HttpErrors, NewToken, TokenGrant, TokenRecord, TokenStore, ranges_from_column, ranges_to_column,
        role_from_column, time,
        tokens::{ADD_TOKEN, LIVE_TOKEN, LIVE_TOKENS, TOKEN_COLUMNS, TOKEN_GRANT, TokenMaker, capped},
    },
};

fn record(row: &rusqlite::Row<'_>) -> rusqlite::Result<TokenRecord> {
    let maker_role = row.get::<_, Option<String>>(10)?.map(|role| role_from_column(&role));
    Ok(TokenRecord {
        id: row.get(0)?,
        name: row.get(1)?,
        hint: row.get(2)?,
        created_at: time::load(&row.get::<_, String>(3)?),
        expires_at: row.get::<_, Option<String>>(4)?.map(|at| time::load(&at)),
        allowed: ranges_from_column(&row.get::<_, String>(5)?),
        last_used_at: row.get::<_, Option<String>>(6)?.map(|at| time::load(&at)),
        http_errors: HttpErrors::from_bool(row.get(7)?),
        role: capped(role_from_column(&row.get::<_, String>(8)?), maker_role),
        made_by: row.get(9)?,
    })
}

/// The grant read from [`grant_columns`](crate::store::tokens::grant_columns) starting at column
/// `at`; `None` when they are null (a session of a person, or of a token revoked since).
pub(super) fn grant(row: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<Option<TokenGrant>> {
    let Some(account) = row.get::<_, Option<AccountId>>(at)? else { return Ok(None) };
    let maker = match row.get::<_, Option<i64>>(at + 8)? {
        Some(id) => {
            Some(TokenMaker { id, email: row.get(at + 9)?, role: role_from_column(&row.get::<_, String>(at + 10)?) })
        }
        None => None,
    };
    Ok(Some(TokenGrant {
        account,
        token: row.get(at + 1)?,
        http_errors: HttpErrors::from_bool(row.get(at + 2)?),
        expires_at: row.get::<_, Option<String>>(at + 3)?.map(|t| time::load(&t)),
        allowed: ranges_from_column(&row.get::<_, String>(at + 4)?),
        last_used_at: row.get::<_, Option<String>>(at + 5)?.map(|t| time::load(&t)),
        role: capped(role_from_column(&row.get::<_, String>(at + 6)?), maker.as_ref().map(|m| m.role)),
        name: row.get(at + 7)?,
        maker,
    }))
}

fn live_token(db: &Connection, account: AccountId, id: i64) -> Result<Option<TokenRecord>, Error> {
    Ok(db
        .prepare_cached(&numbered(&format!("{TOKEN_COLUMNS} {LIVE_TOKEN}")))?
        .query_row([id, account], record)
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
                Ok(query.query_map([account], record)?.collect::<Result<_, _>>()?)
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
                    .query_row([hash.as_slice()], |row| grant(row, 0))
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
