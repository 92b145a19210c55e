//! Campaigns and messages in SQLite.

use std::collections::{HashMap, HashSet};

use async_trait::async_trait;
use chrono::{DateTime, Datelike, Duration, TimeZone, Utc};
use sqlx::{QueryBuilder, Row, Sqlite, SqlitePool};
use texto_core::{Audience, Contact, Country, Credits, Outcome, RecentSends};

use super::{SqliteStore, time};
use crate::{
    Error,
    store::{AccountId, CampaignRecord, CampaignStatus, CampaignStore, FilterInputs, NewCampaign, Page},
};

/// Requests with more numbers than this read the account's whole blacklist and NPAI list
/// once instead of looking each number up.
const LOOKUP_LIMIT: usize = 500;
/// Rows per INSERT statement (9 values each, under SQLite's 32,766 parameters).
const ROWS_PER_INSERT: usize = 2_000;

#[async_trait]
impl CampaignStore for SqliteStore {
    async fn filter_inputs(&self, account: AccountId, numbers: &[u64], text_hash: i64, now: DateTime<Utc>) -> Result<FilterInputs, Error> {
        let mut inputs = FilterInputs::default();
        let few = (numbers.len() <= LOOKUP_LIMIT).then_some(numbers);
        inputs.blacklist = numbers_in(&self.read, "blacklist", account, few).await?.into_iter().collect();
        inputs.npai = numbers_in(&self.read, "npai", account, few).await?.into_iter().collect();

        let hour_ago = time::store(now - Duration::hours(1));
        // Anti-flood needs the last hour's sends to these numbers. Scanning the account's last
        // hour costs its volume; looking numbers up costs the request's size: take the smaller.
        // Counting stops at the scan budget, so a busy account's hour is never counted in full.
        let budget = numbers.len().saturating_mul(4);
        let volume: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM (SELECT 1 FROM messages WHERE account_id = ? AND created_at >= ? LIMIT ?)",
        )
        .bind(account)
        .bind(&hour_ago)
        .bind(i64::try_from(budget.saturating_add(1)).unwrap_or(i64::MAX))
        .fetch_one(&self.read)
        .await?;
        let chunks: Vec<Option<&[u64]>> = match usize::try_from(volume).unwrap_or(usize::MAX) {
            0 => Vec::new(),
            v if v <= budget => vec![None],
            _ => numbers.chunks(LOOKUP_LIMIT).map(Some).collect(),
        };
        for chunk in chunks {
            let mut recent = QueryBuilder::<Sqlite>::new("SELECT number, COUNT(*), SUM(text_hash = ");
            recent.push_bind(text_hash).push(") FROM messages WHERE account_id = ").push_bind(account);
            recent.push(" AND created_at >= ").push_bind(&hour_ago);
            if let Some(numbers) = chunk {
                recent.push(" AND number IN (");
                let mut list = recent.separated(", ");
                for n in numbers {
                    list.push_bind(*n as i64);
                }
                recent.push(")");
            }
            recent.push(" GROUP BY number");
            for row in recent.build().fetch_all(&self.read).await? {
                let (number, any, identical): (i64, i64, i64) = (row.try_get(0)?, row.try_get(1)?, row.try_get(2)?);
                let count = |n: i64| u32::try_from(n).unwrap_or(u32::MAX);
                inputs.recent.insert(number as u64, RecentSends { identical: count(identical), any: count(any) });
            }
        }

        let rows = sqlx::query("SELECT country, allowed, monthly_cap FROM account_countries WHERE account_id = ?")
            .bind(account)
            .fetch_all(&self.read)
            .await?;
        let mut blocked = HashSet::new();
        for row in rows {
            let Some(country) = Country::from_iso2(row.try_get::<&str, _>(0)?) else { continue };
            if row.try_get::<i64, _>(1)? == 0 {
                blocked.insert(country);
            }
            if let Some(cap) = row.try_get::<Option<i64>, _>(2)? {
                inputs.monthly_caps.insert(country, cap.max(0) as u64);
            }
        }
        if !blocked.is_empty() {
            inputs.allowed_countries = Some(Country::all().filter(|c| !blocked.contains(c)).collect());
        }
        if !inputs.monthly_caps.is_empty() {
            let month_start = Utc.with_ymd_and_hms(now.year(), now.month(), 1, 0, 0, 0).single().unwrap_or(now);
            let usage = sqlx::query("SELECT country, COUNT(*) FROM messages WHERE account_id = ? AND created_at >= ? GROUP BY country")
                .bind(account)
                .bind(time::store(month_start))
                .fetch_all(&self.read)
                .await?;
            for row in usage {
                if let Some(country) = Country::from_iso2(row.try_get::<&str, _>(0)?) {
                    inputs.monthly_usage.insert(country, row.try_get::<i64, _>(1)?.max(0) as u64);
                }
            }
        }
        inputs.balance = Credits::from_hundredths(
            sqlx::query_scalar("SELECT balance FROM accounts WHERE id = ?").bind(account).fetch_one(&self.read).await?,
        );
        Ok(inputs)
    }

    async fn list_contacts(&self, account: AccountId, ids: &[String]) -> Result<HashMap<String, Vec<Contact>>, Error> {
        let mut lists = HashMap::new();
        for id in ids {
            let Ok(list_id) = id.parse::<i64>() else { continue };
            if !super::lists::owns_list(&self.read, account, list_id).await? {
                continue;
            }
            let rows = sqlx::query("SELECT number, info1, info2, info3, info4 FROM contacts WHERE list_id = ? ORDER BY id")
                .bind(list_id)
                .fetch_all(&self.read)
                .await?;
            let contacts = rows
                .iter()
                .map(|row| {
                    Ok(Contact {
                        number: row.try_get::<i64, _>(0)?.to_string(),
                        info: [row.try_get(1)?, row.try_get(2)?, row.try_get(3)?, row.try_get(4)?],
                    })
                })
                .collect::<Result<Vec<_>, sqlx::Error>>()?;
            lists.insert(id.clone(), contacts);
        }
        Ok(lists)
    }

    async fn create_campaign(&self, account: AccountId, new: NewCampaign<'_>) -> Result<(i64, Credits), Error> {
        let simulation = new.simulation;
        let campaign = new.campaign;
        let now = time::store(new.now);
        let mut tx = self.write.begin().await?;
        let balance = Credits::from_hundredths(
            sqlx::query_scalar("SELECT balance FROM accounts WHERE id = ?").bind(account).fetch_one(&mut *tx).await?,
        );
        if simulation.cost > balance {
            return Err(Error::NotEnoughCredits { cost: simulation.cost, balance });
        }
        let lists = match campaign.audience() {
            Audience::Lists(ids) => ids.clone(),
            Audience::Numbers(_) => Vec::new(),
        };
        let c = &simulation.counters;
        let ticket: i64 = sqlx::query_scalar(
            "INSERT INTO campaigns (account_id, text, pushtype, sender, links, lists, unicode, status, send_at, created_at, cost,
                 total, sent, blacklisted, duplicated, invalid, npai, not_allowed, flood, country_limit)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        )
        .bind(account)
        .bind(campaign.text())
        .bind(campaign.pushtype().as_str())
        .bind(campaign.sender().map(|s| s.as_str().to_owned()))
        .bind(serde_json::to_string(campaign.links()).unwrap_or_default())
        .bind(serde_json::to_string(&lists).unwrap_or_default())
        .bind(campaign.unicode())
        .bind(new.status.as_str())
        .bind(time::store(simulation.send_at))
        .bind(&now)
        .bind(simulation.cost.hundredths())
        .bind(c.total as i64)
        .bind(c.sent as i64)
        .bind(c.blacklisted as i64)
        .bind(c.duplicated as i64)
        .bind(c.invalid as i64)
        .bind(c.npai as i64)
        .bind(c.not_allowed as i64)
        .bind(c.flood as i64)
        .bind(c.country_limit as i64)
        .fetch_one(&mut *tx)
        .await?;

        let sent = simulation
            .outcomes
            .iter()
            .enumerate()
            .filter(|(_, o)| o.outcome == Outcome::Sent)
            .filter_map(|(i, o)| o.number.map(|n| (i, n, o)));
        let mut batch = Vec::with_capacity(ROWS_PER_INSERT);
        for row in sent {
            batch.push(row);
            if batch.len() == ROWS_PER_INSERT {
                insert_messages(&mut tx, ticket, account, &new, &now, &batch).await?;
                batch.clear();
            }
        }
        insert_messages(&mut tx, ticket, account, &new, &now, &batch).await?;

        if simulation.cost > Credits::ZERO {
            sqlx::query("INSERT INTO ledger (account_id, amount, kind, campaign_id) VALUES (?, ?, 'debit', ?)")
                .bind(account)
                .bind(-simulation.cost.hundredths())
                .bind(ticket)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok((ticket, balance - simulation.cost))
    }

    async fn cancel_campaign(&self, account: AccountId, ticket: i64) -> Result<CampaignRecord, Error> {
        let mut tx = self.write.begin().await?;
        let row = sqlx::query("SELECT status, cost FROM campaigns WHERE id = ? AND account_id = ?")
            .bind(ticket)
            .bind(account)
            .fetch_optional(&mut *tx)
            .await?
            .ok_or_else(|| Error::NotFound(format!("campaign {ticket}")))?;
        let status: String = row.try_get(0)?;
        if status != CampaignStatus::Scheduled.as_str() {
            return Err(Error::Invalid(vec![texto_core::FieldError::new(
                "ticket",
                format!("campaign {ticket} is {status}: only a scheduled campaign can be cancelled"),
            )]));
        }
        let cost: i64 = row.try_get(1)?;
        sqlx::query("UPDATE campaigns SET status = 'cancelled' WHERE id = ?").bind(ticket).execute(&mut *tx).await?;
        if cost > 0 {
            sqlx::query("INSERT INTO ledger (account_id, amount, kind, campaign_id) VALUES (?, ?, 'refund', ?)")
                .bind(account)
                .bind(cost)
                .bind(ticket)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        self.campaign(account, ticket).await?.ok_or_else(|| Error::NotFound(format!("campaign {ticket}")))
    }

    async fn campaigns(&self, account: AccountId, page: Page) -> Result<(Vec<CampaignRecord>, i64), Error> {
        let page = page.clamped();
        let total: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM campaigns WHERE account_id = ?").bind(account).fetch_one(&self.read).await?;
        let rows = sqlx::query(&format!("{CAMPAIGN_COLUMNS} WHERE account_id = ? ORDER BY id DESC LIMIT ? OFFSET ?"))
            .bind(account)
            .bind(page.length)
            .bind(page.start)
            .fetch_all(&self.read)
            .await?;
        let mut records = Vec::with_capacity(rows.len());
        for row in rows {
            records.push(record(&self.read, &row).await?);
        }
        Ok((records, total))
    }

    async fn campaign(&self, account: AccountId, ticket: i64) -> Result<Option<CampaignRecord>, Error> {
        let row = sqlx::query(&format!("{CAMPAIGN_COLUMNS} WHERE id = ? AND account_id = ?"))
            .bind(ticket)
            .bind(account)
            .fetch_optional(&self.read)
            .await?;
        match row {
            Some(row) => Ok(Some(record(&self.read, &row).await?)),
            None => Ok(None),
        }
    }
}

const CAMPAIGN_COLUMNS: &str = "SELECT id, text, sender, status, send_at, created_at, cost, lists, total, sent, npai FROM campaigns";

async fn record(db: &SqlitePool, row: &sqlx::sqlite::SqliteRow) -> Result<CampaignRecord, Error> {
    let id: i64 = row.try_get(0)?;
    let status: String = row.try_get(3)?;
    let deliveries = sqlx::query("SELECT delivery, COUNT(*) FROM messages WHERE campaign_id = ? GROUP BY delivery")
        .bind(id)
        .fetch_all(db)
        .await?
        .iter()
        .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
        .collect::<Result<HashMap<i64, i64>, sqlx::Error>>()?;
    Ok(CampaignRecord {
        id,
        text: row.try_get(1)?,
        sender: row.try_get(2)?,
        status: CampaignStatus::parse(&status).unwrap_or(CampaignStatus::Sent),
        send_at: time::load(row.try_get(4)?),
        created_at: time::load(row.try_get(5)?),
        cost: Credits::from_hundredths(row.try_get(6)?),
        lists: serde_json::from_str(row.try_get(7)?).unwrap_or_default(),
        total: row.try_get(8)?,
        sent: row.try_get(9)?,
        deliveries,
        npai: row.try_get(10)?,
    })
}

/// The numbers of `table` (blacklist or npai) for the account: only `few` of them when given.
async fn numbers_in(db: &SqlitePool, table: &str, account: AccountId, few: Option<&[u64]>) -> Result<Vec<u64>, Error> {
    let mut query = QueryBuilder::<Sqlite>::new(format!("SELECT number FROM {table} WHERE account_id = "));
    query.push_bind(account);
    if let Some(numbers) = few {
        if numbers.is_empty() {
            return Ok(Vec::new());
        }
        query.push(" AND number IN (");
        let mut list = query.separated(", ");
        for n in numbers {
            list.push_bind(*n as i64);
        }
        query.push(")");
    }
    let rows: Vec<i64> = query.build_query_scalar().fetch_all(db).await?;
    Ok(rows.into_iter().map(|n| n as u64).collect())
}

async fn insert_messages(
    tx: &mut sqlx::Transaction<'_, Sqlite>,
    ticket: i64,
    account: AccountId,
    new: &NewCampaign<'_>,
    now: &str,
    rows: &[(usize, texto_core::Msisdn, &texto_core::RecipientOutcome)],
) -> Result<(), Error> {
    if rows.is_empty() {
        return Ok(());
    }
    let mut insert = QueryBuilder::<Sqlite>::new(
        "INSERT INTO messages (campaign_id, account_id, number, country, gsmsmsid, parts, cost, text_hash, created_at) ",
    );
    insert.push_values(rows, |mut values, (index, number, outcome)| {
        values
            .push_bind(ticket)
            .push_bind(account)
            .push_bind(number.as_u64() as i64)
            .push_bind(number.country().iso2())
            .push_bind(new.gsmsmsids.get(*index).copied().flatten())
            .push_bind(outcome.parts as i64)
            .push_bind(outcome.cost.hundredths())
            .push_bind(new.text_hash)
            .push_bind(now);
    });
    insert.build().execute(&mut **tx).await?;
    Ok(())
}
