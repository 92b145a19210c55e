//! Campaigns and messages in SQLite.

use std::{
    collections::{HashMap, HashSet},
    sync::Arc,
};

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use rusqlite::{Connection, OptionalExtension, params, params_from_iter};
use texto_core::{Contact, Country, Credits};

use super::{
    SqliteStore,
    accounts::{balance, flood_limits},
    idempotency, time,
};
use crate::{
    Error,
    db::placeholders,
    store::{
        AccountId, CampaignFilter, CampaignRecord, CampaignRow, CampaignStore, Created, FilterInputs, IdempotencyKey,
        MessageRow, NewCampaign, Pausing, StoredAnswer,
        campaigns::stored_campaign,
        kept_since, money, per_country,
        report::{WRITTEN_TO_COUNTRY, keeps_counts},
        zones,
    },
};

/// Requests with more numbers than this read the account's whole blacklist and NPAI list
/// once instead of looking each number up.
const LOOKUP_LIMIT: usize = 500;

/// Requests with at most this many numbers read the account's inputs on the async thread:
/// they are a few index look-ups.
const LOOK_UP_HERE_LIMIT: usize = 16;

#[async_trait]
impl CampaignStore for SqliteStore {
    async fn filter_inputs(
        &self,
        account: AccountId,
        numbers: &[u64],
        text_hash: i64,
        now: DateTime<Utc>,
    ) -> Result<FilterInputs, Error> {
        let mut inputs = if numbers.len() <= LOOK_UP_HERE_LIMIT {
            self.db.look_up(|db| account_inputs(db, account, Some(numbers), now)).await?
        } else {
            let few = (numbers.len() <= LOOKUP_LIMIT).then(|| numbers.to_vec());
            self.db.read(move |db| account_inputs(db, account, few.as_deref(), now)).await?
        };
        inputs.recent = self.flood.recent(account, numbers, text_hash, now);
        Ok(inputs)
    }

    async fn list_contacts(&self, account: AccountId, ids: &[String]) -> Result<HashMap<String, Vec<Contact>>, Error> {
        let ids = ids.to_vec();
        self.db
            .read(move |db| {
                let mut lists = HashMap::new();
                for id in ids {
                    let Ok(list_id) = id.parse::<i64>() else { continue };
                    if !super::lists::owns_list(db, account, list_id)? {
                        continue;
                    }
                    let mut query = db.prepare_cached(
                        "SELECT number, info1, info2, info3, info4 FROM contacts WHERE list_id = ? ORDER BY id",
                    )?;
                    let contacts = query
                        .query_map([list_id], |row| {
                            Ok(Contact {
                                number: row.get::<_, i64>(0)?.to_string(),
                                info: [row.get(1)?, row.get(2)?, row.get(3)?, row.get(4)?],
                            })
                        })?
                        .collect::<Result<Vec<_>, _>>()?;
                    lists.insert(id, contacts);
                }
                Ok(lists)
            })
            .await
    }

    async fn create_campaign(&self, account: AccountId, new: NewCampaign<'_>) -> Result<Created, Error> {
        let campaign = CampaignWrite {
            row: new.row(),
            messages: new.message_rows(),
            cost: new.simulation.cost,
            text_hash: new.text_hash,
            now: new.now,
            key: new.idempotency,
        };
        let flood = Arc::clone(&self.flood);
        // The window learns of the messages on the writer thread, right after they are written:
        // a campaign stands once queued, even if its client goes away before the answer. (Should
        // the commit then fail, the window counts texts never sent: it errs toward fewer texts.)
        // No savepoint of its own: `write_campaign` refuses a short balance and finds a taken
        // key before it writes, and the second try after `idempotency::check` meets the same
        // balance, as nothing else wrote in between.
        self.db
            .write_refusing_first(move |db| {
                let CampaignWrite { now, text_hash, .. } = campaign;
                // A key is looked up only when its campaign cannot be written: taken by a first
                // try (a retry, or another request) or by an expired campaign, taken off it here.
                let mut written = write_campaign(db, account, &campaign)?;
                if written.is_none()
                    && let Some(key) = &campaign.key
                {
                    if let Some(replay) = idempotency::check(db, account, &key.key, &key.fingerprint, kept_since(now))?
                    {
                        return Ok(replay);
                    }
                    written = write_campaign(db, account, &campaign)?;
                }
                let (ticket, balance) = written.ok_or(Error::Unavailable("an idempotency key stayed taken"))?;
                flood.record(account, campaign.messages.iter().map(|m| m.number), text_hash, now);
                Ok(Created::New { ticket, balance })
            })
            .await
    }

    async fn idempotent_answer(
        &self,
        account: AccountId,
        key: &str,
        since: DateTime<Utc>,
    ) -> Result<Option<StoredAnswer>, Error> {
        let key = key.to_owned();
        self.db.look_up(move |db| idempotency::stored(db, account, &key, since)).await
    }

    async fn cancel_campaign(&self, account: AccountId, ticket: i64) -> Result<CampaignRecord, Error> {
        self.db
            .write(move |db| {
                // What a paused campaign did not hand over: its queued messages outside the wave
                // in flight (which the dispatcher finishes).
                let found = db
                    .query_row(
                        "SELECT status, paused_at IS NOT NULL, cost,
                             (SELECT COALESCE(SUM(m.cost), 0) FROM messages m WHERE m.campaign_id = c.id AND m.delivery = 0
                              AND NOT EXISTS (SELECT 1 FROM in_flight f WHERE f.campaign_id = m.campaign_id
                                  AND m.id BETWEEN f.first_id AND f.last_id))
                         FROM campaigns c WHERE id = ? AND account_id = ?",
                        [ticket, account],
                        |row| Ok((row.get::<_, String>(0)?, row.get(1)?, row.get(2)?, row.get(3)?)),
                    )
                    .optional()?;
                let (status, paused, cost, unsent) =
                    found.ok_or_else(|| Error::NotFound(format!("campaign {ticket}")))?;
                let found = money::Cancelling { status: &status, paused, cost, unsent };
                let refund = money::cancel(account, ticket, found)?;
                db.execute("UPDATE campaigns SET status = 'cancelled' WHERE id = ?", [ticket])?;
                super::accounts::move_money(db, &refund)?;
                campaign_record(db, account, ticket)?.ok_or_else(|| Error::NotFound(format!("campaign {ticket}")))
            })
            .await
    }

    async fn pause_campaign(
        &self,
        account: AccountId,
        ticket: i64,
        pausing: Pausing,
        now: DateTime<Utc>,
    ) -> Result<CampaignRecord, Error> {
        self.db
            .write(move |db| {
                let not_found = || Error::NotFound(format!("campaign {ticket}"));
                let (status, paused): (String, bool) = db
                    .query_row(
                        "SELECT status, paused_at IS NOT NULL FROM campaigns WHERE id = ? AND account_id = ?",
                        [ticket, account],
                        |row| Ok((row.get(0)?, row.get(1)?)),
                    )
                    .optional()?
                    .ok_or_else(not_found)?;
                pausing.allowed(ticket, &status, paused)?;
                let paused_at = (pausing == Pausing::Pause).then(|| time::store(now));
                db.execute("UPDATE campaigns SET paused_at = ? WHERE id = ?", params![paused_at, ticket])?;
                campaign_record(db, account, ticket)?.ok_or_else(not_found)
            })
            .await
    }

    async fn campaigns(&self, account: AccountId, filter: CampaignFilter) -> Result<(Vec<CampaignRecord>, i64), Error> {
        let page = filter.page.clamped();
        self.db
            .read(move |db| {
                let conditions = filter.conditions(account);
                let values = conditions.values();
                let total: i64 = db
                    .prepare_cached(&format!("SELECT COUNT(*) FROM campaigns WHERE {}", conditions.sqlite()))?
                    .query_row(params_from_iter(values), |row| row.get(0))?;
                let mut query = db.prepare_cached(&format!(
                    "{CAMPAIGN_COLUMNS} WHERE {} ORDER BY id {} LIMIT {} OFFSET {}",
                    conditions.sqlite(),
                    filter.order.sql(),
                    page.length,
                    page.start
                ))?;
                let rows = query
                    .query_map(params_from_iter(values), |row| stored_campaign(row))?
                    .collect::<Result<Vec<_>, _>>()?;
                let records = rows.into_iter().map(|stored| with_deliveries(db, stored)).collect::<Result<_, _>>()?;
                Ok((records, total))
            })
            .await
    }

    async fn campaign(&self, account: AccountId, ticket: i64) -> Result<Option<CampaignRecord>, Error> {
        self.db.read(move |db| campaign_record(db, account, ticket)).await
    }
}

/// Everything the filter needs from the database: blacklist and NPAI (of `few` numbers, or
/// all), the country rules and their month's usage, and the balance.
fn account_inputs(
    db: &Connection,
    account: AccountId,
    few: Option<&[u64]>,
    now: DateTime<Utc>,
) -> Result<FilterInputs, Error> {
    let mut inputs = FilterInputs {
        blacklist: numbers_in(db, "blacklist", account, few)?.into_iter().collect(),
        npai: numbers_in(db, "npai", account, few)?.into_iter().collect(),
        ..FilterInputs::default()
    };
    let mut query =
        db.prepare_cached("SELECT country, allowed, monthly_cap FROM account_countries WHERE account_id = ?")?;
    let rows = query.query_map([account], |row| {
        Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)?, row.get::<_, Option<i64>>(2)?))
    })?;
    let mut blocked = HashSet::new();
    for row in rows {
        let (country, allowed, cap) = row?;
        let Some(country) = Country::from_iso2(&country) else { continue };
        if allowed == 0 {
            blocked.insert(country);
        }
        if let Some(cap) = cap {
            inputs.monthly_caps.insert(country, cap.max(0) as u64);
        }
    }
    if !blocked.is_empty() {
        inputs.allowed_countries = Some(Country::all().filter(|c| !blocked.contains(c)).collect());
    }
    if !inputs.monthly_caps.is_empty() {
        let mut usage =
            db.prepare_cached("SELECT country, messages FROM monthly_usage WHERE account_id = ? AND month = ?")?;
        let rows = usage.query_map(params![account, time::month(now)], |row| {
            Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)?))
        })?;
        for row in rows {
            let (country, count) = row?;
            if let Some(country) = Country::from_iso2(&country) {
                inputs.monthly_usage.insert(country, count.max(0) as u64);
            }
        }
    }
    inputs.balance = Credits::from_hundredths(balance(db, account)?);
    inputs.flood = flood_limits(db, account)?;
    Ok(inputs)
}

/// A campaign to write, owned so that it travels to the writer thread.
struct CampaignWrite {
    row: CampaignRow,
    messages: Vec<MessageRow>,
    cost: Credits,
    text_hash: i64,
    now: DateTime<Utc>,
    /// The request's idempotency key, kept with the campaign.
    key: Option<IdempotencyKey>,
}

/// Writes the campaign (with its idempotency key), its messages and the debit: its ticket and
/// the balance left. Refuses (writing nothing) if the balance, read here on the writer
/// connection, does not cover the cost; writes nothing and answers `None` if another campaign
/// of the account holds the key.
fn write_campaign(
    db: &Connection,
    account: AccountId,
    campaign: &CampaignWrite,
) -> Result<Option<(i64, Credits)>, Error> {
    let (row, messages, key) = (&campaign.row, &campaign.messages[..], campaign.key.as_ref());
    let CampaignWrite { cost, text_hash, now, .. } = *campaign;
    let available = Credits::from_hundredths(balance(db, account)?);
    if cost > available {
        return Err(Error::NotEnoughCredits { cost, balance: available });
    }
    let [total, sent, blacklisted, duplicated, invalid, npai, not_allowed, flood, country_limit] = row.counters;
    let inserted = db
        .prepare_cached(
            "INSERT OR FAIL INTO campaigns (id, account_id, text, pushtype, sender, links, lists, unicode, status, send_at, created_at, cost,
                 total, sent, blacklisted, duplicated, invalid, npai, not_allowed, flood, country_limit,
                 idempotency_key, idempotency_fingerprint, idempotency_balance, validity, utm, template_id, variants, ab)
             VALUES ((SELECT max(coalesce((SELECT max(id) FROM campaigns), 0),
                                 coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'drafts'), 0)) + 1),
                     ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        )?
        .execute(
            params![
                account,
                row.text,
                row.pushtype,
                row.sender,
                row.links,
                row.lists,
                row.unicode,
                row.status,
                row.send_at,
                row.created_at,
                cost.hundredths(),
                total,
                sent,
                blacklisted,
                duplicated,
                invalid,
                npai,
                not_allowed,
                flood,
                country_limit,
                key.map(|key| &key.key),
                key.map(|key| &key.fingerprint),
                key.map(|_| (available - cost).hundredths()),
                row.validity,
                row.utm,
                row.template,
                row.variants,
                row.ab,
            ],
        );
    // OR FAIL: the key's unique index refuses before anything is written, and the statement
    // needs no journal of its own to undo a half-done insert (with ABORT it took one).
    match inserted {
        Err(rusqlite::Error::SqliteFailure(failure, _))
            if failure.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE && key.is_some() =>
        {
            return Ok(None);
        }
        written => written?,
    };
    // The id is the rowid: read back without `RETURNING`, which SQLite answers through a
    // temporary b-tree opened and closed at each insert.
    let ticket = db.last_insert_rowid();
    let mut insert = db.prepare_cached(
        "INSERT INTO messages (campaign_id, account_id, number, country, gsmsmsid, parts, cost, text_hash, created_at, info, variant, text_parts)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )?;
    // An A/B test's sample is written first: the rest waits after its last message. With
    // overseas numbers, each zone's run is noted as it is written.
    let mut last_of_sample = None;
    let mut runs = Vec::new();
    for m in messages {
        insert.execute(params![
            ticket,
            account,
            m.number as i64,
            m.country,
            m.gsmsmsid,
            m.parts,
            m.cost,
            text_hash,
            row.created_at,
            m.info,
            m.variant,
            m.text_parts
        ])?;
        if m.variant.is_some() {
            last_of_sample = Some(db.last_insert_rowid());
        }
        zones::extend(&mut runs, m.zone, db.last_insert_rowid());
    }
    if row.ab.is_some() {
        db.prepare_cached("UPDATE campaigns SET ab_hold = ? WHERE id = ?")?.execute(params![last_of_sample, ticket])?;
    }
    if let Some(zones) = zones::column(&runs) {
        db.prepare_cached("UPDATE campaigns SET zones = ? WHERE id = ?")?.execute(params![zones, ticket])?;
    }
    let mut usage = db.prepare_cached(
        "INSERT INTO monthly_usage (account_id, month, country, messages) VALUES (?, ?, ?, ?)
         ON CONFLICT (account_id, month, country) DO UPDATE SET messages = messages + excluded.messages",
    )?;
    let mut report = match keeps_counts(messages.len()) {
        true => Some(db.prepare_cached(&super::numbered(WRITTEN_TO_COUNTRY))?),
        false => None,
    };
    for (country, count) in per_country(messages) {
        usage.execute(params![account, time::month(now), country, count])?;
        if let Some(report) = report.as_mut() {
            report.execute(params![ticket, country, count])?;
        }
    }
    if cost > Credits::ZERO {
        super::accounts::move_money(db, &money::debit(account, ticket, cost))?;
        super::balance_alert::after_debit(db, account, available, available - cost, now)?;
    }
    Ok(Some((ticket, available - cost)))
}

const CAMPAIGN_COLUMNS: &str =
    "SELECT id, text, sender, status, send_at, created_at, cost, lists, total, sent, npai, pushtype, paused_at IS NOT NULL,
         validity, template_id, (SELECT journey_id FROM journey_campaigns WHERE campaign_id = campaigns.id) FROM campaigns";

/// One campaign of the account, with its delivery counts.
fn campaign_record(db: &Connection, account: AccountId, ticket: i64) -> Result<Option<CampaignRecord>, Error> {
    let stored = db
        .prepare_cached(&format!("{CAMPAIGN_COLUMNS} WHERE id = ? AND account_id = ?"))?
        .query_row([ticket, account], |row| stored_campaign(row))
        .optional()?;
    let Some(mut record) = stored.map(|stored| with_deliveries(db, stored)).transpose()? else { return Ok(None) };
    if record.text.contains(texto_core::SHORT_MARKER) {
        record.short_links = super::clicks::link_clicks(db, account, ticket)?;
    }
    Ok(Some(record))
}

fn with_deliveries(db: &Connection, mut record: CampaignRecord) -> Result<CampaignRecord, Error> {
    let mut query =
        db.prepare_cached("SELECT delivery, COUNT(*) FROM messages WHERE campaign_id = ? GROUP BY delivery")?;
    for counted in query.query_map([record.id], |row| Ok((row.get(0)?, row.get(1)?)))? {
        let (code, count) = counted?;
        record.deliveries.add(code, count);
    }
    record.stops = db
        .prepare_cached("SELECT COUNT(*) FROM blacklist WHERE campaign_id = ? AND source = 'stop'")?
        .query_row([record.id], |row| row.get(0))?;
    Ok(record)
}

/// The numbers of `table` (blacklist or npai) for the account: only `few` of them when given.
fn numbers_in(db: &Connection, table: &str, account: AccountId, few: Option<&[u64]>) -> Result<Vec<u64>, Error> {
    let mut values = vec![account];
    let sql = match few {
        Some([]) => return Ok(Vec::new()),
        Some(numbers) => {
            values.extend(numbers.iter().map(|n| *n as i64));
            format!("SELECT number FROM {table} WHERE account_id = ? AND number IN ({})", placeholders(numbers.len()))
        }
        None => format!("SELECT number FROM {table} WHERE account_id = ?"),
    };
    let mut query = db.prepare_cached(&sql)?;
    let numbers = query
        .query_map(params_from_iter(values), |row| row.get::<_, i64>(0))?
        .map(|n| n.map(|n| n as u64))
        .collect::<Result<_, _>>()?;
    Ok(numbers)
}
