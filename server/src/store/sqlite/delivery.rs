//! Handing messages over in SQLite: releasing scheduled campaigns, marking messages in flight,
//! storing each hand-over's outcome, and closing campaigns with nothing left to send.

use std::{collections::HashMap, sync::Arc};

use async_trait::async_trait;
use chrono::{DateTime, Duration, Utc};
use rusqlite::{Connection, OptionalExtension, params};
use texto_core::OpenWindows;

use super::{
    SqliteStore, arrivals,
    events::{Outbox, SqliteEvents},
    numbered, time,
};
use crate::{
    Error,
    store::{
        Arrival, CampaignText, DeliveryStore, HandOff, Notice, Queued,
        columns::StoredCode,
        delivery::{CAMPAIGN_TEXT_COLUMNS, WaveLimit, read_campaign_text, read_finished, read_notice},
        effects::{self, Submitted},
        sending_campaigns::{ACCOUNTS_SENDING_SQL, Rounds, campaigns_of_account_sql, in_wave_order},
        wave::WavePlan,
        zones::IdRange,
    },
};

#[async_trait]
impl DeliveryStore for SqliteStore {
    async fn queue_depth(&self) -> Result<i64, Error> {
        self.db.read(|db| Ok(db.query_row(crate::store::delivery::QUEUE_DEPTH, [], |row| row.get(0))?)).await
    }

    async fn webhook_backlog(&self) -> Result<Vec<(crate::store::AccountId, i64)>, Error> {
        self.db
            .read(|db| {
                let mut statement = db.prepare_cached(crate::store::delivery::WEBHOOK_BACKLOG)?;
                let rows = statement.query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?;
                Ok(rows.collect::<Result<_, _>>()?)
            })
            .await
    }

    async fn requeue_in_flight(&self) -> Result<u64, Error> {
        self.db
            .write(|db| {
                let requeued: i64 = db.query_row(
                    "SELECT COUNT(*) FROM in_flight f JOIN messages m
                     ON m.campaign_id = f.campaign_id AND m.id BETWEEN f.first_id AND f.last_id AND m.delivery = 0",
                    [],
                    |row| row.get(0),
                )?;
                db.execute("DELETE FROM in_flight", [])?;
                Ok(requeued as u64)
            })
            .await
    }

    async fn release_due(&self, now: DateTime<Utc>) -> Result<usize, Error> {
        self.db
            .write(move |db| {
                let released = db.execute(
                    "UPDATE campaigns SET status = 'sending' WHERE status = 'scheduled' AND send_at <= ?",
                    [time::store(now)],
                )?;
                // Receipts of a concatenated message's first parts never match (only the last
                // part's id is kept): a day is long enough for a late last-part id.
                db.execute(
                    "DELETE FROM receipts_unmatched WHERE received_at < ?",
                    [time::store(now - Duration::days(1))],
                )?;
                Ok(released)
            })
            .await
    }

    async fn hand_off(
        &self,
        done: Vec<HandOff>,
        limit: WaveLimit,
        open: OpenWindows,
        now: DateTime<Utc>,
    ) -> Result<Vec<Queued>, Error> {
        self.db
            .write(move |db| {
                let mut outbox = Outbox::new(now);
                store_hand_offs(db, &done, &mut outbox, now)?;
                outbox.write_counts(db)?;
                next_wave(db, limit, open)
            })
            .await
    }

    async fn store_arrivals(&self, list: Vec<Arrival>, now: DateTime<Utc>) -> Result<(), Error> {
        self.db
            .write(move |db| {
                let mut outbox = Outbox::new(now);
                arrivals::store(db, &list, &mut outbox, now)?;
                outbox.write_counts(db)
            })
            .await
    }

    async fn pending_notices(&self) -> Result<Vec<Notice>, Error> {
        self.db
            .read(|db| {
                let mut query = db.prepare_cached("SELECT id, channel, target, body FROM alert_notices WHERE handled_at IS NULL ORDER BY id LIMIT 100")?;
                let notices = query
                    .query_map([], |row| read_notice(row))?
                    .collect::<Result<_, _>>()?;
                Ok(notices)
            })
            .await
    }

    async fn notice_done(&self, id: i64, error: Option<String>, now: DateTime<Utc>) -> Result<(), Error> {
        self.db
            .write(move |db| {
                db.execute(
                    "UPDATE alert_notices SET handled_at = ?, error = ? WHERE id = ?",
                    params![time::store(now), error, id],
                )?;
                Ok(())
            })
            .await
    }

    async fn link_key(&self) -> Result<[u8; 32], Error> {
        let mut fresh = [0u8; 32];
        getrandom::fill(&mut fresh).map_err(|_| Error::Unavailable("no randomness for the short-link key"))?;
        self.db
            .write(move |db| {
                db.execute("INSERT OR IGNORE INTO secrets (name, value) VALUES ('link_codes', ?)", [fresh.as_slice()])?;
                let key: Vec<u8> =
                    db.query_row("SELECT value FROM secrets WHERE name = 'link_codes'", [], |row| row.get(0))?;
                key.try_into().map_err(|_| Error::Unavailable("the stored short-link key is damaged"))
            })
            .await
    }
}

/// Stores a wave's outcomes: a refused message gets its final code (NPAI, DLR), a submitted
/// one its SMSC id; then what the submitted change ([`effects::of_submitted`]: the day's counts,
/// the numbers' `last_sent`) and the receipts that came before them. A message whose outcome
/// was stored already is left as it is.
fn store_hand_offs(db: &Connection, done: &[HandOff], outbox: &mut Outbox, now: DateTime<Utc>) -> Result<(), Error> {
    let mut submitted = Vec::new();
    let mut smsc_ids = Vec::new();
    for (position, outcome) in done.iter().enumerate() {
        match outcome {
            // Still queued: the next wave takes it again.
            HandOff::Retry { .. } => {}
            HandOff::Failed { id, code } => {
                let finished = db
                    .prepare_cached(&format!(
                        "SELECT {}, ?1 FROM messages WHERE id = ?2 AND delivery = 0",
                        arrivals::FINISHED_COLUMNS
                    ))?
                    .query_row(params![code.code(), id], |row| read_finished(row, 0))
                    .optional()?;
                if let Some(finished) = finished {
                    arrivals::finish(db, *id, *code)?;
                    arrivals::after_final(db, &finished, outbox)?;
                }
            }
            HandOff::Submitted { id, smsc_id } => {
                // Read, then updated by id: a `RETURNING` clause costs SQLite a temporary b-tree
                // per message (this writer is the only one, so nothing changes in between).
                let sent = db
                    .prepare_cached("SELECT number, account_id, cost FROM messages WHERE id = ? AND delivery = 0")?
                    .query_row([id], |row| {
                        Ok(Submitted {
                            position: position as i64,
                            id: *id,
                            number: row.get(0)?,
                            account: row.get(1)?,
                            cost: row.get(2)?,
                        })
                    })
                    .optional()?;
                if let Some(sent) = sent {
                    db.prepare_cached("UPDATE messages SET delivery = 1, smsc_id = ? WHERE id = ?")?
                        .execute(params![smsc_id, id])?;
                    submitted.push(sent);
                    smsc_ids.push(smsc_id);
                }
            }
        }
    }
    let after = effects::of_submitted(&submitted);
    for (&account, &(count, cost)) in &after.sent {
        outbox.count(account, |day| {
            day.sent += count;
            day.cost += cost;
        });
    }
    let mut last_sent = db.prepare_cached(
        "INSERT INTO last_sent (number, account_id, message_id, sent_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (number) DO UPDATE SET account_id = excluded.account_id, message_id = excluded.message_id, sent_at = excluded.sent_at",
    )?;
    let at = outbox.at().to_owned();
    for last in &after.last_sent {
        last_sent.execute(params![last.number, last.account, last.message, at])?;
    }
    // Their receipts may have come first.
    for smsc_id in smsc_ids {
        let early = db
            .prepare_cached("SELECT delivery FROM receipts_unmatched WHERE smsc_id = ?")?
            .query_row([smsc_id], |row| Ok(row.get::<_, StoredCode>(0)?.0))
            .optional()?;
        if let Some(code) = early {
            db.prepare_cached("DELETE FROM receipts_unmatched WHERE smsc_id = ?")?.execute([smsc_id])?;
            arrivals::store(db, &[Arrival::Receipt { smsc_id: smsc_id.clone(), code }], outbox, now)?;
        }
    }
    Ok(())
}

/// Takes up to `wave_limit.total` queued messages, at most `wave_limit.caps` of a limited
/// account's (the last wave's outcomes are stored: nothing else is in flight), records them as
/// the wave in flight, and returns them; closes campaigns with nothing queued. Alerts come
/// before marketing, which goes only to the zones whose window is `open`; inside that order
/// the accounts take turns ([`WavePlan`]), so one large campaign does not hold up another
/// account's messages.
fn next_wave(db: &Connection, wave_limit: WaveLimit, open: OpenWindows) -> Result<Vec<Queued>, Error> {
    let limit = wave_limit.total;
    let mut wave = Vec::with_capacity(limit);
    // The runs of consecutive queued messages taken (campaign, first, last): a closed zone's
    // messages between two runs are not in flight.
    let mut runs: Vec<(i64, i64, i64)> = Vec::new();
    if limit > 0 {
        let accounts =
            db.prepare_cached(ACCOUNTS_SENDING_SQL)?.query_map([], |row| row.get(0))?.collect::<Result<_, _>>()?;
        let mut rounds = Rounds::new(accounts, limit);
        let mut remaining = wave_limit.clone();
        loop {
            let live = live_campaigns(db, &mut rounds, open)?;
            take_wave(db, &live, remaining, &mut wave, &mut runs)?;
            remaining = wave_limit.after(wave.iter().map(|queued| queued.campaign.account));
            if !rounds.next_round(&remaining) {
                break;
            }
        }
    }
    db.prepare_cached("DELETE FROM in_flight")?.execute([])?;
    let mut in_flight = db.prepare_cached("INSERT INTO in_flight (campaign_id, first_id, last_id) VALUES (?, ?, ?)")?;
    for (campaign, first, last) in runs {
        in_flight.execute([campaign, first, last])?;
    }
    Ok(wave)
}

/// A campaign that may send now, with the id ranges of its messages that may.
type LiveCampaign = (Arc<CampaignText>, Vec<IdRange>);

/// The campaigns of this round's accounts ([`Rounds`]) that may send now, in wave order, each
/// with the id ranges of its messages that may.
fn live_campaigns(db: &Connection, rounds: &mut Rounds, open: OpenWindows) -> Result<Vec<LiveCampaign>, Error> {
    let mut campaigns = db.prepare_cached(&numbered(&campaigns_of_account_sql(CAMPAIGN_TEXT_COLUMNS)))?;
    let mut live = Vec::new();
    while let Some(read) = rounds.next_read() {
        let (mut count, mut last, before) = (0, None, live.len());
        for campaign in campaigns
            .query_map(params![read.account, read.marketing, read.after, read.count], |row| read_campaign_text(row))?
        {
            let campaign = campaign?;
            (count, last) = (count + 1, Some(campaign.id));
            let ranges = campaign.open_ranges(open);
            if !ranges.is_empty() {
                live.push((Arc::new(campaign), ranges));
            }
        }
        rounds.found(read, count, last, live.len() - before);
    }
    in_wave_order(&mut live, |(campaign, _)| campaign);
    Ok(live)
}

/// Takes up to `limit` queued messages of the `live` campaigns into `wave` (see [`WavePlan`]),
/// recording the runs taken; closes the campaigns found with nothing queued.
fn take_wave(
    db: &Connection,
    live: &[LiveCampaign],
    limit: WaveLimit,
    wave: &mut Vec<Queued>,
    runs: &mut Vec<(i64, i64, i64)>,
) -> Result<(), Error> {
    let mut queued = db.prepare_cached(
        "SELECT id, number, info, variant FROM messages WHERE campaign_id = ? AND delivery = 0 AND id > ? AND id <= ?
         ORDER BY id LIMIT ?",
    )?;
    // The last message taken from each campaign.
    let mut last_taken: HashMap<i64, i64> = HashMap::new();
    let mut plan = WavePlan::new(live.iter().map(|(campaign, _)| vec![campaign.account]).collect(), limit);
    while let Some(ask) = plan.next() {
        let (campaign, open_ranges) = &live[ask.group];
        let after = last_taken.get(&campaign.id).copied().unwrap_or(0);
        let before = wave.len();
        for &(from, up_to) in open_ranges.iter().filter(|&&(_, up_to)| up_to > after) {
            let wanted = ask.wanted - (wave.len() - before);
            if wanted == 0 {
                break;
            }
            let run_start = wave.len();
            let rows = queued.query_map(params![campaign.id, from.max(after), up_to, wanted as i64], |row| {
                Ok((row.get::<_, i64>(0)?, row.get::<_, i64>(1)?, row.get::<_, Option<String>>(2)?, row.get(3)?))
            })?;
            for row in rows {
                let (message, number, info, variant): (i64, i64, Option<String>, Option<u8>) = row?;
                let info = crate::store::messages::values_from_column(info.as_deref());
                wave.push(Queued { id: message, campaign: Arc::clone(campaign), number: number as u64, info, variant });
            }
            if let (Some(first), Some(last)) = (wave[run_start..].first(), wave[run_start..].last()) {
                runs.push((campaign.id, first.id, last.id));
            }
        }
        let taken = &wave[before..];
        if let Some(last) = taken.last() {
            last_taken.insert(campaign.id, last.id);
        } else if after == 0 {
            close_if_done(db, campaign.id)?;
        }
        plan.took(taken.iter().map(|_| campaign.account));
    }
    Ok(())
}

/// A sending campaign with no message queued or in flight is `sent`.
fn close_if_done(db: &Connection, campaign: i64) -> Result<(), Error> {
    db.prepare_cached(
        "UPDATE campaigns SET status = 'sent' WHERE id = ? AND status = 'sending'
         AND NOT EXISTS (SELECT 1 FROM messages WHERE campaign_id = ? AND delivery = 0)",
    )?
    .execute([campaign, campaign])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;
    use texto_core::Zone;

    use super::*;
    use crate::db::Database;

    /// A store with one account, an alert and a marketing campaign of two messages each.
    async fn two_campaigns() -> (tempfile::TempDir, SqliteStore) {
        let dir = tempfile::tempdir().expect("a temp dir");
        let store = SqliteStore::for_commands(Database::open(&dir.path().join("t.db")).expect("a database"));
        store
            .db
            .write(|db| {
                db.execute_batch(
                    "INSERT INTO accounts (id, name) VALUES (1, 'a');
                     INSERT INTO campaigns (id, account_id, text, pushtype, status, send_at, created_at, cost, total, sent, blacklisted,
                         duplicated, invalid, npai, not_allowed, flood, country_limit)
                     VALUES (1, 1, 'Soldes', 'marketing', 'sending', '2026-11-24T10:00:00Z', '2026-11-24T10:00:00Z', 2, 2, 2, 0, 0, 0, 0, 0, 0, 0),
                            (2, 1, 'Code 1234', 'alert', 'sending', '2026-11-24T10:00:00Z', '2026-11-24T10:00:00Z', 2, 2, 2, 0, 0, 0, 0, 0, 0, 0);
                     INSERT INTO messages (campaign_id, account_id, number, country, parts, cost, text_hash, created_at) VALUES
                         (1, 1, 33611111111, 'FR', 1, 100, 0, '2026-11-24T10:00:00Z'), (1, 1, 33611111112, 'FR', 1, 100, 0, '2026-11-24T10:00:00Z'),
                         (2, 1, 33622222221, 'FR', 1, 100, 0, '2026-11-24T10:00:00Z'), (2, 1, 33622222222, 'FR', 1, 100, 0, '2026-11-24T10:00:00Z');",
                )?;
                Ok(())
            })
            .await
            .expect("the campaigns");
        (dir, store)
    }

    #[tokio::test]
    async fn outside_the_marketing_window_only_alerts_are_handed_over() {
        let (_dir, store) = two_campaigns().await;
        let evening = Utc.with_ymd_and_hms(2026, 11, 24, 19, 30, 0).unwrap();
        let wave = store.hand_off(Vec::new(), 10.into(), OpenWindows::NONE, evening).await.expect("a wave");
        assert_eq!(wave.iter().map(|q| q.campaign.id).collect::<Vec<_>>(), [2, 2]);
        let done = wave.iter().map(|q| HandOff::Submitted { id: q.id, smsc_id: format!("s{}", q.id) }).collect();
        assert!(
            store.hand_off(done, 10.into(), OpenWindows::NONE, evening).await.expect("a wave").is_empty(),
            "marketing waits for its window"
        );
        let morning = wave_ids(
            &store.hand_off(Vec::new(), 10.into(), OpenWindows::NONE.with(Zone::Paris), evening).await.expect("a wave"),
        );
        assert_eq!(morning.len(), 2, "once the window opens, marketing goes");
        let status = |id: i64| {
            store.db.read(move |db| {
                Ok(db.query_row("SELECT status FROM campaigns WHERE id = ?", [id], |r| r.get::<_, String>(0))?)
            })
        };
        assert_eq!(status(2).await.expect("a status"), "sent");
        assert_eq!(status(1).await.expect("a status"), "sending");
    }

    #[tokio::test]
    async fn messages_in_flight_at_a_crash_are_queued_again_and_counted() {
        let (_dir, store) = two_campaigns().await;
        let now = Utc.with_ymd_and_hms(2026, 11, 24, 10, 0, 0).unwrap();
        let wave =
            store.hand_off(Vec::new(), 3.into(), OpenWindows::NONE.with(Zone::Paris), now).await.expect("a wave");
        assert_eq!(wave.len(), 3, "alerts first, then marketing, up to the wave's size");
        assert_eq!(store.requeue_in_flight().await.expect("requeued"), 3);
        assert_eq!(
            store
                .hand_off(Vec::new(), 10.into(), OpenWindows::NONE.with(Zone::Paris), now)
                .await
                .expect("a wave")
                .len(),
            4,
            "all four queued again"
        );
    }

    fn wave_ids(wave: &[Queued]) -> Vec<i64> {
        wave.iter().map(|q| q.id).collect()
    }
}
