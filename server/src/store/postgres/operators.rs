//! Operators in PostgreSQL (the statements shared with SQLite).

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::{PgStore, query};
use crate::{
    Error,
    store::{
        AccountId,
        operators::{
            ADD_SESSION, AccountOverview, BY_TOKEN, CREATE, END_SESSION, FORGET_SESSIONS, LEDGER, LedgerLine,
            OVERVIEWS, OperatorRecord, OperatorStore, SET_PASSWORD, SET_SUSPENDED, SIGN_IN, read_ledger_line,
            read_operator, read_overview,
        },
        time,
    },
};

#[async_trait]
impl OperatorStore for PgStore {
    async fn create_operator(&self, name: &str, token_hash: &[u8; 32]) -> Result<bool, Error> {
        let client = self.pool.get().await?;
        let hash = token_hash.as_slice();
        Ok(client.execute(CREATE, &[&name, &hash, &time::store(Utc::now())]).await? > 0)
    }

    async fn operator_by_token(
        &self,
        token_hash: &[u8; 32],
        now: DateTime<Utc>,
    ) -> Result<Option<OperatorRecord>, Error> {
        let client = self.pool.get().await?;
        let rows = query(&client, BY_TOKEN, &[&token_hash.as_slice(), &time::store(now)]).await?;
        Ok(rows.first().map(read_operator).transpose()?)
    }

    async fn set_operator_password(&self, name: &str, password_hash: &str) -> Result<bool, Error> {
        let client = self.pool.get().await?;
        Ok(client.execute(SET_PASSWORD, &[&name, &password_hash]).await? > 0)
    }

    async fn operator_sign_in(&self, name: &str) -> Result<Option<(OperatorRecord, Option<String>)>, Error> {
        let client = self.pool.get().await?;
        let rows = query(&client, SIGN_IN, &[&name]).await?;
        Ok(rows.first().map(|row| (OperatorRecord { id: row.get(0), name: row.get(1) }, row.get(2))))
    }

    async fn add_operator_session(
        &self,
        token_hash: &[u8; 32],
        operator: i64,
        expires_at: DateTime<Utc>,
    ) -> Result<(), Error> {
        let client = self.pool.get().await?;
        client.execute(FORGET_SESSIONS, &[&time::store(Utc::now())]).await?;
        client.execute(ADD_SESSION, &[&token_hash.as_slice(), &operator, &time::store(expires_at)]).await?;
        Ok(())
    }

    async fn end_operator_session(&self, token_hash: &[u8; 32]) -> Result<(), Error> {
        let client = self.pool.get().await?;
        client.execute(END_SESSION, &[&token_hash.as_slice()]).await?;
        Ok(())
    }

    async fn account_overviews(&self) -> Result<Vec<AccountOverview>, Error> {
        let client = self.pool.get().await?;
        Ok(query(&client, OVERVIEWS, &[]).await?.iter().map(read_overview).collect::<Result<_, _>>()?)
    }

    async fn set_suspended(&self, account: AccountId, at: Option<DateTime<Utc>>) -> Result<(), Error> {
        let client = self.pool.get().await?;
        client.execute(SET_SUSPENDED, &[&account, &at.map(time::store)]).await?;
        Ok(())
    }

    async fn ledger(&self, account: AccountId, limit: i64, skip: i64) -> Result<Vec<LedgerLine>, Error> {
        let client = self.pool.get().await?;
        Ok(query(&client, LEDGER, &[&account, &limit, &skip])
            .await?
            .iter()
            .map(read_ledger_line)
            .collect::<Result<_, _>>()?)
    }
}
