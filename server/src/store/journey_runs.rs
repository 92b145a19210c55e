//! What the journeys' runner reads and writes: due contacts claimed for a while (so that a node
//! that stops mid-step leaves them to the others once the claim runs out), what a branch asks
//! about a contact, and each contact's move with the step counts and contact changes it makes,
//! written in one transaction.

use std::collections::BTreeMap;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use texto_core::{ContactFacts, Journey, ListChange, TagChange};

use super::{AccountId, columns::Columns, journeys::EntryState};
use crate::Error;

/// A contact whose step is due, claimed by one runner until its claim runs out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ClaimedEntry {
    /// The entry's id.
    pub(crate) id: i64,
    /// The journey.
    pub(crate) journey: i64,
    /// The version it goes through.
    pub(crate) version: i64,
    /// The journey's account.
    pub(crate) account: AccountId,
    /// The number.
    pub(crate) number: i64,
    /// The node it is at.
    pub(crate) node: i64,
    /// Whether it waits at the node (a send to do, a wait over) rather than just reaching it.
    pub(crate) arrived: bool,
    /// The journey's last campaign to it.
    pub(crate) last_ticket: Option<i64>,
    /// When that was sent.
    pub(crate) last_sent_at: Option<DateTime<Utc>>,
    /// When it entered.
    pub(crate) entered_at: DateTime<Utc>,
}

impl ClaimedEntry {
    /// Since when a branch looks for replies: the journey's last send to it, else its entry.
    pub(crate) fn replies_since(&self) -> DateTime<Utc> {
        self.last_sent_at.unwrap_or(self.entered_at)
    }
}

/// Where a claimed contact goes, written back with its claim let go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct EntryMove {
    /// The entry's id.
    pub(crate) id: i64,
    /// The node it is at now.
    pub(crate) node: i64,
    /// Whether it waits there.
    pub(crate) arrived: bool,
    /// Active, or through.
    pub(crate) state: EntryState,
    /// When its next step is due.
    pub(crate) due_at: DateTime<Utc>,
    /// The campaign just sent to it, if any.
    pub(crate) sent: Option<i64>,
    /// Why its step waits longer than asked.
    pub(crate) note: Option<String>,
}

/// What a move changes in one node's counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct NodeKey {
    /// The journey.
    pub(crate) journey: i64,
    /// Its version.
    pub(crate) version: i64,
    /// The node.
    pub(crate) node: i64,
}

/// A change a journey makes to a contact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ContactEdit {
    /// A tag added or taken off.
    Tag(AccountId, i64, TagChange),
    /// A list joined or left.
    List(AccountId, i64, ListChange),
}

/// A post a journey's webhook step makes: an event in the outbox of the account's `JOURNEY`
/// webhook of that address, written with the move that raised it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct JourneyPost {
    /// The journey's account.
    pub(crate) account: AccountId,
    /// The webhook's address.
    pub(crate) url: String,
    /// The JSON body (core's `JourneyEvent`).
    pub(crate) body: String,
}

/// A batch of moves, written in one transaction.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Moves {
    /// Each contact's move.
    pub(crate) entries: Vec<EntryMove>,
    /// How many reached and left each node: `(entered, left)`.
    pub(crate) counts: BTreeMap<NodeKey, (i64, i64)>,
    /// The changes to contacts, in order.
    pub(crate) changes: Vec<ContactEdit>,
    /// The campaigns the steps sent: `(campaign, journey, step)`.
    pub(crate) campaigns: Vec<(i64, i64, String)>,
    /// The webhook steps' posts, in order.
    pub(crate) posts: Vec<JourneyPost>,
}

/// The journeys' runner's store.
#[async_trait]
pub(crate) trait JourneyRunStore: Send + Sync {
    /// Up to `most` contacts of live journeys whose step is due at `now` and that nobody holds,
    /// held until `until`, the longest due first.
    async fn claim_journey_steps(
        &self,
        now: DateTime<Utc>,
        until: DateTime<Utc>,
        most: i64,
    ) -> Result<Vec<ClaimedEntry>, Error>;
    /// How many contacts are in the journey and have started it (a fresh entry has not).
    async fn journey_started(&self, journey: i64) -> Result<i64, Error>;
    /// A version's definition.
    async fn journey_version(&self, journey: i64, version: i64) -> Result<Option<Journey>, Error>;
    /// What a branch may ask about a claimed contact.
    async fn contact_facts(&self, entry: &ClaimedEntry) -> Result<ContactFacts, Error>;
    /// Writes `moves` in one transaction: each contact's place (its claim let go), the node
    /// counts, the contact changes and the webhook steps' posts.
    async fn move_journey_entries(&self, moves: Moves) -> Result<(), Error>;
    /// Lets go, when texto starts, the claims a stopped process left: on SQLite every claim (one
    /// process serves); on PostgreSQL none here, as a dead node's claims are free to the others
    /// once it stops beating. How many were let go.
    async fn release_journey_claims(&self) -> Result<u64, Error>;
}

/// Whether any contact's step is due and free at `$1`: read first, so that an idle runner writes
/// nothing (a claim is a write, on SQLite through the one writer).
pub(crate) const ANY_DUE: &str = "SELECT EXISTS (SELECT 1 FROM journey_entries e
     WHERE e.state = 'active' AND e.due_at <= $1 AND (e.claimed_until IS NULL OR e.claimed_until < $1 CLAIM_FREE))";

/// Claims due contacts of live journeys (`$1` now, `$2` until, `$3` how many); PostgreSQL
/// writes the claiming node where [`CLAIM_BY`] stands, frees a dead node's claims where
/// [`CLAIM_FREE`] stands, and adds `FOR UPDATE OF e SKIP LOCKED` where [`CLAIM_LOCK`] stands.
pub(crate) const CLAIM: &str = "UPDATE journey_entries SET claimed_until = $2 CLAIM_BY WHERE id IN (
         SELECT e.id FROM journey_entries e JOIN journeys j ON j.id = e.journey_id
         WHERE e.state = 'active' AND e.due_at <= $1 AND (e.claimed_until IS NULL OR e.claimed_until < $1 CLAIM_FREE)
           AND j.status = 'live'
         ORDER BY e.due_at, e.id LIMIT $3 CLAIM_LOCK)
     RETURNING id, journey_id, version, account_id, number, node, arrived, last_ticket, last_sent_at, entered_at";

/// Where PostgreSQL's row locks go in [`CLAIM`].
pub(crate) const CLAIM_LOCK: &str = "CLAIM_LOCK";

/// Where PostgreSQL names the claiming node in [`CLAIM`].
pub(crate) const CLAIM_BY: &str = "CLAIM_BY";

/// Where PostgreSQL counts a dead node's claim as free in [`ANY_DUE`] and [`CLAIM`].
pub(crate) const CLAIM_FREE: &str = "CLAIM_FREE";

/// Lets every claim go (SQLite, where one process serves: a claim left by a process that was
/// killed is let go when texto starts again).
pub(crate) const RELEASE_ALL: &str = "UPDATE journey_entries SET claimed_until = NULL WHERE claimed_until IS NOT NULL";

/// How many of a journey's contacts (`$1`) are in it and have started it: at a node past the
/// first, or waiting at the first.
pub(crate) const STARTED: &str =
    "SELECT COUNT(*) FROM journey_entries WHERE journey_id = $1 AND state = 'active' AND (arrived OR node > 0)";

/// A version's definition (`$1` journey, `$2` version).
pub(crate) const VERSION: &str = "SELECT definition FROM journey_versions WHERE journey_id = $1 AND version = $2";

/// A contact's card (`$1` account, `$2` number).
pub(crate) const CARD: &str =
    "SELECT firstname, lastname, fields, tags FROM account_contacts WHERE account_id = $1 AND number = $2";

/// The account's lists holding a number (`$1` account, `$2` number).
pub(crate) const LISTS: &str =
    "SELECT c.list_id FROM contacts c JOIN lists l ON l.id = c.list_id WHERE l.account_id = $1 AND c.number = $2";

/// Whether a number clicked a link of a campaign (`$1` account, `$2` number, `$3` campaign).
pub(crate) const CLICKED: &str = "SELECT COUNT(*) FROM clicks k JOIN messages m ON m.id = k.message_id
     WHERE k.campaign_id = $3 AND m.account_id = $1 AND m.number = $2";

/// Whether a number replied since a time (`$1` account, `$2` number, `$3` since; times are
/// kept to the second, so a reply in the second of the send counts).
pub(crate) const REPLIED: &str =
    "SELECT COUNT(*) FROM replies WHERE account_id = $1 AND number = $2 AND received_at >= $3";

/// The keywords of a number's replies since a time (`$1` account, `$2` number, `$3` since).
pub(crate) const KEYWORDS: &str = "SELECT DISTINCT keyword FROM replies
     WHERE account_id = $1 AND number = $2 AND received_at >= $3 AND keyword IS NOT NULL";

/// Whether a campaign's message to a number was delivered (`$1` account, `$2` number, `$3`
/// campaign; delivery 3 is `DeliveryCode::Delivered`).
pub(crate) const DELIVERED: &str =
    "SELECT COUNT(*) FROM messages WHERE campaign_id = $3 AND account_id = $1 AND number = $2 AND delivery = 3";

/// Writes a contact's move (`$1` id, `$2` node, `$3` arrived, `$4` state, `$5` due, `$6` the
/// campaign just sent, `$7` when, `$8` note).
pub(crate) const MOVE: &str = "UPDATE journey_entries SET node = $2, arrived = $3, state = $4, due_at = $5,
        claimed_until = NULL, last_ticket = COALESCE($6, last_ticket), last_sent_at = COALESCE($7, last_sent_at),
        note = $8
     WHERE id = $1";

/// Notes a campaign a journey's step sent (`$1` campaign, `$2` journey, `$3` the step's place).
pub(crate) const SENT_BY: &str = "INSERT INTO journey_campaigns (campaign_id, journey_id, step) VALUES ($1, $2, $3)
     ON CONFLICT (campaign_id) DO NOTHING";

/// Puts a webhook step's post in the outbox of the account's oldest `JOURNEY` webhook of the
/// address (`$1` body, `$2` when, `$3` account, `$4` address); none when it was deleted.
pub(crate) const POST: &str = "INSERT INTO outbox (webhook_id, event, body, created_at)
     SELECT id, 'JOURNEY', $1, $2 FROM webhooks WHERE account_id = $3 AND type = 'JOURNEY' AND url = $4
     ORDER BY id LIMIT 1";

/// Adds to a node's counts (`$1` journey, `$2` version, `$3` node, `$4` entered, `$5` left).
pub(crate) const COUNT: &str = "INSERT INTO journey_step_counts (journey_id, version, node, entered, left_count)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (journey_id, version, node) DO UPDATE SET entered = journey_step_counts.entered + excluded.entered,
         left_count = journey_step_counts.left_count + excluded.left_count";

/// Reads a row of [`CLAIM`]'s answer.
pub(crate) fn read_claimed<R: Columns>(row: &R) -> Result<ClaimedEntry, R::Fault> {
    Ok(ClaimedEntry {
        id: row.column(0)?,
        journey: row.column(1)?,
        version: row.column(2)?,
        account: row.column(3)?,
        number: row.column(4)?,
        node: row.column(5)?,
        arrived: row.column(6)?,
        last_ticket: row.column(7)?,
        last_sent_at: row.maybe_time(8)?,
        entered_at: row.time(9)?,
    })
}

/// What a contact did since the journey's last send to it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Since {
    /// It clicked a link of that send.
    pub(crate) clicked: bool,
    /// It replied.
    pub(crate) replied: bool,
    /// The keywords of its replies.
    pub(crate) keywords: Vec<String>,
    /// That send was delivered.
    pub(crate) delivered: bool,
}

/// The facts of a contact from its card's columns (firstname, lastname, fields and tags as
/// JSON), the lists holding it, and what it did since the journey's last send to it.
pub(crate) fn facts_of(card: Option<(String, String, String, String)>, lists: Vec<i64>, since: Since) -> ContactFacts {
    let (firstname, lastname, fields, tags) = card.unwrap_or_default();
    let Since { clicked, replied, keywords, delivered } = since;
    ContactFacts {
        clicked,
        replied,
        keywords,
        delivered,
        segments: Vec::new(),
        tags: serde_json::from_str(&tags).unwrap_or_default(),
        lists,
        firstname,
        lastname,
        fields: serde_json::from_str::<BTreeMap<String, serde_json::Value>>(&fields)
            .unwrap_or_default()
            .into_iter()
            .map(|(name, value)| (name, value.as_str().map_or_else(|| value.to_string(), str::to_owned)))
            .collect(),
    }
}

/// `tags` (a stored JSON array) without `tag`.
pub(crate) fn without_tag(tags: Option<&str>, tag: &str) -> String {
    let mut tags: Vec<String> = tags.and_then(|t| serde_json::from_str(t).ok()).unwrap_or_default();
    tags.retain(|t| t != tag);
    serde_json::to_string(&tags).unwrap_or_else(|_| "[]".to_owned())
}
