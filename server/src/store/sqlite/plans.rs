//! Price plans in SQLite (the statements shared with PostgreSQL).

use async_trait::async_trait;
use chrono::Utc;
use rusqlite::params;
use texto_core::PriceTable;

use super::{SqliteStore, numbered};
use crate::{
    Error,
    store::{
        AccountId,
        plans::{
            ACCOUNT_PLANS, CLEAR_ACCOUNT_PLAN, PLAN_EXISTS, PLANS, PlanStore, SAVE_PLAN, SET_ACCOUNT_PLAN,
            plan_columns, plan_from_columns,
        },
        time,
    },
};

#[async_trait]
impl PlanStore for SqliteStore {
    async fn save_plan(&self, name: &str, prices: &PriceTable) -> Result<(), Error> {
        let (name, (countries, other), now) = (name.to_owned(), plan_columns(prices), time::store(Utc::now()));
        self.db
            .write(move |db| {
                db.prepare_cached(&numbered(SAVE_PLAN))?.execute(params![name, countries, other, now])?;
                Ok(())
            })
            .await
    }

    async fn plans(&self) -> Result<Vec<(String, PriceTable)>, Error> {
        self.db
            .read(|db| {
                let mut statement = db.prepare_cached(PLANS)?;
                let rows = statement
                    .query_map([], |row| {
                        Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?, row.get::<_, i64>(2)?))
                    })?
                    .collect::<Result<Vec<_>, _>>()?;
                rows.into_iter()
                    .map(|(name, countries, other)| Ok((name.clone(), plan_from_columns(&name, &countries, other)?)))
                    .collect()
            })
            .await
    }

    async fn set_account_plan(&self, account: AccountId, plan: Option<&str>) -> Result<bool, Error> {
        let (plan, now) = (plan.map(str::to_owned), time::store(Utc::now()));
        self.db
            .write(move |db| {
                let Some(plan) = plan else {
                    db.prepare_cached(&numbered(CLEAR_ACCOUNT_PLAN))?.execute([account])?;
                    return Ok(true);
                };
                let exists: i64 = db.prepare_cached(&numbered(PLAN_EXISTS))?.query_row([&plan], |row| row.get(0))?;
                if exists == 0 {
                    return Ok(false);
                }
                db.prepare_cached(&numbered(SET_ACCOUNT_PLAN))?.execute(params![account, plan, now])?;
                Ok(true)
            })
            .await
    }

    async fn account_plans(&self) -> Result<Vec<(AccountId, String)>, Error> {
        self.db
            .read(|db| {
                let mut statement = db.prepare_cached(ACCOUNT_PLANS)?;
                let rows = statement.query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?;
                Ok(rows.collect::<Result<_, _>>()?)
            })
            .await
    }
}
