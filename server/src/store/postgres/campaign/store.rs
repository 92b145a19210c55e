//! Campaigns and messages in PostgreSQL. A campaign, its messages, its monthly counters and its
//! debit are written in one transaction, with the campaigns queued meanwhile on this node (the
//! small ones, see [`batcher`](super::batcher)) or alone (the large ones), safe against the
//! sends of other nodes for the same accounts: see [`writer`](super::writer). The filter's inputs are
//! one statement (with the anti-flood sync beside it), which reads the blacklist and NPAI and,
//! while the node's copy of the account is current ([`AccountCache`]), nothing else.

use std::{
    collections::{HashMap, HashSet},
    sync::Arc,
};

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use deadpool_postgres::GenericClient;
use futures_util::future::try_join;
use texto_core::{Contact, Country, Credits};
use tokio_postgres::Row;

use crate::{
    Error,
    store::{
        AccountId, CampaignFilter, CampaignRecord, CampaignStore, Created, FilterInputs, NewCampaign, Pausing,
        StoredAnswer, money,
        postgres::campaign::{
            PgStore,
            account_cache::{AccountCache, AccountCopy},
            accounts::{self, limits_from_db},
            batcher::MOST_MESSAGES,
            flood_sync, idempotency,
            jobs::Job,
            query, records, time, writer,
        },
    },
};

/// Requests with more numbers than this read the account's whole blacklist and NPAI list
/// once instead of looking each number up.
const LOOKUP_LIMIT: usize = 500;

/// What every send reads: the account's change counter, and its blacklisted and NPAI numbers
/// among `$2` (`{numbers}` is the condition).
const LOOKUPS: &str = "SELECT COALESCE((SELECT version FROM account_changes WHERE account_id = $1), 0),
        ARRAY(SELECT number FROM blacklist WHERE account_id = $1 AND {numbers}),
        ARRAY(SELECT number FROM npai WHERE account_id = $1 AND {numbers})";

/// What a send reads besides [`LOOKUPS`] when the node has no current copy of the account
/// ([`AccountCache`]): its balance and anti-flood limits, its blocked countries, its caps and
/// this month's (`$3`) counters.
const ACCOUNT_COLUMNS: &str = "a.balance, a.flood_identical_per_hour, a.flood_any_per_hour,
        ARRAY(SELECT country FROM account_countries WHERE account_id = $1 AND NOT allowed),
        ARRAY(SELECT country FROM account_countries WHERE account_id = $1 AND monthly_cap IS NOT NULL ORDER BY country),
        ARRAY(SELECT monthly_cap FROM account_countries WHERE account_id = $1 AND monthly_cap IS NOT NULL ORDER BY country),
        ARRAY(SELECT country FROM monthly_usage WHERE account_id = $1 AND month = $3 ORDER BY country),
        ARRAY(SELECT messages FROM monthly_usage WHERE account_id = $1 AND month = $3 ORDER BY country)
    FROM accounts a WHERE a.id = $1";

#[async_trait]
impl CampaignStore for PgStore {
    async fn filter_inputs(
        &self,
        account: AccountId,
        numbers: &[u64],
        text_hash: i64,
        now: DateTime<Utc>,
    ) -> Result<FilterInputs, Error> {
        let few = (numbers.len() <= LOOKUP_LIMIT).then(|| numbers.iter().map(|&n| n as i64).collect::<Vec<i64>>());
        let client = self.pool.get().await?;
        // Other nodes' sends for the account are read with the inputs, so that the filter
        // counts them. A node alone has them all (a node joining meanwhile is caught by the
        // check under the account's lock: the send is refused as contended, once).
        let inputs = account_inputs(&client, &self.memory.accounts, account, few.as_deref(), now);
        let mut inputs = if self.peers.any() {
            try_join(flood_sync::sync(&client, &self.memory.flood, &self.memory.synced, &[account], now), inputs)
                .await?
                .1
        } else {
            inputs.await?
        };
        inputs.recent = self.memory.flood.recent(account, numbers, text_hash, now);
        Ok(inputs)
    }

    async fn list_contacts(&self, account: AccountId, ids: &[String]) -> Result<HashMap<String, Vec<Contact>>, Error> {
        let wanted: Vec<i64> = ids.iter().filter_map(|id| id.parse().ok()).collect();
        if wanted.is_empty() {
            return Ok(HashMap::new());
        }
        let client = self.pool.get().await?;
        let owned =
            query(&client, "SELECT id FROM lists WHERE account_id = $1 AND id = ANY($2)", &[&account, &wanted]).await?;
        let owned: Vec<i64> = owned.iter().map(|row| row.get(0)).collect();
        let rows = query(
            &client,
            "SELECT list_id, number, info1, info2, info3, info4 FROM contacts WHERE list_id = ANY($1) ORDER BY id",
            &[&owned],
        )
        .await?;
        let mut by_list: HashMap<i64, Vec<Contact>> = owned.iter().map(|&id| (id, Vec::new())).collect();
        for row in &rows {
            if let Some(contacts) = by_list.get_mut(&row.get(0)) {
                contacts.push(Contact {
                    number: row.get::<_, i64>(1).to_string(),
                    info: [row.get(2), row.get(3), row.get(4), row.get(5)],
                });
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

    async fn create_campaign(&self, account: AccountId, new: NewCampaign<'_>) -> Result<Created, Error> {
        let job = Job::new(account, &new);
        if let Some(batcher) = &self.batcher
            && job.messages.len() <= MOST_MESSAGES
        {
            return batcher.write(job).await;
        }
        // On a task of its own, so that the transaction runs to its end even if the caller
        // stops waiting (the campaign then stands, as a queued one does).
        let (pool, memory) = (self.pool.clone(), Arc::clone(&self.memory));
        let written = tokio::spawn(async move {
            let client = pool.get().await?;
            let mut answers = writer::write(&client, &memory, std::slice::from_ref(&job)).await;
            answers.pop().unwrap_or(Err(Error::Unavailable("a campaign went unanswered")))
        });
        written.await.map_err(|_| Error::Unavailable("a campaign's write stopped unexpectedly"))?
    }

    async fn idempotent_answer(
        &self,
        account: AccountId,
        key: &str,
        since: DateTime<Utc>,
    ) -> Result<Option<StoredAnswer>, Error> {
        let client = self.pool.get().await?;
        idempotency::stored(&client, account, key, since).await
    }

    async fn cancel_campaign(&self, account: AccountId, ticket: i64) -> Result<CampaignRecord, Error> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        // The row stays locked until the commit: a second cancel (on any node) waits, then
        // finds the campaign cancelled and refunds nothing.
        // What a paused campaign did not hand over: its queued messages no node has claimed
        // (a claimed wave finishes).
        let found = query(
            &tx,
            "SELECT status, paused_at IS NOT NULL, cost,
                 (SELECT COALESCE(SUM(m.cost), 0)::bigint FROM messages m
                  WHERE m.campaign_id = c.id AND m.delivery = 0 AND m.claimed_by IS NULL)
             FROM campaigns c WHERE id = $1 AND account_id = $2 FOR UPDATE",
            &[&ticket, &account],
        )
        .await?;
        let row = found.first().ok_or_else(|| Error::NotFound(format!("campaign {ticket}")))?;
        let status: String = row.try_get(0)?;
        let found = money::Cancelling {
            status: &status,
            paused: row.try_get(1)?,
            cost: row.try_get(2)?,
            unsent: row.try_get(3)?,
        };
        let refund = money::cancel(account, ticket, found)?;
        query(&tx, "UPDATE campaigns SET status = 'cancelled' WHERE id = $1", &[&ticket]).await?;
        accounts::move_money(&tx, &refund).await?;
        let record = records::campaign_record(&tx, account, ticket)
            .await?
            .ok_or_else(|| Error::NotFound(format!("campaign {ticket}")))?;
        tx.commit().await?;
        Ok(record)
    }

    async fn pause_campaign(
        &self,
        account: AccountId,
        ticket: i64,
        pausing: Pausing,
        now: DateTime<Utc>,
    ) -> Result<CampaignRecord, Error> {
        let not_found = || Error::NotFound(format!("campaign {ticket}"));
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let found = query(
            &tx,
            "SELECT status, paused_at IS NOT NULL FROM campaigns WHERE id = $1 AND account_id = $2 FOR UPDATE",
            &[&ticket, &account],
        )
        .await?;
        let row = found.first().ok_or_else(not_found)?;
        pausing.allowed(ticket, row.try_get(0)?, row.try_get(1)?)?;
        let paused_at = (pausing == Pausing::Pause).then(|| time::store(now));
        query(&tx, "UPDATE campaigns SET paused_at = $1 WHERE id = $2", &[&paused_at, &ticket]).await?;
        let record = records::campaign_record(&tx, account, ticket).await?.ok_or_else(not_found)?;
        tx.commit().await?;
        Ok(record)
    }

    async fn campaigns(&self, account: AccountId, filter: CampaignFilter) -> Result<(Vec<CampaignRecord>, i64), Error> {
        let client = self.pool.get().await?;
        records::campaign_page(&client, account, &filter).await
    }

    async fn campaign(&self, account: AccountId, ticket: i64) -> Result<Option<CampaignRecord>, Error> {
        let client = self.pool.get().await?;
        records::campaign_record(&client, account, ticket).await
    }
}

/// Everything the filter needs from the database: blacklist and NPAI (of `few` numbers, or
/// all) with the account's change counter ([`LOOKUPS`]), and the rest from the node's copy of
/// the account while that counter has not moved; otherwise all of it (with
/// [`ACCOUNT_COLUMNS`]), kept as the new copy.
async fn account_inputs(
    db: &impl GenericClient,
    cache: &AccountCache,
    account: AccountId,
    few: Option<&[i64]>,
    now: DateTime<Utc>,
) -> Result<FilterInputs, Error> {
    let lookups = LOOKUPS.replace("{numbers}", if few.is_some() { "number = ANY($2)" } else { "$2::bigint[] IS NULL" });
    let month = time::month(now);
    if cache.has_copy(account, &month, now) {
        let statement = db.prepare_cached(&lookups).await?;
        let row = db.query_one(&statement, &[&account, &few]).await?;
        if let Some(inputs) = cache.inputs(account, row.get(0), numbers_in(&row, 1), numbers_in(&row, 2)) {
            return Ok(inputs);
        }
    }
    let statement = db.prepare_cached(&format!("{lookups}, {ACCOUNT_COLUMNS}")).await?;
    let row = db.query_one(&statement, &[&account, &few, &month]).await?;
    let mut copy = AccountCopy {
        version: row.get(0),
        read_at: now,
        month,
        balance: Credits::from_hundredths(row.get(3)),
        flood: limits_from_db(row.get(4), row.get(5)),
        allowed_countries: None,
        monthly_caps: HashMap::new(),
        monthly_usage: HashMap::new(),
    };
    let blocked: HashSet<Country> = row.get::<_, Vec<String>>(6).iter().filter_map(|c| Country::from_iso2(c)).collect();
    if !blocked.is_empty() {
        copy.allowed_countries = Some(Country::all().filter(|c| !blocked.contains(c)).collect());
    }
    let (capped, caps): (Vec<String>, Vec<i64>) = (row.get(7), row.get(8));
    for (country, cap) in capped.iter().zip(caps) {
        if let Some(country) = Country::from_iso2(country) {
            copy.monthly_caps.insert(country, cap.max(0) as u64);
        }
    }
    if !copy.monthly_caps.is_empty() {
        let (used, counts): (Vec<String>, Vec<i64>) = (row.get(9), row.get(10));
        for (country, count) in used.iter().zip(counts) {
            if let Some(country) = Country::from_iso2(country) {
                copy.monthly_usage.insert(country, count.max(0) as u64);
            }
        }
    }
    let inputs = copy.inputs(numbers_in(&row, 1), numbers_in(&row, 2));
    cache.put(account, copy);
    Ok(inputs)
}

/// The numbers of `row`'s array column `column`.
fn numbers_in(row: &Row, column: usize) -> impl Iterator<Item = u64> {
    row.get::<_, Vec<i64>>(column).into_iter().map(|n| n as u64)
}
