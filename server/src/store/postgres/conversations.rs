//! The inbox's conversations in PostgreSQL.

use async_trait::async_trait;
use futures_util::future::try_join;

use super::{PgStore, query};
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
impl ConversationStore for PgStore {
    async fn conversations(&self, account: AccountId, filter: ConversationFilter) -> Result<ConversationPage, Error> {
        let client = self.pool.get().await?;
        let conditions = filter.conditions(account, Dialect::Postgres);
        let params: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> =
            conditions.values().iter().map(|value| value.as_postgres()).collect();
        let clause = conditions.postgres(1);
        let page_sql = filter.page_sql(&clause);
        let (kept, rows) =
            try_join(query(&client, INBOX_COUNTS, &[&account]), query(&client, &page_sql, &params)).await?;
        let counted = match filter.page_count(&clause, rows.len()) {
            PageCount::Kept => None,
            PageCount::Known(count) => Some(count),
            PageCount::Ask(count_sql) => query(&client, &count_sql, &params).await?.first().map(|row| row.get(0)),
        };
        let kept = kept.first().map_or((0, 0), |row| (row.get(0), row.get(1)));
        let (matching, unread) = page_counts(&filter, counted, kept);
        Ok(ConversationPage {
            conversations: rows.iter().map(read_conversation).collect::<Result<_, _>>()?,
            matching,
            unread,
        })
    }

    async fn mark_read(&self, account: AccountId, number: i64) -> Result<bool, Error> {
        let client = self.pool.get().await?;
        Ok(client.execute(MARK_READ, &[&account, &number]).await? > 0)
    }

    async fn written_to(&self, account: AccountId, number: i64) -> Result<Option<String>, Error> {
        let client = self.pool.get().await?;
        Ok(query(&client, WRITTEN_TO, &[&account, &number]).await?.first().and_then(|row| row.get(0)))
    }
}
