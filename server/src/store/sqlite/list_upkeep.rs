//! List upkeep in SQLite: the statements shared with PostgreSQL, their `$n` written `?n`.

use async_trait::async_trait;
use rusqlite::{Connection, OptionalExtension, params};

use super::{SqliteStore, numbered};
use crate::{
    Error,
    store::{
        AccountId, ContactChange, ContactUpdate, ListUpkeep,
        list_upkeep::{CLEAR_NPAI, DEDUPLICATE, UPDATE_CONTACT},
    },
};

fn owns_list(db: &Connection, account: AccountId, list: i64) -> Result<bool, Error> {
    Ok(db
        .prepare_cached("SELECT 1 FROM lists WHERE id = ? AND account_id = ?")?
        .query_row([list, account], |_| Ok(()))
        .optional()?
        .is_some())
}

#[async_trait]
impl ListUpkeep for SqliteStore {
    async fn update_contact(
        &self,
        account: AccountId,
        contact: i64,
        change: ContactChange,
    ) -> Result<ContactUpdate, Error> {
        self.db
            .write(move |db| {
                let [info1, info2, info3, info4] = change.info;
                let changed = db
                    .prepare_cached(&numbered(UPDATE_CONTACT))?
                    .query_row(
                        params![contact, account, change.number.map(|n| n as i64), info1, info2, info3, info4],
                        |row| row.get::<_, i64>(0),
                    )
                    .optional();
                match changed {
                    Ok(None) => Ok(ContactUpdate::NotFound),
                    Ok(Some(number)) => {
                        if let Some(card) = &change.card {
                            let now = crate::store::time::store(chrono::Utc::now());
                            super::account_contacts::save_card(db, account, number, card, &now)?;
                        }
                        Ok(ContactUpdate::Updated)
                    }
                    Err(e) if e.sqlite_error_code() == Some(rusqlite::ErrorCode::ConstraintViolation) => {
                        Ok(ContactUpdate::NumberTaken)
                    }
                    Err(e) => Err(e.into()),
                }
            })
            .await
    }

    async fn deduplicate_list(&self, account: AccountId, list: i64) -> Result<Option<i64>, Error> {
        self.db
            .write(move |db| {
                if !owns_list(db, account, list)? {
                    return Ok(None);
                }
                Ok(Some(db.execute(&numbered(DEDUPLICATE), [list])? as i64))
            })
            .await
    }

    async fn clear_list_npai(&self, account: AccountId, list: i64) -> Result<Option<i64>, Error> {
        self.db
            .write(move |db| {
                if !owns_list(db, account, list)? {
                    return Ok(None);
                }
                Ok(Some(db.execute(&numbered(CLEAR_NPAI), [list, account])? as i64))
            })
            .await
    }
}
