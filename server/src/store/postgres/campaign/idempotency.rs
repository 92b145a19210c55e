//! Idempotency keys in PostgreSQL. A batch of campaigns reads its jobs' keys after locking their
//! accounts, so a retry racing its first try on another node waits for that commit and then
//! sees its key; the accepted jobs' keys are written in the batch's transaction.

use chrono::{DateTime, Utc};
use deadpool_postgres::GenericClient;
use texto_core::Credits;
use tokio_postgres::{Row, types::ToSql};

use super::{
    jobs::{Answers, Job, Verdict},
    time,
};
use crate::{
    Error,
    store::{AccountId, StoredAnswer},
};

/// The stored answers of (account, key) pairs, as [`read`] reads them.
const STORED: &str = "SELECT k.account_id, k.key, k.fingerprint, k.campaign_id, k.balance, k.answer
     FROM UNNEST($1::bigint[], $2::text[]) AS s(account_id, key)
     JOIN idempotency_keys k ON k.account_id = s.account_id AND k.key = s.key AND k.created_at >= $3";

/// Drops the keys past their 24 hours.
pub(super) const DROP_EXPIRED: &str = "DELETE FROM idempotency_keys WHERE created_at < $1";

/// Keeps the accepted jobs' keys, in place of expired ones.
pub(super) const KEEP: &str =
    "INSERT INTO idempotency_keys (account_id, key, fingerprint, campaign_id, balance, answer, created_at)
     SELECT * FROM UNNEST($1::bigint[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::text[], $7::text[])
     ON CONFLICT (account_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, campaign_id = excluded.campaign_id,
         balance = excluded.balance, answer = excluded.answer, created_at = excluded.created_at";

fn read(row: &Row) -> ((AccountId, String), StoredAnswer) {
    let answer = StoredAnswer {
        fingerprint: row.get(2),
        ticket: row.get(3),
        balance: Credits::from_hundredths(row.get(4)),
        answer: row.get(5),
    };
    ((row.get(0), row.get(1)), answer)
}

/// The stored answers of the keys `jobs` carry (none asked when no job has a key).
pub(super) async fn stored_for(
    client: &impl GenericClient,
    jobs: &[Job],
    since: DateTime<Utc>,
) -> Result<Answers, Error> {
    let (accounts, keys): (Vec<AccountId>, Vec<&str>) =
        jobs.iter().filter_map(|job| job.idempotency.as_ref().map(|key| (job.account, key.key.as_str()))).unzip();
    if keys.is_empty() {
        return Ok(Answers::new());
    }
    let query = client.prepare_cached(STORED).await?;
    Ok(client.query(&query, &[&accounts, &keys, &time::store(since)]).await?.iter().map(read).collect())
}

/// The account's stored answer for `key`.
pub(super) async fn stored(
    client: &impl GenericClient,
    account: AccountId,
    key: &str,
    since: DateTime<Utc>,
) -> Result<Option<StoredAnswer>, Error> {
    let query = client.prepare_cached(STORED).await?;
    let rows = client.query(&query, &[&vec![account], &vec![key], &time::store(since)]).await?;
    Ok(rows.first().map(|row| read(row).1))
}

/// The accepted jobs' keys with their answers, column by column ([`KEEP`]'s parameters).
#[derive(Default)]
pub(super) struct Keys {
    accounts: Vec<AccountId>,
    keys: Vec<String>,
    fingerprints: Vec<String>,
    tickets: Vec<i64>,
    balances: Vec<i64>,
    answers: Vec<String>,
    created_at: Vec<String>,
    oldest: Option<DateTime<Utc>>,
}

impl Keys {
    /// The keys of the jobs accepted by `verdicts`.
    pub(super) fn of(jobs: &[Job], verdicts: &[Verdict]) -> Keys {
        let mut keys = Keys::default();
        for (job, verdict) in jobs.iter().zip(verdicts) {
            let (Some(key), Verdict::Accepted { ticket, balance, .. }) = (&job.idempotency, verdict) else { continue };
            keys.accounts.push(job.account);
            keys.keys.push(key.key.clone());
            keys.fingerprints.push(key.fingerprint.clone());
            keys.tickets.push(*ticket);
            keys.balances.push(balance.hundredths());
            keys.answers.push(job.answer.clone().unwrap_or_default());
            keys.created_at.push(time::store(job.now));
            keys.oldest = Some(keys.oldest.map_or(job.now, |oldest| oldest.min(job.now)));
        }
        keys
    }

    /// The time of the oldest of them; `None` when there is none to keep.
    pub(super) fn oldest(&self) -> Option<DateTime<Utc>> {
        self.oldest
    }

    /// [`KEEP`]'s parameters.
    pub(super) fn params(&self) -> [&(dyn ToSql + Sync); 7] {
        [&self.accounts, &self.keys, &self.fingerprints, &self.tickets, &self.balances, &self.answers, &self.created_at]
    }
}
