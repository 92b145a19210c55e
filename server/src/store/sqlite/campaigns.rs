//! Campaigns and messages in SQLite.

use std::{
    collections::{HashMap, HashSet},
    sync::Arc,
};

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use rusqlite::{Connection, OptionalExtension, params, params_from_iter};
use texto_core::{Audience, Contact, Country, Credits, Outcome};

use super::{
    SqliteStore,
    accounts::{balance, flood_limits},
    time,
};
use crate::{
    Error,
    db::placeholders,
    store::{AccountId, CampaignRecord, CampaignStatus, CampaignStore, FilterInputs, NewCampaign, Page},
};

/// Requests with more numbers than this read the account's whole blacklist and NPAI list
/// once instead of looking each number up.
const LOOKUP_LIMIT: usize = 500;

/// Requests with at most this many numbers read the account's inputs on the async thread:
/// they are a few index look-ups.
const LOOK_UP_HERE_LIMIT: usize = 16;

/// A campaign's row, owned so that it can travel to the writer thread.
struct CampaignRow {
    text: String,
    pushtype: &'static str,
    sender: Option<String>,
    links: String,
    lists: String,
    unicode: bool,
    status: &'static str,
    send_at: String,
    created_at: String,
    /// `YYYY-MM` of `created_at`, for the monthly usage counters.
    month: String,
    cost: Credits,
    counters: [i64; 9],
}

/// A message's row: number, country, client id, parts, cost and contact fields (JSON).
type MessageRow = (u64, &'static str, Option<String>, i64, i64, Option<String>);

#[async_trait]
impl CampaignStore for SqliteStore {
    async fn filter_inputs(&self, account: AccountId, numbers: &[u64], text_hash: i64, now: DateTime<Utc>) -> Result<FilterInputs, Error> {
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
                    let mut query = db.prepare_cached("SELECT number, info1, info2, info3, info4 FROM contacts WHERE list_id = ? ORDER BY id")?;
                    let contacts = query
                        .query_map([list_id], |row| {
                            Ok(Contact { number: row.get::<_, i64>(0)?.to_string(), info: [row.get(1)?, row.get(2)?, row.get(3)?, row.get(4)?] })
                        })?
                        .collect::<Result<Vec<_>, _>>()?;
                    lists.insert(id, contacts);
                }
                Ok(lists)
            })
            .await
    }

    async fn create_campaign(&self, account: AccountId, new: NewCampaign<'_>) -> Result<(i64, Credits), Error> {
        let simulation = new.simulation;
        let campaign = new.campaign;
        let lists = match campaign.audience() {
            Audience::Lists(ids) => ids.clone(),
            Audience::Numbers(_) => Vec::new(),
        };
        let c = &simulation.counters;
        let row = CampaignRow {
            text: campaign.text().to_owned(),
            pushtype: campaign.pushtype().as_str(),
            sender: campaign.sender().map(|s| s.as_str().to_owned()),
            links: serde_json::to_string(campaign.links()).unwrap_or_default(),
            lists: serde_json::to_string(&lists).unwrap_or_default(),
            unicode: campaign.unicode(),
            status: new.status.as_str(),
            send_at: time::store(simulation.send_at),
            created_at: time::store(new.now),
            month: time::month(new.now),
            cost: simulation.cost,
            counters: [c.total, c.sent, c.blacklisted, c.duplicated, c.invalid, c.npai, c.not_allowed, c.flood, c.country_limit]
                .map(|n| i64::try_from(n).unwrap_or(i64::MAX)),
        };
        let messages: Vec<MessageRow> = simulation
            .outcomes
            .iter()
            .enumerate()
            .filter(|(_, o)| o.outcome == Outcome::Sent)
            .filter_map(|(i, o)| {
                let number = o.number?;
                let gsmsmsid = new.gsmsmsids.get(i).copied().flatten().map(str::to_owned);
                let info = new.infos.get(i).cloned().flatten();
                Some((number.as_u64(), number.country().iso2(), gsmsmsid, i64::from(o.parts), o.cost.hundredths(), info))
            })
            .collect();
        let (text_hash, now, flood) = (new.text_hash, new.now, Arc::clone(&self.flood));
        // The window learns of the messages on the writer thread, right after they are written:
        // a campaign stands once queued, even if its client goes away before the answer. (Should
        // the commit then fail, the window counts texts never sent: it errs toward fewer texts.)
        self.db
            .write(move |db| {
                let written = write_campaign(db, account, &row, &messages, text_hash, now)?;
                flood.record(account, messages.iter().map(|m| m.0), text_hash, now);
                Ok(written)
            })
            .await
    }

    async fn cancel_campaign(&self, account: AccountId, ticket: i64) -> Result<CampaignRecord, Error> {
        self.db
            .write(move |db| {
                let found = db
                    .query_row("SELECT status, cost FROM campaigns WHERE id = ? AND account_id = ?", [ticket, account], |row| {
                        Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)?))
                    })
                    .optional()?;
                let (status, cost) = found.ok_or_else(|| Error::NotFound(format!("campaign {ticket}")))?;
                if status != CampaignStatus::Scheduled.as_str() {
                    return Err(Error::Invalid(vec![texto_core::FieldError::new(
                        "ticket",
                        format!("campaign {ticket} is {status}: only a scheduled campaign can be cancelled"),
                    )]));
                }
                db.execute("UPDATE campaigns SET status = 'cancelled' WHERE id = ?", [ticket])?;
                if cost > 0 {
                    db.execute("INSERT INTO ledger (account_id, amount, kind, campaign_id) VALUES (?, ?, 'refund', ?)", [account, cost, ticket])?;
                }
                campaign_record(db, account, ticket)?.ok_or_else(|| Error::NotFound(format!("campaign {ticket}")))
            })
            .await
    }

    async fn campaigns(&self, account: AccountId, page: Page) -> Result<(Vec<CampaignRecord>, i64), Error> {
        let page = page.clamped();
        self.db
            .read(move |db| {
                let total: i64 = db.query_row("SELECT COUNT(*) FROM campaigns WHERE account_id = ?", [account], |row| row.get(0))?;
                let mut query = db.prepare_cached(&format!("{CAMPAIGN_COLUMNS} WHERE account_id = ? ORDER BY id DESC LIMIT ? OFFSET ?"))?;
                let rows = query.query_map([account, page.length, page.start], stored_campaign)?.collect::<Result<Vec<_>, _>>()?;
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
fn account_inputs(db: &Connection, account: AccountId, few: Option<&[u64]>, now: DateTime<Utc>) -> Result<FilterInputs, Error> {
    let mut inputs = FilterInputs {
        blacklist: numbers_in(db, "blacklist", account, few)?.into_iter().collect(),
        npai: numbers_in(db, "npai", account, few)?.into_iter().collect(),
        ..FilterInputs::default()
    };
    let mut query = db.prepare_cached("SELECT country, allowed, monthly_cap FROM account_countries WHERE account_id = ?")?;
    let rows = query.query_map([account], |row| Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)?, row.get::<_, Option<i64>>(2)?)))?;
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
        let mut usage = db.prepare_cached("SELECT country, messages FROM monthly_usage WHERE account_id = ? AND month = ?")?;
        let rows = usage.query_map(params![account, time::month(now)], |row| Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)?)))?;
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

/// Writes the campaign, its messages and the debit; refuses (writing nothing) if the balance,
/// read here on the writer connection, does not cover the cost.
fn write_campaign(db: &Connection, account: AccountId, row: &CampaignRow, messages: &[MessageRow], text_hash: i64, now: DateTime<Utc>) -> Result<(i64, Credits), Error> {
    let available = Credits::from_hundredths(balance(db, account)?);
    if row.cost > available {
        return Err(Error::NotEnoughCredits { cost: row.cost, balance: available });
    }
    let [total, sent, blacklisted, duplicated, invalid, npai, not_allowed, flood, country_limit] = row.counters;
    let ticket: i64 = db
        .prepare_cached(
            "INSERT INTO campaigns (account_id, text, pushtype, sender, links, lists, unicode, status, send_at, created_at, cost,
                 total, sent, blacklisted, duplicated, invalid, npai, not_allowed, flood, country_limit)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        )?
        .query_row(
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
                row.cost.hundredths(),
                total,
                sent,
                blacklisted,
                duplicated,
                invalid,
                npai,
                not_allowed,
                flood,
                country_limit
            ],
            |r| r.get(0),
        )?;
    let mut insert = db.prepare_cached(
        "INSERT INTO messages (campaign_id, account_id, number, country, gsmsmsid, parts, cost, text_hash, created_at, info)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )?;
    for (number, country, gsmsmsid, parts, cost, info) in messages {
        insert.execute(params![ticket, account, *number as i64, country, gsmsmsid, parts, cost, text_hash, row.created_at, info])?;
    }
    let mut usage = db.prepare_cached(
        "INSERT INTO monthly_usage (account_id, month, country, messages) VALUES (?, ?, ?, ?)
         ON CONFLICT (account_id, month, country) DO UPDATE SET messages = messages + excluded.messages",
    )?;
    for (country, count) in per_country(messages) {
        usage.execute(params![account, row.month, country, count])?;
    }
    if row.cost > Credits::ZERO {
        db.prepare_cached("INSERT INTO ledger (account_id, amount, kind, campaign_id) VALUES (?, ?, 'debit', ?)")?
            .execute(params![account, -row.cost.hundredths(), ticket])?;
        super::balance_alert::after_debit(db, account, available, available - row.cost, now)?;
    }
    Ok((ticket, available - row.cost))
}

/// Messages per country, in a stable order.
fn per_country(messages: &[MessageRow]) -> std::collections::BTreeMap<&'static str, i64> {
    let mut counts = std::collections::BTreeMap::new();
    for (_, country, ..) in messages {
        *counts.entry(*country).or_insert(0) += 1;
    }
    counts
}

const CAMPAIGN_COLUMNS: &str = "SELECT id, text, sender, status, send_at, created_at, cost, lists, total, sent, npai, pushtype FROM campaigns";

/// One campaign of the account, with its delivery counts.
fn campaign_record(db: &Connection, account: AccountId, ticket: i64) -> Result<Option<CampaignRecord>, Error> {
    let stored = db
        .prepare_cached(&format!("{CAMPAIGN_COLUMNS} WHERE id = ? AND account_id = ?"))?
        .query_row([ticket, account], stored_campaign)
        .optional()?;
    let Some(mut record) = stored.map(|stored| with_deliveries(db, stored)).transpose()? else { return Ok(None) };
    if record.text.contains(texto_core::SHORT_MARKER) {
        record.short_links = super::clicks::link_clicks(db, account, ticket)?;
    }
    Ok(Some(record))
}

/// A row of [`CAMPAIGN_COLUMNS`], its delivery counts still empty.
fn stored_campaign(row: &rusqlite::Row<'_>) -> rusqlite::Result<CampaignRecord> {
    let status: String = row.get(3)?;
    Ok(CampaignRecord {
        id: row.get(0)?,
        text: row.get(1)?,
        sender: row.get(2)?,
        pushtype: row.get(11)?,
        status: CampaignStatus::parse(&status).unwrap_or(CampaignStatus::Sent),
        send_at: time::load(&row.get::<_, String>(4)?),
        created_at: time::load(&row.get::<_, String>(5)?),
        cost: Credits::from_hundredths(row.get(6)?),
        lists: serde_json::from_str(&row.get::<_, String>(7)?).unwrap_or_default(),
        total: row.get(8)?,
        sent: row.get(9)?,
        deliveries: HashMap::new(),
        npai: row.get(10)?,
        stops: 0,
        short_links: None,
    })
}

fn with_deliveries(db: &Connection, mut record: CampaignRecord) -> Result<CampaignRecord, Error> {
    let mut query = db.prepare_cached("SELECT delivery, COUNT(*) FROM messages WHERE campaign_id = ? GROUP BY delivery")?;
    record.deliveries = query.query_map([record.id], |row| Ok((row.get(0)?, row.get(1)?)))?.collect::<Result<_, _>>()?;
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
    let numbers = query.query_map(params_from_iter(values), |row| row.get::<_, i64>(0))?.map(|n| n.map(|n| n as u64)).collect::<Result<_, _>>()?;
    Ok(numbers)
}
