//! Registered senders in PostgreSQL (the statements shared with SQLite).

use async_trait::async_trait;
use chrono::Utc;

use super::{PgStore, query};
use crate::{
    Error,
    store::{
        AccountId,
        senders::{ADD, HAS, REMOVE, SENDERS, SET_DEFAULT, SenderRecord, SenderStore, read_sender},
        time,
    },
};

#[async_trait]
impl SenderStore for PgStore {
    async fn senders(&self, account: AccountId) -> Result<Vec<SenderRecord>, Error> {
        let client = self.pool.get().await?;
        Ok(query(&client, SENDERS, &[&account]).await?.iter().map(read_sender).collect::<Result<_, _>>()?)
    }

    async fn add_sender(&self, account: AccountId, name: &str) -> Result<bool, Error> {
        let client = self.pool.get().await?;
        Ok(client.execute(ADD, &[&account, &name, &time::store(Utc::now())]).await? > 0)
    }

    async fn remove_sender(&self, account: AccountId, name: &str) -> Result<bool, Error> {
        let client = self.pool.get().await?;
        Ok(client.execute(REMOVE, &[&account, &name]).await? > 0)
    }

    async fn set_default_sender(&self, account: AccountId, name: Option<&str>) -> Result<bool, Error> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        if let Some(name) = name
            && !query(&tx, HAS, &[&account, &name]).await?[0].try_get::<_, bool>(0)?
        {
            return Ok(false);
        }
        tx.execute(SET_DEFAULT, &[&account, &name]).await?;
        tx.commit().await?;
        Ok(true)
    }
}
