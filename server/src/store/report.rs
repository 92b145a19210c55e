//! A campaign's report (`GET /campaign/:id/report`): what its figures do not hold already.
//! A large campaign's messages per country and deliveries per hour are counted as they are
//! written and delivered (migrations `0043_report_counts` and PostgreSQL's `0038`:
//! [`ReportTally`]), so its report never scans its messages; a small one's are grouped when
//! read ([`KEPT_FROM`]); its clicks and replies are read in grouped passes. The
//! statements are shared; SQLite numbers their `$N` as `?N`. Times are bucketed by their
//! stored text (`YYYY-MM-DDTHH`), the same in both stores.

use std::collections::BTreeMap;

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::{AccountId, columns::Columns};
use crate::Error;

/// The campaign's messages per country and hour of receipt (its delivered ones).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ReportRows {
    /// Its text as written.
    pub(crate) text: String,
    /// When it went (or goes) out.
    pub(crate) send_at: DateTime<Utc>,
    /// Recipients the filter let through.
    pub(crate) sent: i64,
    /// Numbers that answered it with a stop word.
    pub(crate) stops: i64,
    /// Per country: messages, delivered, recipients who clicked.
    pub(crate) countries: Vec<CountryRow>,
    /// Delivered messages per hour (`YYYY-MM-DDTHH`, UTC).
    pub(crate) delivered_hours: Vec<(String, i64)>,
    /// Clicks per hour (`YYYY-MM-DDTHH`, UTC).
    pub(crate) click_hours: Vec<(String, i64)>,
    /// Recipients who clicked a link.
    pub(crate) clickers: i64,
    /// Numbers that replied (not with a stop word) to its messages.
    pub(crate) repliers: i64,
    /// Recipients whose click converted, and what the conversions were worth (hundredths).
    pub(crate) conversions: (i64, i64),
}

/// One country of a campaign.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CountryRow {
    /// ISO 3166-1 alpha-2.
    pub(crate) country: String,
    /// Messages sent there.
    pub(crate) sent: i64,
    /// Delivered there.
    pub(crate) delivered: i64,
    /// Recipients there who clicked.
    pub(crate) clicked: i64,
}

/// Reports.
#[async_trait]
pub(crate) trait ReportStore: Send + Sync {
    /// The rows of the report of the account's campaign `ticket`; `None` when the account has
    /// no such campaign.
    async fn report_rows(&self, account: AccountId, ticket: i64) -> Result<Option<ReportRows>, Error>;
}

/// The campaign's text, sending time and recipients (`$1` ticket, `$2` account).
pub(crate) const HEAD: &str = "SELECT text, send_at, sent FROM campaigns WHERE id = $1 AND account_id = $2";

/// Numbers that answered the campaign with a stop word (`$1` ticket).
pub(crate) const STOPS: &str = "SELECT COUNT(*) FROM blacklist WHERE campaign_id = $1 AND source = 'stop'";

/// The rows of a report from its campaign's [`HEAD`] row and what else was read.
pub(crate) fn read_head<R: Columns>(row: &R) -> Result<(String, DateTime<Utc>, i64), R::Fault> {
    Ok((row.column(0)?, row.time(1)?, row.column(2)?))
}

/// Campaigns of more messages than this keep their report's counts as they are written and
/// delivered; a smaller one's are grouped from its messages when read (a few milliseconds),
/// so that a one-recipient send writes no count and its receipt updates none.
pub(crate) const KEPT_FROM: usize = 1_000;

/// Whether a campaign of `messages` keeps its report's counts ([`KEPT_FROM`]).
pub(crate) fn keeps_counts(messages: usize) -> bool {
    messages > KEPT_FROM
}

/// Messages and delivered ones per country, as kept (`$1` ticket, `$2` the account: each
/// statement names it, whoever calls it); no row when the campaign keeps no counts.
pub(crate) const COUNTRIES: &str = "SELECT r.country, r.sent, r.delivered FROM report_countries r
     JOIN campaigns k ON k.id = r.campaign_id WHERE r.campaign_id = $1 AND k.account_id = $2
     ORDER BY r.sent DESC, r.country";

/// [`COUNTRIES`] grouped from the messages of a campaign that keeps no counts (`$1` ticket,
/// `$2` account, `$3` the delivered code).
pub(crate) const COUNTRIES_GROUPED: &str = "SELECT country, COUNT(*), COUNT(CASE WHEN delivery = $3 THEN 1 END)
     FROM messages WHERE campaign_id = $1 AND account_id = $2 GROUP BY country ORDER BY COUNT(*) DESC, country";

/// Recipients who clicked per country (`$1` ticket, `$2` account).
pub(crate) const CLICKERS_BY_COUNTRY: &str = "SELECT m.country, COUNT(DISTINCT c.message_id)
     FROM clicks c JOIN messages m ON m.id = c.message_id WHERE c.campaign_id = $1 AND m.account_id = $2 GROUP BY m.country";

/// Delivered messages per hour of receipt, as kept (`$1` ticket, `$2` account).
pub(crate) const DELIVERED_HOURS: &str = "SELECT r.hour, r.delivered FROM report_hours r
     JOIN campaigns k ON k.id = r.campaign_id WHERE r.campaign_id = $1 AND k.account_id = $2 ORDER BY r.hour";

/// [`DELIVERED_HOURS`] grouped from the messages of a campaign that keeps no counts (`$1`
/// ticket, `$2` account, `$3` the delivered code).
pub(crate) const DELIVERED_HOURS_GROUPED: &str = "SELECT substr(delivered_at, 1, 13), COUNT(*) FROM messages
     WHERE campaign_id = $1 AND account_id = $2 AND delivery = $3 AND delivered_at IS NOT NULL GROUP BY 1 ORDER BY 1";

/// A new campaign's messages in one country, when it keeps counts (`$1` ticket, `$2`
/// country, `$3` messages).
pub(crate) const WRITTEN_TO_COUNTRY: &str =
    "INSERT INTO report_countries (campaign_id, country, sent, delivered) VALUES ($1, $2, $3, 0)";

/// New campaigns' messages per country, written by PostgreSQL's batch writer for several
/// campaigns at once (`$1` tickets, `$2` countries, `$3` messages).
pub(crate) const WRITTEN_PER_COUNTRY: &str = "INSERT INTO report_countries (campaign_id, country, sent, delivered)
     SELECT campaign_id, country, sent, 0 FROM UNNEST($1::bigint[], $2::text[], $3::bigint[]) AS w(campaign_id, country, sent)";

/// Adds deliveries to a campaign's country (`$1` ticket, `$2` country, `$3` delivered): no row
/// changes when the campaign keeps no counts.
pub(crate) const DELIVERED_IN_COUNTRY: &str =
    "UPDATE report_countries SET delivered = delivered + $3 WHERE campaign_id = $1 AND country = $2";

/// Adds to a campaign's deliveries in one hour (`$1` ticket, `$2` hour, `$3` delivered): nothing
/// for a campaign that keeps no counts (it has no country rows).
pub(crate) const ADD_TO_HOUR: &str = "INSERT INTO report_hours (campaign_id, hour, delivered)
     SELECT CAST($1 AS BIGINT), CAST($2 AS TEXT), CAST($3 AS BIGINT)
     WHERE EXISTS (SELECT 1 FROM report_countries WHERE campaign_id = $1)
     ON CONFLICT (campaign_id, hour) DO UPDATE SET delivered = report_hours.delivered + excluded.delivered";

/// Deliveries to add: (campaign, country or hour, delivered).
pub(crate) type Delivered = (i64, String, i64);

/// What one transaction delivered, for campaigns' reports: per country and per hour (in key
/// order, so that writers on several nodes lock the rows in the same order). Keyed by campaign
/// then by country or hour, so that adding a receipt allocates nothing once its keys are there.
#[derive(Debug, Default)]
pub(crate) struct ReportTally {
    /// Delivered by campaign and country.
    countries: BTreeMap<i64, BTreeMap<String, i64>>,
    /// Delivered by campaign and hour (`YYYY-MM-DDTHH`).
    hours: BTreeMap<i64, BTreeMap<String, i64>>,
}

impl ReportTally {
    /// A message of `campaign` to `country` was delivered in `hour` (`YYYY-MM-DDTHH`, as
    /// `delivered_at` starts).
    pub(crate) fn delivered(&mut self, campaign: i64, country: &str, hour: &str) {
        for (rows, key) in [(&mut self.countries, country), (&mut self.hours, hour)] {
            let keys = rows.entry(campaign).or_default();
            match keys.get_mut(key) {
                Some(count) => *count += 1,
                None => {
                    keys.insert(key.to_owned(), 1);
                }
            }
        }
    }

    /// The rows to add, emptying the tally: per country, then per hour.
    pub(crate) fn take(&mut self) -> (Vec<Delivered>, Vec<Delivered>) {
        let flat = |rows: BTreeMap<i64, BTreeMap<String, i64>>| {
            rows.into_iter()
                .flat_map(|(campaign, keys)| keys.into_iter().map(move |(key, delivered)| (campaign, key, delivered)))
                .collect()
        };
        (flat(std::mem::take(&mut self.countries)), flat(std::mem::take(&mut self.hours)))
    }
}

/// Clicks per hour (`$1` ticket, `$2` account).
pub(crate) const CLICK_HOURS: &str = "SELECT substr(c.clicked_at, 1, 13), COUNT(*) FROM clicks c
     JOIN campaigns k ON k.id = c.campaign_id WHERE c.campaign_id = $1 AND k.account_id = $2 GROUP BY 1 ORDER BY 1";

/// Numbers that replied, not with a stop word, to the campaign's messages (`$1` ticket, `$2`
/// account: its replies' index).
pub(crate) const REPLIERS: &str =
    "SELECT COUNT(DISTINCT r.number) FROM replies r JOIN messages m ON m.id = r.message_id
     WHERE r.account_id = $2 AND m.campaign_id = $1 AND NOT r.stop";

/// A row of [`COUNTRIES`].
pub(crate) fn read_country<R: Columns>(row: &R) -> Result<CountryRow, R::Fault> {
    Ok(CountryRow { country: row.column(0)?, sent: row.column(1)?, delivered: row.column(2)?, clicked: 0 })
}

/// A row of an hourly count.
pub(crate) fn read_hour<R: Columns>(row: &R) -> Result<(String, i64), R::Fault> {
    Ok((row.column(0)?, row.column(1)?))
}

impl ReportRows {
    /// Puts the clickers per country (rows of [`CLICKERS_BY_COUNTRY`]) beside the countries.
    pub(crate) fn with_clickers(mut self, by_country: Vec<(String, i64)>) -> ReportRows {
        for (country, clicked) in by_country {
            if let Some(row) = self.countries.iter_mut().find(|row| row.country == country) {
                row.clicked = clicked;
            }
        }
        self.clickers = self.countries.iter().map(|row| row.clicked).sum();
        self
    }
}
