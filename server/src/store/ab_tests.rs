//! A/B tests (migrations `0041_ab_tests` and PostgreSQL's `0036`): each sample's counts, and
//! the winner sent to the rest. The statements are shared; SQLite numbers their `$N` as `?N`.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use texto_core::{AbTest, Credits, PushType, SampleHours, VariantCounts};

use super::{AccountId, campaign_rows::AbColumn, columns::Columns, zones};
use crate::Error;

/// After a test's messages are written by PostgreSQL's batch writer (which learns no ids):
/// the last message of its sample, after which the rest wait (`$1` the ticket; the sample is
/// written first). SQLite's writer notes the id as it writes.
pub(crate) const HOLD_THE_REST: &str = "UPDATE campaigns SET ab_hold =
     (SELECT max(id) FROM messages WHERE campaign_id = $1 AND variant IS NOT NULL) WHERE id = $1";

/// The tests whose rest waits for a winner, of sending campaigns (any account's).
pub(crate) const WAITING: &str =
    "SELECT id, account_id, send_at, variants, ab, ab_winner, pushtype, zones, ab_hold FROM campaigns
     WHERE ab_hold IS NOT NULL AND ab_winner IS NULL AND status = 'sending'";

/// One test of the account's (`$1` ticket, `$2` account): its variants, settings, winner and
/// sending time.
pub(crate) const ONE: &str =
    "SELECT id, account_id, send_at, variants, ab, ab_winner, pushtype, zones, ab_hold FROM campaigns
     WHERE id = $1 AND account_id = $2 AND ab IS NOT NULL";

/// Each text's sample (`$1` ticket, `$2` the delivered code): its text, messages, delivered,
/// clicked and replied to (a STOP is no reply). Only the sample's messages note their text.
pub(crate) const SAMPLE_COUNTS: &str = "SELECT m.variant, COUNT(*),
         SUM(CASE WHEN m.delivery = $2 THEN 1 ELSE 0 END),
         SUM(CASE WHEN EXISTS (SELECT 1 FROM clicks c WHERE c.campaign_id = m.campaign_id AND c.message_id = m.id) THEN 1 ELSE 0 END),
         SUM(CASE WHEN EXISTS (SELECT 1 FROM replies r WHERE r.message_id = m.id AND NOT r.stop) THEN 1 ELSE 0 END)
     FROM messages m WHERE m.campaign_id = $1 AND m.variant IS NOT NULL
     GROUP BY m.variant ORDER BY m.variant";

/// Each text's sample's deliveries per hour (`$1` ticket, `$2` the delivered code): the text,
/// the hour (`YYYY-MM-DDTHH`) and the count.
pub(crate) const SAMPLE_DELIVERED_HOURS: &str = "SELECT variant, substr(delivered_at, 1, 13), COUNT(*) FROM messages
     WHERE campaign_id = $1 AND variant IS NOT NULL AND delivery = $2 AND delivered_at IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2";

/// Each text's sample's clicks per hour (`$1` ticket): the text, the hour and the count.
pub(crate) const SAMPLE_CLICK_HOURS: &str = "SELECT m.variant, substr(c.clicked_at, 1, 13), COUNT(*) FROM clicks c
     JOIN messages m ON m.id = c.message_id WHERE c.campaign_id = $1 AND m.variant IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2";

/// Takes the winner (`$1` ticket, `$2` winner, `$3` the refund in hundredths) for a test still
/// waiting, of a campaign still sending: one row, or none when it was decided or cancelled.
pub(crate) const TAKE_WINNER: &str = "UPDATE campaigns SET ab_winner = $2, cost = cost - $3
     WHERE id = $1 AND ab_hold IS NOT NULL AND ab_winner IS NULL AND status = 'sending'";

/// What the rest was held at beyond the winner's price (`$1` ticket, `$2` [`byte_of`] the
/// winner): each message costs its part price times its parts.
pub(crate) const REFUND_OF_THE_REST: &str =
    "SELECT CAST(COALESCE(SUM(cost - cost / parts * ((text_parts / $2) % 256)), 0) AS BIGINT) FROM messages
     WHERE campaign_id = $1 AND variant IS NULL AND text_parts IS NOT NULL";

/// The rest whose texts differ in parts priced for the winner (`$1` ticket, `$2` [`byte_of`]
/// the winner); the rest gets the winner's text from its campaign.
pub(crate) const PRICE_THE_REST: &str = "UPDATE messages SET parts = (text_parts / $2) % 256,
         cost = cost / parts * ((text_parts / $2) % 256), text_parts = NULL
     WHERE campaign_id = $1 AND variant IS NULL AND text_parts IS NOT NULL";

/// What divides a message's `text_parts` to bring text `variant`'s byte lowest.
pub(crate) fn byte_of(variant: u8) -> i64 {
    1 << (8 * i64::from(variant))
}

/// A campaign's A/B test as stored.
#[derive(Debug, Clone)]
pub(crate) struct StoredTest {
    /// The ticket.
    pub(crate) campaign: i64,
    /// Its account.
    pub(crate) account: AccountId,
    /// When its sample went (or goes) out: the campaign's sending time, or, when the sample
    /// reaches overseas numbers whose window opens later, that opening.
    pub(crate) send_at: DateTime<Utc>,
    /// The test.
    pub(crate) test: AbTest,
    /// The winner, once chosen (0 is the campaign's own text).
    pub(crate) winner: Option<u8>,
}

impl StoredTest {
    /// When the winner is due: the wait after the sample went out.
    pub(crate) fn due_at(&self) -> DateTime<Utc> {
        self.send_at + self.test.wait()
    }
}

/// A row of [`WAITING`] or [`ONE`]; `None` for a test that no longer reads.
pub(crate) fn read_test<R: Columns>(row: &R) -> Result<Option<StoredTest>, R::Fault> {
    let variants: Option<String> = row.column(3)?;
    let ab: Option<String> = row.column(4)?;
    let Some(test) =
        ab.and_then(|json| serde_json::from_str::<AbColumn>(&json).ok()).and_then(|c| c.test(variants.as_deref()))
    else {
        return Ok(None);
    };
    let pushtype = PushType::parse(&row.column::<String>(6)?).unwrap_or(PushType::Marketing);
    let runs = zones::parse(row.column::<Option<String>>(7)?.as_deref());
    let hold = row.column::<Option<i64>>(8)?.unwrap_or(i64::MAX);
    Ok(Some(StoredTest {
        campaign: row.column(0)?,
        account: row.column(1)?,
        send_at: zones::last_opening(pushtype, &runs, hold, row.time(2)?),
        test,
        winner: row.column::<Option<i64>>(5)?.and_then(|w| u8::try_from(w).ok()),
    }))
}

/// A row of [`SAMPLE_COUNTS`]: the text, and what its sample did.
pub(crate) fn read_counts<R: Columns>(row: &R) -> Result<(i64, VariantCounts), R::Fault> {
    let count = |i| row.column::<Option<i64>>(i).map(|n| u64::try_from(n.unwrap_or(0)).unwrap_or(0));
    Ok((
        row.column(0)?,
        VariantCounts { sent: count(1)?, delivered: count(2)?, clicked: count(3)?, replied: count(4)? },
    ))
}

/// A row of [`SAMPLE_DELIVERED_HOURS`] or [`SAMPLE_CLICK_HOURS`].
pub(crate) fn read_text_hour<R: Columns>(row: &R) -> Result<(i64, String, i64), R::Fault> {
    Ok((row.column(0)?, row.column(1)?, row.column(2)?))
}

/// Each text's deliveries and clicks per hour, in text order, from the rows of
/// [`SAMPLE_DELIVERED_HOURS`] and [`SAMPLE_CLICK_HOURS`].
pub(crate) fn hours_in_text_order(
    texts: usize,
    delivered: Vec<(i64, String, i64)>,
    clicks: Vec<(i64, String, i64)>,
) -> Vec<SampleHours> {
    let mut hours = vec![SampleHours::default(); texts];
    let slot = |variant: i64| usize::try_from(variant).ok().filter(|v| *v < texts);
    for (variant, hour, count) in delivered {
        if let Some(v) = slot(variant) {
            hours[v].delivered.push((hour, count));
        }
    }
    for (variant, hour, count) in clicks {
        if let Some(v) = slot(variant) {
            hours[v].clicks.push((hour, count));
        }
    }
    hours
}

/// Each text's sample counts, in text order (a text whose sample is empty counts zero).
pub(crate) fn in_text_order(texts: usize, rows: Vec<(i64, VariantCounts)>) -> Vec<VariantCounts> {
    let mut counts = vec![VariantCounts::default(); texts];
    for (variant, row) in rows {
        if let Some(slot) = usize::try_from(variant).ok().and_then(|v| counts.get_mut(v)) {
            *slot = row;
        }
    }
    counts
}

/// A/B tests.
#[async_trait]
pub(crate) trait AbTestStore: Send + Sync {
    /// The tests of sending campaigns whose rest waits for a winner.
    async fn waiting_tests(&self) -> Result<Vec<StoredTest>, Error>;
    /// The account's campaign's test, if it has one.
    async fn ab_test(&self, account: AccountId, ticket: i64) -> Result<Option<StoredTest>, Error>;
    /// What each text's sample did, in text order.
    async fn sample_counts(&self, ticket: i64, texts: usize) -> Result<Vec<VariantCounts>, Error>;
    /// Each text's sample's deliveries and clicks per hour, in text order.
    async fn sample_hours(&self, ticket: i64, texts: usize) -> Result<Vec<SampleHours>, Error>;
    /// Makes `winner` the text of the rest of `test`: prices the rest for it, refunds what it
    /// was held at beyond that, and lets it go, in one transaction. The refund, or `None` when
    /// the test was decided (or its campaign cancelled) meanwhile.
    async fn choose_winner(&self, test: &StoredTest, winner: u8) -> Result<Option<Credits>, Error>;
}
