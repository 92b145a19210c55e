//! Segments in SQLite (the statements shared with PostgreSQL).

use std::collections::HashMap;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use rusqlite::{Connection, OptionalExtension, params, params_from_iter};
use rustc_hash::FxHashSet;
use texto_core::{Contact, SegmentFilter};

use super::{SqliteStore, numbered};
use crate::{
    Error,
    store::{
        AccountId,
        account_contacts::BOOK,
        conditions::SqlValue,
        segment_sql::{Dialect, segment_conditions},
        segments::{
            CAPPED, CONSENTED, DELETE, ENTRY_INFOS, INSERT, SEGMENT, SEGMENTS, SavedSegment, SegmentStore, UPDATE,
            loaded_filter, stored_rules, with_infos,
        },
        time,
    },
};

/// Reads a row of [`SEGMENTS`].
fn read_segment(row: &rusqlite::Row<'_>) -> rusqlite::Result<(i64, String, String, String, String)> {
    Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?, row.get(4)?))
}

fn segment_of(
    (id, name, rules, updated_at, matching): (i64, String, String, String, String),
) -> Result<SavedSegment, Error> {
    Ok(SavedSegment { id, name, filter: loaded_filter(&rules, &matching)?, updated_at: time::load(&updated_at) })
}

fn one(db: &Connection, account: AccountId, id: i64) -> Result<Option<SavedSegment>, Error> {
    db.prepare_cached(&numbered(SEGMENT))?
        .query_row(params![account, id], read_segment)
        .optional()?
        .map(segment_of)
        .transpose()
}

/// The rows of the account's contacts that meet `filter` (`select` `COUNT(*)` or `a.number`).
fn matching<T>(
    db: &Connection,
    account: AccountId,
    filter: &SegmentFilter,
    among: &[i64],
    select: &str,
    read: impl FnMut(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
) -> Result<Vec<T>, Error> {
    let mut conditions = segment_conditions(account, filter.matching, &filter.rules, Utc::now(), Dialect::Sqlite);
    if !among.is_empty() {
        let marks = vec!["?"; among.len()].join(", ");
        conditions.require(&format!("a.number IN ({marks})"), among.iter().map(|n| SqlValue::Int(*n)));
    }
    // The account is ?1 in the book; the conditions' own values follow it.
    let sql = format!("SELECT {select} {} AND {}", numbered(BOOK), conditions.sqlite());
    let values: Vec<&dyn rusqlite::ToSql> = std::iter::once(&account as &dyn rusqlite::ToSql)
        .chain(conditions.values().iter().map(|v| v as &dyn rusqlite::ToSql))
        .collect();
    let mut statement = db.prepare(&sql)?;
    let rows = statement.query_map(params_from_iter(values.iter()), read)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

#[async_trait]
impl SegmentStore for SqliteStore {
    async fn segments(&self, account: AccountId) -> Result<Vec<SavedSegment>, Error> {
        self.db
            .read(move |db| {
                let mut statement = db.prepare_cached(&numbered(SEGMENTS))?;
                let rows = statement.query_map([account], read_segment)?.collect::<Result<Vec<_>, _>>()?;
                rows.into_iter().map(segment_of).collect()
            })
            .await
    }

    async fn segment(&self, account: AccountId, id: i64) -> Result<Option<SavedSegment>, Error> {
        self.db.read(move |db| one(db, account, id)).await
    }

    async fn save_segment(
        &self,
        account: AccountId,
        id: Option<i64>,
        name: String,
        filter: SegmentFilter,
    ) -> Result<Option<SavedSegment>, Error> {
        let (rules, now, combined) = (stored_rules(&filter.rules), time::store(Utc::now()), filter.matching.as_str());
        self.db
            .write(move |db| {
                let id = match id {
                    None => db
                        .prepare_cached(&numbered(INSERT))?
                        .query_row(params![account, name, rules, now, combined], |row| row.get(0))?,
                    Some(id) => {
                        if db
                            .prepare_cached(&numbered(UPDATE))?
                            .execute(params![account, id, name, rules, now, combined])?
                            == 0
                        {
                            return Ok(None);
                        }
                        id
                    }
                };
                one(db, account, id)
            })
            .await
    }

    async fn delete_segment(&self, account: AccountId, id: i64) -> Result<bool, Error> {
        self.db.write(move |db| Ok(db.prepare_cached(&numbered(DELETE))?.execute(params![account, id])? > 0)).await
    }

    async fn count_segment(&self, account: AccountId, filter: SegmentFilter) -> Result<i64, Error> {
        self.db
            .read(move |db| {
                Ok(matching(db, account, &filter, &[], "COUNT(*)", |row| row.get(0))?.first().copied().unwrap_or(0))
            })
            .await
    }

    async fn segment_contacts(
        &self,
        account: AccountId,
        ids: &[String],
    ) -> Result<HashMap<String, Vec<Contact>>, Error> {
        let ids = ids.to_vec();
        self.db
            .read(move |db| {
                let mut found = HashMap::new();
                let mut infos: Option<HashMap<i64, [String; 4]>> = None;
                for id in ids {
                    let Some(segment) = id.parse().ok().map(|n| one(db, account, n)).transpose()?.flatten() else {
                        continue;
                    };
                    let numbers = matching(db, account, &segment.filter, &[], "a.number", |row| row.get(0))?;
                    let infos = match &mut infos {
                        Some(infos) => infos,
                        None => infos.insert(entry_infos(db, account)?),
                    };
                    found.insert(id, with_infos(numbers, infos));
                }
                Ok(found)
            })
            .await
    }

    async fn segment_numbers(&self, account: AccountId, segment: i64) -> Result<Vec<i64>, Error> {
        self.db
            .read(move |db| match one(db, account, segment)? {
                Some(segment) => matching(db, account, &segment.filter, &[], "a.number", |row| row.get(0)),
                None => Ok(Vec::new()),
            })
            .await
    }

    async fn segment_members(&self, account: AccountId, segment: i64, numbers: Vec<i64>) -> Result<Vec<i64>, Error> {
        if numbers.is_empty() {
            return Ok(Vec::new());
        }
        self.db
            .read(move |db| match one(db, account, segment)? {
                Some(segment) => matching(db, account, &segment.filter, &numbers, "a.number", |row| row.get(0)),
                None => Ok(Vec::new()),
            })
            .await
    }

    async fn consented(&self, account: AccountId) -> Result<FxHashSet<u64>, Error> {
        self.db
            .read(move |db| {
                let mut statement = db.prepare_cached(&numbered(CONSENTED))?;
                let rows = statement.query_map([account], |row| row.get::<_, i64>(0))?;
                Ok(rows.filter_map(|n| n.ok().and_then(|n| u64::try_from(n).ok())).collect())
            })
            .await
    }

    async fn capped(&self, account: AccountId, since: DateTime<Utc>, messages: i64) -> Result<FxHashSet<u64>, Error> {
        let since = time::store(since);
        self.db
            .read(move |db| {
                let mut statement = db.prepare_cached(&numbered(CAPPED))?;
                let rows = statement.query_map(params![account, since, messages], |row| row.get::<_, i64>(0))?;
                Ok(rows.filter_map(|n| n.ok().and_then(|n| u64::try_from(n).ok())).collect())
            })
            .await
    }
}

/// The first info1…info4 of each number of the account's lists that has some.
fn entry_infos(db: &Connection, account: AccountId) -> Result<HashMap<i64, [String; 4]>, Error> {
    let mut infos = HashMap::new();
    let mut statement = db.prepare_cached(&numbered(ENTRY_INFOS))?;
    let mut rows = statement.query([account])?;
    while let Some(row) = rows.next()? {
        infos.entry(row.get(0)?).or_insert([row.get(1)?, row.get(2)?, row.get(3)?, row.get(4)?]);
    }
    Ok(infos)
}
