//! Saved segments (migrations `0021_segments` and PostgreSQL's `0018`, `match` from
//! `0047_segments_match_any` and PostgreSQL's `0042`): their rules,
//! their counts, the contacts a send to them reaches, and the numbers with an opt-in that a
//! marketing send needs when the account asks for consent. The rules become SQL in
//! [`super::segment_sql`].

use std::collections::HashMap;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use rustc_hash::FxHashSet;
use texto_core::{Contact, SegmentFilter, SegmentMatch, SegmentRule, parse_segment_rules, wire::SegmentRuleDto};

use super::AccountId;
use crate::Error;

/// A segment as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SavedSegment {
    /// Its id.
    pub(crate) id: i64,
    /// Its name.
    pub(crate) name: String,
    /// Its rules, and whether a contact meets all or any of them.
    pub(crate) filter: SegmentFilter,
    /// When it was last changed.
    pub(crate) updated_at: DateTime<Utc>,
}

/// Segments.
#[async_trait]
pub(crate) trait SegmentStore: Send + Sync {
    /// The account's segments, by name.
    async fn segments(&self, account: AccountId) -> Result<Vec<SavedSegment>, Error>;
    /// One of the account's segments.
    async fn segment(&self, account: AccountId, id: i64) -> Result<Option<SavedSegment>, Error>;
    /// Creates a segment (`id` `None`) or replaces one of the account's; `None` when it has no
    /// segment of that id.
    async fn save_segment(
        &self,
        account: AccountId,
        id: Option<i64>,
        name: String,
        filter: SegmentFilter,
    ) -> Result<Option<SavedSegment>, Error>;
    /// Deletes one of the account's segments; whether it had it.
    async fn delete_segment(&self, account: AccountId, id: i64) -> Result<bool, Error>;
    /// How many of the account's contacts meet `filter` now.
    async fn count_segment(&self, account: AccountId, filter: SegmentFilter) -> Result<i64, Error>;
    /// The contacts of the account's segments named by `ids` (ids it does not have are left
    /// out), by number, each with the info1…info4 of its first list entry.
    async fn segment_contacts(
        &self,
        account: AccountId,
        ids: &[String],
    ) -> Result<HashMap<String, Vec<Contact>>, Error>;
    /// The numbers in one of the account's segments now (none when it has no such segment).
    async fn segment_numbers(&self, account: AccountId, segment: i64) -> Result<Vec<i64>, Error>;
    /// Those of `numbers` in one of the account's segments now (none when it has no such
    /// segment).
    async fn segment_members(&self, account: AccountId, segment: i64, numbers: Vec<i64>) -> Result<Vec<i64>, Error>;
    /// The account's numbers with an opt-in in force.
    async fn consented(&self, account: AccountId) -> Result<FxHashSet<u64>, Error>;
    /// The account's numbers that got `messages` marketing messages or more since `since`
    /// (the frequency cap's).
    async fn capped(&self, account: AccountId, since: DateTime<Utc>, messages: i64) -> Result<FxHashSet<u64>, Error>;
}

/// The account's segments (`$1`), by name.
pub(crate) const SEGMENTS: &str =
    "SELECT id, name, rules, updated_at, matching FROM segments WHERE account_id = $1 ORDER BY lower(name), id";

/// One of the account's segments (`$1` account, `$2` id).
pub(crate) const SEGMENT: &str =
    "SELECT id, name, rules, updated_at, matching FROM segments WHERE account_id = $1 AND id = $2";

/// Creates a segment (`$1` account, `$2` name, `$3` rules, `$4` now, `$5` match), answering
/// its id.
pub(crate) const INSERT: &str = "INSERT INTO segments (account_id, name, rules, created_at, updated_at, matching)
     VALUES ($1, $2, $3, $4, $4, $5) RETURNING id";

/// Replaces a segment (`$1` account, `$2` id, `$3` name, `$4` rules, `$5` now, `$6` match).
pub(crate) const UPDATE: &str =
    "UPDATE segments SET name = $3, rules = $4, updated_at = $5, matching = $6 WHERE account_id = $1 AND id = $2";

/// Deletes a segment (`$1` account, `$2` id).
pub(crate) const DELETE: &str = "DELETE FROM segments WHERE account_id = $1 AND id = $2";

/// The list entries of the account that carry info1…info4 (`$1`), in the order they were added.
pub(crate) const ENTRY_INFOS: &str = "SELECT c.number, c.info1, c.info2, c.info3, c.info4
     FROM contacts c JOIN lists l ON l.id = c.list_id
     WHERE l.account_id = $1 AND (c.info1 <> '' OR c.info2 <> '' OR c.info3 <> '' OR c.info4 <> '') ORDER BY c.id";

/// The account's numbers with an opt-in in force (`$1`).
pub(crate) const CONSENTED: &str =
    "SELECT number FROM account_contacts WHERE account_id = $1 AND opt_in_at IS NOT NULL AND opt_out_at IS NULL";

/// The account's numbers (`$1`) with `$3` marketing messages or more created since `$2`, of
/// campaigns not cancelled.
pub(crate) const CAPPED: &str = "SELECT m.number FROM messages m JOIN campaigns c ON c.id = m.campaign_id
     WHERE m.account_id = $1 AND m.created_at >= $2 AND c.pushtype = 'marketing' AND c.status <> 'cancelled'
     GROUP BY m.number HAVING COUNT(*) >= $3";

/// Rules as stored (the API's JSON).
pub(crate) fn stored_rules(rules: &[SegmentRule]) -> String {
    let wire: Vec<SegmentRuleDto> = rules.iter().map(SegmentRule::to_wire).collect();
    serde_json::to_string(&wire).unwrap_or_else(|_| "[]".to_owned())
}

/// A segment's filter from its stored rules (written by [`stored_rules`], so they parse) and
/// match (`all` or `any`, the column's check).
pub(crate) fn loaded_filter(stored: &str, matching: &str) -> Result<SegmentFilter, Error> {
    let wire: Vec<SegmentRuleDto> =
        serde_json::from_str(stored).map_err(|_| Error::Unavailable("a stored segment's rules do not read"))?;
    let rules = parse_segment_rules(&wire).map_err(|_| Error::Unavailable("a stored segment's rules do not parse"))?;
    let matching = SegmentMatch::parse(Some(matching)).map_err(|_| Error::Unavailable("a stored segment's match"))?;
    Ok(SegmentFilter { matching, rules })
}

/// The segment's contacts as the filter takes them: `numbers` in order, with the info1…info4
/// of their first list entry among `infos` (the entries that have some).
pub(crate) fn with_infos(numbers: Vec<i64>, infos: &HashMap<i64, [String; 4]>) -> Vec<Contact> {
    numbers
        .into_iter()
        .map(|number| Contact { number: number.to_string(), info: infos.get(&number).cloned().unwrap_or_default() })
        .collect()
}
