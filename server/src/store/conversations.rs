//! The inbox: one conversation per number that wrote to the account, kept by
//! triggers on `replies` (migrations `0017_conversations` and PostgreSQL's `0014`), with how
//! many of its replies nobody has read; and the account's counts of them, kept by triggers on
//! `conversations` (`0044_inbox_counts`, PostgreSQL's `0039`).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use texto_core::Keyword;

use super::{
    AccountId, Page,
    columns::Columns,
    conditions::{Conditions, SqlValue, contains_pattern},
    segment_sql::Dialect,
};
use crate::Error;

/// Which conversations to list.
#[derive(Debug, Clone, Default)]
pub(crate) struct ConversationFilter {
    /// The window of the answer.
    pub(crate) page: Page,
    /// Only those with unread replies.
    pub(crate) unread_only: bool,
    /// Only the numbers that answered this campaign.
    pub(crate) campaign: Option<i64>,
    /// Only the numbers that wrote this keyword (a reply's first word).
    pub(crate) keyword: Option<Keyword>,
    /// Only the numbers holding these digits, or whose last reply holds this text.
    pub(crate) search: Option<String>,
}

/// How a page's matches are counted ([`ConversationFilter::page_count`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PageCount {
    /// By the account's kept counts.
    Kept,
    /// Told by the page itself.
    Known(i64),
    /// By this statement, with the filter's values.
    Ask(String),
}

/// How many conversations a filter keeps, when the account's kept counts say it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeptCount {
    /// All of them.
    All,
    /// Those with unread replies.
    Unread,
}

impl ConversationFilter {
    /// Which of the account's kept counts is the number of conversations this filter keeps;
    /// `None` when they must be counted (a campaign, a keyword or a search).
    pub(crate) fn kept_count(&self) -> Option<KeptCount> {
        let searching = self.search.as_deref().is_some_and(|search| !search.trim().is_empty());
        match (self.campaign.is_some() || self.keyword.is_some() || searching, self.unread_only) {
            (true, _) => None,
            (false, false) => Some(KeptCount::All),
            (false, true) => Some(KeptCount::Unread),
        }
    }

    /// The page's statement, the most recent first, on `conditions` (written in the store's
    /// dialect).
    pub(crate) fn page_sql(&self, conditions: &str) -> String {
        let page = self.page.clamped();
        format!(
            "SELECT {CONVERSATION_COLUMNS} FROM conversations c WHERE {conditions}
             ORDER BY c.last_at DESC, c.number DESC LIMIT {} OFFSET {}",
            page.length, page.start
        )
    }

    /// How the matches of a filter without a kept count are counted, once its page came back
    /// with `shown` conversations: a page that is not full and not past the last match says
    /// the count itself (a search for one customer's words, the usual search, then reads its
    /// index once instead of twice); otherwise they are counted on `conditions`.
    pub(crate) fn page_count(&self, conditions: &str, shown: usize) -> PageCount {
        let page = self.page.clamped();
        let shown = i64::try_from(shown).unwrap_or(i64::MAX);
        match self.kept_count() {
            Some(_) => PageCount::Kept,
            None if shown < page.length && (shown > 0 || page.start == 0) => PageCount::Known(page.start + shown),
            None => PageCount::Ask(format!("SELECT COUNT(*) FROM conversations c WHERE {conditions}")),
        }
    }

    /// The conditions on `conversations c` for the account's conversations this filter keeps,
    /// in `dialect` (SQLite searches its text index with `MATCH`, PostgreSQL's trigram index
    /// serves `LIKE`).
    pub(crate) fn conditions(&self, account: AccountId, dialect: Dialect) -> Conditions {
        let mut conditions = Conditions::default();
        conditions.require("c.account_id = ?", [SqlValue::Int(account)]);
        if self.unread_only {
            conditions.require("c.unread > 0", []);
        }
        if let Some(campaign) = self.campaign {
            conditions.require(
                "EXISTS (SELECT 1 FROM replies r JOIN messages m ON m.id = r.message_id
                 WHERE r.account_id = c.account_id AND r.number = c.number AND m.campaign_id = ?)",
                [SqlValue::Int(campaign)],
            );
        }
        if let Some(keyword) = &self.keyword {
            conditions.require(
                "EXISTS (SELECT 1 FROM replies r WHERE r.account_id = c.account_id AND r.keyword = ? AND r.number = c.number)",
                [SqlValue::Text(keyword.as_str().to_owned())],
            );
        }
        if let Some(search) = self.search.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
            let digits: String = search.chars().filter(char::is_ascii_digit).collect();
            if digits.len() == search.trim_start_matches('+').replace(' ', "").len() {
                conditions.require("CAST(c.number AS TEXT) LIKE ?", [SqlValue::Text(format!("%{digits}%"))]);
            } else if dialect == Dialect::Sqlite && search.chars().count() >= 3 {
                // The trigram index finds any substring of three characters or more, case folded.
                let phrase = format!("\"{}\"", search.replace('"', "\"\""));
                conditions.require(
                    "c.rowid IN (SELECT rowid FROM conversations_text WHERE conversations_text MATCH ?)",
                    [SqlValue::Text(phrase)],
                );
            } else {
                conditions.require("lower(c.last_text) LIKE ? ESCAPE '\\'", [contains_pattern(search)]);
            }
        }
        conditions
    }
}

/// One conversation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ConversationRecord {
    /// The number that wrote.
    pub(crate) number: i64,
    /// Its last reply.
    pub(crate) last_text: String,
    /// When that came.
    pub(crate) last_at: DateTime<Utc>,
    /// Its replies nobody read yet.
    pub(crate) unread: i64,
}

/// A page of conversations and the counts around it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ConversationPage {
    /// The page, the most recent first.
    pub(crate) conversations: Vec<ConversationRecord>,
    /// The conversations the filter keeps.
    pub(crate) matching: i64,
    /// The account's conversations with unread replies (for the navigation's count).
    pub(crate) unread: i64,
}

/// The account's conversations.
#[async_trait]
pub(crate) trait ConversationStore: Send + Sync {
    /// The conversations `filter` keeps, the most recent first.
    async fn conversations(&self, account: AccountId, filter: ConversationFilter) -> Result<ConversationPage, Error>;
    /// Marks the number's replies read; whether the account has a conversation with it.
    async fn mark_read(&self, account: AccountId, number: i64) -> Result<bool, Error>;
    /// The number the last reply from `number` was written to, if any and known.
    async fn written_to(&self, account: AccountId, number: i64) -> Result<Option<String>, Error>;
}

/// The columns of a [`ConversationRecord`], on `conversations c`.
const CONVERSATION_COLUMNS: &str = "c.number, c.last_text, c.last_at, c.unread";

/// Marks a conversation read (both stores; `$1` the account, `$2` the number).
pub(crate) const MARK_READ: &str = "UPDATE conversations SET unread = 0 WHERE account_id = $1 AND number = $2";

/// The account's kept counts: its conversations, and those with unread replies (`$1` the
/// account; no row before its first reply).
pub(crate) const INBOX_COUNTS: &str = "SELECT conversations, unread FROM inbox_counts WHERE account_id = $1";

/// The counts of a page: the conversations its filter keeps (`counted` when they had to be
/// counted, else the kept count [`ConversationFilter::kept_count`] names), and those with
/// unread replies, from the account's kept counts (`conversations`, `unread`).
pub(crate) fn page_counts(filter: &ConversationFilter, counted: Option<i64>, kept: (i64, i64)) -> (i64, i64) {
    let matching = match filter.kept_count() {
        Some(KeptCount::All) => kept.0,
        Some(KeptCount::Unread) => kept.1,
        None => counted.unwrap_or(0),
    };
    (matching, kept.1)
}

/// The number the last reply from a number was written to (`$1` the account, `$2` the number).
pub(crate) const WRITTEN_TO: &str =
    "SELECT to_number FROM replies WHERE account_id = $1 AND number = $2 ORDER BY id DESC LIMIT 1";

/// One [`ConversationRecord`], read from a row.
pub(super) fn read_conversation<R: Columns>(row: &R) -> Result<ConversationRecord, R::Fault> {
    Ok(ConversationRecord {
        number: row.column(0)?,
        last_text: row.column(1)?,
        last_at: row.time(2)?,
        unread: row.column(3)?,
    })
}
