//! Handing messages over in PostgreSQL, for several nodes: releasing scheduled campaigns,
//! storing each hand-over's outcome, claiming the next wave for this node, and closing
//! campaigns with nothing left to send.
//!
//! A queued message (delivery 0) is free while `claimed_by` is NULL; a node claims its wave
//! with `FOR UPDATE SKIP LOCKED`, so two nodes never take the same message. A retried message
//! is freed again; a dead node's claims are freed by the first live node to look
//! ([`DeliveryStore::release_due`], every second), and each message goes out once more.

use std::collections::HashMap;

use async_trait::async_trait;
use chrono::{DateTime, Duration, Utc};
use deadpool_postgres::Transaction;
use texto_core::OpenWindows;

use super::{
    PgStore, arrivals, claims,
    events::{Outbox, PgEvents},
    nodes, time,
};
use crate::{
    Error,
    store::{
        Arrival, DeliveryStore, HandOff, Notice, Queued,
        delivery::{WaveLimit, read_notice},
        effects::{self, Submitted},
    },
};

/// The `delivery` of the marker a hand-over writes in `receipts_unmatched` (receipt codes are
/// positive).
const MARKER: i64 = -1;

#[async_trait]
impl DeliveryStore for PgStore {
    async fn queue_depth(&self) -> Result<i64, Error> {
        let client = self.pool.get().await?;
        Ok(client.query_one(crate::store::delivery::QUEUE_DEPTH, &[]).await?.get(0))
    }

    async fn webhook_backlog(&self) -> Result<Vec<(crate::store::AccountId, i64)>, Error> {
        let client = self.pool.get().await?;
        let rows = client.query(crate::store::delivery::WEBHOOK_BACKLOG, &[]).await?;
        Ok(rows.iter().map(|row| (row.get(0), row.get(1))).collect())
    }

    fn pool_waiting(&self) -> usize {
        self.pool.status().waiting
    }

    async fn requeue_in_flight(&self) -> Result<u64, Error> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let released = release_dead_claims(&tx, self.node).await?;
        tx.commit().await?;
        Ok(released)
    }

    async fn release_due(&self, now: DateTime<Utc>) -> Result<usize, Error> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let taken_over = release_dead_claims(&tx, self.node).await?;
        if taken_over > 0 {
            tracing::warn!(
                taken_over,
                "a node stopped beating: its messages being handed over are queued again (each may reach its recipient twice)"
            );
        }
        // Receipts of a concatenated message's first parts never match (only the last part's
        // id is kept): a day is long enough for a late last-part id.
        tx.execute("DELETE FROM receipts_unmatched WHERE received_at < $1", &[&time::store(now - Duration::days(1))])
            .await?;
        // Each start registers a node: the rows of nodes dead for a day go (a claim naming a
        // node that is gone counts as a dead node's).
        tx.execute(&nodes::forget_long_dead(), &[]).await?;
        let released = tx
            .execute(
                "UPDATE campaigns SET status = 'sending' WHERE status = 'scheduled' AND send_at <= $1",
                &[&time::store(now)],
            )
            .await?;
        tx.commit().await?;
        Ok(released as usize)
    }

    async fn hand_off(
        &self,
        done: Vec<HandOff>,
        limit: WaveLimit,
        open: OpenWindows,
        now: DateTime<Utc>,
    ) -> Result<Vec<Queued>, Error> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        plan_for_the_wave(&tx).await?;
        let mut outbox = Outbox::new(now);
        store_hand_offs(&tx, &done, &mut outbox).await?;
        release_own_claims(&tx, self.node).await?;
        let wave = claims::next_wave(&tx, self.node, limit, open).await?;
        // Last: the day's row stays locked from here to the commit only.
        outbox.write_counts(&tx).await?;
        tx.commit().await?;
        Ok(wave)
    }

    async fn store_arrivals(&self, list: Vec<Arrival>, now: DateTime<Utc>) -> Result<(), Error> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        plan_for_the_wave(&tx).await?;
        let mut outbox = Outbox::new(now);
        arrivals::store(&tx, &list, &mut outbox, now).await?;
        outbox.write_counts(&tx).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn pending_notices(&self) -> Result<Vec<Notice>, Error> {
        // Claimed by this node, so that each email and SMS goes out from one node only (a
        // dead node's claims are taken over).
        let client = self.pool.get().await?;
        let claim = client
            .prepare_cached(&format!(
                "UPDATE alert_notices SET claimed_by = $1 WHERE id IN (
                     SELECT id FROM alert_notices WHERE handled_at IS NULL AND (claimed_by IS NULL OR claimed_by = $1 OR {})
                     ORDER BY id LIMIT 100 FOR UPDATE SKIP LOCKED)
                 RETURNING id, channel, target, body",
                nodes::not_alive("claimed_by")
            ))
            .await?;
        let mut notices: Vec<Notice> =
            client.query(&claim, &[&self.node]).await?.iter().map(read_notice).collect::<Result<_, _>>()?;
        notices.sort_unstable_by_key(|notice| notice.id);
        Ok(notices)
    }

    async fn notice_done(&self, id: i64, error: Option<String>, now: DateTime<Utc>) -> Result<(), Error> {
        let client = self.pool.get().await?;
        let update = client
            .prepare_cached("UPDATE alert_notices SET handled_at = $1, error = $2 WHERE id = $3 AND handled_at IS NULL")
            .await?;
        client.execute(&update, &[&time::store(now), &error, &id]).await?;
        Ok(())
    }

    async fn link_key(&self) -> Result<[u8; 32], Error> {
        let mut fresh = [0u8; 32];
        getrandom::fill(&mut fresh).map_err(|_| Error::Unavailable("no randomness for the short-link key"))?;
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        // A node starting at the same time waits for the first one's key, then reads it.
        tx.execute(
            "INSERT INTO secrets (name, value) VALUES ('link_codes', $1) ON CONFLICT DO NOTHING",
            &[&fresh.as_slice()],
        )
        .await?;
        let key: Vec<u8> = tx.query_one("SELECT value FROM secrets WHERE name = 'link_codes'", &[]).await?.get(0);
        tx.commit().await?;
        key.try_into().map_err(|_| Error::Unavailable("the stored short-link key is damaged"))
    }
}

/// Has the transaction's statements planned as what they are: key lookups. Every statement of
/// a wave joins an array of ids (messages, SMSC ids, campaigns, numbers) to its table's index,
/// so the right plan is always a nested loop of index probes. But the statistics of a queue
/// table lag behind it (its queued rows go from none to 300,000 and back between two
/// analyses), and with them the planner chose bitmap scans of every queued message and hash
/// joins: up to 24 s a wave, whose locks then held the other node's waves up. So the wave plans
/// for its arrays each time (a generic plan guesses a few ids; one took 1.5-3.3 s a wave) and
/// without sequential or bitmap scans, hash or merge joins. Planning costs about a millisecond
/// a wave.
async fn plan_for_the_wave(tx: &Transaction<'_>) -> Result<(), Error> {
    tx.batch_execute(
        "SET LOCAL plan_cache_mode = force_custom_plan; SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off;
         SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off",
    )
    .await?;
    Ok(())
}

/// Frees this node's claims of messages still queued once its last wave's outcomes are
/// stored: the retried ones, and any of a wave whose outcomes never came back (its hand-off's
/// commit answer was lost), which no other node would take while this one lives.
async fn release_own_claims(tx: &Transaction<'_>, node: i64) -> Result<(), Error> {
    let free =
        tx.prepare_cached("UPDATE messages SET claimed_by = NULL WHERE claimed_by = $1 AND delivery = 0").await?;
    tx.execute(&free, &[&node]).await?;
    Ok(())
}

/// Frees the claims of queued messages held by nodes other than `node` that are not alive
/// (silent for 10 s, or gone); how many. Rows another transaction holds are left for the
/// next pass.
async fn release_dead_claims(tx: &Transaction<'_>, node: i64) -> Result<u64, Error> {
    let release = tx
        .prepare_cached(&format!(
            "UPDATE messages m SET claimed_by = NULL
             FROM (SELECT id FROM messages WHERE delivery = 0 AND claimed_by IS NOT NULL AND claimed_by <> $1 AND {}
                   FOR UPDATE SKIP LOCKED) AS dead
             WHERE m.id = dead.id",
            nodes::not_alive("claimed_by")
        ))
        .await?;
    Ok(tx.execute(&release, &[&node]).await?)
}

/// Stores a wave's outcomes, in the order given as to their events: a refused message gets its final code (NPAI, DLR); a submitted one its
/// SMSC id, the number's `last_sent`, and the receipt that came before it, if any. A message
/// that is no longer queued (its outcome was stored already) is left as it is.
async fn store_hand_offs(tx: &Transaction<'_>, done: &[HandOff], outbox: &mut Outbox) -> Result<(), Error> {
    let (mut failed_ids, mut failed_codes, mut failed_positions) = (Vec::new(), Vec::new(), Vec::new());
    let (mut sent_ids, mut sent_smsc_ids, mut sent_positions) = (Vec::new(), Vec::new(), Vec::new());
    for (position, outcome) in done.iter().enumerate() {
        let position = position as i64;
        match outcome {
            // Freed with the rest of the wave's claims (release_own_claims).
            HandOff::Retry { .. } => {}
            HandOff::Failed { id, code } => {
                failed_ids.push(*id);
                failed_codes.push(code.code());
                failed_positions.push(position);
            }
            HandOff::Submitted { id, smsc_id } => {
                sent_ids.push(*id);
                sent_smsc_ids.push(smsc_id.as_str());
                sent_positions.push(position);
            }
        }
    }
    let mut finished = Vec::new();
    // "Still queued" is written `delivery < 1` (codes are never negative) in the lookups by id
    // below: `delivery = 0` would let the planner scan a partial index of the queued messages
    // whole, once per id, whenever the statistics say it is nearly empty; now only the primary
    // key can serve them.
    if !failed_ids.is_empty() {
        let fail = tx
            .prepare_cached(&format!(
                "UPDATE messages m SET delivery = r.code, delivered_at = to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') FROM unnest($1::bigint[], $2::bigint[], $3::bigint[]) AS r(id, code, n)
                 WHERE m.id = r.id AND m.delivery < 1 RETURNING {}",
                arrivals::FINAL_COLUMNS
            ))
            .await?;
        for row in tx.query(&fail, &[&failed_ids, &failed_codes, &failed_positions]).await? {
            finished.push(arrivals::read_placed(&row)?);
        }
    }
    if !sent_ids.is_empty() {
        finished.extend(store_submitted(tx, &sent_ids, &sent_smsc_ids, &sent_positions, outbox).await?);
    }
    arrivals::after_final(tx, finished, outbox).await
}

/// Stores the SMSC ids of submitted messages (`ids`, `smsc_ids` at `positions` of the wave)
/// and the numbers' `last_sent`; the messages finished by a receipt that came first.
async fn store_submitted(
    tx: &Transaction<'_>,
    ids: &[i64],
    smsc_ids: &[&str],
    positions: &[i64],
    outbox: &mut Outbox,
) -> Result<Vec<arrivals::Placed>, Error> {
    let at = outbox.at().to_owned();
    let submit = tx
        .prepare_cached(
            "UPDATE messages m SET delivery = 1, smsc_id = r.smsc_id FROM unnest($1::bigint[], $2::text[], $3::bigint[]) AS r(id, smsc_id, n)
             WHERE m.id = r.id AND m.delivery < 1 RETURNING r.n, m.id, m.number, m.account_id, r.smsc_id, m.cost",
        )
        .await?;
    let mut submitted = Vec::new();
    let mut sent: Vec<(i64, String)> = Vec::new();
    for row in tx.query(&submit, &[&ids, &smsc_ids, &positions]).await? {
        let (position, id) = (row.get(0), row.get(1));
        submitted.push(Submitted { position, id, number: row.get(2), account: row.get(3), cost: row.get(5) });
        sent.push((position, row.get(4)));
    }
    if sent.is_empty() {
        return Ok(Vec::new());
    }
    let after = effects::of_submitted(&submitted);
    for (&account, &(count, cost)) in &after.sent {
        outbox.count(account, |day| {
            day.sent += count;
            day.cost += cost;
        });
    }
    let numbers: Vec<i64> = after.last_sent.iter().map(|last| last.number).collect();
    let accounts: Vec<i64> = after.last_sent.iter().map(|last| last.account).collect();
    let messages: Vec<i64> = after.last_sent.iter().map(|last| last.message).collect();
    let last_sent = tx
        .prepare_cached(
            "INSERT INTO last_sent (number, account_id, message_id, sent_at)
             SELECT r.n, r.a, r.m, $4 FROM unnest($1::bigint[], $2::bigint[], $3::bigint[]) AS r(n, a, m)
             ON CONFLICT (number) DO UPDATE SET account_id = excluded.account_id, message_id = excluded.message_id, sent_at = excluded.sent_at",
        )
        .await?;
    tx.execute(&last_sent, &[&numbers, &accounts, &messages, &at]).await?;
    // Their receipts may have come first. A marker under each id meets a receipt being kept
    // aside right now: whichever writes the key second waits for the other to commit (see
    // `arrivals`). In key order, as the receipts are kept.
    let mut keys: Vec<&str> = sent.iter().map(|(_, smsc_id)| smsc_id.as_str()).collect();
    keys.sort_unstable();
    let meet = tx
        .prepare_cached(
            "INSERT INTO receipts_unmatched (smsc_id, delivery, received_at)
             SELECT s, $2, $3 FROM unnest($1::text[]) AS s ORDER BY s
             ON CONFLICT (smsc_id) DO UPDATE SET received_at = receipts_unmatched.received_at
             RETURNING smsc_id, delivery",
        )
        .await?;
    let early: HashMap<String, i64> = tx
        .query(&meet, &[&keys, &MARKER, &at])
        .await?
        .iter()
        .map(|row| (row.get(0), row.get(1)))
        .filter(|&(_, code)| code != MARKER)
        .collect();
    let clear = tx.prepare_cached("DELETE FROM receipts_unmatched WHERE smsc_id = ANY($1)").await?;
    tx.execute(&clear, &[&keys]).await?;
    let receipts: Vec<arrivals::Receipt<'_>> = sent
        .iter()
        .filter_map(|(position, smsc_id)| early.get(smsc_id).map(|&code| (smsc_id.as_str(), code, *position)))
        .collect();
    arrivals::match_receipts(tx, &receipts).await
}
