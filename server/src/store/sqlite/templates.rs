//! Templates in SQLite (the statements shared with PostgreSQL).

use async_trait::async_trait;
use chrono::Utc;
use rusqlite::{Connection, OptionalExtension, params, params_from_iter};
use texto_core::Template;

use super::{SqliteStore, numbered};
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

fn one(db: &Connection, account: AccountId, id: i64) -> Result<Option<SavedTemplate>, Error> {
    Ok(db
        .prepare_cached(&numbered(&one_statement()))?
        .query_row(params![account, id], |row| read_template(row))
        .optional()?)
}

#[async_trait]
impl TemplateStore for SqliteStore {
    async fn templates(&self, account: AccountId) -> Result<Vec<SavedTemplate>, Error> {
        self.db
            .read(move |db| {
                let mut statement = db.prepare_cached(&numbered(&all_statement()))?;
                let rows = statement.query_map([account], |row| read_template(row))?;
                Ok(rows.collect::<Result<_, _>>()?)
            })
            .await
    }

    async fn template(&self, account: AccountId, id: i64) -> Result<Option<SavedTemplate>, Error> {
        self.db.read(move |db| one(db, account, id)).await
    }

    async fn save_template(
        &self,
        account: AccountId,
        id: Option<i64>,
        template: Template,
        author: String,
    ) -> Result<Option<SavedTemplate>, Error> {
        let (links, now) = (stored_links(&template), time::store(Utc::now()));
        self.db
            .write(move |db| {
                let Template { name, text, pushtype, sender, .. } = template;
                let values = params![account, name, text, pushtype.as_str(), sender, links, author, now];
                let id = match id {
                    None => db.prepare_cached(&numbered(INSERT))?.query_row(values, |row| row.get(0))?,
                    Some(id) => {
                        let with_id = values.iter().copied().chain([&id as &dyn rusqlite::ToSql]);
                        if db.prepare_cached(&numbered(UPDATE))?.execute(params_from_iter(with_id))? == 0 {
                            return Ok(None);
                        }
                        id
                    }
                };
                one(db, account, id)
            })
            .await
    }

    async fn delete_template(&self, account: AccountId, id: i64) -> Result<bool, Error> {
        self.db.write(move |db| Ok(db.prepare_cached(&numbered(DELETE))?.execute(params![account, id])? > 0)).await
    }
}
