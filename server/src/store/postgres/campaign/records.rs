//! Campaigns read back from PostgreSQL: the stored row, its messages per delivery code and the
//! stops it drew (for a page of campaigns, two grouped queries in all), and for one campaign
//! with short links, their clicks.

use std::collections::HashMap;

use deadpool_postgres::GenericClient;
use futures_util::future::try_join;

use super::query;
use crate::{
    Error,
    store::{AccountId, CampaignFilter, CampaignRecord, SqlValue, campaigns::stored_campaign},
};

/// The columns [`stored_campaign`](crate::store::campaigns::stored_campaign) reads.
const CAMPAIGN_COLUMNS: &str = "id, text, sender, status, send_at, created_at, cost, lists, total, sent, npai, pushtype, paused_at IS NOT NULL, validity, template_id,
    (SELECT journey_id FROM journey_campaigns WHERE campaign_id = campaigns.id)";

/// The page of the account's campaigns that `filter` asks for, and how many it keeps in all.
pub(super) async fn campaign_page(
    db: &impl GenericClient,
    account: AccountId,
    filter: &CampaignFilter,
) -> Result<(Vec<CampaignRecord>, i64), Error> {
    let page = filter.page.clamped();
    let conditions = filter.conditions(account);
    let values: Vec<_> = conditions.values().iter().map(SqlValue::as_postgres).collect();
    let sql = format!(
        "SELECT {CAMPAIGN_COLUMNS} FROM campaigns WHERE {} ORDER BY id {} LIMIT {} OFFSET {}",
        conditions.postgres(1),
        filter.order.sql(),
        page.length,
        page.start
    );
    let (count, rows) = try_join(
        query(db, &format!("SELECT COUNT(*) FROM campaigns WHERE {}", conditions.postgres(1)), &values),
        query(db, &sql, &values),
    )
    .await?;
    let total = count.first().map_or(0, |row| row.get(0));
    let records = with_deliveries(db, rows.iter().map(stored_campaign).collect::<Result<_, _>>()?).await?;
    Ok((records, total))
}

/// One campaign of the account, with its delivery counts, and its links' clicks when its text
/// has short links.
pub(super) async fn campaign_record(
    db: &impl GenericClient,
    account: AccountId,
    ticket: i64,
) -> Result<Option<CampaignRecord>, Error> {
    let sql = format!("SELECT {CAMPAIGN_COLUMNS} FROM campaigns WHERE id = $1 AND account_id = $2");
    let rows = query(db, &sql, &[&ticket, &account]).await?;
    let Some(row) = rows.first() else { return Ok(None) };
    let Some(mut record) = with_deliveries(db, vec![stored_campaign(row)?]).await?.pop() else { return Ok(None) };
    if record.text.contains(texto_core::SHORT_MARKER) {
        record.short_links = super::clicks::link_clicks(db, account, ticket).await?;
    }
    Ok(Some(record))
}

/// Fills in the campaigns' messages per delivery code and their stops.
async fn with_deliveries(
    db: &impl GenericClient,
    mut records: Vec<CampaignRecord>,
) -> Result<Vec<CampaignRecord>, Error> {
    if records.is_empty() {
        return Ok(records);
    }
    let ids: Vec<i64> = records.iter().map(|record| record.id).collect();
    let (deliveries, stops) = try_join(
        query(db, "SELECT campaign_id, delivery, COUNT(*) FROM messages WHERE campaign_id = ANY($1) GROUP BY campaign_id, delivery", &[&ids]),
        query(db, "SELECT campaign_id, COUNT(*) FROM blacklist WHERE campaign_id = ANY($1) AND source = 'stop' GROUP BY campaign_id", &[&ids]),
    )
    .await?;
    let position: HashMap<i64, usize> = ids.iter().enumerate().map(|(i, id)| (*id, i)).collect();
    for row in &deliveries {
        if let Some(record) = position.get(&row.get(0)).and_then(|&i| records.get_mut(i)) {
            record.deliveries.add(row.get(1), row.get(2));
        }
    }
    for row in &stops {
        if let Some(record) = position.get(&row.get(0)).and_then(|&i| records.get_mut(i)) {
            record.stops = row.get(1);
        }
    }
    Ok(records)
}
