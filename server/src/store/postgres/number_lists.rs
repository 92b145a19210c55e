//! The NPAI list and the blacklist in PostgreSQL (tables `npai` and `blacklist`, same shape).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use tokio_postgres::types::ToSql;

use super::{PgStore, time};
use crate::{
    Error,
    store::{
        AccountId, EntryRef, NewContact, NumberFilter, NumberList, NumberListStore, NumberPage, Page,
        number_lists::read_number_entry,
    },
};

/// Entries written by one `INSERT` (its arrays stay well under the protocol's limits).
const INSERT_CHUNK: usize = 10_000;

#[async_trait]
impl NumberListStore for PgStore {
    async fn number_entries(
        &self,
        account: AccountId,
        list: NumberList,
        filter: &NumberFilter,
        page: Page,
    ) -> Result<NumberPage, Error> {
        let page = page.clamped();
        let table = list.table();
        let destination = filter.destination.map(|number| number as i64);
        let (conditions, mut values) = conditions(&account, &destination, &filter.digits);
        let client = self.pool.get().await?;
        let total: i64 =
            client.query_one(&format!("SELECT COUNT(*) FROM {table} WHERE account_id = $1"), &[&account]).await?.get(0);
        let matching: i64 =
            client.query_one(&format!("SELECT COUNT(*) FROM {table} WHERE {conditions}"), &values).await?.get(0);
        let (limit, offset) = (values.len() + 1, values.len() + 2);
        values.extend([&page.length as &(dyn ToSql + Sync), &page.start]);
        let query = client
            .prepare_cached(&format!(
                "SELECT id, number, info1, info2, info3, info4, campaign_id, created_at, source FROM {table}
                 WHERE {conditions} ORDER BY id LIMIT ${limit} OFFSET ${offset}"
            ))
            .await?;
        let entries = client.query(&query, &values).await?.iter().map(read_number_entry).collect::<Result<_, _>>()?;
        Ok(NumberPage { entries, total, matching })
    }

    async fn add_numbers(
        &self,
        account: AccountId,
        list: NumberList,
        contacts: &[NewContact],
        campaign: Option<i64>,
        now: DateTime<Utc>,
    ) -> Result<u64, Error> {
        let now = time::store(now);
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let insert = tx
            .prepare_cached(&format!(
                "INSERT INTO {} (account_id, number, info1, info2, info3, info4, campaign_id, created_at)
                 SELECT $1::bigint, number, info1, info2, info3, info4, $7::bigint, $8::text
                 FROM UNNEST($2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[]) WITH ORDINALITY AS c (number, info1, info2, info3, info4, n)
                 ORDER BY n
                 ON CONFLICT (account_id, number) DO NOTHING",
                list.table()
            ))
            .await?;
        let mut added = 0;
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
            added += tx.execute(&insert, &[&account, &numbers, info1, info2, info3, info4, &campaign, &now]).await?;
        }
        tx.commit().await?;
        Ok(added)
    }

    async fn remove_number(&self, account: AccountId, list: NumberList, entry: EntryRef) -> Result<bool, Error> {
        let client = self.pool.get().await?;
        let (column, value) = entry.column();
        let removed = client
            .execute(
                &format!("DELETE FROM {} WHERE account_id = $1 AND {column} = $2", list.table()),
                &[&account, &value],
            )
            .await?;
        Ok(removed > 0)
    }
}

/// The `WHERE` clause of the account's entries that pass the filter (its number as stored,
/// and its digits), and its values.
fn conditions<'a>(
    account: &'a i64,
    destination: &'a Option<i64>,
    digits: &'a Option<String>,
) -> (String, Vec<&'a (dyn ToSql + Sync)>) {
    let mut conditions = String::from("account_id = $1");
    let mut values: Vec<&(dyn ToSql + Sync)> = vec![account];
    if let Some(number) = destination {
        values.push(number);
        conditions.push_str(&format!(" AND number = ${}", values.len()));
    }
    if let Some(digits) = digits {
        values.push(digits);
        conditions.push_str(&format!(" AND strpos(number::text, ${}) > 0", values.len()));
    }
    (conditions, values)
}
