//! Stored lists and their contacts in SQLite.

use async_trait::async_trait;
use rusqlite::{Connection, OptionalExtension, params};

use super::SqliteStore;
use crate::{
    Error,
    store::{
        AccountId, Added, ContactSearch, ListContact, ListPage, ListStore, ListSummary, NewContact, Page,
        lists::{read_contact, read_summary},
    },
};

/// A list with its contact count, for `WHERE` clauses on `lists`.
const LIST_COLUMNS: &str =
    "SELECT id, name, (SELECT COUNT(*) FROM contacts WHERE list_id = lists.id), created_at FROM lists";

/// The contacts of a list (its id is the parameter), for an `ORDER BY` clause.
const CONTACT_COLUMNS: &str = "SELECT id, number, info1, info2, info3, info4 FROM contacts WHERE list_id = ?";

#[async_trait]
impl ListStore for SqliteStore {
    async fn create_list(
        &self,
        account: AccountId,
        name: &str,
        contacts: &[NewContact],
    ) -> Result<(i64, Added), Error> {
        let (name, contacts) = (name.to_owned(), contacts.to_vec());
        self.db
            .write(move |db| {
                let id: i64 = db.query_row(
                    "INSERT INTO lists (account_id, name) VALUES (?, ?) RETURNING id",
                    params![account, name],
                    |row| row.get(0),
                )?;
                let added = insert_contacts(db, id, &contacts)?;
                save_cards(db, account, &contacts)?;
                Ok((id, added))
            })
            .await
    }

    async fn update_list(
        &self,
        account: AccountId,
        list: i64,
        name: Option<&str>,
        contacts: &[NewContact],
    ) -> Result<Added, Error> {
        let (name, contacts) = (name.map(str::to_owned), contacts.to_vec());
        self.db
            .write(move |db| {
                if !owns_list(db, account, list)? {
                    return Err(Error::NotFound(format!("list {list}")));
                }
                if let Some(name) = name {
                    db.execute("UPDATE lists SET name = ? WHERE id = ?", params![name, list])?;
                }
                let added = insert_contacts(db, list, &contacts)?;
                save_cards(db, account, &contacts)?;
                Ok(added)
            })
            .await
    }

    async fn lists(&self, account: AccountId, page: Page) -> Result<(Vec<ListSummary>, i64), Error> {
        let page = page.clamped();
        self.db
            .read(move |db| {
                let total: i64 =
                    db.query_row("SELECT COUNT(*) FROM lists WHERE account_id = ?", [account], |row| row.get(0))?;
                let mut query =
                    db.prepare_cached(&format!("{LIST_COLUMNS} WHERE account_id = ? ORDER BY id LIMIT ? OFFSET ?"))?;
                let lists = query
                    .query_map([account, page.length, page.start], |row| read_summary(row))?
                    .collect::<Result<_, _>>()?;
                Ok((lists, total))
            })
            .await
    }

    async fn list(
        &self,
        account: AccountId,
        list: i64,
        search: Option<&ContactSearch>,
        page: Page,
    ) -> Result<Option<ListPage>, Error> {
        let page = page.clamped();
        let search = search.cloned();
        self.db
            .read(move |db| {
                let found = db
                    .prepare_cached(&format!("{LIST_COLUMNS} WHERE id = ? AND account_id = ?"))?
                    .query_row([list, account], |row| read_summary(row))
                    .optional()?;
                let Some(summary) = found else { return Ok(None) };
                let (contacts, matching) = match search {
                    None => {
                        let mut query =
                            db.prepare_cached(&format!("{CONTACT_COLUMNS} ORDER BY id LIMIT ? OFFSET ?"))?;
                        let contacts = query
                            .query_map([list, page.length, page.start], |row| read_contact(row))?
                            .collect::<Result<_, _>>()?;
                        (contacts, summary.contacts)
                    }
                    Some(search) => searched(db, list, &search, page)?,
                };
                Ok(Some(ListPage { summary, contacts, matching }))
            })
            .await
    }

    async fn delete_list(&self, account: AccountId, list: i64) -> Result<bool, Error> {
        self.db
            .write(move |db| {
                if !owns_list(db, account, list)? {
                    return Ok(false);
                }
                // The foreign key cascades too; deleting here keeps it true without relying on the pragma.
                db.execute("DELETE FROM contacts WHERE list_id = ?", [list])?;
                db.execute("DELETE FROM lists WHERE id = ?", [list])?;
                Ok(true)
            })
            .await
    }

    async fn delete_contact(&self, account: AccountId, list: Option<i64>, contact: i64) -> Result<bool, Error> {
        self.db
            .write(move |db| {
                let deleted = db.execute(
                    "DELETE FROM contacts WHERE id = ?1
                     AND list_id IN (SELECT id FROM lists WHERE account_id = ?2 AND (?3 IS NULL OR id = ?3))",
                    params![contact, account, list],
                )?;
                Ok(deleted > 0)
            })
            .await
    }
}

/// The page of the list's contacts that match `search`, and how many match. The fields are
/// compared here rather than in SQL, whose `lower()` only knows ASCII; one pass over the list
/// gives both the count and the page.
fn searched(db: &Connection, list: i64, search: &ContactSearch, page: Page) -> Result<(Vec<ListContact>, i64), Error> {
    let mut query = db.prepare_cached(&format!("{CONTACT_COLUMNS} ORDER BY id"))?;
    let (mut contacts, mut matching) = (Vec::new(), 0);
    for row in query.query_map([list], |row| read_contact(row))? {
        let contact = row?;
        if search.matches(&contact) {
            if matching >= page.start && matching - page.start < page.length {
                contacts.push(contact);
            }
            matching += 1;
        }
    }
    Ok((contacts, matching))
}

/// Adds `contacts` to the list with `INSERT OR IGNORE`: a number the list already holds (or
/// that came earlier in `contacts`) is a duplicate.
fn insert_contacts(db: &Connection, list: i64, contacts: &[NewContact]) -> Result<Added, Error> {
    let mut insert = db.prepare_cached(
        "INSERT OR IGNORE INTO contacts (list_id, number, info1, info2, info3, info4, added_at)
         VALUES (?, ?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))",
    )?;
    let mut added: i64 = 0;
    for contact in contacts {
        let [info1, info2, info3, info4] = &contact.info;
        added += insert.execute(params![list, contact.number as i64, info1, info2, info3, info4])? as i64;
    }
    Ok(Added { added, duplicates: contacts.len() as i64 - added })
}

/// Records what the entries say about their numbers' contacts (`contact` of a list entry).
fn save_cards(db: &Connection, account: AccountId, contacts: &[NewContact]) -> Result<(), Error> {
    let now = crate::store::time::store(chrono::Utc::now());
    for contact in contacts {
        if let Some(card) = &contact.card {
            super::account_contacts::save_card(db, account, contact.number as i64, card, &now)?;
        }
    }
    Ok(())
}

/// Whether `list` exists and belongs to `account` (every list query checks this first).
pub(super) fn owns_list(db: &Connection, account: AccountId, list: i64) -> rusqlite::Result<bool> {
    db.prepare_cached("SELECT EXISTS (SELECT 1 FROM lists WHERE id = ? AND account_id = ?)")?
        .query_row([list, account], |row| row.get(0))
}
