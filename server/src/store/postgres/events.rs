//! The outbox: each event written, in the transaction of the change that raised it, once per
//! webhook (live or paused) of its type that the account has.

use std::collections::HashSet;

use deadpool_postgres::GenericClient;
use serde::Serialize;

use crate::{
    Error,
    store::{
        AccountId, WebhookType,
        daily::ADD_TO_DAY,
        effects::{Event, EventBody},
        report::{ADD_TO_HOUR, DELIVERED_IN_COUNTRY, Delivered},
    },
};

pub(super) use crate::store::event_batch::Outbox;

/// PostgreSQL's statements for an [`Outbox`]'s events and counts.
pub(super) trait PgEvents {
    /// Writes the counts added, at the end of the transaction that stored what they count (in
    /// key order: writers on several nodes lock the rows in the same order).
    async fn write_counts(&mut self, tx: &impl GenericClient) -> Result<(), Error>;
    /// Writes `body` to the outbox of every webhook of `account` listening to `event`.
    async fn raise(
        &mut self,
        tx: &impl GenericClient,
        account: AccountId,
        event: WebhookType,
        body: &impl Serialize,
    ) -> Result<(), Error>;
    /// Writes `events` in order, each run of one type in one statement ([`PgEvents::raise_each`]).
    async fn raise_all(&mut self, tx: &impl GenericClient, events: &[Event]) -> Result<(), Error>;
    /// Writes each `(account, body)` of `events`, in order, to the outbox of every webhook of
    /// its account listening to `event`: one statement for them all (an insert per event was a
    /// round trip each in a wave's transaction).
    async fn raise_each<B: Serialize>(
        &mut self,
        tx: &impl GenericClient,
        event: WebhookType,
        events: impl IntoIterator<Item = (AccountId, B)>,
    ) -> Result<(), Error>;
}

impl PgEvents for Outbox {
    async fn write_counts(&mut self, tx: &impl GenericClient) -> Result<(), Error> {
        // Campaigns' reports first, and only for the campaigns that keep counts: the rest (every
        // one-recipient send) would each cost two round trips here, all taken while the rows
        // written below are locked.
        let (countries, hours) = self.report.take();
        let counted = counted_campaigns(tx, &countries).await?;
        for (campaign, country, delivered) in countries.iter().filter(|row| counted.contains(&row.0)) {
            let add = tx.prepare_cached(DELIVERED_IN_COUNTRY).await?;
            tx.execute(&add, &[campaign, country, delivered]).await?;
        }
        for (campaign, hour, delivered) in hours.iter().filter(|row| counted.contains(&row.0)) {
            let add = tx.prepare_cached(ADD_TO_HOUR).await?;
            tx.execute(&add, &[campaign, hour, delivered]).await?;
        }
        // Last: an account's day is one row that every hand-over and receipt of the account
        // writes, so it stays locked from here to the commit only.
        for ((account, day), c) in self.tally.take() {
            let add = tx.prepare_cached(ADD_TO_DAY).await?;
            tx.execute(&add, &[&account, &day, &c.sent, &c.delivered, &c.clicks, &c.replies, &c.stops, &c.cost])
                .await?;
        }
        Ok(())
    }

    async fn raise(
        &mut self,
        tx: &impl GenericClient,
        account: AccountId,
        event: WebhookType,
        body: &impl Serialize,
    ) -> Result<(), Error> {
        self.raise_each(tx, event, [(account, body)]).await
    }

    async fn raise_all(&mut self, tx: &impl GenericClient, events: &[Event]) -> Result<(), Error> {
        for run in events.chunk_by(|a, b| a.kind == b.kind) {
            let bodies: Vec<(AccountId, &EventBody)> = run.iter().map(|e| (e.account, &e.body)).collect();
            self.raise_each(tx, run[0].kind, bodies).await?;
        }
        Ok(())
    }

    async fn raise_each<B: Serialize>(
        &mut self,
        tx: &impl GenericClient,
        event: WebhookType,
        events: impl IntoIterator<Item = (AccountId, B)>,
    ) -> Result<(), Error> {
        let events: Vec<(AccountId, B)> = events.into_iter().collect();
        learn(self, tx, events.iter().map(|(account, _)| *account), event).await?;
        let (mut accounts, mut bodies) = (Vec::new(), Vec::new());
        for (account, body) in &events {
            if listens(self, tx, *account, event).await? {
                accounts.push(*account);
                bodies.push(
                    serde_json::to_string(body)
                        .map_err(|_| Error::Unavailable("an event body could not be written"))?,
                );
            }
        }
        if accounts.is_empty() {
            return Ok(());
        }
        // Each event to its account's webhooks, in the order raised, then by webhook.
        let insert = tx
            .prepare_cached(
                "INSERT INTO outbox (webhook_id, event, body, created_at)
                 SELECT w.id, $1, e.body, $2 FROM unnest($3::bigint[], $4::text[]) WITH ORDINALITY AS e(account_id, body, n)
                 JOIN webhooks w ON w.account_id = e.account_id AND w.type = $1
                 ORDER BY e.n, w.id",
            )
            .await?;
        tx.execute(&insert, &[&event.as_str(), &self.at(), &accounts, &bodies]).await?;
        Ok(())
    }
}

/// Learns in one statement which of `accounts` listen to `event`, before it is raised for
/// many of them (each probe is planned again inside a wave's transaction).
async fn learn(
    outbox: &mut Outbox,
    tx: &impl GenericClient,
    accounts: impl IntoIterator<Item = AccountId>,
    event: WebhookType,
) -> Result<(), Error> {
    let mut unknown: Vec<AccountId> =
        accounts.into_iter().filter(|account| !outbox.listening.contains_key(&(*account, event))).collect();
    unknown.sort_unstable();
    unknown.dedup();
    if unknown.len() < 2 {
        return Ok(());
    }
    let query =
        tx.prepare_cached("SELECT DISTINCT account_id FROM webhooks WHERE account_id = ANY($1) AND type = $2").await?;
    let listening: HashSet<AccountId> =
        tx.query(&query, &[&unknown, &event.as_str()]).await?.iter().map(|row| row.get(0)).collect();
    for account in unknown {
        outbox.listening.insert((account, event), listening.contains(&account));
    }
    Ok(())
}

/// Whether `account` has a webhook (live or paused) listening to `event`.
async fn listens(
    outbox: &mut Outbox,
    tx: &impl GenericClient,
    account: AccountId,
    event: WebhookType,
) -> Result<bool, Error> {
    if let Some(listening) = outbox.listening.get(&(account, event)) {
        return Ok(*listening);
    }
    let query = tx.prepare_cached("SELECT EXISTS (SELECT 1 FROM webhooks WHERE account_id = $1 AND type = $2)").await?;
    let listening: bool = tx.query_one(&query, &[&account, &event.as_str()]).await?.get(0);
    outbox.listening.insert((account, event), listening);
    Ok(listening)
}

/// Which campaigns of `delivered` keep counts for their reports (they have country rows), in
/// one statement.
async fn counted_campaigns(tx: &impl GenericClient, delivered: &[Delivered]) -> Result<HashSet<i64>, Error> {
    if delivered.is_empty() {
        return Ok(HashSet::new());
    }
    let mut campaigns: Vec<i64> = delivered.iter().map(|row| row.0).collect();
    campaigns.dedup();
    let counted =
        tx.prepare_cached("SELECT DISTINCT campaign_id FROM report_countries WHERE campaign_id = ANY($1)").await?;
    Ok(tx.query(&counted, &[&campaigns]).await?.iter().map(|row| row.get(0)).collect())
}
