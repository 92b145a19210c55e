//! Handing messages over in PostgreSQL, for several nodes: releasing scheduled campaigns,
//! storing each hand-over's outcome, claiming the next wave for this node, and closing
//! campaigns with nothing left to send.
//!
//! A queued message (delivery 0) is free while `claimed_by` is NULL; a node claims its wave
//! with `FOR UPDATE SKIP LOCKED`, so two nodes never take the same message. A retried message
//! is freed again; a dead node's claims are freed by the first live node to look
//! ([`DeliveryStore::release_due`], every second), and each message goes out once more.

use std::{
    collections::{HashMap, HashSet},
    sync::Arc,
};

use async_trait::async_trait;
use chrono::{DateTime, Duration, Utc};
use deadpool_postgres::Transaction;
use texto_core::OpenWindows;
use tokio_postgres::types::Type;

use super::{
    PgStore, arrivals,
    events::{Outbox, PgEvents},
    nodes, time,
};
use crate::{
    Error,
    store::{
        Arrival, CampaignText, DeliveryStore, HandOff, Notice, Queued,
        delivery::{CAMPAIGN_TEXT_COLUMNS, WaveLimit, read_campaign_text, read_notice},
        effects::{self, Submitted},
        wave::WavePlan,
        zones::IdRange,
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
        let wave = next_wave(&tx, self.node, limit, open).await?;
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

/// Campaigns of at most this many messages are claimed from together, [`GROUP`] at a time,
/// in one statement (a wave of one-recipient sends would otherwise be a statement each).
const SMALL: i64 = 100;
/// Small campaigns claimed from in one statement at most.
const GROUP: usize = 500;

/// Claims up to `wave.total` queued messages nobody holds for `node` (at most `wave.caps` of
/// a limited account's) and returns them: alerts first, marketing only to the zones whose
/// window is `open`, each account's fair share first ([`WavePlan`]), by campaign then id.
/// Closes the campaigns it looked at and found nothing queued in.
async fn next_wave(
    tx: &Transaction<'_>,
    node: i64,
    wave_limit: WaveLimit,
    open: OpenWindows,
) -> Result<Vec<Queued>, Error> {
    let limit = wave_limit.total;
    if limit == 0 {
        return Ok(Vec::new());
    }
    let campaigns = tx
        .prepare_cached(&format!(
            "SELECT {CAMPAIGN_TEXT_COLUMNS}, total FROM campaigns
             WHERE status = 'sending' AND paused_at IS NULL
             ORDER BY pushtype = 'marketing', id"
        ))
        .await?;
    // Each campaign that may send now, with the id ranges of its messages that may.
    let mut live: Vec<(CampaignText, i64)> = Vec::new();
    let mut open_ranges: HashMap<i64, Vec<IdRange>> = HashMap::new();
    for row in tx.query(&campaigns, &[]).await? {
        let campaign = read_campaign_text(&row)?;
        let ranges = campaign.open_ranges(open);
        if !ranges.is_empty() {
            open_ranges.insert(campaign.id, ranges);
            live.push((campaign, row.try_get(12)?));
        }
    }
    let mut wave = Vec::with_capacity(limit);
    let mut empty = Vec::new();
    let groups: Vec<Vec<Arc<CampaignText>>> =
        groups(live, &wave_limit).into_iter().map(|group| group.into_iter().map(Arc::new).collect()).collect();
    let accounts = groups.iter().map(|group| group.iter().map(|campaign| campaign.account).collect()).collect();
    let mut plan = WavePlan::new(accounts, wave_limit);
    while let Some(ask) = plan.next() {
        let group = &groups[ask.group];
        let ids: Vec<i64> = group.iter().map(|campaign| campaign.id).collect();
        // A campaign whose messages may not all go (an A/B test's rest waiting for its winner,
        // zones whose window is closed) is a group of its own, claimed from range by range.
        let claimed = match group.as_slice() {
            [campaign] => {
                let mut claimed = Vec::new();
                for &range in &open_ranges[&campaign.id] {
                    let wanted = ask.wanted - claimed.len();
                    if wanted == 0 {
                        break;
                    }
                    claimed.extend(claim(tx, node, (&ids, range), wanted).await?);
                }
                claimed
            }
            _ => claim(tx, node, (&ids, (0, i64::MAX)), ask.wanted).await?,
        };
        // A campaign is known to have nothing queued when the claim did not stop at the
        // limit before reaching it.
        let reached = if claimed.len() < ask.wanted {
            i64::MAX
        } else {
            claimed.last().map_or(i64::MIN, |&(_, campaign, ..)| campaign)
        };
        let texts: HashMap<i64, &Arc<CampaignText>> = group.iter().map(|campaign| (campaign.id, campaign)).collect();
        let got: HashSet<i64> = claimed.iter().map(|&(_, campaign, ..)| campaign).collect();
        empty.extend(ids.iter().filter(|&&id| id < reached && !got.contains(&id)));
        let before = wave.len();
        for (message, campaign, number, info, variant) in claimed {
            let info = crate::store::messages::values_from_column(info.as_deref());
            let text = Arc::clone(texts[&campaign]);
            let variant = variant.and_then(|v| u8::try_from(v).ok());
            wave.push(Queued { id: message, campaign: text, number: number as u64, info, variant });
        }
        plan.took(wave[before..].iter().map(|queued| queued.campaign.account));
    }
    if !empty.is_empty() {
        close_if_done(tx, &empty).await?;
    }
    Ok(wave)
}

/// `campaigns` (in wave order) in the groups claimed from together: a large campaign alone,
/// consecutive small ones of the same push type up to [`GROUP`] (their ids ascend); a campaign
/// of an account with a throughput limit alone, so that its cap can apply, and one whose
/// messages may not all go now (an A/B test's rest waiting, overseas zones) alone, so that
/// its ranges can apply.
fn groups(campaigns: Vec<(CampaignText, i64)>, wave: &WaveLimit) -> Vec<Vec<CampaignText>> {
    let mut groups: Vec<Vec<CampaignText>> = Vec::new();
    let mut open = false;
    for (campaign, total) in campaigns {
        let small = total <= SMALL
            && !wave.caps.contains_key(&campaign.account)
            && campaign.hold.is_none()
            && campaign.zones.is_empty();
        match groups.last_mut() {
            Some(last) if open && small && last.len() < GROUP && last[0].pushtype == campaign.pushtype => {
                last.push(campaign)
            }
            _ => groups.push(vec![campaign]),
        }
        open = small;
    }
    groups
}

/// Claims for `node` up to `limit` unclaimed queued messages of `campaigns` (ascending ids;
/// one alone, only its messages in the id range (after, up to]), by campaign then id:
/// (message, campaign, number, info, variant).
async fn claim(
    tx: &Transaction<'_>,
    node: i64,
    (campaigns, (after, up_to)): (&[i64], (i64, i64)),
    limit: usize,
) -> Result<Vec<Claimed>, Error> {
    let limit = limit as i64;
    let rows = if let [campaign] = campaigns {
        let claim = tx
            .prepare_cached(
                "UPDATE messages m SET claimed_by = $1
                 FROM (SELECT id FROM messages WHERE campaign_id = $2 AND delivery = 0 AND claimed_by IS NULL
                       AND id > $4 AND id <= $5 ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED) AS picked
                 WHERE m.id = picked.id RETURNING m.id, m.campaign_id, m.number, m.info, m.variant",
            )
            .await?;
        tx.query(&claim, &[&node, campaign, &limit, &after, &up_to]).await?
    } else {
        // Planned for its arrays each time (an unnamed statement): a generic plan may walk
        // `messages_unclaimed` whole in index order instead of looking up each campaign.
        let sql = "UPDATE messages m SET claimed_by = $1
             FROM (SELECT id FROM messages WHERE campaign_id = ANY($2) AND delivery = 0 AND claimed_by IS NULL ORDER BY campaign_id, id LIMIT $3
                   FOR UPDATE SKIP LOCKED) AS picked
             WHERE m.id = picked.id RETURNING m.id, m.campaign_id, m.number, m.info, m.variant";
        tx.query_typed(sql, &[(&node, Type::INT8), (&campaigns, Type::INT8_ARRAY), (&limit, Type::INT8)]).await?
    };
    let mut claimed: Vec<Claimed> =
        rows.iter().map(|row| (row.get(0), row.get(1), row.get(2), row.get(3), row.get(4))).collect();
    claimed.sort_unstable_by_key(|&(message, campaign, ..)| (campaign, message));
    Ok(claimed)
}

/// A claimed message: its id, campaign, number, info and A/B variant.
type Claimed = (i64, i64, i64, Option<String>, Option<i64>);

/// Of `campaigns`, those still sending with no message queued (claimed or not) are `sent`.
/// One another transaction holds is left for a later wave.
async fn close_if_done(tx: &Transaction<'_>, campaigns: &[i64]) -> Result<(), Error> {
    // A few hundred at a time, each campaign looked up by its key (a lateral subquery on its
    // id), and its queued messages probed (a scalar subquery with LIMIT, never made a join).
    // Planned freely, with statistics that lagged behind the table, the statement scanned every
    // sending campaign against every id, or every queued message once per campaign: 1-24 s a
    // wave inside the hand-over transaction, whose keys the other node's waves then waited for.
    let close = tx
        .prepare_cached(
            "UPDATE campaigns SET status = 'sent' WHERE id IN (
                 SELECT c.id FROM unnest($1::bigint[]) AS done(id)
                 CROSS JOIN LATERAL (
                     SELECT id FROM campaigns WHERE id = done.id AND status = 'sending'
                     AND (SELECT m.id FROM messages m WHERE m.campaign_id = done.id AND m.delivery = 0 LIMIT 1) IS NULL
                     FOR NO KEY UPDATE SKIP LOCKED) AS c)",
        )
        .await?;
    for chunk in campaigns.chunks(GROUP) {
        tx.execute(&close, &[&chunk]).await?;
    }
    Ok(())
}
