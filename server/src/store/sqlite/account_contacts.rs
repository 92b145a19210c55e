//! Contacts in SQLite (the statements shared with PostgreSQL).

use async_trait::async_trait;
use chrono::Utc;
use rusqlite::{OptionalExtension, params, params_from_iter};
use texto_core::{CardValues, ContactField};

use super::{SqliteStore, numbered};
use crate::{
    Error,
    store::{
        AccountId,
        account_contacts::{
            BOOK, CARD_COLUMNS, CLICKS, ContactCard, ContactChange, ContactClick, ContactFilter, ContactStore, ERASE,
            MEMBERSHIPS, Membership, SAVE, read_card, read_click, read_membership,
        },
        drafts,
        merge_cards::{CardReader, merge_cards_sql},
        segment_sql::Dialect,
        time,
    },
};

/// The card of one number of the account's book.
fn card(db: &rusqlite::Connection, account: AccountId, number: i64) -> Result<Option<ContactCard>, Error> {
    let sql = format!("SELECT {CARD_COLUMNS} {} AND a.number = ?2", numbered(BOOK));
    Ok(db.prepare_cached(&sql)?.query_row(params![account, number], |row| read_card(row)).optional()?)
}

/// Creates or changes the contact of `number` (its list entries are left as they are).
pub(super) fn save_card(
    db: &rusqlite::Connection,
    account: AccountId,
    number: i64,
    change: &ContactChange,
    now: &str,
) -> Result<(), Error> {
    let opt_in = change.opt_in.as_ref();
    db.prepare_cached(&numbered(SAVE))?.execute(params![
        account,
        number,
        change.firstname,
        change.lastname,
        change.fields,
        change.tags,
        opt_in.map(|c| &c.at),
        opt_in.map(|c| &c.source),
        opt_in.map(|c| &c.proof),
        opt_in.map(|c| &c.address),
        now
    ])?;
    Ok(())
}

#[async_trait]
impl ContactStore for SqliteStore {
    async fn merge_cards(&self, account: AccountId, fields: &[ContactField]) -> Result<CardValues, Error> {
        let (sql, fields) = (merge_cards_sql(fields, Dialect::Sqlite), fields.to_vec());
        self.db
            .read(move |db| {
                let mut statement = db.prepare_cached(&sql)?;
                let mut rows = statement.query(params![account])?;
                let mut cards = CardReader::new(&fields);
                while let Some(row) = rows.next()? {
                    cards.add(row)?;
                }
                Ok(cards.finish())
            })
            .await
    }

    async fn contacts(&self, account: AccountId, filter: ContactFilter) -> Result<(Vec<ContactCard>, i64), Error> {
        let page = filter.page.clamped();
        self.db
            .read(move |db| {
                // The count and the page from one snapshot.
                let _snapshot = db.unchecked_transaction()?;
                let conditions = filter.conditions(account, Dialect::Sqlite);
                // The account is ?1 in the book; the conditions' own values follow it.
                let from = format!("{} AND {}", numbered(BOOK), conditions.sqlite());
                let values: Vec<&dyn rusqlite::ToSql> = std::iter::once(&account as &dyn rusqlite::ToSql)
                    .chain(conditions.values().iter().map(|v| v as &dyn rusqlite::ToSql))
                    .collect();
                let matching: i64 = db
                    .prepare_cached(&format!("SELECT COUNT(*) {from}"))?
                    .query_row(params_from_iter(values.iter()), |row| row.get(0))?;
                let sql = format!(
                    "SELECT {CARD_COLUMNS} {from} ORDER BY a.number LIMIT {} OFFSET {}",
                    page.length, page.start
                );
                let mut statement = db.prepare_cached(&sql)?;
                let cards = statement.query_map(params_from_iter(values.iter()), |row| read_card(row))?;
                Ok((cards.collect::<Result<_, _>>()?, matching))
            })
            .await
    }

    async fn contact(&self, account: AccountId, number: i64) -> Result<Option<ContactCard>, Error> {
        self.db.read(move |db| card(db, account, number)).await
    }

    async fn save_contact(&self, account: AccountId, number: i64, change: ContactChange) -> Result<ContactCard, Error> {
        let now = time::store(Utc::now());
        self.db
            .write(move |db| {
                save_card(db, account, number, &change, &now)?;
                card(db, account, number)?.ok_or(Error::Unavailable("a contact just saved cannot be read"))
            })
            .await
    }

    async fn memberships(&self, account: AccountId, number: i64) -> Result<Vec<Membership>, Error> {
        self.db
            .read(move |db| {
                let mut statement = db.prepare_cached(&numbered(MEMBERSHIPS))?;
                let rows = statement.query_map(params![account, number], |row| read_membership(row))?;
                Ok(rows.collect::<Result<_, _>>()?)
            })
            .await
    }

    async fn contact_clicks(&self, account: AccountId, number: i64) -> Result<Vec<ContactClick>, Error> {
        self.db
            .read(move |db| {
                let mut statement = db.prepare_cached(&numbered(CLICKS))?;
                let rows = statement.query_map(params![account, number], |row| read_click(row))?;
                Ok(rows.collect::<Result<_, _>>()?)
            })
            .await
    }

    async fn erase_contact(&self, account: AccountId, number: i64) -> Result<bool, Error> {
        self.db
            .write(move |db| {
                if card(db, account, number)?.is_none()
                    && !db
                        .prepare_cached("SELECT EXISTS (SELECT 1 FROM messages WHERE account_id = ? AND number = ?)")?
                        .query_row(params![account, number], |row| row.get::<_, bool>(0))?
                {
                    return Ok(false);
                }
                for statement in ERASE {
                    db.prepare_cached(&numbered(statement))?.execute(params![account, number])?;
                }
                // The drafts that name the number lose it too.
                let mut bodies = db.prepare_cached(&numbered(drafts::BODIES))?;
                let rows = bodies.query_map([account], |row| Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?)))?;
                let changed: Vec<(i64, String)> = rows
                    .filter_map(|row| row.ok())
                    .filter_map(|(id, body)| Some((id, drafts::without_number(&body, number)?)))
                    .collect();
                for (id, body) in changed {
                    db.prepare_cached(&numbered(drafts::ERASED_BODY))?.execute(params![id, body])?;
                }
                Ok(true)
            })
            .await
    }
}
