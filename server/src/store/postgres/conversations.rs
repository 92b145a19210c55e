//! The inbox's conversations in PostgreSQL.

use async_trait::async_trait;
use futures_util::future::try_join3;

use super::{PgStore, query};
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
impl ConversationStore for PgStore {
    async fn conversations(&self, account: AccountId, filter: ConversationFilter) -> Result<ConversationPage, Error> {
        let page = filter.page.clamped();
        let client = self.pool.get().await?;
        let conditions = filter.conditions(account, Dialect::Postgres);
        let params: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> =
            conditions.values().iter().map(|value| value.as_postgres()).collect();
        let count_sql = format!("SELECT COUNT(*) FROM conversations c WHERE {}", conditions.postgres(1));
        let sql = format!(
            "SELECT {CONVERSATION_COLUMNS} FROM conversations c WHERE {}
             ORDER BY c.last_at DESC, c.number DESC LIMIT {} OFFSET {}",
            conditions.postgres(1),
            page.length,
            page.start
        );
        let counted = async {
            match filter.kept_count() {
                Some(_) => Ok(None),
                None => query(&client, &count_sql, &params).await.map(|rows| rows.first().map(|row| row.get(0))),
            }
        };
        let (counted, kept, rows) =
            try_join3(counted, query(&client, INBOX_COUNTS, &[&account]), query(&client, &sql, &params)).await?;
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
