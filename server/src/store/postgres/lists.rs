//! Stored lists and their contacts in PostgreSQL.

use std::pin::pin;

use async_trait::async_trait;
use deadpool_postgres::{Client, Transaction};
use futures_util::TryStreamExt;

use super::PgStore;
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

/// The contacts of a list (its id is `$1`), for an `ORDER BY` clause.
const CONTACT_COLUMNS: &str = "SELECT id, number, info1, info2, info3, info4 FROM contacts WHERE list_id = $1";

/// Contacts written by one `INSERT` (its arrays stay well under the protocol's limits).
const INSERT_CHUNK: usize = 10_000;

#[async_trait]
impl ListStore for PgStore {
    async fn create_list(
        &self,
        account: AccountId,
        name: &str,
        contacts: &[NewContact],
    ) -> Result<(i64, Added), Error> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let id: i64 = tx
            .query_one("INSERT INTO lists (account_id, name) VALUES ($1, $2) RETURNING id", &[&account, &name])
            .await?
            .get(0);
        let added = insert_contacts(&tx, id, contacts).await?;
        save_cards(&tx, account, contacts).await?;
        tx.commit().await?;
        Ok((id, added))
    }

    async fn update_list(
        &self,
        account: AccountId,
        list: i64,
        name: Option<&str>,
        contacts: &[NewContact],
    ) -> Result<Added, Error> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        if !lock_list(&tx, account, list).await? {
            return Err(Error::NotFound(format!("list {list}")));
        }
        if let Some(name) = name {
            tx.execute("UPDATE lists SET name = $1 WHERE id = $2", &[&name, &list]).await?;
        }
        let added = insert_contacts(&tx, list, contacts).await?;
        save_cards(&tx, account, contacts).await?;
        tx.commit().await?;
        Ok(added)
    }

    async fn lists(&self, account: AccountId, page: Page) -> Result<(Vec<ListSummary>, i64), Error> {
        let page = page.clamped();
        let client = self.pool.get().await?;
        let total: i64 =
            client.query_one("SELECT COUNT(*) FROM lists WHERE account_id = $1", &[&account]).await?.get(0);
        let query = client
            .prepare_cached(&format!("{LIST_COLUMNS} WHERE account_id = $1 ORDER BY id LIMIT $2 OFFSET $3"))
            .await?;
        let lists = client
            .query(&query, &[&account, &page.length, &page.start])
            .await?
            .iter()
            .map(read_summary)
            .collect::<Result<_, _>>()?;
        Ok((lists, total))
    }

    async fn list(
        &self,
        account: AccountId,
        list: i64,
        search: Option<&ContactSearch>,
        page: Page,
    ) -> Result<Option<ListPage>, Error> {
        let page = page.clamped();
        let client = self.pool.get().await?;
        let query = client.prepare_cached(&format!("{LIST_COLUMNS} WHERE id = $1 AND account_id = $2")).await?;
        let Some(summary) =
            client.query_opt(&query, &[&list, &account]).await?.as_ref().map(read_summary).transpose()?
        else {
            return Ok(None);
        };
        let (contacts, matching) = match search {
            None => {
                let query = client.prepare_cached(&format!("{CONTACT_COLUMNS} ORDER BY id LIMIT $2 OFFSET $3")).await?;
                let contacts = client
                    .query(&query, &[&list, &page.length, &page.start])
                    .await?
                    .iter()
                    .map(read_contact)
                    .collect::<Result<_, _>>()?;
                (contacts, summary.contacts)
            }
            Some(search) => searched(&client, list, search, page).await?,
        };
        Ok(Some(ListPage { summary, contacts, matching }))
    }

    async fn delete_list(&self, account: AccountId, list: i64) -> Result<bool, Error> {
        let client = self.pool.get().await?;
        // Its contacts go with it: PostgreSQL always applies the foreign key's ON DELETE CASCADE.
        let deleted = client.execute("DELETE FROM lists WHERE id = $1 AND account_id = $2", &[&list, &account]).await?;
        Ok(deleted > 0)
    }

    async fn delete_contact(&self, account: AccountId, list: Option<i64>, contact: i64) -> Result<bool, Error> {
        let client = self.pool.get().await?;
        let deleted = client
            .execute(
                "DELETE FROM contacts WHERE id = $1
                 AND list_id IN (SELECT id FROM lists WHERE account_id = $2 AND ($3::BIGINT IS NULL OR id = $3))",
                &[&contact, &account, &list],
            )
            .await?;
        Ok(deleted > 0)
    }
}

/// The page of the list's contacts that match `search`, and how many match. The fields are
/// compared here rather than in SQL, whose `lower()` depends on the database's locale; one
/// pass over the list (streamed, not loaded at once) gives both the count and the page.
async fn searched(
    client: &Client,
    list: i64,
    search: &ContactSearch,
    page: Page,
) -> Result<(Vec<ListContact>, i64), Error> {
    let query = client.prepare_cached(&format!("{CONTACT_COLUMNS} ORDER BY id")).await?;
    let mut rows = pin!(client.query_raw(&query, [list]).await?);
    let (mut contacts, mut matching) = (Vec::new(), 0);
    while let Some(row) = rows.try_next().await? {
        let contact = read_contact(&row)?;
        if search.matches(&contact) {
            if matching >= page.start && matching - page.start < page.length {
                contacts.push(contact);
            }
            matching += 1;
        }
    }
    Ok((contacts, matching))
}

/// Adds `contacts` to the list, in their order, with `ON CONFLICT DO NOTHING`: a number the
/// list already holds (or that came earlier in `contacts`) is a duplicate.
async fn insert_contacts(tx: &Transaction<'_>, list: i64, contacts: &[NewContact]) -> Result<Added, Error> {
    let insert = tx
        .prepare_cached(
            "INSERT INTO contacts (list_id, number, info1, info2, info3, info4)
             SELECT $1::bigint, number, info1, info2, info3, info4
             FROM UNNEST($2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[]) WITH ORDINALITY AS c (number, info1, info2, info3, info4, n)
             ORDER BY n
             ON CONFLICT (list_id, number) DO NOTHING",
        )
        .await?;
    let mut added: i64 = 0;
    for chunk in contacts.chunks(INSERT_CHUNK) {
        let mut numbers = Vec::with_capacity(chunk.len());
        let mut info: [Vec<&str>; 4] = Default::default();
        for contact in chunk {
            numbers.push(contact.number as i64);
            for (column, value) in info.iter_mut().zip(&contact.info) {
                column.push(value.as_str());
            }
        }
        let [info1, info2, info3, info4] = &info;
        added += tx.execute(&insert, &[&list, &numbers, info1, info2, info3, info4]).await? as i64;
    }
    Ok(Added { added, duplicates: contacts.len() as i64 - added })
}

/// Records what the entries say about their numbers' contacts (`contact` of a list entry).
async fn save_cards(tx: &Transaction<'_>, account: AccountId, contacts: &[NewContact]) -> Result<(), Error> {
    let now = crate::store::time::store(chrono::Utc::now());
    for contact in contacts {
        if let Some(card) = &contact.card {
            super::account_contacts::save_card(tx, account, contact.number as i64, card, &now).await?;
        }
    }
    Ok(())
}

/// Whether `list` exists and belongs to `account`; if so, it stays until the transaction ends
/// (a concurrent deletion waits), so the contacts written meanwhile have their list.
async fn lock_list(tx: &Transaction<'_>, account: AccountId, list: i64) -> Result<bool, Error> {
    let query = tx.prepare_cached("SELECT 1 FROM lists WHERE id = $1 AND account_id = $2 FOR KEY SHARE").await?;
    Ok(tx.query_opt(&query, &[&list, &account]).await?.is_some())
}
