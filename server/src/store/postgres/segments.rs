//! Segments in PostgreSQL.

use std::collections::HashMap;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use deadpool_postgres::GenericClient;
use rustc_hash::FxHashSet;
use texto_core::{Contact, SegmentFilter};
use tokio_postgres::Row;

use super::{PgStore, query};
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
fn read_segment(row: &Row) -> Result<SavedSegment, Error> {
    Ok(SavedSegment {
        id: row.get(0),
        name: row.get(1),
        filter: loaded_filter(row.get(2), row.get(4))?,
        updated_at: time::load(row.get(3)),
    })
}

async fn one(db: &impl GenericClient, account: AccountId, id: i64) -> Result<Option<SavedSegment>, Error> {
    query(db, SEGMENT, &[&account, &id]).await?.first().map(read_segment).transpose()
}

/// The rows of the account's contacts that meet `filter` (`select` `COUNT(*)` or `a.number`).
async fn matching(
    db: &impl GenericClient,
    account: AccountId,
    filter: &SegmentFilter,
    among: &[i64],
    select: &str,
) -> Result<Vec<Row>, Error> {
    let mut conditions = segment_conditions(account, filter.matching, &filter.rules, Utc::now(), Dialect::Postgres);
    if !among.is_empty() {
        let marks = vec!["?"; among.len()].join(", ");
        conditions.require(&format!("a.number IN ({marks})"), among.iter().map(|n| SqlValue::Int(*n)));
    }
    let sql = format!("SELECT {select} {BOOK} AND {}", conditions.postgres(2));
    let mut values: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> = vec![&account];
    values.extend(conditions.values().iter().map(|value| value.as_postgres()));
    Ok(db.query(sql.as_str(), &values).await?)
}

#[async_trait]
impl SegmentStore for PgStore {
    async fn segments(&self, account: AccountId) -> Result<Vec<SavedSegment>, Error> {
        let client = self.pool.get().await?;
        query(&client, SEGMENTS, &[&account]).await?.iter().map(read_segment).collect()
    }

    async fn segment(&self, account: AccountId, id: i64) -> Result<Option<SavedSegment>, Error> {
        one(&self.pool.get().await?, account, id).await
    }

    async fn save_segment(
        &self,
        account: AccountId,
        id: Option<i64>,
        name: String,
        filter: SegmentFilter,
    ) -> Result<Option<SavedSegment>, Error> {
        let client = self.pool.get().await?;
        let (rules, now, combined) = (stored_rules(&filter.rules), time::store(Utc::now()), filter.matching.as_str());
        let id = match id {
            None => query(&client, INSERT, &[&account, &name, &rules, &now, &combined]).await?[0].get(0),
            Some(id) => {
                let statement = client.prepare_cached(UPDATE).await?;
                if client.execute(&statement, &[&account, &id, &name, &rules, &now, &combined]).await? == 0 {
                    return Ok(None);
                }
                id
            }
        };
        one(&client, account, id).await
    }

    async fn delete_segment(&self, account: AccountId, id: i64) -> Result<bool, Error> {
        let client = self.pool.get().await?;
        let statement = client.prepare_cached(DELETE).await?;
        Ok(client.execute(&statement, &[&account, &id]).await? > 0)
    }

    async fn count_segment(&self, account: AccountId, filter: SegmentFilter) -> Result<i64, Error> {
        let client = self.pool.get().await?;
        Ok(matching(&client, account, &filter, &[], "COUNT(*)").await?.first().map_or(0, |row| row.get(0)))
    }

    async fn segment_contacts(
        &self,
        account: AccountId,
        ids: &[String],
    ) -> Result<HashMap<String, Vec<Contact>>, Error> {
        let client = self.pool.get().await?;
        let mut found = HashMap::new();
        let mut infos: Option<HashMap<i64, [String; 4]>> = None;
        for id in ids {
            let Some(segment) = (match id.parse() {
                Ok(n) => one(&client, account, n).await?,
                Err(_) => None,
            }) else {
                continue;
            };
            let numbers = matching(&client, account, &segment.filter, &[], "a.number").await?;
            let numbers = numbers.iter().map(|row| row.get(0)).collect();
            if infos.is_none() {
                let mut first = HashMap::new();
                for row in query(&client, ENTRY_INFOS, &[&account]).await? {
                    first.entry(row.get(0)).or_insert([row.get(1), row.get(2), row.get(3), row.get(4)]);
                }
                infos = Some(first);
            }
            found.insert(id.clone(), with_infos(numbers, infos.as_ref().unwrap_or(&HashMap::new())));
        }
        Ok(found)
    }

    async fn segment_numbers(&self, account: AccountId, segment: i64) -> Result<Vec<i64>, Error> {
        let client = self.pool.get().await?;
        let Some(segment) = one(&client, account, segment).await? else { return Ok(Vec::new()) };
        Ok(matching(&client, account, &segment.filter, &[], "a.number").await?.iter().map(|row| row.get(0)).collect())
    }

    async fn segment_members(&self, account: AccountId, segment: i64, numbers: Vec<i64>) -> Result<Vec<i64>, Error> {
        if numbers.is_empty() {
            return Ok(Vec::new());
        }
        let client = self.pool.get().await?;
        let Some(segment) = one(&client, account, segment).await? else { return Ok(Vec::new()) };
        Ok(matching(&client, account, &segment.filter, &numbers, "a.number")
            .await?
            .iter()
            .map(|row| row.get(0))
            .collect())
    }

    async fn consented(&self, account: AccountId) -> Result<FxHashSet<u64>, Error> {
        let client = self.pool.get().await?;
        Ok(query(&client, CONSENTED, &[&account])
            .await?
            .iter()
            .filter_map(|row| u64::try_from(row.get::<_, i64>(0)).ok())
            .collect())
    }

    async fn capped(&self, account: AccountId, since: DateTime<Utc>, messages: i64) -> Result<FxHashSet<u64>, Error> {
        let client = self.pool.get().await?;
        Ok(query(&client, CAPPED, &[&account, &time::store(since), &messages])
            .await?
            .iter()
            .filter_map(|row| u64::try_from(row.get::<_, i64>(0)).ok())
            .collect())
    }
}
