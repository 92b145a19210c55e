//! The NPAI list and the blacklist in SQLite (tables `npai` and `blacklist`, same shape).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use rusqlite::{params, params_from_iter, types::Value};

use super::{SqliteStore, time};
use crate::{
    Error,
    store::{
        AccountId, EntryRef, NewContact, NumberFilter, NumberList, NumberListStore, NumberPage, Page,
        number_lists::read_number_entry,
    },
};

#[async_trait]
impl NumberListStore for SqliteStore {
    async fn number_entries(
        &self,
        account: AccountId,
        list: NumberList,
        filter: &NumberFilter,
        page: Page,
    ) -> Result<NumberPage, Error> {
        let page = page.clamped();
        let table = list.table();
        let (conditions, mut values) = conditions(account, filter);
        self.db
            .read(move |db| {
                let total: i64 =
                    db.query_row(&format!("SELECT COUNT(*) FROM {table} WHERE account_id = ?"), [account], |row| {
                        row.get(0)
                    })?;
                let matching: i64 = db.query_row(
                    &format!("SELECT COUNT(*) FROM {table} WHERE {conditions}"),
                    params_from_iter(&values),
                    |row| row.get(0),
                )?;
                values.extend([Value::Integer(page.length), Value::Integer(page.start)]);
                let mut query = db.prepare_cached(&format!(
                    "SELECT id, number, info1, info2, info3, info4, campaign_id, created_at, source FROM {table}
                     WHERE {conditions} ORDER BY id LIMIT ? OFFSET ?"
                ))?;
                let entries = query
                    .query_map(params_from_iter(&values), |row| read_number_entry(row))?
                    .collect::<Result<_, _>>()?;
                Ok(NumberPage { entries, total, matching })
            })
            .await
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
        let contacts = contacts.to_vec();
        self.db
            .write(move |db| {
                let mut insert = db.prepare_cached(&format!(
                    "INSERT OR IGNORE INTO {} (account_id, number, info1, info2, info3, info4, campaign_id, created_at)
                     VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    list.table()
                ))?;
                let mut added = 0;
                for contact in &contacts {
                    let [info1, info2, info3, info4] = &contact.info;
                    added += insert.execute(params![
                        account,
                        contact.number as i64,
                        info1,
                        info2,
                        info3,
                        info4,
                        campaign,
                        now
                    ])? as u64;
                }
                Ok(added)
            })
            .await
    }

    async fn remove_number(&self, account: AccountId, list: NumberList, entry: EntryRef) -> Result<bool, Error> {
        let (column, value) = entry.column();
        self.db
            .write(move |db| {
                let removed = db.execute(
                    &format!("DELETE FROM {} WHERE account_id = ? AND {column} = ?", list.table()),
                    [account, value],
                )?;
                Ok(removed > 0)
            })
            .await
    }
}

/// The `WHERE` clause of the account's entries that pass `filter`, and its values.
fn conditions(account: AccountId, filter: &NumberFilter) -> (String, Vec<Value>) {
    let mut conditions = String::from("account_id = ?");
    let mut values = vec![Value::Integer(account)];
    if let Some(number) = filter.destination {
        conditions.push_str(" AND number = ?");
        values.push(Value::Integer(number as i64));
    }
    if let Some(digits) = &filter.digits {
        conditions.push_str(" AND instr(CAST(number AS TEXT), ?) > 0");
        values.push(Value::Text(digits.clone()));
    }
    (conditions, values)
}
