//! People, sessions and one-time links in SQLite: the statements shared with PostgreSQL,
//! their `$n` written `?n`.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use rusqlite::{OptionalExtension, params};
use texto_core::{Msisdn, Role};

use super::{SqliteStore, numbered};
use crate::{
    Error,
    store::{
        AccountId,
        team::{
            COUNT_RESETS, DROP_EXPIRED_RESETS, END_RESETS, INSERT_LINK, LINK_COLUMNS, OneTimeLink,
            REVOKE_TOKENS_MADE_BY, SESSION_GRANT, SET_TWO_FACTOR, SessionGrant, SessionOwner, TeamStore, TwoFactor,
            USE_TOTP_STEP, USER_COLUMNS, UserRecord, owner_columns,
        },
        team_rows::{read_link, read_session, read_user},
        team_sessions::{
            ADD_SESSION, END_OTHER_SESSIONS, END_PERSON_SESSIONS, END_SESSION, REHASH_PASSWORD, REMOVE_PERSON,
            REPLACE_LINK, SET_PASSWORD, TAKE_LINK, TOUCH_SESSION, end_sessions_of, may_add_reset, taken,
        },
        time,
    },
    team::names::{Email, PersonName},
};

/// Stores `link` under its secret's `hash`.
fn insert_link(db: &rusqlite::Connection, hash: &[u8; 32], link: &OneTimeLink) -> Result<(), Error> {
    db.execute(
        &numbered(INSERT_LINK),
        params![
            hash.as_slice(),
            link.kind.as_str(),
            link.account,
            link.email,
            link.role.map(Role::as_str),
            link.created_by,
            time::store(link.created_at),
            time::store(link.expires_at),
        ],
    )?;
    Ok(())
}

#[async_trait]
impl TeamStore for SqliteStore {
    async fn add_user(
        &self,
        account: AccountId,
        email: &Email,
        name: &PersonName,
        password_hash: &str,
        role: Role,
        now: DateTime<Utc>,
    ) -> Result<Option<UserRecord>, Error> {
        let (email, name, hash) = (email.as_str().to_owned(), name.as_str().to_owned(), password_hash.to_owned());
        self.db
            .write(move |db| {
                let id: Option<i64> = db
                    .query_row(
                        "INSERT INTO users (account_id, email, name, password_hash, role, created_at)
                         VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (email) DO NOTHING RETURNING id",
                        params![account, email, name, hash, role.as_str(), time::store(now)],
                        |row| row.get(0),
                    )
                    .optional()?;
                let Some(id) = id else { return Ok(None) };
                Ok(db
                    .prepare_cached(&format!("{USER_COLUMNS} WHERE id = ?"))?
                    .query_row([id], |row| read_user(row))
                    .optional()?)
            })
            .await
    }

    async fn user_by_email(&self, email: &Email) -> Result<Option<UserRecord>, Error> {
        let email = email.as_str().to_owned();
        self.db
            .read(move |db| {
                Ok(db
                    .prepare_cached(&format!("{USER_COLUMNS} WHERE email = ?"))?
                    .query_row([email], |row| read_user(row))
                    .optional()?)
            })
            .await
    }

    async fn users(&self, account: AccountId) -> Result<Vec<UserRecord>, Error> {
        self.db
            .read(move |db| {
                let mut query = db.prepare_cached(&format!("{USER_COLUMNS} WHERE account_id = ? ORDER BY id"))?;
                Ok(query.query_map([account], |row| read_user(row))?.collect::<Result<_, _>>()?)
            })
            .await
    }

    async fn user(&self, account: AccountId, id: i64) -> Result<Option<UserRecord>, Error> {
        self.db
            .read(move |db| {
                let mut query = db.prepare_cached(&format!("{USER_COLUMNS} WHERE id = ? AND account_id = ?"))?;
                Ok(query.query_row([id, account], |row| read_user(row)).optional()?)
            })
            .await
    }

    async fn set_role(&self, account: AccountId, id: i64, role: Role) -> Result<bool, Error> {
        self.db
            .write(move |db| {
                Ok(db.execute(
                    "UPDATE users SET role = ? WHERE id = ? AND account_id = ?",
                    params![role.as_str(), id, account],
                )? == 1)
            })
            .await
    }

    async fn set_name(&self, id: i64, name: &PersonName) -> Result<(), Error> {
        let name = name.as_str().to_owned();
        self.db
            .write(move |db| {
                db.execute("UPDATE users SET name = ? WHERE id = ?", params![name, id])?;
                Ok(())
            })
            .await
    }

    async fn set_phone(&self, id: i64, phone: Option<Msisdn>) -> Result<(), Error> {
        let phone = phone.and_then(|n| i64::try_from(n.as_u64()).ok());
        self.db
            .write(move |db| {
                db.execute("UPDATE users SET phone = ? WHERE id = ?", params![phone, id])?;
                Ok(())
            })
            .await
    }

    async fn set_password(&self, id: i64, password_hash: &str, keep: Option<i64>) -> Result<(), Error> {
        let hash = password_hash.to_owned();
        self.db
            .write(move |db| {
                db.execute(&numbered(SET_PASSWORD), params![id, hash])?;
                db.execute(&numbered(END_OTHER_SESSIONS), params![id, keep.unwrap_or(-1)])?;
                Ok(())
            })
            .await
    }

    async fn rehash_password(&self, id: i64, old: &str, new: &str) -> Result<(), Error> {
        let (old, new) = (old.to_owned(), new.to_owned());
        self.db
            .write(move |db| {
                db.execute(&numbered(REHASH_PASSWORD), params![id, old, new])?;
                Ok(())
            })
            .await
    }

    async fn set_two_factor(&self, id: i64, state: &TwoFactor, only_if_recovery: Option<&str>) -> Result<bool, Error> {
        let (state, expected) = (state.clone(), only_if_recovery.map(str::to_owned));
        self.db
            .write(move |db| {
                let written = db.execute(
                    &numbered(SET_TWO_FACTOR),
                    params![id, state.secret, state.pending, state.recovery, expected],
                )?;
                Ok(written == 1)
            })
            .await
    }

    async fn use_totp_step(&self, id: i64, step: i64) -> Result<bool, Error> {
        self.db.write(move |db| Ok(db.execute(&numbered(USE_TOTP_STEP), params![id, step])? == 1)).await
    }

    async fn remove_user(&self, account: AccountId, id: i64, now: DateTime<Utc>) -> Result<bool, Error> {
        self.db
            .write(move |db| {
                db.execute(&numbered(END_PERSON_SESSIONS), [id, account])?;
                let gone = db.execute(&numbered(REMOVE_PERSON), [id, account])? == 1;
                if gone {
                    db.execute(&numbered(REVOKE_TOKENS_MADE_BY), params![id, time::store(now)])?;
                }
                Ok(gone)
            })
            .await
    }

    async fn add_session(
        &self,
        secret_hash: &[u8; 32],
        account: AccountId,
        owner: SessionOwner,
        csrf: &str,
        now: DateTime<Utc>,
    ) -> Result<(), Error> {
        let (hash, csrf) = (*secret_hash, csrf.to_owned());
        let (user, token) = owner_columns(owner);
        self.db
            .write(move |db| {
                db.execute(
                    &numbered(ADD_SESSION),
                    params![hash.as_slice(), account, user, token, csrf, time::store(now)],
                )?;
                Ok(())
            })
            .await
    }

    async fn session_grant(&self, secret_hash: &[u8; 32]) -> Result<Option<SessionGrant>, Error> {
        let hash = *secret_hash;
        self.db
            .look_up(move |db| {
                Ok(db
                    .prepare_cached(&numbered(SESSION_GRANT))?
                    .query_row([hash.as_slice()], |row| read_session(row))
                    .optional()?)
            })
            .await
    }

    async fn touch_session(&self, id: i64, now: DateTime<Utc>) -> Result<(), Error> {
        self.db
            .write(move |db| {
                db.execute(&numbered(TOUCH_SESSION), params![time::store(now), id])?;
                Ok(())
            })
            .await
    }

    async fn end_session(&self, id: i64) -> Result<(), Error> {
        self.db
            .write(move |db| {
                db.execute(&numbered(END_SESSION), [id])?;
                Ok(())
            })
            .await
    }

    async fn end_sessions(&self, owner: SessionOwner) -> Result<u64, Error> {
        self.db
            .write(move |db| {
                let (sql, owner) = end_sessions_of(owner);
                Ok(db.execute(&numbered(sql), [owner])? as u64)
            })
            .await
    }

    async fn add_link(&self, secret_hash: &[u8; 32], link: &OneTimeLink) -> Result<(), Error> {
        let (hash, link) = (*secret_hash, link.clone());
        self.db
            .write(move |db| {
                db.execute(&numbered(REPLACE_LINK), params![link.account, link.kind.as_str(), link.email])?;
                insert_link(db, &hash, &link)?;
                Ok(())
            })
            .await
    }

    async fn add_reset_link(&self, secret_hash: &[u8; 32], link: &OneTimeLink, most: u32) -> Result<bool, Error> {
        let (hash, link) = (*secret_hash, link.clone());
        self.db
            .write(move |db| {
                let now = time::store(link.created_at);
                db.execute(&numbered(DROP_EXPIRED_RESETS), params![link.account, link.email, now])?;
                let live: i64 =
                    db.query_row(&numbered(COUNT_RESETS), params![link.account, link.email], |row| row.get(0))?;
                let stored = may_add_reset(live, most);
                if stored {
                    insert_link(db, &hash, &link)?;
                }
                Ok(stored)
            })
            .await
    }

    async fn take_link(&self, secret_hash: &[u8; 32], now: DateTime<Utc>) -> Result<Option<OneTimeLink>, Error> {
        let hash = *secret_hash;
        self.db
            .write(move |db| {
                let found = db
                    .prepare_cached(&numbered(TAKE_LINK))?
                    .query_row([hash.as_slice()], |row| read_link(row))
                    .optional()?;
                let (found, ends_resets) = taken(found, now);
                if let Some(used) = found.as_ref().filter(|_| ends_resets) {
                    db.execute(&numbered(END_RESETS), params![used.account, used.email])?;
                }
                Ok(found)
            })
            .await
    }

    async fn invitations(&self, account: AccountId, now: DateTime<Utc>) -> Result<Vec<OneTimeLink>, Error> {
        self.db
            .read(move |db| {
                let mut query = db.prepare_cached(&format!(
                    "{LINK_COLUMNS} WHERE account_id = ? AND kind = 'invitation' AND expires_at > ? ORDER BY created_at DESC"
                ))?;
                Ok(query.query_map(params![account, time::store(now)], |row| read_link(row))?.collect::<Result<_, _>>()?)
            })
            .await
    }

    async fn cancel_invitation(&self, account: AccountId, email: &Email) -> Result<bool, Error> {
        let email = email.as_str().to_owned();
        self.db
            .write(move |db| {
                Ok(db.execute(
                    "DELETE FROM one_time_links WHERE account_id = ? AND kind = 'invitation' AND email = ?",
                    params![account, email],
                )? > 0)
            })
            .await
    }
}
