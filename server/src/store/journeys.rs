//! Journeys as stored (migrations `0048_journeys` and PostgreSQL's `0043`): each journey, the
//! definition of each of its versions, the contacts going through them and the counts of each
//! step. A list's joiners enter its journeys through a database trigger, in the join's own
//! transaction; [`super::journey_runs`] is what the runner claims and writes back.

use async_trait::async_trait;
use chrono::{DateTime, Duration, Utc};
use texto_core::{Journey, JourneyStatus, Trigger, wire::JourneyDto};

use super::{AccountId, Page, approval::Hand, columns::Columns};
use crate::Error;

/// A journey as stored, with its current version's definition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SavedJourney {
    /// Its id.
    pub(crate) id: i64,
    /// Draft, live, paused or archived.
    pub(crate) status: JourneyStatus,
    /// Its current version (from 1).
    pub(crate) version: i64,
    /// The current version's definition.
    pub(crate) journey: Journey,
    /// Who changed it last (four eyes: they may not also put it live when the team asks for
    /// approval).
    pub(crate) edited_by: Hand,
    /// When it was last changed.
    pub(crate) updated_at: DateTime<Utc>,
}

/// What a change to a journey did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum JourneySaved {
    /// Saved: a draft in place, a journey that has been live as a new version.
    Saved(Box<SavedJourney>),
    /// The account has no such journey.
    NotFound,
    /// It is archived: it changes no more.
    Archived,
}

/// Where a contact is in a journey: a row of `journey_entries`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct JourneyEntry {
    /// The number.
    pub(crate) number: i64,
    /// The version it entered.
    pub(crate) version: i64,
    /// The node it is at.
    pub(crate) node: i64,
    /// Where it is on its way.
    pub(crate) state: EntryState,
    /// When its step is due.
    pub(crate) due_at: DateTime<Utc>,
    /// Why its step waits longer than asked.
    pub(crate) note: Option<String>,
    /// When it entered.
    pub(crate) entered_at: DateTime<Utc>,
}

/// Where a contact is on its way through a journey.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum EntryState {
    /// Going through it.
    Active,
    /// Through.
    Done,
    /// Stopped: the number is blacklisted (it sent STOP).
    Stopped,
    /// Taken out: the journey was archived.
    Exited,
}

impl EntryState {
    /// As stored.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            EntryState::Active => "active",
            EntryState::Done => "done",
            EntryState::Stopped => "stopped",
            EntryState::Exited => "exited",
        }
    }

    /// As the API shows it: an active contact is `waiting` for its step.
    pub(crate) fn shown(self) -> &'static str {
        match self {
            EntryState::Active => "waiting",
            other => other.as_str(),
        }
    }

    /// From the store.
    fn parse(stored: &str) -> Option<EntryState> {
        [EntryState::Active, EntryState::Done, EntryState::Stopped, EntryState::Exited]
            .into_iter()
            .find(|s| s.as_str() == stored)
    }
}

/// Whether a number entered a journey.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Entering {
    /// It did.
    Entered,
    /// It is in it already, or went through it too recently to enter again.
    AlreadyIn,
    /// The journey is not live.
    NotLive,
    /// The account has no such journey.
    NotFound,
}

/// One node's counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StepCount {
    /// The node.
    pub(crate) node: i64,
    /// Contacts that reached it.
    pub(crate) entered: i64,
    /// Contacts that left it.
    pub(crate) left: i64,
}

/// Journeys.
#[async_trait]
pub(crate) trait JourneyStore: Send + Sync {
    /// The account's journeys, by name.
    async fn journeys(&self, account: AccountId) -> Result<Vec<SavedJourney>, Error>;
    /// One of the account's journeys.
    async fn journey(&self, account: AccountId, id: i64) -> Result<Option<SavedJourney>, Error>;
    /// Creates a draft (`id` `None`) or changes one of the account's journeys: a draft in
    /// place, one that has been live as a new version (its contacts finish theirs).
    async fn save_journey(
        &self,
        account: AccountId,
        id: Option<i64>,
        journey: Journey,
        by: Hand,
    ) -> Result<JourneySaved, Error>;
    /// Deletes one of the account's journeys that is a draft or archived, with its contacts'
    /// places; `None` when it has none of that id, else its status before.
    async fn delete_journey(&self, account: AccountId, id: i64) -> Result<Option<JourneyStatus>, Error>;
    /// Puts one of the account's journeys in `status` if its status may become it (archiving
    /// takes its contacts out); the journey after, or as it was when refused.
    async fn set_journey_status(
        &self,
        account: AccountId,
        id: i64,
        status: JourneyStatus,
    ) -> Result<Option<SavedJourney>, Error>;
    /// Puts `number` at the start of the current version of one of the account's live
    /// journeys, unless it is in it or entered it too recently.
    async fn enter_journey(&self, account: AccountId, id: i64, number: i64) -> Result<Entering, Error>;
    /// Where contacts are in one of the account's journeys, the latest entered first.
    async fn journey_entries(&self, account: AccountId, id: i64, page: Page) -> Result<Vec<JourneyEntry>, Error>;
    /// How many contacts entered `version` of one of the account's journeys, and each node's
    /// counts.
    async fn journey_counts(&self, account: AccountId, id: i64, version: i64) -> Result<(i64, Vec<StepCount>), Error>;
}

/// The columns of a [`SavedJourney`] (`j` the journey, `v` its current version).
pub(crate) const JOURNEY_COLUMNS: &str =
    "j.id, j.status, j.version, v.definition, j.edited_by_person, j.edited_by_token, j.updated_at
     FROM journeys j JOIN journey_versions v ON v.journey_id = j.id AND v.version = j.version";

/// The account's journeys (`$1`), by name.
pub(crate) const JOURNEYS: &str = "WHERE j.account_id = $1 ORDER BY lower(j.name), j.id";

/// One of them (`$1` account, `$2` id).
pub(crate) const ONE: &str = "WHERE j.account_id = $1 AND j.id = $2";

/// Creates a draft (`$1` account, `$2` name, `$3` now), answering its id; [`UPDATE`] writes
/// the rest of its columns in the same transaction.
pub(crate) const INSERT: &str = "INSERT INTO journeys (account_id, name, status, version, created_at, updated_at)
     VALUES ($1, $2, 'draft', 1, $3, $3) RETURNING id";

/// The status and version of one of the account's journeys (`$1` account, `$2` id).
pub(crate) const STATUS: &str = "SELECT status, version FROM journeys WHERE account_id = $1 AND id = $2";

/// Writes a version's definition (`$1` journey, `$2` version, `$3` definition).
pub(crate) const SAVE_VERSION: &str =
    "INSERT INTO journey_versions (journey_id, version, definition) VALUES ($1, $2, $3)
     ON CONFLICT (journey_id, version) DO UPDATE SET definition = excluded.definition";

/// Changes a journey's own columns (`$1` id, `$2` version, `$3` name, `$4` trigger list, `$5`
/// re-entry seconds, `$6` and `$7` the hand, `$8` now, `$9` whether the planner triggers it,
/// `$10` the trigger keyword, `$11` the trigger campaign, `$12` the trigger segment). A new
/// trigger segment starts with no mark: its members then are seen without entering.
pub(crate) const UPDATE: &str = "UPDATE journeys SET version = $2, name = $3, trigger_list = $4, reentry_seconds = $5,
        edited_by_person = $6, edited_by_token = $7, updated_at = $8, trigger_timed = $9, trigger_keyword = $10,
        trigger_campaign = $11, trigger_segment = $12,
        planned_until = CASE WHEN trigger_segment IS NOT DISTINCT FROM $12 THEN planned_until END
     WHERE id = $1";

/// Deletes a journey (`$1` account, `$2` id): its versions, entries and counts go with it.
pub(crate) const DELETE: &str = "DELETE FROM journeys WHERE account_id = $1 AND id = $2";

/// Changes a journey's status (`$1` account, `$2` id, `$3` status, `$4` now). Going live, a
/// timed trigger's planning starts from now: a schedule missed while paused does not come
/// round late; a segment trigger's starts with no mark, so that its members then are seen
/// without entering (only those who start matching after enter).
pub(crate) const SET_STATUS: &str = "UPDATE journeys SET status = $3, updated_at = $4,
        planned_until = CASE WHEN $3 <> 'live' THEN planned_until WHEN trigger_segment IS NULL THEN $4 END
     WHERE account_id = $1 AND id = $2";

/// Takes every contact out of an archived journey (`$1` id).
pub(crate) const EXIT_ALL: &str =
    "UPDATE journey_entries SET state = 'exited', claimed_until = NULL WHERE journey_id = $1 AND state = 'active'";

/// Enters a number in a live journey (`$1` account, `$2` id, `$3` number, `$4` now, `$5` the
/// earliest time an earlier entry may have been made for this one to be taken, when the
/// journey lets contacts in again), unless it is in it.
pub(crate) const ENTER: &str =
    "INSERT INTO journey_entries (journey_id, version, account_id, number, node, arrived, state, due_at, entered_at)
     SELECT j.id, j.version, j.account_id, $3, 0, FALSE, 'active', $4, $4 FROM journeys j
     WHERE j.account_id = $1 AND j.id = $2 AND j.status = 'live'
       AND NOT EXISTS (SELECT 1 FROM journey_entries e WHERE e.journey_id = j.id AND e.number = $3
           AND (e.state = 'active' OR j.reentry_seconds IS NULL OR e.entered_at > $5))
     ON CONFLICT (journey_id, number) WHERE state = 'active' DO NOTHING";

/// The re-entry delay of one of the account's journeys (`$1` account, `$2` id).
pub(crate) const REENTRY: &str = "SELECT reentry_seconds FROM journeys WHERE account_id = $1 AND id = $2";

/// Contacts of one of the account's journeys (`$1` account, `$2` id, `$3` how many, `$4` from).
pub(crate) const ENTRIES: &str = "SELECT number, version, node, state, due_at, note, entered_at FROM journey_entries
     WHERE account_id = $1 AND journey_id = $2 ORDER BY id DESC LIMIT $3 OFFSET $4";

/// How many entered a version (`$1` account, `$2` id, `$3` version): kept by a trigger as they
/// enter.
pub(crate) const ENTERED: &str = "SELECT v.entered FROM journey_versions v JOIN journeys j ON j.id = v.journey_id
     WHERE v.journey_id = $2 AND v.version = $3 AND j.account_id = $1";

/// Each node's counts of a version (`$1` id, `$2` version).
pub(crate) const STEP_COUNTS: &str =
    "SELECT node, entered, left_count FROM journey_step_counts WHERE journey_id = $1 AND version = $2 ORDER BY node";

/// The definition of a journey as stored: its wire form, as JSON.
pub(crate) fn stored_definition(journey: &Journey) -> String {
    serde_json::to_string(&journey.to_wire()).unwrap_or_else(|_| "{}".to_owned())
}

/// A definition read back (only texto writes them, from checked journeys).
pub(crate) fn loaded_definition(stored: &str) -> Result<Journey, Error> {
    let wire: JourneyDto =
        serde_json::from_str(stored).map_err(|e| Error::Stored(format!("a journey's definition: {e}")))?;
    Journey::parse(&wire).map_err(|_| Error::Stored("a journey's definition does not read back".to_owned()))
}

/// The columns a journey's trigger and entry rule fill, which the database's triggers and the
/// planner read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct EntryColumns {
    /// The list whose joiners enter.
    pub(crate) list: Option<i64>,
    /// The re-entry delay in seconds (`None`: never).
    pub(crate) reentry: Option<i64>,
    /// Whether the clock triggers it (a date, a schedule).
    pub(crate) timed: bool,
    /// The keyword whose repliers enter.
    pub(crate) keyword: Option<String>,
    /// The campaign whose clickers enter.
    pub(crate) campaign: Option<i64>,
    /// The segment whose newcomers enter.
    pub(crate) segment: Option<i64>,
}

impl EntryColumns {
    /// `journey`'s.
    pub(crate) fn of(journey: &Journey) -> EntryColumns {
        let trigger = &journey.trigger;
        EntryColumns {
            list: if let Trigger::List(list) = trigger { Some(*list) } else { None },
            reentry: journey.reentry.map(|d| d.num_seconds()),
            timed: trigger.is_timed(),
            keyword: if let Trigger::Keyword(keyword) = trigger { Some(keyword.as_str().to_owned()) } else { None },
            campaign: if let Trigger::Click(campaign) = trigger { Some(*campaign) } else { None },
            segment: if let Trigger::Segment(segment) = trigger { Some(*segment) } else { None },
        }
    }
}

/// The earliest entry time that keeps a number out of a journey letting contacts in again
/// after `reentry_seconds` (`None`: never, and any entry keeps it out).
pub(crate) fn reentry_cutoff(now: DateTime<Utc>, reentry_seconds: Option<i64>) -> String {
    super::time::store(now - Duration::seconds(reentry_seconds.unwrap_or(0)))
}

/// Reads a row of [`JOURNEY_COLUMNS`].
pub(crate) fn read_journey<R: Columns>(row: &R) -> Result<Result<SavedJourney, Error>, R::Fault> {
    let status: String = row.column(1)?;
    let definition: String = row.column(3)?;
    let (person, token): (Option<i64>, Option<i64>) = (row.column(4)?, row.column(5)?);
    let (id, version, updated_at) = (row.column(0)?, row.column(2)?, row.time(6)?);
    Ok(match (JourneyStatus::parse(&status), loaded_definition(&definition)) {
        (Some(status), Ok(journey)) => {
            Ok(SavedJourney { id, status, version, journey, edited_by: Hand::of(person, token), updated_at })
        }
        (None, _) => Err(Error::Stored(format!("journey {id} has the status {status:?}"))),
        (_, Err(error)) => Err(error),
    })
}

/// Reads a row of [`ENTRIES`].
pub(crate) fn read_entry<R: Columns>(row: &R) -> Result<Result<JourneyEntry, Error>, R::Fault> {
    let state: String = row.column(3)?;
    let entry = JourneyEntry {
        number: row.column(0)?,
        version: row.column(1)?,
        node: row.column(2)?,
        state: EntryState::Active,
        due_at: row.time(4)?,
        note: row.column(5)?,
        entered_at: row.time(6)?,
    };
    Ok(match EntryState::parse(&state) {
        Some(state) => Ok(JourneyEntry { state, ..entry }),
        None => Err(Error::Stored(format!("a journey entry has the state {state:?}"))),
    })
}

/// Reads a row of [`STEP_COUNTS`].
pub(crate) fn read_count<R: Columns>(row: &R) -> Result<StepCount, R::Fault> {
    Ok(StepCount { node: row.column(0)?, entered: row.column(1)?, left: row.column(2)? })
}
