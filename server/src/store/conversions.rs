//! Conversions (migrations `0039_conversions` and PostgreSQL's `0034`): a sale or a sign-up
//! credited to a followed short link, once per link of a message. The statements are shared;
//! SQLite numbers their `$N` as `?N`.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::{AccountId, columns::Columns};
use crate::Error;

/// A conversion as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ConversionRecord {
    /// Its id.
    pub(crate) id: i64,
    /// The campaign credited.
    pub(crate) campaign: i64,
    /// Its value in hundredths.
    pub(crate) hundredths: i64,
    /// When it was recorded.
    pub(crate) created_at: DateTime<Utc>,
}

/// Who may credit a conversion to a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Converter {
    /// The account, with a token (`POST /conversion`): only to its own messages.
    Account(AccountId),
    /// The pixel, with no token: to any message whose link was followed.
    Pixel,
}

/// Conversions.
#[async_trait]
pub(crate) trait ConversionStore: Send + Sync {
    /// Credits a conversion worth `hundredths` to link `link` of message `message`: the
    /// conversion recorded (the first one, when that link had converted already), or `None`
    /// when the message is not the converter's or that link of it was never followed.
    async fn convert(
        &self,
        by: Converter,
        (message, link): (i64, i64),
        hundredths: i64,
        now: DateTime<Utc>,
    ) -> Result<Option<ConversionRecord>, Error>;
}

/// The account and campaign of message `$1` when its link `$2` was followed and it is the
/// account `$3`'s (0: any account's).
pub(crate) const CONVERTIBLE: &str = "SELECT m.account_id, m.campaign_id FROM messages m
     WHERE m.id = CAST($1 AS BIGINT) AND (CAST($3 AS BIGINT) = 0 OR m.account_id = CAST($3 AS BIGINT))
       AND EXISTS (SELECT 1 FROM clicks c
                   WHERE c.campaign_id = m.campaign_id AND c.message_id = m.id AND c.link = CAST($2 AS BIGINT))";

/// Records a conversion unless that link of the message has one (`$1` account, `$2` campaign,
/// `$3` message, `$4` link, `$5` value in hundredths, `$6` now).
pub(crate) const RECORD: &str = "INSERT INTO conversions (account_id, campaign_id, message_id, link, value, created_at)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (message_id, link) DO NOTHING";

/// The conversion of link `$2` of message `$1`.
pub(crate) const RECORDED: &str =
    "SELECT id, campaign_id, value, created_at FROM conversions WHERE message_id = $1 AND link = $2";

/// Recipients whose clicks converted, and the conversions' value, of the account `$2`'s
/// campaign `$1`.
pub(crate) const CAMPAIGN_CONVERSIONS: &str =
    "SELECT COUNT(DISTINCT message_id), CAST(COALESCE(SUM(value), 0) AS BIGINT)
     FROM conversions WHERE campaign_id = $1 AND account_id = $2";

/// The account id a [`Converter`] is bound to in [`CONVERTIBLE`] (0: any).
pub(crate) fn converter_account(by: Converter) -> AccountId {
    match by {
        Converter::Account(account) => account,
        Converter::Pixel => 0,
    }
}

/// A row of [`RECORDED`].
pub(crate) fn read_conversion<R: Columns>(row: &R) -> Result<ConversionRecord, R::Fault> {
    Ok(ConversionRecord {
        id: row.column(0)?,
        campaign: row.column(1)?,
        hundredths: row.column(2)?,
        created_at: row.time(3)?,
    })
}
