//! The inbox's conversations in SQLite (the statements shared with PostgreSQL).

use async_trait::async_trait;
use rusqlite::{OptionalExtension, params, params_from_iter};

use super::{SqliteStore, numbered};
use crate::{
    Error,
    store::{
        AccountId,
        conversations::{
            CONVERSATION_COLUMNS, ConversationFilter, ConversationPage, ConversationStore, INBOX_COUNTS, MARK_READ,
            WRITTEN_TO, page_counts, read_conversation,
        },
        segment_sql::Dialect,
    },
};

#[async_trait]
impl ConversationStore for SqliteStore {
    async fn conversations(&self, account: AccountId, filter: ConversationFilter) -> Result<ConversationPage, Error> {
        let page = filter.page.clamped();
        self.db
            .read(move |db| {
                // The counts and the page from one snapshot.
                let _snapshot = db.unchecked_transaction()?;
                let conditions = filter.conditions(account, Dialect::Sqlite);
                let counted: Option<i64> = match filter.kept_count() {
                    Some(_) => None,
                    None => Some(
                        db.prepare_cached(&format!(
                            "SELECT COUNT(*) FROM conversations c WHERE {}",
                            conditions.sqlite()
                        ))?
                        .query_row(params_from_iter(conditions.values()), |row| row.get(0))?,
                    ),
                };
                let kept = db
                    .prepare_cached(&numbered(INBOX_COUNTS))?
                    .query_row([account], |row| Ok((row.get(0)?, row.get(1)?)))
                    .optional()?
                    .unwrap_or((0, 0));
                let (matching, unread) = page_counts(&filter, counted, kept);
                let sql = format!(
                    "SELECT {CONVERSATION_COLUMNS} FROM conversations c WHERE {}
                     ORDER BY c.last_at DESC, c.number DESC LIMIT {} OFFSET {}",
                    conditions.sqlite(),
                    page.length,
                    page.start
                );
                let mut statement = db.prepare_cached(&sql)?;
                let rows = statement.query_map(params_from_iter(conditions.values()), |row| read_conversation(row))?;
                Ok(ConversationPage { conversations: rows.collect::<Result<_, _>>()?, matching, unread })
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
