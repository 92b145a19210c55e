//! Templates in PostgreSQL.

use async_trait::async_trait;
use chrono::Utc;
use deadpool_postgres::GenericClient;
use texto_core::Template;

use super::{PgStore, query};
use crate::{
    Error,
    store::{
        AccountId,
        templates::{
            DELETE, INSERT, SavedTemplate, TemplateStore, UPDATE, all_statement, one_statement, read_template,
            stored_links,
        },
        time,
    },
};

async fn one(db: &impl GenericClient, account: AccountId, id: i64) -> Result<Option<SavedTemplate>, Error> {
    Ok(query(db, &one_statement(), &[&account, &id]).await?.first().map(read_template).transpose()?)
}

#[async_trait]
impl TemplateStore for PgStore {
    async fn templates(&self, account: AccountId) -> Result<Vec<SavedTemplate>, Error> {
        let client = self.pool.get().await?;
        let rows = query(&client, &all_statement(), &[&account]).await?;
        Ok(rows.iter().map(read_template).collect::<Result<_, _>>()?)
    }

    async fn template(&self, account: AccountId, id: i64) -> Result<Option<SavedTemplate>, Error> {
        one(&self.pool.get().await?, account, id).await
    }

    async fn save_template(
        &self,
        account: AccountId,
        id: Option<i64>,
        template: Template,
        author: String,
    ) -> Result<Option<SavedTemplate>, Error> {
        let client = self.pool.get().await?;
        let (links, now) = (stored_links(&template), time::store(Utc::now()));
        let pushtype = template.pushtype.as_str();
        let values: [&(dyn tokio_postgres::types::ToSql + Sync); 8] =
            [&account, &template.name, &template.text, &pushtype, &template.sender, &links, &author, &now];
        let id = match id {
            None => query(&client, INSERT, &values).await?.first().map(|row| row.try_get(0)).transpose()?,
            Some(id) => {
                let mut with_id = values.to_vec();
                with_id.push(&id);
                (client.execute(UPDATE, &with_id).await? > 0).then_some(id)
            }
        };
        match id {
            Some(id) => one(&client, account, id).await,
            None => Ok(None),
        }
    }

    async fn delete_template(&self, account: AccountId, id: i64) -> Result<bool, Error> {
        let client = self.pool.get().await?;
        Ok(client.execute(DELETE, &[&account, &id]).await? > 0)
    }
}
