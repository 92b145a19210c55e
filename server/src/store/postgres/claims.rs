//! Claiming a node's next wave of queued messages in PostgreSQL: alerts first, then
//! marketing to the zones whose window is open, each account's fair share first, small
//! campaigns many at a time and the others (large ones, a limited account's, an A/B test's
//! rest waiting, overseas zones) alone by id range; campaigns found with nothing queued are
//! closed. The hand-over's transaction ([`super::delivery`]) calls [`next_wave`].

use std::{
    collections::{HashMap, HashSet},
    sync::Arc,
};

use deadpool_postgres::Transaction;
use texto_core::OpenWindows;
use tokio_postgres::types::Type;

use crate::{
    Error,
    store::{
        CampaignText, Queued,
        delivery::{CAMPAIGN_TEXT_COLUMNS, WaveLimit, read_campaign_text},
        sending_campaigns::{ACCOUNTS_SENDING_SQL, Rounds, campaigns_of_account_sql, in_wave_order},
        wave::WavePlan,
        zones::IdRange,
    },
};

/// Campaigns of at most this many messages are claimed from together, [`GROUP`] at a time,
/// in one statement (a wave of one-recipient sends would otherwise be a statement each).
const SMALL: i64 = 100;
/// Small campaigns claimed from in one statement at most.
const GROUP: usize = 500;

/// Claims up to `wave.total` queued messages nobody holds for `node` (at most `wave.caps` of
/// a limited account's) and returns them: alerts first, marketing only to the zones whose
/// window is `open`, each account's fair share first ([`WavePlan`]), by campaign then id.
/// Closes the campaigns it looked at and found nothing queued in.
pub(super) async fn next_wave(
    tx: &Transaction<'_>,
    node: i64,
    wave_limit: WaveLimit,
    open: OpenWindows,
) -> Result<Vec<Queued>, Error> {
    let limit = wave_limit.total;
    if limit == 0 {
        return Ok(Vec::new());
    }
    let accounts = tx.prepare_cached(ACCOUNTS_SENDING_SQL).await?;
    let accounts = tx.query(&accounts, &[]).await?.iter().map(|row| row.try_get(0)).collect::<Result<_, _>>()?;
    let mut rounds = Rounds::new(accounts, limit);
    let mut wave = Vec::with_capacity(limit);
    let mut empty = Vec::new();
    let mut remaining = wave_limit.clone();
    loop {
        let (live, open_ranges) = live_campaigns(tx, &mut rounds, open).await?;
        claim_wave(tx, node, (live, open_ranges), remaining, &mut wave, &mut empty).await?;
        remaining = wave_limit.after(wave.iter().map(|queued| queued.campaign.account));
        if !rounds.next_round(&remaining) {
            break;
        }
    }
    if !empty.is_empty() {
        close_if_done(tx, &empty).await?;
    }
    Ok(wave)
}

/// The campaigns of this round's accounts ([`Rounds`]) that may send now, in wave order, with
/// their counts of messages, and the id ranges of the messages of each that may go.
async fn live_campaigns(tx: &Transaction<'_>, rounds: &mut Rounds, open: OpenWindows) -> Result<LiveCampaigns, Error> {
    let campaigns = tx.prepare_cached(&campaigns_of_account_sql(&format!("{CAMPAIGN_TEXT_COLUMNS}, total"))).await?;
    let mut live: Vec<(CampaignText, i64)> = Vec::new();
    let mut open_ranges: HashMap<i64, Vec<IdRange>> = HashMap::new();
    while let Some(read) = rounds.next_read() {
        let rows = tx.query(&campaigns, &[&read.account, &read.marketing, &read.after, &read.count]).await?;
        let (mut last, before) = (None, live.len());
        for row in &rows {
            let campaign = read_campaign_text(row)?;
            last = Some(campaign.id);
            let ranges = campaign.open_ranges(open);
            if !ranges.is_empty() {
                open_ranges.insert(campaign.id, ranges);
                live.push((campaign, row.try_get(12)?));
            }
        }
        rounds.found(read, rows.len(), last, live.len() - before);
    }
    in_wave_order(&mut live, |(campaign, _)| campaign);
    Ok((live, open_ranges))
}

/// The campaigns that may send now, in wave order, with their counts of messages, and the id
/// ranges of the messages of each that may go.
type LiveCampaigns = (Vec<(CampaignText, i64)>, HashMap<i64, Vec<IdRange>>);

/// Claims up to `limit` of the `live` campaigns' queued messages into `wave` ([`WavePlan`]),
/// adding to `empty` the campaigns found with nothing queued.
async fn claim_wave(
    tx: &Transaction<'_>,
    node: i64,
    (live, open_ranges): LiveCampaigns,
    limit: WaveLimit,
    wave: &mut Vec<Queued>,
    empty: &mut Vec<i64>,
) -> Result<(), Error> {
    let groups: Vec<Vec<Arc<CampaignText>>> =
        groups(live, &limit).into_iter().map(|group| group.into_iter().map(Arc::new).collect()).collect();
    let accounts = groups.iter().map(|group| group.iter().map(|campaign| campaign.account).collect()).collect();
    let mut plan = WavePlan::new(accounts, limit);
    while let Some(ask) = plan.next() {
        let group = &groups[ask.group];
        let ids: Vec<i64> = group.iter().map(|campaign| campaign.id).collect();
        // A campaign whose messages may not all go (an A/B test's rest waiting for its winner,
        // zones whose window is closed) is a group of its own, claimed from range by range.
        let claimed = match group.as_slice() {
            [campaign] => {
                let mut claimed = Vec::new();
                for &range in &open_ranges[&campaign.id] {
                    let wanted = ask.wanted - claimed.len();
                    if wanted == 0 {
                        break;
                    }
                    claimed.extend(claim(tx, node, (&ids, range), wanted).await?);
                }
                claimed
            }
            _ => claim(tx, node, (&ids, (0, i64::MAX)), ask.wanted).await?,
        };
        // A campaign is known to have nothing queued when the claim did not stop at the
        // limit before reaching it.
        let reached = if claimed.len() < ask.wanted {
            i64::MAX
        } else {
            claimed.last().map_or(i64::MIN, |&(_, campaign, ..)| campaign)
        };
        let texts: HashMap<i64, &Arc<CampaignText>> = group.iter().map(|campaign| (campaign.id, campaign)).collect();
        let got: HashSet<i64> = claimed.iter().map(|&(_, campaign, ..)| campaign).collect();
        empty.extend(ids.iter().filter(|&&id| id < reached && !got.contains(&id)));
        let before = wave.len();
        for (message, campaign, number, info, variant) in claimed {
            let info = crate::store::messages::values_from_column(info.as_deref());
            let text = Arc::clone(texts[&campaign]);
            let variant = variant.and_then(|v| u8::try_from(v).ok());
            wave.push(Queued { id: message, campaign: text, number: number as u64, info, variant });
        }
        plan.took(wave[before..].iter().map(|queued| queued.campaign.account));
    }
    Ok(())
}

/// `campaigns` (in wave order) in the groups claimed from together: a large campaign alone,
/// consecutive small ones of the same push type up to [`GROUP`] (their ids ascend); a campaign
/// of an account with a throughput limit alone, so that its cap can apply, and one whose
/// messages may not all go now (an A/B test's rest waiting, overseas zones) alone, so that
/// its ranges can apply.
fn groups(campaigns: Vec<(CampaignText, i64)>, wave: &WaveLimit) -> Vec<Vec<CampaignText>> {
    let mut groups: Vec<Vec<CampaignText>> = Vec::new();
    let mut open = false;
    for (campaign, total) in campaigns {
        let small = total <= SMALL
            && !wave.caps.contains_key(&campaign.account)
            && campaign.hold.is_none()
            && campaign.zones.is_empty();
        match groups.last_mut() {
            Some(last) if open && small && last.len() < GROUP && last[0].pushtype == campaign.pushtype => {
                last.push(campaign)
            }
            _ => groups.push(vec![campaign]),
        }
        open = small;
    }
    groups
}

/// Claims for `node` up to `limit` unclaimed queued messages of `campaigns` (ascending ids;
/// one alone, only its messages in the id range (after, up to]), by campaign then id:
/// (message, campaign, number, info, variant).
async fn claim(
    tx: &Transaction<'_>,
    node: i64,
    (campaigns, (after, up_to)): (&[i64], (i64, i64)),
    limit: usize,
) -> Result<Vec<Claimed>, Error> {
    let limit = limit as i64;
    let rows = if let [campaign] = campaigns {
        let claim = tx
            .prepare_cached(
                "UPDATE messages m SET claimed_by = $1
                 FROM (SELECT id FROM messages WHERE campaign_id = $2 AND delivery = 0 AND claimed_by IS NULL
                       AND id > $4 AND id <= $5 ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED) AS picked
                 WHERE m.id = picked.id RETURNING m.id, m.campaign_id, m.number, m.info, m.variant",
            )
            .await?;
        tx.query(&claim, &[&node, campaign, &limit, &after, &up_to]).await?
    } else {
        // Planned for its arrays each time (an unnamed statement): a generic plan may walk
        // `messages_unclaimed` whole in index order instead of looking up each campaign.
        let sql = "UPDATE messages m SET claimed_by = $1
             FROM (SELECT id FROM messages WHERE campaign_id = ANY($2) AND delivery = 0 AND claimed_by IS NULL ORDER BY campaign_id, id LIMIT $3
                   FOR UPDATE SKIP LOCKED) AS picked
             WHERE m.id = picked.id RETURNING m.id, m.campaign_id, m.number, m.info, m.variant";
        tx.query_typed(sql, &[(&node, Type::INT8), (&campaigns, Type::INT8_ARRAY), (&limit, Type::INT8)]).await?
    };
    let mut claimed: Vec<Claimed> =
        rows.iter().map(|row| (row.get(0), row.get(1), row.get(2), row.get(3), row.get(4))).collect();
    claimed.sort_unstable_by_key(|&(message, campaign, ..)| (campaign, message));
    Ok(claimed)
}

/// A claimed message: its id, campaign, number, info and A/B variant.
type Claimed = (i64, i64, i64, Option<String>, Option<i64>);

/// Of `campaigns`, those still sending with no message queued (claimed or not) are `sent`.
/// One another transaction holds is left for a later wave.
async fn close_if_done(tx: &Transaction<'_>, campaigns: &[i64]) -> Result<(), Error> {
    // A few hundred at a time, each campaign looked up by its key (a lateral subquery on its
    // id), and its queued messages probed (a scalar subquery with LIMIT, never made a join).
    // Planned freely, with statistics that lagged behind the table, the statement scanned every
    // sending campaign against every id, or every queued message once per campaign: 1-24 s a
    // wave inside the hand-over transaction, whose keys the other node's waves then waited for.
    let close = tx
        .prepare_cached(
            "UPDATE campaigns SET status = 'sent' WHERE id IN (
                 SELECT c.id FROM unnest($1::bigint[]) AS done(id)
                 CROSS JOIN LATERAL (
                     SELECT id FROM campaigns WHERE id = done.id AND status = 'sending'
                     AND (SELECT m.id FROM messages m WHERE m.campaign_id = done.id AND m.delivery = 0 LIMIT 1) IS NULL
                     FOR NO KEY UPDATE SKIP LOCKED) AS c)",
        )
        .await?;
    for chunk in campaigns.chunks(GROUP) {
        tx.execute(&close, &[&chunk]).await?;
    }
    Ok(())
}
