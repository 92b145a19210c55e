//! The journeys' runner: every node claims the contacts whose step is due, walks each through
//! its version's steps (core's [`Program`]), sends each step's message to its contacts as one
//! campaign through the send flow (a contact that a walk brings to a send is sent to in the
//! same pass), and writes every move back in one transaction. A node that
//! stops mid-step leaves its claims to run out ([`LEASE`]) and the others to take them again;
//! a send's idempotency key, drawn from the contacts it goes to, makes a second try of the same
//! batch a replay.

use std::{
    collections::{HashMap, HashSet},
    sync::Arc,
    time::Duration as StdDuration,
};

use chrono::{DateTime, Duration, Utc};
use texto_core::{
    Effect, Endpoint, NodeKind, Program, Rest, Role, Wait, Walk, format_paris,
    wire::{JourneyEvent, SmsRequest},
};
use tokio_util::sync::CancellationToken;

use crate::{
    Error,
    sending::{
        idempotency::RetryKey,
        service::{self, Blacklist, Sender},
    },
    state::AppState,
    store::{
        approval::Hand,
        journey_runs::{ClaimedEntry, ContactEdit, EntryMove, JourneyPost, Moves, NodeKey},
        journeys::EntryState,
    },
};

/// Contacts claimed per store read, and the most a step's campaign sends at once. Two
/// PostgreSQL nodes, 100,000 contacts due at a send (scripts/load/journeys-nodes): 4,027–4,090
/// a second at 500, 4,897–4,924 at 1,000, 6,234–6,621 at 2,000, the claim, send, hand-over and
/// move statements each costing less per contact in larger batches.
const BATCH: i64 = 2000;

/// How long a claim holds: a node that stopped leaves its contacts to the others after this.
const LEASE: Duration = Duration::minutes(5);

/// How long a send that could not be paid waits before it is tried again.
const CREDITS_RETRY: Duration = Duration::minutes(10);

/// How often the runner looks for due steps (an entry by API wakes it at once).
const EVERY: StdDuration = StdDuration::from_secs(1);

/// What a runner pass needs of a version: its steps laid out.
type Programs = HashMap<(i64, i64), Option<Arc<Program>>>;

/// The places left in each journey that holds a most at once, by journey.
type Rooms = HashMap<i64, i64>;

/// The numbers of a batch in each segment its journeys ask about, by account and segment.
type Members = HashMap<(i64, i64), HashSet<i64>>;

/// Does every step due at `now`; how many contacts moved.
pub(crate) async fn step(state: &AppState, now: DateTime<Utc>) -> Result<usize, Error> {
    let mut moved = 0;
    let mut programs = Programs::new();
    loop {
        let claimed = state.store.claim_journey_steps(now, now + LEASE, BATCH).await?;
        if claimed.is_empty() {
            return Ok(moved);
        }
        moved += claimed.len();
        let mut moves = Moves::default();
        let mut sends: HashMap<NodeKey, Vec<ClaimedEntry>> = HashMap::new();
        let stopped = stopped_numbers(state, &claimed, now).await?;
        let members = members(state, &mut programs, &claimed).await?;
        let mut rooms = Rooms::new();
        for entry in &claimed {
            let Some(program) = program(state, &mut programs, entry).await? else {
                finish(&mut moves, entry, EntryState::Done, now, Some("its version cannot be read".into()));
                continue;
            };
            if stopped.contains(&(entry.account, entry.number)) {
                finish(&mut moves, entry, EntryState::Stopped, now, None);
                continue;
            }
            if let Some(most) = program.most_at_once
                && !entry.arrived
                && entry.node == 0
                && !make_room(state, &mut rooms, entry.journey, most).await?
            {
                let note = format!("the journey was full: at most {most} at once");
                finish(&mut moves, entry, EntryState::Exited, now, Some(note));
                continue;
            }
            if let Some(exit) = &program.exit
                && exit.holds(&facts(state, &program, entry, &members).await?)
            {
                finish(&mut moves, entry, EntryState::Exited, now, Some("its exit test held".into()));
                continue;
            }
            let node = usize::try_from(entry.node).unwrap_or(usize::MAX);
            let walked = (program.as_ref(), &members);
            let landed = match (entry.arrived, program.nodes.get(node).map(|n| &n.kind)) {
                (true, Some(NodeKind::Send { .. })) => Landed::AtSend(entry.node),
                (true, Some(_)) => {
                    count(&mut moves, key(entry, entry.node), 0, 1);
                    walk_on(state, &mut moves, walked, entry, program.after(node), After::Pass, now).await?
                }
                (false, _) => walk_on(state, &mut moves, walked, entry, Some(node), After::Pass, now).await?,
                (true, None) => {
                    finish(&mut moves, entry, EntryState::Done, now, None);
                    Landed::Moved
                }
            };
            // A contact that reached a send is sent to in this pass, not the next.
            if let Landed::AtSend(node) = landed {
                let at = ClaimedEntry { node, arrived: true, ..entry.clone() };
                sends.entry(key(entry, node)).or_default().push(at);
            }
        }
        for (at, entries) in sends {
            let program = program(state, &mut programs, &entries[0]).await?.ok_or(Error::Unavailable("a version"))?;
            send(state, &mut moves, (&program, &members), at, &entries, now).await?;
        }
        state.store.move_journey_entries(moves).await?;
        if (claimed.len() as i64) < BATCH {
            return Ok(moved);
        }
    }
}

/// Takes a place for a contact starting `journey`, which holds at most `most` at once: whether
/// there was one. The places taken are counted once a pass, then kept in `rooms`.
async fn make_room(state: &AppState, rooms: &mut Rooms, journey: i64, most: u32) -> Result<bool, Error> {
    let room = match rooms.get_mut(&journey) {
        Some(room) => room,
        None => {
            let started = state.store.journey_started(journey).await?;
            rooms.entry(journey).or_insert(i64::from(most) - started)
        }
    };
    *room -= 1;
    Ok(*room >= 0)
}

/// The contacts among `claimed` whose number the account has blacklisted (a STOP ends every
/// journey of the number).
async fn stopped_numbers(
    state: &AppState,
    claimed: &[ClaimedEntry],
    now: DateTime<Utc>,
) -> Result<HashSet<(i64, i64)>, Error> {
    let mut by_account: HashMap<i64, Vec<u64>> = HashMap::new();
    for entry in claimed {
        by_account.entry(entry.account).or_default().push(entry.number as u64);
    }
    let mut stopped = HashSet::new();
    for (account, numbers) in by_account {
        let inputs = state.store.filter_inputs(account, &numbers, 0, now).await?;
        stopped.extend(inputs.blacklist.into_iter().map(|number| (account, number as i64)));
    }
    Ok(stopped)
}

/// The numbers of `claimed` in each segment their journeys' tests ask about.
async fn members(state: &AppState, programs: &mut Programs, claimed: &[ClaimedEntry]) -> Result<Members, Error> {
    let mut asked: HashMap<(i64, i64), Vec<i64>> = HashMap::new();
    for entry in claimed {
        if let Some(program) = program(state, programs, entry).await? {
            for segment in program.segments() {
                asked.entry((entry.account, segment)).or_default().push(entry.number);
            }
        }
    }
    let mut members = Members::new();
    for ((account, segment), numbers) in asked {
        let found = state.store.segment_members(account, segment, numbers).await?;
        members.insert((account, segment), found.into_iter().collect());
    }
    Ok(members)
}

/// What `program`'s tests ask about `entry`, as of now.
async fn facts(
    state: &AppState,
    program: &Program,
    entry: &ClaimedEntry,
    members: &Members,
) -> Result<texto_core::ContactFacts, Error> {
    let mut facts = state.store.contact_facts(entry).await?;
    facts.segments = program
        .segments()
        .into_iter()
        .filter(|segment| members.get(&(entry.account, *segment)).is_some_and(|m| m.contains(&entry.number)))
        .collect();
    Ok(facts)
}

/// The steps of `entry`'s version, read once a pass.
async fn program(
    state: &AppState,
    programs: &mut Programs,
    entry: &ClaimedEntry,
) -> Result<Option<Arc<Program>>, Error> {
    let version = (entry.journey, entry.version);
    if let Some(known) = programs.get(&version) {
        return Ok(known.clone());
    }
    let read = state.store.journey_version(entry.journey, entry.version).await?;
    let program = read.map(|journey| Arc::new(Program::of(&journey)));
    programs.insert(version, program.clone());
    Ok(program)
}

fn key(entry: &ClaimedEntry, node: i64) -> NodeKey {
    NodeKey { journey: entry.journey, version: entry.version, node }
}

fn count(moves: &mut Moves, at: NodeKey, entered: i64, left: i64) {
    let counts = moves.counts.entry(at).or_default();
    *counts = (counts.0 + entered, counts.1 + left);
}

/// `entry` ends its way through the journey.
fn finish(moves: &mut Moves, entry: &ClaimedEntry, state: EntryState, now: DateTime<Utc>, note: Option<String>) {
    moves.entries.push(EntryMove {
        id: entry.id,
        node: entry.node,
        arrived: false,
        state,
        due_at: now,
        sent: None,
        note,
    });
}

/// Where a walk left a contact.
enum Landed {
    /// At a send to do now, in this pass (its move is noted once the send is done).
    AtSend(i64),
    /// Elsewhere: its move is noted.
    Moved,
}

/// What a walk follows.
#[derive(Clone, Copy)]
enum After {
    /// The pass's own look at the contact: one that reaches a send is sent to at once.
    Pass,
    /// A send, with the campaign it made if it made one.
    Send(Option<i64>),
}

/// Walks `entry` from reaching `from` to the next node that holds it, and notes the move; a
/// walk of the pass that reaches a send leaves the contact to be sent to in this pass.
async fn walk_on(
    state: &AppState,
    moves: &mut Moves,
    (program, members): (&Program, &Members),
    entry: &ClaimedEntry,
    from: Option<usize>,
    after: After,
    now: DateTime<Utc>,
) -> Result<Landed, Error> {
    let sent = match after {
        After::Pass => None,
        After::Send(ticket) => ticket,
    };
    let asks = program.nodes.iter().any(|n| matches!(n.kind, NodeKind::Branch { .. }));
    let facts = match asks {
        true => {
            let asked = match sent {
                Some(ticket) => ClaimedEntry { last_ticket: Some(ticket), last_sent_at: Some(now), ..entry.clone() },
                None => entry.clone(),
            };
            facts(state, program, &asked, members).await?
        }
        false => Default::default(),
    };
    let Walk { passed, effects, rest } = program.walk(from, |condition| condition.holds(&facts));
    for node in passed {
        count(moves, key(entry, node as i64), 1, 1);
    }
    for effect in effects {
        match effect {
            Effect::Tag(change) => moves.changes.push(ContactEdit::Tag(entry.account, entry.number, change)),
            Effect::List(change) => moves.changes.push(ContactEdit::List(entry.account, entry.number, change)),
            Effect::Webhook { url, path } => moves.posts.push(post(entry, url, path, now)),
        }
    }
    let (node, state, due_at) = match rest {
        Rest::At(node) => {
            count(moves, key(entry, node as i64), 1, 0);
            if matches!(after, After::Pass) && matches!(program.nodes[node].kind, NodeKind::Send { .. }) {
                return Ok(Landed::AtSend(node as i64));
            }
            let due = match program.nodes[node].kind {
                NodeKind::Wait(Wait::For(duration)) => now + duration,
                NodeKind::Wait(Wait::Until(until)) => {
                    until.next(super::planner::zone_of(entry.number).time_zone(), now)
                }
                _ => now,
            };
            (node as i64, EntryState::Active, due)
        }
        Rest::Done => (entry.node, EntryState::Done, now),
    };
    moves.entries.push(EntryMove { id: entry.id, node, arrived: true, state, due_at, sent, note: None });
    Ok(Landed::Moved)
}

/// The post of a webhook step at `path` that `entry` reached at `now`.
fn post(entry: &ClaimedEntry, url: String, path: String, now: DateTime<Utc>) -> JourneyPost {
    let event = JourneyEvent {
        journey: entry.journey.to_string(),
        version: entry.version,
        step: path,
        number: entry.number.to_string(),
        date: format_paris(now),
    };
    // A struct of strings and a number always serializes.
    let body = serde_json::to_string(&event).unwrap_or_default();
    JourneyPost { account: entry.account, url, body }
}

/// Sends node `at`'s message to `entries` as one campaign, and walks them on; a send that cannot
/// be paid keeps them there and tries again later, saying so.
async fn send(
    state: &AppState,
    moves: &mut Moves,
    (program, members): (&Program, &Members),
    at: NodeKey,
    entries: &[ClaimedEntry],
    now: DateTime<Utc>,
) -> Result<(), Error> {
    let node = usize::try_from(at.node).unwrap_or(usize::MAX);
    let Some(NodeKind::Send { text, pushtype, links, sender }) = program.nodes.get(node).map(|n| &n.kind) else {
        return Err(Error::Unavailable("a journey's send step"));
    };
    let mut message = serde_json::json!({"text": text, "pushtype": pushtype.as_str(), "links": links});
    if let Some(sender) = sender {
        message["sender"] = serde_json::Value::from(sender.as_str());
    }
    let gsm: Vec<_> = entries.iter().map(|e| serde_json::json!({"value": e.number.to_string()})).collect();
    let body = serde_json::json!({"sms": {"message": message, "recipients": {"gsm": gsm}}}).to_string();
    let request: SmsRequest<'_> = texto_core::wire::decode_sms(&body, texto_core::wire::Format::Json)?;
    let ids = entries.iter().map(|e| e.id);
    let retry = RetryKey::internal(format!(
        "texto-journey-{}-{}-{}-{}-{}-{}",
        at.journey,
        at.version,
        at.node,
        ids.clone().min().unwrap_or(0),
        ids.max().unwrap_or(0),
        entries.len()
    ));
    let from = Sender {
        account: entries[0].account,
        role: Role::Sender,
        actor: format!("texto (journey {})", at.journey),
        hand: Hand::Unknown,
        replying: false,
        approved: true,
    };
    let answered = service::answer(state, from, (&retry, &body), request, Endpoint::Send, Blacklist::Applies).await;
    let (ticket, note) = match answered {
        Ok(answered) => (answered.result.ticket.as_deref().and_then(|t| t.parse::<i64>().ok()), None),
        Err(Error::NotEnoughCredits { cost, balance }) => {
            let note = format!("not enough credits: the step costs {cost}, the account has {balance}");
            for entry in entries {
                let due_at = now + CREDITS_RETRY;
                let waits = EntryMove {
                    id: entry.id,
                    node: at.node,
                    arrived: true,
                    state: EntryState::Active,
                    due_at,
                    sent: None,
                    note: Some(note.clone()),
                };
                moves.entries.push(waits);
            }
            return Ok(());
        }
        // Refused for what it is (a text the send flow does not take): noted, and the contacts go on.
        Err(refusal @ (Error::Invalid(_) | Error::Request(_))) => (None, Some(refusal.to_string())),
        Err(fault) => return Err(fault),
    };
    if let Some(ticket) = ticket {
        moves.campaigns.push((ticket, at.journey, program.nodes[node].path.clone()));
    }
    for entry in entries {
        count(moves, at, 0, 1);
        walk_on(state, moves, (program, members), entry, program.after(node), After::Send(ticket), now).await?;
        if let (Some(note), Some(last)) = (&note, moves.entries.last_mut()) {
            last.note = Some(format!("step {} not sent: {note}", program.nodes[node].path));
        }
    }
    Ok(())
}

/// Plans what the clock brought and steps every [`EVERY`] until stopped.
pub(crate) async fn run(state: AppState, stop: CancellationToken) {
    match state.store.release_journey_claims().await {
        Ok(0) => {}
        Ok(released) => tracing::warn!(released, "journey steps were claimed when texto stopped: done again now"),
        Err(error) => tracing::error!(%error, "letting go of the claims of journey steps failed"),
    }
    loop {
        match super::planner::plan(&state, Utc::now()).await {
            Ok(0) => {}
            Ok(entered) => tracing::debug!(entered, "contacts entered journeys by the clock"),
            Err(error) => tracing::error!(%error, "planning timed journeys failed; trying again"),
        }
        match step(&state, Utc::now()).await {
            Ok(0) => {}
            Ok(moved) => tracing::debug!(moved, "journey steps done"),
            Err(error) => tracing::error!(%error, "doing journey steps failed; trying again"),
        }
        tokio::select! {
            () = stop.cancelled() => return,
            () = tokio::time::sleep(EVERY) => {}
            () = state.journeys.notified() => {}
        }
    }
}
