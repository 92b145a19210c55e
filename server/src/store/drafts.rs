//! Drafts (migrations `0034_drafts` and PostgreSQL's `0029`): a campaign's request kept on the
//! server until it is sent, seen by the whole team with who wrote it and who last changed it.
//! A draft's id is a campaign number (the two never meet), so it is addressed as a campaign.
//! Also what a clone reads of a campaign. The statements are shared but the one giving a
//! draft its number; SQLite numbers their `$N` as `?N`.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::{AccountId, columns::Columns};
use crate::Error;

/// A draft as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SavedDraft {
    /// Its id, from the campaigns' numbering.
    pub(crate) id: i64,
    /// The `{"sms": …}` request, as `POST /send` or `POST /send/lists` take it (JSON).
    pub(crate) body: String,
    /// Who wrote it, as the audit log names them.
    pub(crate) author: Option<String>,
    /// When it was written.
    pub(crate) created_at: DateTime<Utc>,
    /// Who last changed it.
    pub(crate) updated_by: Option<String>,
    /// When it was last changed.
    pub(crate) updated_at: DateTime<Utc>,
    /// 1, then one more at each change.
    pub(crate) revision: i64,
}

/// What a campaign was sent as, for a clone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SentCampaign {
    /// The text as sent (after smart encoding).
    pub(crate) text: String,
    /// `alert` or `marketing`.
    pub(crate) pushtype: String,
    /// Its sender, if it named one.
    pub(crate) sender: Option<String>,
    /// One URL per short link.
    pub(crate) links: Vec<String>,
    /// The lists it went to (empty for a send to numbers).
    pub(crate) lists: Vec<String>,
    /// Sent in Unicode.
    pub(crate) unicode: bool,
    /// Its validity in minutes, if it set one.
    pub(crate) validity: Option<i64>,
    /// The numbers it went to with their client ids, for a send to numbers.
    pub(crate) numbers: Vec<(i64, Option<String>)>,
    /// Its A/B test's other texts and settings (a clone draws a sample of its own).
    pub(crate) ab: Option<(Vec<String>, texto_core::wire::AbDto)>,
}

/// Drafts.
#[async_trait]
pub(crate) trait DraftStore: Send + Sync {
    /// The account's drafts, the last changed first.
    async fn drafts(&self, account: AccountId) -> Result<Vec<SavedDraft>, Error>;
    /// One of the account's drafts.
    async fn draft(&self, account: AccountId, id: i64) -> Result<Option<SavedDraft>, Error>;
    /// Creates a draft (`id` `None`) or replaces one of the account's, by `actor`; `None` when
    /// the account has no draft of that id.
    async fn save_draft(
        &self,
        account: AccountId,
        id: Option<i64>,
        body: String,
        actor: String,
    ) -> Result<Option<SavedDraft>, Error>;
    /// How many drafts the account keeps.
    async fn draft_count(&self, account: AccountId) -> Result<i64, Error>;
    /// Deletes one of the account's drafts; whether it had it.
    async fn delete_draft(&self, account: AccountId, id: i64) -> Result<bool, Error>;
    /// What the account's campaign `ticket` was sent as, if it has it; the numbers it went to
    /// only `with_numbers` (a clone needs them, a test send does not).
    async fn sent_campaign(
        &self,
        account: AccountId,
        ticket: i64,
        with_numbers: bool,
    ) -> Result<Option<SentCampaign>, Error>;
}

/// The columns [`read_draft`] reads.
const COLUMNS: &str = "id, body, author, created_at, updated_by, updated_at, revision";

/// The account's drafts (`$1`), the last changed first.
pub(crate) fn all_statement() -> String {
    format!("SELECT {COLUMNS} FROM drafts WHERE account_id = $1 ORDER BY updated_at DESC, id DESC")
}

/// One of the account's drafts (`$1` account, `$2` id).
pub(crate) fn one_statement() -> String {
    format!("SELECT {COLUMNS} FROM drafts WHERE account_id = $1 AND id = $2")
}

/// The columns of a new draft after its id (`$1` account, `$2` body, `$3` actor, `$4` now),
/// which each store's insert numbers its own way, answering the id.
pub(crate) const INSERT_VALUES: &str = "$1, $2, $3, $4, $3, $4) RETURNING id";

/// Replaces a draft's body (`$1` account, `$2` body, `$3` actor, `$4` now, `$5` id).
pub(crate) const UPDATE: &str = "UPDATE drafts SET body = $2, updated_by = $3, updated_at = $4, revision = revision + 1 WHERE account_id = $1 AND id = $5";

/// How many drafts the account (`$1`) keeps.
pub(crate) const COUNT: &str = "SELECT COUNT(*) FROM drafts WHERE account_id = $1";

/// The most drafts an account keeps: a new one past it is refused until some are sent or
/// discarded.
pub(crate) const MOST_DRAFTS: i64 = 1_000;

/// Deletes a draft (`$1` account, `$2` id).
pub(crate) const DELETE: &str = "DELETE FROM drafts WHERE account_id = $1 AND id = $2";

/// A campaign's message (`$1` account, `$2` ticket), read by [`read_sent`].
pub(crate) const SENT_CAMPAIGN: &str = "SELECT text, pushtype, sender, links, lists, unicode, validity, variants, ab FROM campaigns WHERE account_id = $1 AND id = $2";

/// A campaign's numbers with their client ids (`$1` ticket, `$2` account), in the order they
/// were sent; numbers the retention has masked (`0`) are left out.
pub(crate) const SENT_NUMBERS: &str =
    "SELECT number, gsmsmsid FROM messages WHERE campaign_id = $1 AND account_id = $2 AND number <> 0 ORDER BY id";

/// The account's drafts' bodies (`$1`), for an erasure to take a number out of them.
pub(crate) const BODIES: &str = "SELECT id, body FROM drafts WHERE account_id = $1";

/// Replaces a draft's body as an erasure left it (`$1` id, `$2` body); its revision moves on.
pub(crate) const ERASED_BODY: &str = "UPDATE drafts SET body = $2, revision = revision + 1 WHERE id = $1";

/// `body` (a stored draft) without the recipients that are `number` (written in any form
/// texto reads, national ones as French), or `None` when it has none of them.
pub(crate) fn without_number(body: &str, number: i64) -> Option<String> {
    let mut request: texto_core::wire::SmsRequest<'_> = serde_json::from_str(body).ok()?;
    let recipients = request.recipients.as_mut()?;
    let before = recipients.gsm.len();
    let is_number = |typed: &str| {
        texto_core::parse_with_default_country(typed, "FR").is_ok_and(|n| i64::try_from(n.as_u64()) == Ok(number))
    };
    recipients.gsm.retain(|gsm| !is_number(&gsm.value));
    (recipients.gsm.len() != before).then(|| serde_json::to_string(&request).ok()).flatten()
}

/// A row of [`all_statement`] or [`one_statement`].
pub(crate) fn read_draft<R: Columns>(row: &R) -> Result<SavedDraft, R::Fault> {
    Ok(SavedDraft {
        id: row.column(0)?,
        body: row.column(1)?,
        author: row.column(2)?,
        created_at: row.time(3)?,
        updated_by: row.column(4)?,
        updated_at: row.time(5)?,
        revision: row.column(6)?,
    })
}

/// A row of [`SENT_CAMPAIGN`], without its numbers yet.
pub(crate) fn read_sent<R: Columns>(row: &R) -> Result<SentCampaign, R::Fault> {
    Ok(SentCampaign {
        text: row.column(0)?,
        pushtype: row.column(1)?,
        sender: row.column(2)?,
        links: serde_json::from_str(&row.column::<String>(3)?).unwrap_or_default(),
        lists: serde_json::from_str(&row.column::<String>(4)?).unwrap_or_default(),
        unicode: row.column(5)?,
        validity: row.column(6)?,
        numbers: Vec::new(),
        ab: match (row.column::<Option<String>>(7)?, row.column::<Option<String>>(8)?) {
            (Some(variants), Some(ab)) => serde_json::from_str(&variants)
                .ok()
                .zip(serde_json::from_str::<super::campaign_rows::AbColumn>(&ab).ok().map(|ab| ab.settings)),
            _ => None,
        },
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_erased_number_leaves_the_drafts_in_any_form_it_was_written() {
        let body = r#"{"message":{"text":"Soldes"},"recipients":{"gsm":[{"value":"+33 6 12 34 56 78"},{"value":"0611111111"},{"value":"33612345678","gsmsmsid":"7"}]}}"#;
        let left = super::without_number(body, 33612345678).expect("changed");
        assert_eq!(left, r#"{"message":{"text":"Soldes"},"recipients":{"gsm":[{"value":"0611111111"}]}}"#);
        assert_eq!(super::without_number(&left, 33612345678), None, "nothing more to take");
    }
}
