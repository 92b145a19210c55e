//! Clicks in SQLite: counted from the `clicks` rows of a campaign (per link for its detail,
//! per recipient for who clicked).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use rusqlite::{Connection, OptionalExtension, params};

use super::{
    SqliteStore,
    events::{Outbox, SqliteEvents},
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
impl ClickStore for SqliteStore {
    async fn click(&self, click: Click, now: DateTime<Utc>) -> Result<Option<Followed>, Error> {
        self.db.write(move |db| store_click(db, &click, now)).await
    }

    async fn clickers(
        &self,
        account: AccountId,
        ticket: i64,
        page: Page,
    ) -> Result<Option<(Vec<Clicker>, i64)>, Error> {
        let page = page.clamped();
        self.db
            .read(move |db| {
                let Some(links) = links_of(db, account, ticket)? else { return Ok(None) };
                let total: i64 = db.query_row(
                    "SELECT COUNT(*) FROM (SELECT 1 FROM clicks WHERE campaign_id = ? GROUP BY message_id, link)",
                    [ticket],
                    |row| row.get(0),
                )?;
                let mut query = db.prepare_cached(
                    "SELECT m.number, c.link, COUNT(*), MAX(c.clicked_at),
                            (SELECT brand || char(31) || model || char(31) || os FROM clicks l
                             WHERE l.message_id = c.message_id AND l.link = c.link ORDER BY l.id DESC LIMIT 1),
                            m.info
                     FROM clicks c JOIN messages m ON m.id = c.message_id
                     WHERE c.campaign_id = ? GROUP BY c.message_id, c.link ORDER BY MIN(c.id) LIMIT ? OFFSET ?",
                )?;
                let rows = query.query_map(params![ticket, page.length, page.start], |row| {
                    let link: i64 = row.get(1)?;
                    let device: String = row.get(4)?;
                    let mut parts = device.split('\u{1f}').map(str::to_owned);
                    let info: Option<String> = row.get(5)?;
                    Ok(Clicker {
                        number: row.get::<_, i64>(0)? as u64,
                        url: usize::try_from(link).ok().and_then(|i| links.get(i)).cloned().unwrap_or_default(),
                        clicks: row.get(2)?,
                        last_click: time::load(&row.get::<_, String>(3)?),
                        device: [
                            parts.next().unwrap_or_default(),
                            parts.next().unwrap_or_default(),
                            parts.next().unwrap_or_default(),
                        ],
                        info: info_of(info.as_deref()),
                    })
                })?;
                Ok(Some((rows.collect::<Result<_, _>>()?, total)))
            })
            .await
    }
}

/// The campaign's links with their clicks, in the order of the text; `None` when the account
/// has no such campaign.
pub(super) fn link_clicks(db: &Connection, account: AccountId, ticket: i64) -> Result<Option<Vec<LinkClicks>>, Error> {
    let Some(links) = links_of(db, account, ticket)? else { return Ok(None) };
    let mut query = db.prepare_cached(
        "SELECT link, COUNT(*), COUNT(DISTINCT message_id) FROM clicks WHERE campaign_id = ? GROUP BY link",
    )?;
    let counted =
        query.query_map([ticket], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))?.collect::<Result<Vec<_>, _>>()?;
    Ok(Some(LinkClicks::of(links, counted)))
}

/// The campaign's long URLs, if the account owns it.
fn links_of(db: &Connection, account: AccountId, ticket: i64) -> Result<Option<Vec<String>>, Error> {
    let links: Option<String> = db
        .prepare_cached("SELECT links FROM campaigns WHERE id = ? AND account_id = ?")?
        .query_row([ticket, account], |row| row.get(0))
        .optional()?;
    Ok(links.map(|json| serde_json::from_str(&json).unwrap_or_default()))
}

/// Counts a click and raises CLICKER; the long URL, or `None` when the code names no link
/// of a message handed over.
fn store_click(db: &Connection, click: &Click, now: DateTime<Utc>) -> Result<Option<Followed>, Error> {
    let mut outbox = Outbox::new(now);
    let row = db
        .prepare_cached(
            "SELECT m.campaign_id, m.account_id, m.gsmsmsid, m.info, c.links, c.utm FROM messages m JOIN campaigns c ON c.id = m.campaign_id
             WHERE m.id = ? AND m.delivery <> 0",
        )?
        .query_row([click.message_id], |row| {
            Ok((row.get::<_, i64>(0)?, row.get::<_, i64>(1)?, row.get::<_, Option<String>>(2)?, row.get::<_, Option<String>>(3)?, row.get::<_, String>(4)?, row.get::<_, Option<String>>(5)?))
        })
        .optional()?;
    let Some((campaign, account, gsmsmsid, info, links, utm)) = row else { return Ok(None) };
    let links: Vec<String> = serde_json::from_str(&links).unwrap_or_default();
    let Some(long_url) = links.get(click.link).cloned() else { return Ok(None) };
    let [brand, model, os] = &click.device;
    db.prepare_cached(
        "INSERT INTO clicks (campaign_id, message_id, link, brand, model, os, clicked_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    )?
    .execute(params![campaign, click.message_id, click.link as i64, brand, model, os, outbox.at()])?;
    let clicks: i64 = db
        .prepare_cached("SELECT COUNT(*) FROM clicks WHERE campaign_id = ? AND message_id = ? AND link = ?")?
        .query_row(params![campaign, click.message_id, click.link as i64], |row| row.get(0))?;
    let event =
        Clicked { campaign, account, gsmsmsid, info: info.as_deref(), long_url: &long_url, click, clicks }.event(now);
    outbox.raise(db, event.account, event.kind, &event.body)?;
    outbox.count(account, |day| day.clicks += 1);
    outbox.write_counts(db)?;
    Ok(Some(Followed { long_url, campaign, utm }))
}
