//! Clicks in PostgreSQL: counted from the `clicks` rows of a campaign (per link for its detail,
//! per recipient for who clicked).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use deadpool_postgres::{GenericClient, Transaction};

use super::{
    PgStore,
    events::{Outbox, PgEvents},
    time,
};
use crate::{
    Error,
    store::{
        AccountId, Click, ClickStore, Clicker, Followed, LinkClicks, Page,
        effects::{Clicked, info_of},
    },
};

#[async_trait]
impl ClickStore for PgStore {
    async fn click(&self, click: Click, now: DateTime<Utc>) -> Result<Option<Followed>, Error> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let long_url = store_click(&tx, &click, now).await?;
        tx.commit().await?;
        Ok(long_url)
    }

    async fn clickers(
        &self,
        account: AccountId,
        ticket: i64,
        page: Page,
    ) -> Result<Option<(Vec<Clicker>, i64)>, Error> {
        let page = page.clamped();
        let client = self.pool.get().await?;
        let Some(links) = links_of(&client, account, ticket).await? else { return Ok(None) };
        let total: i64 = client
            .query_one("SELECT COUNT(*) FROM (SELECT 1 FROM clicks WHERE campaign_id = $1 GROUP BY message_id, link) AS clickers", &[&ticket])
            .await?
            .get(0);
        // A message's clicks all carry its campaign: `l.campaign_id = $1` only lets the
        // device look-up use the campaign's index.
        let query = client
            .prepare_cached(
                "SELECT m.number, c.link, COUNT(*), MAX(c.clicked_at),
                        (SELECT ARRAY[l.brand, l.model, l.os] FROM clicks l
                         WHERE l.campaign_id = $1 AND l.message_id = c.message_id AND l.link = c.link ORDER BY l.id DESC LIMIT 1),
                        m.info
                 FROM clicks c JOIN messages m ON m.id = c.message_id
                 WHERE c.campaign_id = $1 GROUP BY c.message_id, c.link, m.id ORDER BY MIN(c.id) LIMIT $2 OFFSET $3",
            )
            .await?;
        let clickers = client
            .query(&query, &[&ticket, &page.length, &page.start])
            .await?
            .iter()
            .map(|row| {
                let link: i64 = row.get(1);
                let mut device = row.get::<_, Option<Vec<String>>>(4).unwrap_or_default().into_iter();
                let info: Option<String> = row.get(5);
                Clicker {
                    number: row.get::<_, i64>(0) as u64,
                    url: usize::try_from(link).ok().and_then(|i| links.get(i)).cloned().unwrap_or_default(),
                    clicks: row.get(2),
                    last_click: time::load(row.get(3)),
                    device: [
                        device.next().unwrap_or_default(),
                        device.next().unwrap_or_default(),
                        device.next().unwrap_or_default(),
                    ],
                    info: info_of(info.as_deref()),
                }
            })
            .collect();
        Ok(Some((clickers, total)))
    }
}

/// The campaign's links with their clicks, in the order of the text; `None` when the account
/// has no such campaign.
pub(super) async fn link_clicks(
    db: &impl GenericClient,
    account: AccountId,
    ticket: i64,
) -> Result<Option<Vec<LinkClicks>>, Error> {
    let Some(links) = links_of(db, account, ticket).await? else { return Ok(None) };
    let query = db
        .prepare_cached(
            "SELECT link, COUNT(*), COUNT(DISTINCT message_id) FROM clicks WHERE campaign_id = $1 GROUP BY link",
        )
        .await?;
    let counted =
        db.query(&query, &[&ticket]).await?.iter().map(|row| (row.get(0), row.get(1), row.get(2))).collect::<Vec<_>>();
    Ok(Some(LinkClicks::of(links, counted)))
}

/// The campaign's long URLs, if the account owns it.
async fn links_of(db: &impl GenericClient, account: AccountId, ticket: i64) -> Result<Option<Vec<String>>, Error> {
    let query = db.prepare_cached("SELECT links FROM campaigns WHERE id = $1 AND account_id = $2").await?;
    let links: Option<String> = db.query_opt(&query, &[&ticket, &account]).await?.map(|row| row.get(0));
    Ok(links.map(|json| serde_json::from_str(&json).unwrap_or_default()))
}

/// Counts a click and raises CLICKER; the long URL, or `None` when the code names no link
/// of a message handed over. The message's row is locked first, so that clicks on it from
/// several nodes count one after the other.
async fn store_click(tx: &Transaction<'_>, click: &Click, now: DateTime<Utc>) -> Result<Option<Followed>, Error> {
    let mut outbox = Outbox::new(now);
    let query = tx
        .prepare_cached(
            "SELECT m.campaign_id, m.account_id, m.gsmsmsid, m.info, c.links, c.utm FROM messages m JOIN campaigns c ON c.id = m.campaign_id
             WHERE m.id = $1 AND m.delivery <> 0 FOR NO KEY UPDATE OF m",
        )
        .await?;
    let Some(row) = tx.query_opt(&query, &[&click.message_id]).await? else { return Ok(None) };
    let (campaign, account, gsmsmsid, info, links, utm): (
        i64,
        i64,
        Option<String>,
        Option<String>,
        String,
        Option<String>,
    ) = (row.get(0), row.get(1), row.get(2), row.get(3), row.get(4), row.get(5));
    let links: Vec<String> = serde_json::from_str(&links).unwrap_or_default();
    let Some(long_url) = links.get(click.link).cloned() else { return Ok(None) };
    let [brand, model, os] = &click.device;
    let link = click.link as i64;
    let insert = tx
        .prepare_cached("INSERT INTO clicks (campaign_id, message_id, link, brand, model, os, clicked_at) VALUES ($1, $2, $3, $4, $5, $6, $7)")
        .await?;
    tx.execute(&insert, &[&campaign, &click.message_id, &link, brand, model, os, &outbox.at()]).await?;
    let count = tx
        .prepare_cached("SELECT COUNT(*) FROM clicks WHERE campaign_id = $1 AND message_id = $2 AND link = $3")
        .await?;
    let clicks: i64 = tx.query_one(&count, &[&campaign, &click.message_id, &link]).await?.get(0);
    let event =
        Clicked { campaign, account, gsmsmsid, info: info.as_deref(), long_url: &long_url, click, clicks }.event(now);
    outbox.raise_all(tx, std::slice::from_ref(&event)).await?;
    outbox.count(account, |day| day.clicks += 1);
    outbox.write_counts(tx).await?;
    Ok(Some(Followed { long_url, campaign, utm }))
}
