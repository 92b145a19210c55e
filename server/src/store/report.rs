//! A campaign's report (`GET /campaign/:id/report`): what its figures do not hold already,
//! read in a few grouped passes over its messages, clicks and replies. The statements are
//! shared; SQLite numbers their `$N` as `?N`. Times are bucketed by their stored text
//! (`YYYY-MM-DDTHH`), the same in both stores.

use async_trait::async_trait;

use super::{AccountId, columns::Columns};
use crate::Error;

/// The campaign's messages per country and hour of receipt (its delivered ones).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ReportRows {
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
    /// The rows of the report of the account's campaign `ticket` (the caller has checked it
    /// is the account's).
    async fn report_rows(&self, account: AccountId, ticket: i64) -> Result<ReportRows, Error>;
}

/// Messages and delivered ones per country (`$1` ticket, `$2` the delivered code, `$3` the
/// account: each statement names it, whoever calls it).
pub(crate) const COUNTRIES: &str = "SELECT country, COUNT(*), COUNT(CASE WHEN delivery = $2 THEN 1 END)
     FROM messages WHERE campaign_id = $1 AND account_id = $3 GROUP BY country ORDER BY COUNT(*) DESC, country";

/// Recipients who clicked per country (`$1` ticket, `$2` account).
pub(crate) const CLICKERS_BY_COUNTRY: &str = "SELECT m.country, COUNT(DISTINCT c.message_id)
     FROM clicks c JOIN messages m ON m.id = c.message_id WHERE c.campaign_id = $1 AND m.account_id = $2 GROUP BY m.country";

/// Delivered messages per hour of receipt (`$1` ticket, `$2` the delivered code, `$3` account).
pub(crate) const DELIVERED_HOURS: &str = "SELECT substr(delivered_at, 1, 13), COUNT(*) FROM messages
     WHERE campaign_id = $1 AND delivery = $2 AND account_id = $3 AND delivered_at IS NOT NULL GROUP BY 1 ORDER BY 1";

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
