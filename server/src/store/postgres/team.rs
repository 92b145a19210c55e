//! People, sessions and one-time links in PostgreSQL.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use texto_core::{Msisdn, Role};

use super::{PgStore, query};
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

/// Stores `link` under its secret's hash, in `tx`.
async fn insert_link(
    tx: &tokio_postgres::Transaction<'_>,
    secret_hash: &[u8; 32],
    link: &OneTimeLink,
) -> Result<(), Error> {
    let role = link.role.map(Role::as_str);
    let (created, expires) = (time::store(link.created_at), time::store(link.expires_at));
    let values: [&(dyn tokio_postgres::types::ToSql + Sync); 8] = [
        &secret_hash.as_slice(),
        &link.kind.as_str(),
        &link.account,
        &link.email,
        &role,
        &link.created_by,
        &created,
        &expires,
    ];
    tx.execute(INSERT_LINK, &values).await?;
    Ok(())
}

#[async_trait]
impl TeamStore for PgStore {
    async fn add_user(
        &self,
        account: AccountId,
        email: &Email,
        name: &PersonName,
        password_hash: &str,
        role: Role,
        now: DateTime<Utc>,
    ) -> Result<Option<UserRecord>, Error> {
        let client = self.pool.get().await?;
        let sql = "INSERT INTO users (account_id, email, name, password_hash, role, created_at)
                   VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (email) DO NOTHING
                   RETURNING id, account_id, email, name, role, created_at, password_hash, totp_secret, totp_pending, recovery_codes,
                       phone";
        let rows = query(
            &client,
            sql,
            &[&account, &email.as_str(), &name.as_str(), &password_hash, &role.as_str(), &time::store(now)],
        )
        .await?;
        Ok(rows.first().map(read_user).transpose()?)
    }

    async fn user_by_email(&self, email: &Email) -> Result<Option<UserRecord>, Error> {
        let client = self.pool.get().await?;
        Ok(query(&client, &format!("{USER_COLUMNS} WHERE email = $1"), &[&email.as_str()])
            .await?
            .first()
            .map(read_user)
            .transpose()?)
    }

    async fn users(&self, account: AccountId) -> Result<Vec<UserRecord>, Error> {
        let client = self.pool.get().await?;
        let rows = query(&client, &format!("{USER_COLUMNS} WHERE account_id = $1 ORDER BY id"), &[&account]).await?;
        Ok(rows.iter().map(read_user).collect::<Result<_, _>>()?)
    }

    async fn user(&self, account: AccountId, id: i64) -> Result<Option<UserRecord>, Error> {
        let client = self.pool.get().await?;
        let sql = format!("{USER_COLUMNS} WHERE id = $1 AND account_id = $2");
        Ok(query(&client, &sql, &[&id, &account]).await?.first().map(read_user).transpose()?)
    }

    async fn set_role(&self, account: AccountId, id: i64, role: Role) -> Result<bool, Error> {
        let client = self.pool.get().await?;
        let sql = "UPDATE users SET role = $1 WHERE id = $2 AND account_id = $3";
        Ok(client.execute(sql, &[&role.as_str(), &id, &account]).await? == 1)
    }

    async fn set_name(&self, id: i64, name: &PersonName) -> Result<(), Error> {
        let client = self.pool.get().await?;
        client.execute("UPDATE users SET name = $1 WHERE id = $2", &[&name.as_str(), &id]).await?;
        Ok(())
    }

    async fn set_phone(&self, id: i64, phone: Option<Msisdn>) -> Result<(), Error> {
        let phone = phone.and_then(|n| i64::try_from(n.as_u64()).ok());
        let client = self.pool.get().await?;
        client.execute("UPDATE users SET phone = $1 WHERE id = $2", &[&phone, &id]).await?;
        Ok(())
    }

    async fn set_password(&self, id: i64, password_hash: &str, keep: Option<i64>) -> Result<(), Error> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        tx.execute(SET_PASSWORD, &[&id, &password_hash]).await?;
        tx.execute(END_OTHER_SESSIONS, &[&id, &keep.unwrap_or(-1)]).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn rehash_password(&self, id: i64, old: &str, new: &str) -> Result<(), Error> {
        let client = self.pool.get().await?;
        client.execute(REHASH_PASSWORD, &[&id, &old, &new]).await?;
        Ok(())
    }

    async fn set_two_factor(&self, id: i64, state: &TwoFactor, only_if_recovery: Option<&str>) -> Result<bool, Error> {
        let client = self.pool.get().await?;
        let written = client
            .execute(SET_TWO_FACTOR, &[&id, &state.secret, &state.pending, &state.recovery, &only_if_recovery])
            .await?;
        Ok(written == 1)
    }

    async fn use_totp_step(&self, id: i64, step: i64) -> Result<bool, Error> {
        let client = self.pool.get().await?;
        Ok(client.execute(USE_TOTP_STEP, &[&id, &step]).await? == 1)
    }

    async fn remove_user(&self, account: AccountId, id: i64, now: DateTime<Utc>) -> Result<bool, Error> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        tx.execute(END_PERSON_SESSIONS, &[&id, &account]).await?;
        let gone = tx.execute(REMOVE_PERSON, &[&id, &account]).await?;
        if gone == 1 {
            tx.execute(REVOKE_TOKENS_MADE_BY, &[&id, &time::store(now)]).await?;
        }
        tx.commit().await?;
        Ok(gone == 1)
    }

    async fn add_session(
        &self,
        secret_hash: &[u8; 32],
        account: AccountId,
        owner: SessionOwner,
        csrf: &str,
        now: DateTime<Utc>,
    ) -> Result<(), Error> {
        let client = self.pool.get().await?;
        let (user, token) = owner_columns(owner);
        client
            .execute(ADD_SESSION, &[&secret_hash.as_slice(), &account, &user, &token, &csrf, &time::store(now)])
            .await?;
        Ok(())
    }

    async fn session_grant(&self, secret_hash: &[u8; 32]) -> Result<Option<SessionGrant>, Error> {
        let client = self.pool.get().await?;
        let rows = query(&client, SESSION_GRANT, &[&secret_hash.as_slice()]).await?;
        Ok(rows.first().map(read_session).transpose()?)
    }

    async fn touch_session(&self, id: i64, now: DateTime<Utc>) -> Result<(), Error> {
        let client = self.pool.get().await?;
        client.execute(TOUCH_SESSION, &[&time::store(now), &id]).await?;
        Ok(())
    }

    async fn end_session(&self, id: i64) -> Result<(), Error> {
        let client = self.pool.get().await?;
        client.execute(END_SESSION, &[&id]).await?;
        Ok(())
    }

    async fn end_sessions(&self, owner: SessionOwner) -> Result<u64, Error> {
        let client = self.pool.get().await?;
        let (sql, owner) = end_sessions_of(owner);
        Ok(client.execute(sql, &[&owner]).await?)
    }

    async fn add_link(&self, secret_hash: &[u8; 32], link: &OneTimeLink) -> Result<(), Error> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        tx.execute(REPLACE_LINK, &[&link.account, &link.kind.as_str(), &link.email]).await?;
        insert_link(&tx, secret_hash, link).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn add_reset_link(&self, secret_hash: &[u8; 32], link: &OneTimeLink, most: u32) -> Result<bool, Error> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        // The person's row, locked: nodes asked for links of one person at once count in turn.
        tx.execute("SELECT 1 FROM users WHERE email = $1 FOR UPDATE", &[&link.email]).await?;
        let now = time::store(link.created_at);
        tx.execute(DROP_EXPIRED_RESETS, &[&link.account, &link.email, &now]).await?;
        let live: i64 = tx.query_one(COUNT_RESETS, &[&link.account, &link.email]).await?.get(0);
        let stored = may_add_reset(live, most);
        if stored {
            insert_link(&tx, secret_hash, link).await?;
        }
        tx.commit().await?;
        Ok(stored)
    }

    async fn take_link(&self, secret_hash: &[u8; 32], now: DateTime<Utc>) -> Result<Option<OneTimeLink>, Error> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let found = query(&tx, TAKE_LINK, &[&secret_hash.as_slice()]).await?.first().map(read_link).transpose()?;
        let (found, ends_resets) = taken(found, now);
        if let Some(used) = found.as_ref().filter(|_| ends_resets) {
            tx.execute(END_RESETS, &[&used.account, &used.email]).await?;
        }
        tx.commit().await?;
        Ok(found)
    }

    async fn invitations(&self, account: AccountId, now: DateTime<Utc>) -> Result<Vec<OneTimeLink>, Error> {
        let client = self.pool.get().await?;
        let sql = format!(
            "{LINK_COLUMNS} WHERE account_id = $1 AND kind = 'invitation' AND expires_at > $2 ORDER BY created_at DESC"
        );
        Ok(query(&client, &sql, &[&account, &time::store(now)])
            .await?
            .iter()
            .map(read_link)
            .collect::<Result<_, _>>()?)
    }

    async fn cancel_invitation(&self, account: AccountId, email: &Email) -> Result<bool, Error> {
        let client = self.pool.get().await?;
        let sql = "DELETE FROM one_time_links WHERE account_id = $1 AND kind = 'invitation' AND email = $2";
        Ok(client.execute(sql, &[&account, &email.as_str()]).await? > 0)
    }
}
