//! Campaigns and messages in PostgreSQL. A campaign, its messages (by binary COPY), its monthly
//! counters and its debit are one transaction, safe against the sends of other nodes for the
//! same account: the debit is one conditional `UPDATE` of the balance (which also queues the
//! account's sends behind each other until commit), and each country's counter is moved on its
//! locked row and checked against the cap there. The transaction takes its locks late (after
//! the COPY) and always in the same order: the account's row, then the counters by country.

use std::{
    collections::{BTreeMap, HashMap, HashSet},
    pin::pin,
};

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use deadpool_postgres::{GenericClient, Transaction};
use futures_util::future::{try_join, try_join5};
use rustc_hash::FxHashSet;
use texto_core::{Audience, Contact, Country, Credits, FieldError, Outcome};
use tokio_postgres::{
    Row,
    binary_copy::BinaryCopyInWriter,
    types::{ToSql, Type},
};

use super::{
    PgStore,
    accounts::{balance, flood_limits},
    balance_alert, campaign_records, flood_sync, time,
};
use crate::{
    Error,
    store::{AccountId, CampaignRecord, CampaignStatus, CampaignStore, FilterInputs, NewCampaign, Page},
};

/// Requests with more numbers than this read the account's whole blacklist and NPAI list
/// once instead of looking each number up.
const LOOKUP_LIMIT: usize = 500;

/// The COPY of a campaign's messages: the columns SQLite inserts, typed by [`MESSAGE_TYPES`].
const COPY_MESSAGES: &str =
    "COPY messages (campaign_id, account_id, number, country, gsmsmsid, parts, cost, text_hash, created_at, info) FROM STDIN BINARY";

/// The types of the columns of [`COPY_MESSAGES`], in order.
const MESSAGE_TYPES: [Type; 10] = [Type::INT8, Type::INT8, Type::INT8, Type::TEXT, Type::TEXT, Type::INT8, Type::INT8, Type::INT8, Type::TEXT, Type::TEXT];

/// A message to write, borrowed from the campaign being created.
struct MessageRow<'a> {
    /// The recipient.
    number: u64,
    /// Its country (ISO 3166 alpha-2).
    country: &'static str,
    /// The client's id of the message.
    gsmsmsid: Option<&'a str>,
    /// SMS parts.
    parts: i64,
    /// Its cost in hundredths.
    cost: i64,
    /// The contact's info1…info4 as JSON.
    info: Option<&'a str>,
}

#[async_trait]
impl CampaignStore for PgStore {
    async fn filter_inputs(&self, account: AccountId, numbers: &[u64], text_hash: i64, now: DateTime<Utc>) -> Result<FilterInputs, Error> {
        let few = (numbers.len() <= LOOKUP_LIMIT).then(|| numbers.iter().map(|&n| n as i64).collect::<Vec<i64>>());
        let client = self.pool.get().await?;
        // Other nodes' sends for the account first, so that the filter counts them.
        flood_sync::sync(&client, &self.flood, &self.synced, account, now).await?;
        let mut inputs = account_inputs(&client, account, few.as_deref(), now).await?;
        inputs.recent = self.flood.recent(account, numbers, text_hash, now);
        Ok(inputs)
    }

    async fn list_contacts(&self, account: AccountId, ids: &[String]) -> Result<HashMap<String, Vec<Contact>>, Error> {
        let wanted: Vec<i64> = ids.iter().filter_map(|id| id.parse().ok()).collect();
        if wanted.is_empty() {
            return Ok(HashMap::new());
        }
        let client = self.pool.get().await?;
        let owned = query(&client, "SELECT id FROM lists WHERE account_id = $1 AND id = ANY($2)", &[&account, &wanted]).await?;
        let owned: Vec<i64> = owned.iter().map(|row| row.get(0)).collect();
        let rows = query(&client, "SELECT list_id, number, info1, info2, info3, info4 FROM contacts WHERE list_id = ANY($1) ORDER BY id", &[&owned]).await?;
        let mut by_list: HashMap<i64, Vec<Contact>> = owned.iter().map(|&id| (id, Vec::new())).collect();
        for row in &rows {
            if let Some(contacts) = by_list.get_mut(&row.get(0)) {
                contacts.push(Contact { number: row.get::<_, i64>(1).to_string(), info: [row.get(2), row.get(3), row.get(4), row.get(5)] });
            }
        }
        // Ids naming one list twice ("7", "07") each get its contacts; the last one takes them.
        let mut uses: HashMap<i64, usize> = HashMap::new();
        for list_id in &wanted {
            *uses.entry(*list_id).or_default() += 1;
        }
        let mut lists = HashMap::new();
        for id in ids {
            let Ok(list_id) = id.parse::<i64>() else { continue };
            let left = uses.entry(list_id).or_default();
            *left = left.saturating_sub(1);
            let contacts = if *left == 0 { by_list.remove(&list_id) } else { by_list.get(&list_id).cloned() };
            if let Some(contacts) = contacts {
                lists.insert(id.clone(), contacts);
            }
        }
        Ok(lists)
    }

    async fn create_campaign(&self, account: AccountId, new: NewCampaign<'_>) -> Result<(i64, Credits), Error> {
        let cost = new.simulation.cost;
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        // The account's row first: its campaigns are written one at a time over all nodes, and
        // the anti-flood window is brought up to date and checked again (flood_sync).
        query(&tx, "SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE", &[&account]).await?;
        let numbers: Vec<u64> = message_rows(&new).map(|m| m.number).collect();
        flood_sync::sync(&tx, &self.flood, &self.synced, account, new.now).await?;
        if !numbers.is_empty() && flood_sync::over_limits(&self.flood, account, &numbers, new.text_hash, flood_limits(&tx, account).await?, new.now) {
            return Err(Error::Contended("another send to these numbers was written meanwhile: send again".into()));
        }
        let ticket = insert_campaign(&tx, account, &new).await?;
        copy_messages(&tx, account, ticket, &new).await?;
        let after = debit(&tx, account, cost).await?;
        count_usage(&tx, account, &new).await?;
        if cost > Credits::ZERO {
            let amount = -cost.hundredths();
            let ledger = tx.prepare_cached("INSERT INTO ledger (account_id, amount, kind, campaign_id) VALUES ($1, $2, 'debit', $3)").await?;
            tx.execute(&ledger, &[&account, &amount, &ticket]).await?;
            balance_alert::after_debit(&tx, account, after + cost, after, new.now).await?;
        }
        // The window learns of the messages once they are written, before the commit: a
        // campaign stands once queued, even if its client goes away before the answer. (Should
        // the commit then fail, the window counts texts never sent: it errs toward fewer texts.)
        self.flood.record(account, numbers, new.text_hash, new.now);
        self.synced.advance(account, ticket);
        tx.commit().await?;
        Ok((ticket, after))
    }

    async fn cancel_campaign(&self, account: AccountId, ticket: i64) -> Result<CampaignRecord, Error> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        // The row stays locked until the commit: a second cancel (on any node) waits, then
        // finds the campaign cancelled and refunds nothing.
        let found = query(&tx, "SELECT status, cost FROM campaigns WHERE id = $1 AND account_id = $2 FOR UPDATE", &[&ticket, &account]).await?;
        let row = found.first().ok_or_else(|| Error::NotFound(format!("campaign {ticket}")))?;
        let (status, cost): (String, i64) = (row.get(0), row.get(1));
        if status != CampaignStatus::Scheduled.as_str() {
            return Err(Error::Invalid(vec![FieldError::new(
                "ticket",
                format!("campaign {ticket} is {status}: only a scheduled campaign can be cancelled"),
            )]));
        }
        query(&tx, "UPDATE campaigns SET status = 'cancelled' WHERE id = $1", &[&ticket]).await?;
        if cost > 0 {
            query(&tx, "INSERT INTO ledger (account_id, amount, kind, campaign_id) VALUES ($1, $2, 'refund', $3)", &[&account, &cost, &ticket]).await?;
            query(&tx, "UPDATE accounts SET balance = balance + $1 WHERE id = $2", &[&cost, &account]).await?;
        }
        let record = campaign_records::campaign_record(&tx, account, ticket).await?.ok_or_else(|| Error::NotFound(format!("campaign {ticket}")))?;
        tx.commit().await?;
        Ok(record)
    }

    async fn campaigns(&self, account: AccountId, page: Page) -> Result<(Vec<CampaignRecord>, i64), Error> {
        let client = self.pool.get().await?;
        campaign_records::campaign_page(&client, account, page.clamped()).await
    }

    async fn campaign(&self, account: AccountId, ticket: i64) -> Result<Option<CampaignRecord>, Error> {
        let client = self.pool.get().await?;
        campaign_records::campaign_record(&client, account, ticket).await
    }
}

/// Runs `sql`, prepared once per connection, with `params`.
pub(super) async fn query(db: &impl GenericClient, sql: &str, params: &[&(dyn ToSql + Sync)]) -> Result<Vec<Row>, Error> {
    let statement = db.prepare_cached(sql).await?;
    Ok(db.query(&statement, params).await?)
}

/// Everything the filter needs from the database: blacklist and NPAI (of `few` numbers, or
/// all), the country rules and their month's usage, the balance and the anti-flood limits;
/// the queries go out together on the connection.
async fn account_inputs(db: &impl GenericClient, account: AccountId, few: Option<&[i64]>, now: DateTime<Utc>) -> Result<FilterInputs, Error> {
    let month = time::month(now);
    let (blacklist, npai, countries, usage, (balance, flood)) = try_join5(
        numbers_in(db, "blacklist", account, few),
        numbers_in(db, "npai", account, few),
        query(db, "SELECT country, allowed, monthly_cap FROM account_countries WHERE account_id = $1", &[&account]),
        query(db, "SELECT country, messages FROM monthly_usage WHERE account_id = $1 AND month = $2", &[&account, &month]),
        try_join(balance(db, account), flood_limits(db, account)),
    )
    .await?;
    let mut inputs = FilterInputs { blacklist, npai, ..FilterInputs::default() };
    let mut blocked = HashSet::new();
    for row in &countries {
        let Some(country) = Country::from_iso2(row.get(0)) else { continue };
        if !row.get::<_, bool>(1) {
            blocked.insert(country);
        }
        if let Some(cap) = row.get::<_, Option<i64>>(2) {
            inputs.monthly_caps.insert(country, cap.max(0) as u64);
        }
    }
    if !blocked.is_empty() {
        inputs.allowed_countries = Some(Country::all().filter(|c| !blocked.contains(c)).collect());
    }
    if !inputs.monthly_caps.is_empty() {
        for row in &usage {
            if let Some(country) = Country::from_iso2(row.get(0)) {
                inputs.monthly_usage.insert(country, row.get::<_, i64>(1).max(0) as u64);
            }
        }
    }
    inputs.balance = Credits::from_hundredths(balance);
    inputs.flood = flood;
    Ok(inputs)
}

/// The numbers of `table` (blacklist or npai) for the account: only `few` of them when given.
async fn numbers_in(db: &impl GenericClient, table: &str, account: AccountId, few: Option<&[i64]>) -> Result<FxHashSet<u64>, Error> {
    let rows = match few {
        Some([]) => return Ok(FxHashSet::default()),
        Some(numbers) => query(db, &format!("SELECT number FROM {table} WHERE account_id = $1 AND number = ANY($2)"), &[&account, &numbers]).await?,
        None => query(db, &format!("SELECT number FROM {table} WHERE account_id = $1"), &[&account]).await?,
    };
    Ok(rows.iter().map(|row| row.get::<_, i64>(0) as u64).collect())
}

/// The messages of a campaign: one per recipient the filter let through, in request order.
fn message_rows<'a>(new: &'a NewCampaign<'_>) -> impl Iterator<Item = MessageRow<'a>> {
    new.simulation.outcomes.iter().enumerate().filter(|(_, o)| o.outcome == Outcome::Sent).filter_map(move |(i, o)| {
        let number = o.number?;
        Some(MessageRow {
            number: number.as_u64(),
            country: number.country().iso2(),
            gsmsmsid: new.gsmsmsids.get(i).copied().flatten(),
            parts: i64::from(o.parts),
            cost: o.cost.hundredths(),
            info: new.infos.get(i).and_then(Option::as_deref),
        })
    })
}

/// Writes the campaign's row with the filter's counters; its ticket.
async fn insert_campaign(tx: &Transaction<'_>, account: AccountId, new: &NewCampaign<'_>) -> Result<i64, Error> {
    let (campaign, simulation) = (new.campaign, new.simulation);
    let lists = match campaign.audience() {
        Audience::Lists(ids) => serde_json::to_string(ids).unwrap_or_default(),
        Audience::Numbers(_) => serde_json::to_string(&Vec::<String>::new()).unwrap_or_default(),
    };
    let links = serde_json::to_string(campaign.links()).unwrap_or_default();
    let c = &simulation.counters;
    let [total, sent, blacklisted, duplicated, invalid, npai, not_allowed, flood, country_limit] =
        [c.total, c.sent, c.blacklisted, c.duplicated, c.invalid, c.npai, c.not_allowed, c.flood, c.country_limit].map(|n| i64::try_from(n).unwrap_or(i64::MAX));
    let (send_at, created_at, cost) = (time::store(simulation.send_at), time::store(new.now), simulation.cost.hundredths());
    let sender = campaign.sender().map(|s| s.as_str());
    let insert = tx
        .prepare_cached(
            "INSERT INTO campaigns (account_id, text, pushtype, sender, links, lists, unicode, status, send_at, created_at, cost,
                 total, sent, blacklisted, duplicated, invalid, npai, not_allowed, flood, country_limit)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20) RETURNING id",
        )
        .await?;
    let row = tx
        .query_one(
            &insert,
            &[
                &account,
                &campaign.text(),
                &campaign.pushtype().as_str(),
                &sender,
                &links,
                &lists,
                &campaign.unicode(),
                &new.status.as_str(),
                &send_at,
                &created_at,
                &cost,
                &total,
                &sent,
                &blacklisted,
                &duplicated,
                &invalid,
                &npai,
                &not_allowed,
                &flood,
                &country_limit,
            ],
        )
        .await?;
    Ok(row.get(0))
}

/// Copies the campaign's messages in (binary COPY: a million rows take seconds).
async fn copy_messages(tx: &Transaction<'_>, account: AccountId, ticket: i64, new: &NewCampaign<'_>) -> Result<(), Error> {
    let mut rows = message_rows(new).peekable();
    if rows.peek().is_none() {
        return Ok(());
    }
    let created_at = time::store(new.now);
    let sink = tx.copy_in(COPY_MESSAGES).await?;
    let mut writer = pin!(BinaryCopyInWriter::new(sink, &MESSAGE_TYPES));
    for m in rows {
        let number = m.number as i64;
        writer
            .as_mut()
            .write(&[&ticket, &account, &number, &m.country, &m.gsmsmsid, &m.parts, &m.cost, &new.text_hash, &created_at, &m.info])
            .await?;
    }
    writer.finish().await?;
    Ok(())
}

/// Takes `cost` off the balance in one conditional statement, which locks the account's row
/// until the commit; the balance after. [`Error::NotEnoughCredits`] (with the balance as it
/// is) when it does not cover the cost.
async fn debit(tx: &Transaction<'_>, account: AccountId, cost: Credits) -> Result<Credits, Error> {
    let hundredths = cost.hundredths();
    let debited = query(tx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance >= $1 RETURNING balance", &[&hundredths, &account]).await?;
    if let Some(row) = debited.first() {
        return Ok(Credits::from_hundredths(row.get(0)));
    }
    Err(Error::NotEnoughCredits { cost, balance: Credits::from_hundredths(balance(tx, account).await?) })
}

/// Adds the campaign's messages to this month's counters, country by country in a stable
/// order (each counter row stays locked until the commit). A country whose count then passes
/// its cap was counted meanwhile by another send of the account, since the filter read it:
/// the campaign is refused (the transaction is dropped, nothing is written), and sent again it
/// is filtered against the counter as it now is.
async fn count_usage(tx: &Transaction<'_>, account: AccountId, new: &NewCampaign<'_>) -> Result<(), Error> {
    let mut counts: BTreeMap<&'static str, i64> = BTreeMap::new();
    for m in message_rows(new) {
        *counts.entry(m.country).or_insert(0) += 1;
    }
    if counts.is_empty() {
        return Ok(());
    }
    let caps = query(tx, "SELECT country, monthly_cap FROM account_countries WHERE account_id = $1 AND monthly_cap IS NOT NULL", &[&account]).await?;
    let caps: HashMap<&'static str, i64> =
        caps.iter().filter_map(|row| Some((Country::from_iso2(row.get(0))?.iso2(), row.get::<_, i64>(1).max(0)))).collect();
    let month = time::month(new.now);
    let add = tx
        .prepare_cached(
            "INSERT INTO monthly_usage (account_id, month, country, messages) VALUES ($1, $2, $3, $4)
             ON CONFLICT (account_id, month, country) DO UPDATE SET messages = monthly_usage.messages + excluded.messages
             RETURNING messages",
        )
        .await?;
    for (country, count) in counts {
        let used: i64 = tx.query_one(&add, &[&account, &month, &country, &count]).await?.get(0);
        if let Some(&cap) = caps.get(country)
            && used > cap
        {
            return Err(Error::Contended(format!("another send reached the monthly cap of {cap} messages to {country} meanwhile: send again")));
        }
    }
    Ok(())
}
