//! Price plans in PostgreSQL (the statements shared with SQLite).

use async_trait::async_trait;
use chrono::Utc;
use texto_core::PriceTable;

use super::{PgStore, query};
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
impl PlanStore for PgStore {
    async fn save_plan(&self, name: &str, prices: &PriceTable) -> Result<(), Error> {
        let ((countries, other), now) = (plan_columns(prices), time::store(Utc::now()));
        let client = self.pool.get().await?;
        query(&client, SAVE_PLAN, &[&name, &countries, &other, &now]).await?;
        Ok(())
    }

    async fn plans(&self) -> Result<Vec<(String, PriceTable)>, Error> {
        let client = self.pool.get().await?;
        query(&client, PLANS, &[])
            .await?
            .iter()
            .map(|row| {
                let name: String = row.get(0);
                let table = plan_from_columns(&name, row.get(1), row.get(2))?;
                Ok((name, table))
            })
            .collect()
    }

    async fn set_account_plan(&self, account: AccountId, plan: Option<&str>) -> Result<bool, Error> {
        let client = self.pool.get().await?;
        let Some(plan) = plan else {
            client.execute(CLEAR_ACCOUNT_PLAN, &[&account]).await?;
            return Ok(true);
        };
        let exists: i64 = query(&client, PLAN_EXISTS, &[&plan]).await?.first().map_or(0, |row| row.get(0));
        if exists == 0 {
            return Ok(false);
        }
        query(&client, SET_ACCOUNT_PLAN, &[&account, &plan, &time::store(Utc::now())]).await?;
        Ok(true)
    }

    async fn account_plans(&self) -> Result<Vec<(AccountId, String)>, Error> {
        let client = self.pool.get().await?;
        Ok(query(&client, ACCOUNT_PLANS, &[]).await?.iter().map(|row| (row.get(0), row.get(1))).collect())
    }
}
