//! Stored lists and their contacts in SQLite.

use async_trait::async_trait;
use sqlx::{QueryBuilder, Row, Sqlite};

use super::SqliteStore;
use crate::{
    Error,
    store::{AccountId, Added, ListContact, ListStore, ListSummary, NewContact, Page},
};

/// Rows per INSERT statement (6 values each, under SQLite's 32,766 parameters).
const ROWS_PER_INSERT: usize = 5_000;

/// A list with its contact count, for `WHERE` clauses on `lists`.
const LIST_COLUMNS: &str = "SELECT id, name, (SELECT COUNT(*) FROM contacts WHERE list_id = lists.id) FROM lists";

#[async_trait]
impl ListStore for SqliteStore {
    async fn create_list(&self, account: AccountId, name: &str, contacts: &[NewContact]) -> Result<(i64, Added), Error> {
        let mut tx = self.write.begin().await?;
        let id: i64 = sqlx::query_scalar("INSERT INTO lists (account_id, name) VALUES (?, ?) RETURNING id")
            .bind(account)
            .bind(name)
            .fetch_one(&mut *tx)
            .await?;
        let added = insert_contacts(&mut tx, id, contacts).await?;
        tx.commit().await?;
        Ok((id, added))
    }

    async fn update_list(&self, account: AccountId, list: i64, name: Option<&str>, contacts: &[NewContact]) -> Result<Added, Error> {
        let mut tx = self.write.begin().await?;
        if !owns_list(&mut *tx, account, list).await? {
            return Err(Error::NotFound(format!("list {list}")));
        }
        if let Some(name) = name {
            sqlx::query("UPDATE lists SET name = ? WHERE id = ?").bind(name).bind(list).execute(&mut *tx).await?;
        }
        let added = insert_contacts(&mut tx, list, contacts).await?;
        tx.commit().await?;
        Ok(added)
    }

    async fn lists(&self, account: AccountId, page: Page) -> Result<(Vec<ListSummary>, i64), Error> {
        let page = page.clamped();
        let total: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM lists WHERE account_id = ?").bind(account).fetch_one(&self.read).await?;
        let rows = sqlx::query(&format!("{LIST_COLUMNS} WHERE account_id = ? ORDER BY id LIMIT ? OFFSET ?"))
            .bind(account)
            .bind(page.length)
            .bind(page.start)
            .fetch_all(&self.read)
            .await?;
        let lists = rows.iter().map(summary).collect::<Result<Vec<_>, sqlx::Error>>()?;
        Ok((lists, total))
    }

    async fn list(&self, account: AccountId, list: i64, page: Page) -> Result<Option<(ListSummary, Vec<ListContact>)>, Error> {
        let page = page.clamped();
        let row = sqlx::query(&format!("{LIST_COLUMNS} WHERE id = ? AND account_id = ?"))
            .bind(list)
            .bind(account)
            .fetch_optional(&self.read)
            .await?;
        let Some(row) = row else { return Ok(None) };
        let summary = summary(&row)?;
        let rows = sqlx::query("SELECT id, number, info1, info2, info3, info4 FROM contacts WHERE list_id = ? ORDER BY id LIMIT ? OFFSET ?")
            .bind(list)
            .bind(page.length)
            .bind(page.start)
            .fetch_all(&self.read)
            .await?;
        let contacts = rows
            .iter()
            .map(|row| {
                Ok(ListContact {
                    id: row.try_get(0)?,
                    number: row.try_get::<i64, _>(1)? as u64,
                    info: [row.try_get(2)?, row.try_get(3)?, row.try_get(4)?, row.try_get(5)?],
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
        Ok(Some((summary, contacts)))
    }

    async fn delete_list(&self, account: AccountId, list: i64) -> Result<bool, Error> {
        let mut tx = self.write.begin().await?;
        if !owns_list(&mut *tx, account, list).await? {
            return Ok(false);
        }
        // The foreign key cascades too; deleting here keeps it true without relying on the pragma.
        sqlx::query("DELETE FROM contacts WHERE list_id = ?").bind(list).execute(&mut *tx).await?;
        sqlx::query("DELETE FROM lists WHERE id = ?").bind(list).execute(&mut *tx).await?;
        tx.commit().await?;
        Ok(true)
    }
}

/// A row of [`LIST_COLUMNS`].
fn summary(row: &sqlx::sqlite::SqliteRow) -> Result<ListSummary, sqlx::Error> {
    Ok(ListSummary { id: row.try_get(0)?, name: row.try_get(1)?, contacts: row.try_get(2)? })
}

/// Adds `contacts` to the list in batched `INSERT OR IGNORE`s: a number the list already holds
/// (or that came earlier in `contacts`) is a duplicate.
async fn insert_contacts(tx: &mut sqlx::Transaction<'_, Sqlite>, list: i64, contacts: &[NewContact]) -> Result<Added, Error> {
    let mut added = 0;
    for batch in contacts.chunks(ROWS_PER_INSERT) {
        let mut insert = QueryBuilder::<Sqlite>::new("INSERT OR IGNORE INTO contacts (list_id, number, info1, info2, info3, info4) ");
        insert.push_values(batch, |mut values, contact| {
            values.push_bind(list).push_bind(contact.number as i64);
            for info in &contact.info {
                values.push_bind(info.as_str());
            }
        });
        added += insert.build().execute(&mut **tx).await?.rows_affected();
    }
    let added = i64::try_from(added).unwrap_or(i64::MAX);
    Ok(Added { added, duplicates: contacts.len() as i64 - added })
}

/// Whether `list` exists and belongs to `account` (every list query checks this first).
pub(super) async fn owns_list<'e>(db: impl sqlx::SqliteExecutor<'e>, account: AccountId, list: i64) -> Result<bool, Error> {
    let found: Option<i64> = sqlx::query_scalar("SELECT id FROM lists WHERE id = ? AND account_id = ?")
        .bind(list)
        .bind(account)
        .fetch_optional(db)
        .await?;
    Ok(found.is_some())
}
