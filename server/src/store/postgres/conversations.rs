//! The inbox's conversations in PostgreSQL.

use async_trait::async_trait;
use futures_util::future::try_join;

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
        // A filter without a kept count (a search, a campaign, a keyword) counts its matches in
        // the page's own pass (`COUNT(*) OVER ()`): a search by text read its trigram index
        // twice, once for the page and once for the count, where most of its time goes.
        let counting = filter.kept_count().is_none();
        let sql = format!(
            "SELECT {CONVERSATION_COLUMNS}{} FROM conversations c WHERE {}
             ORDER BY c.last_at DESC, c.number DESC LIMIT {} OFFSET {}",
            if counting { ", COUNT(*) OVER ()" } else { "" },
            conditions.postgres(1),
            page.length,
            page.start
        );
        let (kept, rows) = try_join(query(&client, INBOX_COUNTS, &[&account]), query(&client, &sql, &params)).await?;
        let counted = match rows.first() {
            Some(row) if counting => Some(row.get(4)),
            // A page past the last match has no row to carry the count.
            None if counting && page.start > 0 => {
                let count_sql = format!("SELECT COUNT(*) FROM conversations c WHERE {}", conditions.postgres(1));
                query(&client, &count_sql, &params).await?.first().map(|row| row.get(0))
            }
            _ => None,
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
