//! The inbox's conversations in SQLite (the statements shared with PostgreSQL).

use async_trait::async_trait;
use rusqlite::{OptionalExtension, params, params_from_iter};

use super::{SqliteStore, numbered};
use crate::{
    Error,
    store::{
        AccountId,
        conversations::{
            ConversationFilter, ConversationPage, ConversationStore, INBOX_COUNTS, MARK_READ, PageCount, WRITTEN_TO,
            page_counts, read_conversation,
        },
        segment_sql::Dialect,
    },
};

#[async_trait]
impl ConversationStore for SqliteStore {
    async fn conversations(&self, account: AccountId, filter: ConversationFilter) -> Result<ConversationPage, Error> {
        self.db
            .read(move |db| {
                // The counts and the page from one snapshot.
                let _snapshot = db.unchecked_transaction()?;
                let conditions = filter.conditions(account, Dialect::Sqlite);
                let clause = conditions.sqlite();
                let kept = db
                    .prepare_cached(&numbered(INBOX_COUNTS))?
                    .query_row([account], |row| Ok((row.get(0)?, row.get(1)?)))
                    .optional()?
                    .unwrap_or((0, 0));
                let mut statement = db.prepare_cached(&filter.page_sql(&clause))?;
                let rows = statement.query_map(params_from_iter(conditions.values()), |row| read_conversation(row))?;
                let conversations = rows.collect::<Result<Vec<_>, _>>()?;
                let counted = match filter.page_count(&clause, conversations.len()) {
                    PageCount::Kept => None,
                    PageCount::Known(count) => Some(count),
                    PageCount::Ask(count_sql) => Some(
                        db.prepare_cached(&count_sql)?
                            .query_row(params_from_iter(conditions.values()), |row| row.get(0))?,
                    ),
                };
                let (matching, unread) = page_counts(&filter, counted, kept);
                Ok(ConversationPage { conversations, matching, unread })
            })
            .await
    }

    async fn mark_read(&self, account: AccountId, number: i64) -> Result<bool, Error> {
        self.db.write(move |db| Ok(db.execute(&numbered(MARK_READ), params![account, number])? > 0)).await
    }

    async fn written_to(&self, account: AccountId, number: i64) -> Result<Option<String>, Error> {
        self.db
            .read(move |db| {
                let to: Option<Option<String>> = db
                    .prepare_cached(&numbered(WRITTEN_TO))?
                    .query_row(params![account, number], |row| row.get(0))
                    .optional()?;
                Ok(to.flatten())
            })
            .await
    }
}
