//! Writing campaigns: a batch of [`Job`]s in one transaction, safe against the sends of other
//! nodes. The transaction locks the batch's account rows (in id order), brings the anti-flood
//! window up to date under those locks, reads the monthly caps and counters and the balance
//! alerts, and takes one id per job; [`decide`] then settles each job in queue order, and the
//! accepted jobs are written with one multi-row statement per table (a binary COPY for the
//! messages of a large batch) and committed once. Every other writer of an account's balance
//! or counters locks its row too, so what was read stays true until the commit.

use std::{
    collections::BTreeMap,
    pin::{Pin, pin},
};

use deadpool_postgres::Client;
use futures_util::{
    Future, TryFutureExt,
    future::{join, try_join, try_join_all, try_join4, try_join5},
};
use texto_core::{Country, Credits};
use tokio_postgres::{
    binary_copy::BinaryCopyInWriter,
    types::{ToSql, Type},
};

use crate::{
    Error,
    store::{
        AccountId, Created,
        ab_tests::HOLD_THE_REST,
        kept_since,
        money::{self, Movement},
        notification::read_alert,
        postgres::campaign::{
            NodeMemory,
            account_cache::AccountCache,
            accounts::limits_from_db,
            balance_alert::{self, ALERTS_OF_ACCOUNTS},
            columns::{Campaigns, Messages},
            flood_sync,
            idempotency::{self, Keys},
            jobs::{Job, Locked, Verdict, decide},
            time,
        },
        prune_due, report, zones,
    },
};

/// A job's answer: its ticket and the balance after its debit, or the first answer to its
/// idempotency key.
pub(super) type Answer = Result<Created, Error>;

/// Locks the batch's accounts, in a stable order.
const LOCK_ACCOUNTS: &str = "SELECT id, balance, flood_identical_per_hour, flood_any_per_hour FROM accounts WHERE id = ANY($1) ORDER BY id FOR NO KEY UPDATE";

/// The capped countries of each (account, month) pair, with the messages counted so far.
const CAPS: &str = "SELECT s.account_id, s.month, c.country, c.monthly_cap, COALESCE(u.messages, 0)
     FROM UNNEST($1::bigint[], $2::text[]) AS s(account_id, month)
     JOIN account_countries c ON c.account_id = s.account_id AND c.monthly_cap IS NOT NULL
     LEFT JOIN monthly_usage u ON u.account_id = s.account_id AND u.month = s.month AND u.country = c.country";

/// One campaign id per job.
const TAKE_IDS: &str = "SELECT nextval(pg_get_serial_sequence('campaigns', 'id')) FROM generate_series(1, $1::bigint)";

/// The accepted jobs' campaign rows ([`Campaigns::params`]).
const INSERT_CAMPAIGNS: &str = "INSERT INTO campaigns (id, account_id, text, pushtype, sender, links, lists, unicode, status, send_at, created_at, cost,
         total, sent, blacklisted, duplicated, invalid, npai, not_allowed, flood, country_limit, validity, utm, template_id, variants, ab)
     SELECT * FROM UNNEST($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::boolean[], $9::text[],
         $10::text[], $11::text[], $12::bigint[], $13::bigint[], $14::bigint[], $15::bigint[], $16::bigint[], $17::bigint[], $18::bigint[],
         $19::bigint[], $20::bigint[], $21::bigint[], $22::bigint[], $23::text[], $24::bigint[], $25::text[], $26::text[])";

/// The balances moved, one net per account ([`money::MOVE_BALANCE`] for a batch).
const DEBIT: &str = "UPDATE accounts SET balance = balance + s.amount FROM UNNEST($1::bigint[], $2::bigint[]) AS s(id, amount) WHERE accounts.id = s.id";

/// The monthly counters, one per account, month and country.
const COUNT_USAGE: &str = "INSERT INTO monthly_usage (account_id, month, country, messages)
     SELECT * FROM UNNEST($1::bigint[], $2::text[], $3::text[], $4::bigint[])
     ON CONFLICT (account_id, month, country) DO UPDATE SET messages = monthly_usage.messages + excluded.messages";

/// The debits' ledger rows, in job order.
const LEDGER: &str = "INSERT INTO ledger (account_id, amount, kind, campaign_id)
     SELECT account_id, amount, 'debit', campaign_id FROM UNNEST($1::bigint[], $2::bigint[], $3::bigint[]) WITH ORDINALITY AS s(account_id, amount, campaign_id, n)
     ORDER BY n";

/// The messages of a batch with at most [`MOST_INSERTED`] of them ([`Messages::params`]).
const INSERT_MESSAGES: &str = "INSERT INTO messages (campaign_id, account_id, number, country, gsmsmsid, parts, cost, text_hash, created_at, info, variant, text_parts)
     SELECT * FROM UNNEST($1::bigint[], $2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::bigint[], $7::bigint[], $8::bigint[], $9::text[], $10::text[],
         $11::bigint[], $12::bigint[])";

/// Batches with more messages than this copy them in (binary COPY) instead.
const MOST_INSERTED: usize = 1_000;

/// The COPY of the messages: the columns SQLite inserts, typed by [`MESSAGE_TYPES`].
const COPY_MESSAGES: &str = "COPY messages (campaign_id, account_id, number, country, gsmsmsid, parts, cost, text_hash, created_at, info, variant, text_parts) FROM STDIN BINARY";

/// The types of the columns of [`COPY_MESSAGES`], in order.
const MESSAGE_TYPES: [Type; 12] = [
    Type::INT8,
    Type::INT8,
    Type::INT8,
    Type::TEXT,
    Type::TEXT,
    Type::INT8,
    Type::INT8,
    Type::INT8,
    Type::TEXT,
    Type::TEXT,
    Type::INT8,
    Type::INT8,
];

/// Writes `jobs` on `client`: one answer per job, in order. Should the batch fail before its
/// commit (nothing of it written), each job is written again alone, so that one job's failure
/// is its own.
pub(super) async fn write(client: &Client, memory: &NodeMemory, jobs: &[Job]) -> Vec<Answer> {
    match write_together(client, memory, jobs).await {
        Ok(answers) => answers,
        Err(error) if jobs.len() == 1 => vec![Err(error)],
        Err(error) => {
            tracing::warn!(%error, jobs = jobs.len(), "a batch of campaigns failed: writing them one by one");
            let mut answers = Vec::with_capacity(jobs.len());
            for job in jobs {
                let answer = match write_together(client, memory, std::slice::from_ref(job)).await {
                    Ok(mut one) => one.pop().unwrap_or(Err(Error::Unavailable("a campaign went unanswered"))),
                    Err(error) => Err(error),
                };
                answers.push(answer);
            }
            answers
        }
    }
}

/// Writes `jobs` in one transaction, in two round trips: the locks and reads, then the writes
/// and the commit, sent together (a larger batch's messages go by COPY before them). `Err`
/// when it failed before its commit, with nothing written.
async fn write_together(client: &Client, memory: &NodeMemory, jobs: &[Job]) -> Result<Vec<Answer>, Error> {
    let (verdicts, locked) = match stage(client, memory, jobs).await {
        Ok(staged) => staged,
        Err(NotCommitted::Before(error)) => {
            // The transaction may be open still (or ended by the COMMIT sent with a failed write).
            if let Err(rollback) = client.batch_execute("ROLLBACK").await {
                tracing::warn!(%rollback, "rolling a batch of campaigns back");
            }
            return Err(error);
        }
        Err(NotCommitted::AtCommit(error)) => {
            // Every job fails with it (the batch is not tried again: its commit may have
            // happened); the first carries PostgreSQL's own error.
            tracing::error!(%error, jobs = jobs.len(), "a batch of campaigns could not be committed");
            for job in jobs {
                memory.accounts.forget(job.account);
            }
            let mut first = Some(error);
            return Ok(jobs
                .iter()
                .map(|_| Err(first.take().unwrap_or(Error::Unavailable("the campaigns' commit failed"))))
                .collect());
        }
    };
    // The window learns of the messages once committed. This node writes its next batch after
    // this one is answered, and a campaign written meanwhile by a large send or by another node
    // first reads these from the database under the accounts' locks (each campaign is recorded
    // once, by its writer or by the sync that reads it first).
    for (job, verdict) in jobs.iter().zip(&verdicts) {
        if let Verdict::Accepted { ticket, .. } = verdict {
            memory.synced.record_written(&memory.flood, job.account, *ticket, job.numbers(), job.text_hash, job.now);
        }
    }
    remember(&memory.accounts, jobs, &verdicts, &locked);
    let answers = verdicts.into_iter().map(|verdict| match verdict {
        Verdict::Refused(error) => Err(error),
        Verdict::Accepted { ticket, balance, .. } => Ok(Created::New { ticket, balance }),
        Verdict::Replayed(stored) => Ok(Created::Replayed(stored)),
    });
    Ok(answers.collect())
}

/// Brings the node's copies of the accounts up to what the batch committed: their balances and
/// capped counters. A job refused for its balance, its cap or anti-flood drops its account's
/// copy, which the other nodes' sends made stale.
fn remember(cache: &AccountCache, jobs: &[Job], verdicts: &[Verdict], locked: &Locked) {
    for (&account, &(balance, _)) in &locked.accounts {
        cache.set_balance(account, Credits::from_hundredths(balance));
    }
    for ((account, month, country), &(_, used)) in &locked.caps {
        if let Some(country) = Country::from_iso2(country) {
            cache.raise_counter(*account, month, country, u64::try_from(used).unwrap_or(0));
        }
    }
    for (job, verdict) in jobs.iter().zip(verdicts) {
        if matches!(verdict, Verdict::Refused(_)) {
            cache.forget(job.account);
        }
    }
}

/// Why a batch's transaction did not commit.
enum NotCommitted {
    /// It failed before its commit: nothing was written, each job may be tried again alone.
    Before(Error),
    /// Its commit failed, or its answer was lost: the batch fails as a whole.
    AtCommit(Error),
}

impl<E: Into<Error>> From<E> for NotCommitted {
    fn from(error: E) -> NotCommitted {
        NotCommitted::Before(error.into())
    }
}

/// The transaction: the locks and reads, the verdicts, the accepted jobs' writes and the
/// commit. Returns the verdicts and what was read under the locks, moved by the accepted jobs.
async fn stage(client: &Client, memory: &NodeMemory, jobs: &[Job]) -> Result<(Vec<Verdict>, Locked), NotCommitted> {
    let mut accounts: Vec<AccountId> = jobs.iter().map(|job| job.account).collect();
    accounts.sort_unstable();
    accounts.dedup();
    let mut months: Vec<(AccountId, &str)> = jobs.iter().map(|job| (job.account, job.month.as_str())).collect();
    months.sort_unstable();
    months.dedup();
    let (month_accounts, month_names): (Vec<AccountId>, Vec<&str>) = months.into_iter().unzip();
    let count = i64::try_from(jobs.len()).unwrap_or(i64::MAX);
    let now = jobs.iter().map(|job| job.now).min().unwrap_or_default();
    let (lock, caps, alerts, ids) = try_join4(
        client.prepare_cached(LOCK_ACCOUNTS),
        client.prepare_cached(CAPS),
        client.prepare_cached(ALERTS_OF_ACCOUNTS),
        client.prepare_cached(TAKE_IDS),
    )
    .await?;
    // Sent together, run in order: the locks first, then everything read under them. Each
    // statement is a key lookup whose one plan fits every batch: planned once per connection
    // (PostgreSQL would otherwise plan some at every run, as their arrays vary).
    let ((), (locked_rows, cap_rows, alert_rows, id_rows, ())) = try_join(
        client.batch_execute("BEGIN; SET LOCAL plan_cache_mode = force_generic_plan").err_into(),
        try_join5(
            client.query(&lock, &[&accounts]).err_into(),
            client.query(&caps, &[&month_accounts, &month_names]).err_into(),
            client.query(&alerts, &[&accounts]).err_into(),
            client.query(&ids, &[&count]).err_into(),
            flood_sync::sync(client, &memory.flood, &memory.synced, &accounts, now),
        ),
    )
    .await?;
    let mut locked = Locked::default();
    for row in &locked_rows {
        locked.accounts.insert(row.get(0), (row.get(1), limits_from_db(row.get(2), row.get(3))));
    }
    for row in &cap_rows {
        let Some(country) = texto_core::Country::from_iso2(row.get(2)) else { continue };
        locked.caps.insert((row.get(0), row.get(1), country.iso2()), (row.get::<_, i64>(3).max(0), row.get(4)));
    }
    for row in &alert_rows {
        locked.alerts.insert(row.try_get(0)?, read_alert(row, 1)?);
    }
    let mut tickets: Vec<i64> = id_rows.iter().map(|row| row.get(0)).collect();
    tickets.sort_unstable();
    // Read under the accounts' locks: a first try with the same key has committed by now.
    let mut answers = idempotency::stored_for(client, jobs, kept_since(now)).await?;
    let verdicts = decide(jobs, &tickets, &mut locked, &memory.flood, &mut answers);
    for (job, verdict) in jobs.iter().zip(&verdicts) {
        if let Verdict::Accepted { balance, alert: true, .. } = verdict
            && let Some(alert) = locked.alerts.get(&job.account)
        {
            balance_alert::raise(alert, client, job.account, *balance, job.now).await?;
        }
    }
    write_and_commit(client, jobs, &verdicts).await?;
    Ok((verdicts, locked))
}

/// Writes the accepted jobs (their messages, campaigns, debits, counters and ledger rows) and
/// commits, in one round trip when the messages are few.
async fn write_and_commit(client: &Client, jobs: &[Job], verdicts: &[Verdict]) -> Result<(), NotCommitted> {
    let accepted: Vec<(&Job, i64)> = jobs
        .iter()
        .zip(verdicts)
        .filter_map(|(job, verdict)| match verdict {
            Verdict::Accepted { ticket, .. } => Some((job, *ticket)),
            Verdict::Refused(_) | Verdict::Replayed(_) => None,
        })
        .collect();
    if accepted.is_empty() {
        return client.batch_execute("COMMIT").await.map_err(|error| NotCommitted::AtCommit(error.into()));
    }
    let messages: usize = accepted.iter().map(|(job, _)| job.messages.len()).sum();
    if messages > MOST_INSERTED {
        copy_messages(client, &accepted).await?;
    }
    let inserted = Messages::of(&accepted, messages <= MOST_INSERTED);
    let campaigns = Campaigns::of(&accepted);
    let mut usage: BTreeMap<(AccountId, &str, &str), i64> = BTreeMap::new();
    let mut debits = Vec::new();
    // Each large campaign's messages per country, for its report.
    let mut written: (Vec<i64>, Vec<&str>, Vec<i64>) = Default::default();
    for &(job, ticket) in &accepted {
        debits.extend(money::debit(job.account, ticket, job.cost));
        for (country, count) in job.per_country() {
            *usage.entry((job.account, job.month.as_str(), country)).or_default() += count;
            if report::keeps_counts(job.messages.len()) {
                written.0.push(ticket);
                written.1.push(country);
                written.2.push(count);
            }
        }
    }
    // The ledger's lines in job order, and each account's balance moved once by their net:
    // money's one way, written for the whole batch (the debits' kind and campaign are implied).
    let ledger: [Vec<i64>; 3] = [
        debits.iter().map(|debit| debit.account).collect(),
        debits.iter().map(|debit| debit.amount).collect(),
        debits.iter().filter_map(Movement::campaign).collect(),
    ];
    let (debit_accounts, debit_amounts): (Vec<i64>, Vec<i64>) = money::net(&debits).into_iter().unzip();
    let mut counters: (Vec<i64>, Vec<&str>, Vec<&str>, Vec<i64>) = Default::default();
    for ((account, month, country), count) in usage {
        counters.0.push(account);
        counters.1.push(month);
        counters.2.push(country);
        counters.3.push(count);
    }
    let (insert, debit, count_usage, ledger_insert) = try_join4(
        client.prepare_cached(INSERT_CAMPAIGNS),
        client.prepare_cached(DEBIT),
        client.prepare_cached(COUNT_USAGE),
        client.prepare_cached(LEDGER),
    )
    .await?;
    let insert_messages = client.prepare_cached(INSERT_MESSAGES).await?;
    let [ledger_accounts, ledger_amounts, ledger_campaigns] = &ledger;
    let (campaign_params, message_params) = (campaigns.params(), inserted.params());
    let debit_params: [&(dyn ToSql + Sync); 2] = [&debit_accounts, &debit_amounts];
    let usage_params: [&(dyn ToSql + Sync); 4] = [&counters.0, &counters.1, &counters.2, &counters.3];
    let ledger_params: [&(dyn ToSql + Sync); 3] = [ledger_accounts, ledger_amounts, ledger_campaigns];
    let keys = Keys::of(jobs, verdicts);
    let keep = match keys.oldest() {
        Some(_) => Some(client.prepare_cached(idempotency::KEEP).await?),
        None => None,
    };
    let drop_expired = match keys.oldest().filter(|now| prune_due(*now)) {
        Some(now) => Some((client.prepare_cached(idempotency::DROP_EXPIRED).await?, time::store(kept_since(now)))),
        None => None,
    };
    let key_params = keys.params();
    let expired_params: Vec<&(dyn ToSql + Sync)> =
        drop_expired.iter().map(|(_, before)| before as &(dyn ToSql + Sync)).collect();
    let tested: Vec<i64> = accepted.iter().filter(|(job, _)| job.row.ab.is_some()).map(|&(_, ticket)| ticket).collect();
    let hold = match tested.is_empty() {
        true => None,
        false => Some(client.prepare_cached(HOLD_THE_REST).await?),
    };
    let hold_params: Vec<[&(dyn ToSql + Sync); 1]> =
        tested.iter().map(|ticket| [ticket as &(dyn ToSql + Sync)]).collect();
    let zoned: Vec<i64> = accepted
        .iter()
        .filter(|(job, _)| job.messages.iter().any(|m| m.zone != texto_core::Zone::Paris))
        .map(|&(_, ticket)| ticket)
        .collect();
    let note_runs = match zoned.is_empty() {
        true => None,
        false => Some(client.prepare_cached(zones::NOTE_THE_RUNS).await?),
    };
    let (territories, paris) = zones::run_names();
    let runs_params: Vec<[&(dyn ToSql + Sync); 3]> =
        zoned.iter().map(|ticket| [ticket as &(dyn ToSql + Sync), &territories, &paris]).collect();
    let report_countries = match written.0.is_empty() {
        true => None,
        false => Some(client.prepare_cached(report::WRITTEN_PER_COUNTRY).await?),
    };
    let written_params: [&(dyn ToSql + Sync); 3] = [&written.0, &written.1, &written.2];
    // Sent together, run in order.
    let mut writes: Vec<Pending<'_>> = vec![Box::pin(client.execute(&insert, &campaign_params))];
    if !inserted.campaigns.is_empty() {
        writes.push(Box::pin(client.execute(&insert_messages, &message_params)));
    }
    if !debit_accounts.is_empty() {
        writes.push(Box::pin(client.execute(&debit, &debit_params)));
    }
    if !counters.0.is_empty() {
        writes.push(Box::pin(client.execute(&count_usage, &usage_params)));
    }
    if !ledger_accounts.is_empty() {
        writes.push(Box::pin(client.execute(&ledger_insert, &ledger_params)));
    }
    if let Some((drop_expired, _)) = &drop_expired {
        writes.push(Box::pin(client.execute(drop_expired, &expired_params)));
    }
    if let Some(keep) = &keep {
        writes.push(Box::pin(client.execute(keep, &key_params)));
    }
    // After the messages: an A/B test's rest waits after the last of its sample.
    if let Some(hold) = &hold {
        for params in &hold_params {
            writes.push(Box::pin(client.execute(hold, params)));
        }
    }
    if let Some(report_countries) = &report_countries {
        writes.push(Box::pin(client.execute(report_countries, &written_params)));
    }
    // After the messages too: each overseas zone's run, for the hand-over.
    if let Some(note_runs) = &note_runs {
        for params in &runs_params {
            writes.push(Box::pin(client.execute(note_runs, params)));
        }
    }
    // Sent after the writes: should one fail, PostgreSQL rolls the transaction back at the COMMIT.
    match join(try_join_all(writes), client.batch_execute("COMMIT")).await {
        (Ok(_), Ok(())) => Ok(()),
        (Err(error), _) if error.as_db_error().is_some() => Err(NotCommitted::Before(error.into())),
        (Err(error), _) | (Ok(_), Err(error)) => Err(NotCommitted::AtCommit(error.into())),
    }
}

/// A statement sent, its answer awaited.
type Pending<'a> = Pin<Box<dyn Future<Output = Result<u64, tokio_postgres::Error>> + Send + 'a>>;

/// Copies the accepted jobs' messages in (binary COPY: a million rows take seconds).
async fn copy_messages(client: &Client, accepted: &[(&Job, i64)]) -> Result<(), Error> {
    if accepted.iter().all(|(job, _)| job.messages.is_empty()) {
        return Ok(());
    }
    let sink = client.copy_in(COPY_MESSAGES).await?;
    let mut writer = pin!(BinaryCopyInWriter::new(sink, &MESSAGE_TYPES));
    for &(job, ticket) in accepted {
        for m in &job.messages {
            let number = m.number as i64;
            writer
                .as_mut()
                .write(&[
                    &ticket,
                    &job.account,
                    &number,
                    &m.country,
                    &m.gsmsmsid,
                    &m.parts,
                    &m.cost,
                    &job.text_hash,
                    &job.row.created_at,
                    &m.info,
                    &m.variant,
                    &m.text_parts,
                ])
                .await?;
        }
    }
    writer.finish().await?;
    Ok(())
}
