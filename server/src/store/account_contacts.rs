//! Contacts (migrations `0020_account_contacts` and PostgreSQL's `0017`): one per
//! account and number, with names, custom fields, tags and consent. The numbers in the
//! account's lists are its contacts too, with nothing recorded until something is. Also the
//! erasure of a number (GDPR article 17) and what an export (article 20) reads beyond the
//! messages and replies.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use texto_core::{
    CardValues, ContactField, SegmentFilter, SegmentMatch, SegmentRule, format_paris,
    wire::{ConsentDto, ContactCardDto},
};

use super::{
    AccountId, Page,
    columns::Columns,
    conditions::{Conditions, SqlValue, contains_pattern},
    segment_sql::{Dialect, segment_conditions},
};
use crate::Error;

/// An opt-in or opt-out: when, how, and for an opt-in its proof and the form's address.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ConsentRecord {
    /// When.
    pub(crate) at: String,
    /// How: `import`, `api`, `keyword`, `form`.
    pub(crate) source: String,
    /// The proof (the text agreed to, the keyword's reply …).
    pub(crate) proof: String,
    /// The web form's address, for a form.
    pub(crate) address: String,
}

/// A contact as stored (the numbers of lists without a row read as empty ones).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ContactCard {
    /// The number.
    pub(crate) number: i64,
    /// First name.
    pub(crate) firstname: String,
    /// Last name.
    pub(crate) lastname: String,
    /// Custom fields, a JSON object of text, number or date values.
    pub(crate) fields: String,
    /// Tags, a JSON array of strings.
    pub(crate) tags: String,
    /// When it was created and last changed (empty for a list's number with no row).
    pub(crate) created_at: String,
    /// When it was last changed.
    pub(crate) updated_at: String,
    /// Its opt-in, if it gave one.
    pub(crate) opt_in: Option<ConsentRecord>,
    /// Its opt-out, if it asked for one.
    pub(crate) opt_out: Option<ConsentRecord>,
}

/// Which contacts to list.
#[derive(Debug, Clone, Default)]
pub(crate) struct ContactFilter {
    /// The window.
    pub(crate) page: Page,
    /// Digits of the number, or a name's text.
    pub(crate) search: Option<String>,
    /// Only those with this tag.
    pub(crate) tag: Option<String>,
    /// Only those in this list.
    pub(crate) list: Option<i64>,
    /// Only those with (`true`) or without (`false`) an opt-in in force.
    pub(crate) consent: Option<bool>,
    /// Only those in this segment (a saved one's filter).
    pub(crate) segment: Option<SegmentFilter>,
    /// Only those meeting every one of these rules (the fields and engagement asked).
    pub(crate) rules: Vec<SegmentRule>,
}

impl ContactFilter {
    /// The conditions on `a` (`account_contacts`) for the account's contacts in `dialect`.
    pub(crate) fn conditions(&self, account: AccountId, dialect: Dialect) -> Conditions {
        let mut conditions = Conditions::default();
        conditions.require("1 = 1", []);
        if let Some(search) = self.search.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
            let digits: String = search.chars().filter(char::is_ascii_digit).collect();
            if digits.len() == search.trim_start_matches('+').replace(' ', "").len() {
                conditions.require("CAST(a.number AS TEXT) LIKE ?", [SqlValue::Text(format!("%{digits}%"))]);
            } else {
                conditions.require(
                    "lower(COALESCE(a.firstname, '') || ' ' || COALESCE(a.lastname, '')) LIKE ? ESCAPE '\\'",
                    [contains_pattern(search)],
                );
            }
        }
        if let Some(tag) = &self.tag {
            // Tags are stored as a JSON array of strings: the quoted tag is looked for.
            let quoted = serde_json::to_string(tag).unwrap_or_default();
            conditions.require("a.tags LIKE ? ESCAPE '\\'", [contains_pattern(&quoted)]);
        }
        if let Some(list) = self.list {
            // Only a list of the account's: another's matches nothing.
            conditions.require(
                "EXISTS (SELECT 1 FROM contacts c JOIN lists l ON l.id = c.list_id
                         WHERE c.list_id = ? AND l.account_id = a.account_id AND c.number = a.number)",
                [SqlValue::Int(list)],
            );
        }
        match self.consent {
            Some(true) => conditions.require("a.opt_in_at IS NOT NULL AND a.opt_out_at IS NULL", []),
            Some(false) => conditions.require("(a.opt_in_at IS NULL OR a.opt_out_at IS NOT NULL)", []),
            None => {}
        }
        if let Some(segment) = &self.segment {
            conditions.extend(segment_conditions(account, segment.matching, &segment.rules, Utc::now(), dialect));
        }
        conditions.extend(segment_conditions(account, SegmentMatch::All, &self.rules, Utc::now(), dialect));
        conditions
    }
}

/// A change to a contact: each field given replaces the stored one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ContactChange {
    /// First name.
    pub(crate) firstname: Option<String>,
    /// Last name.
    pub(crate) lastname: Option<String>,
    /// Custom fields (a JSON object).
    pub(crate) fields: Option<String>,
    /// Tags (a JSON array).
    pub(crate) tags: Option<String>,
    /// A new opt-in.
    pub(crate) opt_in: Option<ConsentRecord>,
}

/// A list holding a contact's number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Membership {
    /// The list.
    pub(crate) list: i64,
    /// Its name.
    pub(crate) name: String,
    /// The entry's info1…info4.
    pub(crate) info: [String; 4],
}

/// A click on a link sent to a contact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ContactClick {
    /// The campaign.
    pub(crate) campaign: i64,
    /// When.
    pub(crate) at: DateTime<Utc>,
}

/// Contacts.
#[async_trait]
pub(crate) trait ContactStore: Send + Sync {
    /// The values of `fields` on the account's contacts with a value in one of them (what
    /// merge fields read).
    async fn merge_cards(&self, account: AccountId, fields: &[ContactField]) -> Result<CardValues, Error>;
    /// A page of the account's contacts by number, and how many the filter keeps.
    async fn contacts(&self, account: AccountId, filter: ContactFilter) -> Result<(Vec<ContactCard>, i64), Error>;
    /// The contact, if the account has the number (as a contact or in a list).
    async fn contact(&self, account: AccountId, number: i64) -> Result<Option<ContactCard>, Error>;
    /// Creates or changes the contact.
    async fn save_contact(&self, account: AccountId, number: i64, change: ContactChange) -> Result<ContactCard, Error>;
    /// The lists holding the number.
    async fn memberships(&self, account: AccountId, number: i64) -> Result<Vec<Membership>, Error>;
    /// The clicks on links sent to the number.
    async fn contact_clicks(&self, account: AccountId, number: i64) -> Result<Vec<ContactClick>, Error>;
    /// Erases the number from the account, in one transaction: the contact, its list entries,
    /// replies, clicks and pending automatic replies are deleted, the number is masked in the
    /// messages sent to it (the campaigns' counts stay), and a blacklist or NPAI entry keeps
    /// only the number (so that its STOP is still honoured). Whether the account had it.
    async fn erase_contact(&self, account: AccountId, number: i64) -> Result<bool, Error>;
}

/// The account's contacts (`$1` the account): every number of its lists has a row, kept by the
/// trigger of migration `0021_segments` (PostgreSQL's `0018`), and so has every number with a
/// card. The clauses of [`ContactFilter::conditions`] and of segments follow it.
pub(crate) const BOOK: &str = "FROM account_contacts a WHERE a.account_id = $1";

/// The columns of a [`ContactCard`], on `a`: every contact has a row now, so they are the
/// joined columns read where a row is certain.
pub(crate) const CARD_COLUMNS: &str = JOINED_CARD_COLUMNS;

/// Creates or changes a contact (`$1` account, `$2` number, `$3`…`$6` names, fields, tags —
/// NULL keeps the stored value —, `$7`…`$10` a new opt-in or NULLs, `$11` now).
pub(crate) const SAVE: &str = "INSERT INTO account_contacts (account_id, number, firstname, lastname, fields, tags, created_at, updated_at,
         opt_in_at, opt_in_source, opt_in_proof, opt_in_address)
     VALUES ($1, $2, COALESCE($3, ''), COALESCE($4, ''), COALESCE($5, '{}'), COALESCE($6, '[]'), $11, $11, $7, $8, $9, $10)
     ON CONFLICT (account_id, number) DO UPDATE SET
         firstname = COALESCE($3, account_contacts.firstname), lastname = COALESCE($4, account_contacts.lastname),
         fields = COALESCE($5, account_contacts.fields), tags = COALESCE($6, account_contacts.tags), updated_at = $11,
         opt_in_at = COALESCE($7, account_contacts.opt_in_at), opt_in_source = COALESCE($8, account_contacts.opt_in_source),
         opt_in_proof = COALESCE($9, account_contacts.opt_in_proof), opt_in_address = COALESCE($10, account_contacts.opt_in_address),
         opt_out_at = CASE WHEN $7 IS NULL THEN account_contacts.opt_out_at END,
         opt_out_source = CASE WHEN $7 IS NULL THEN account_contacts.opt_out_source END";

/// The lists holding a number (`$1` account, `$2` number).
pub(crate) const MEMBERSHIPS: &str =
    "SELECT l.id, l.name, c.info1, c.info2, c.info3, c.info4 FROM contacts c JOIN lists l ON l.id = c.list_id
     WHERE l.account_id = $1 AND c.number = $2 ORDER BY l.id";

/// The clicks on links sent to a number (`$1` account, `$2` number).
pub(crate) const CLICKS: &str =
    "SELECT k.campaign_id, k.clicked_at FROM clicks k JOIN messages m ON m.id = k.message_id
     WHERE m.account_id = $1 AND m.number = $2 ORDER BY k.clicked_at";

/// The erasure, statement by statement (`$1` account, `$2` number): clicks before the
/// messages they point at are masked.
pub(crate) const ERASE: [&str; 11] = [
    "DELETE FROM clicks WHERE message_id IN (SELECT id FROM messages WHERE account_id = $1 AND number = $2)",
    "DELETE FROM replies WHERE account_id = $1 AND number = $2",
    "DELETE FROM contacts WHERE number = $2 AND list_id IN (SELECT id FROM lists WHERE account_id = $1)",
    "DELETE FROM auto_replies WHERE account_id = $1 AND number = $2",
    "DELETE FROM journey_entries WHERE account_id = $1 AND number = $2",
    "DELETE FROM journey_segment_members WHERE number = $2 AND journey_id IN (SELECT id FROM journeys WHERE account_id = $1)",
    "DELETE FROM last_sent WHERE account_id = $1 AND number = $2",
    "UPDATE messages SET number = 0, info = NULL WHERE account_id = $1 AND number = $2",
    "UPDATE blacklist SET info1 = '', info2 = '', info3 = '', info4 = '' WHERE account_id = $1 AND number = $2",
    "UPDATE npai SET info1 = '', info2 = '', info3 = '', info4 = '' WHERE account_id = $1 AND number = $2",
    "DELETE FROM account_contacts WHERE account_id = $1 AND number = $2",
];

/// Records an opt-out (`$1` account, `$2` number, `$3` now, `$4` how).
pub(crate) const OPT_OUT: &str =
    "INSERT INTO account_contacts (account_id, number, created_at, updated_at, opt_out_at, opt_out_source)
     VALUES ($1, $2, $3, $3, $3, $4)
     ON CONFLICT (account_id, number) DO UPDATE SET opt_out_at = $3, opt_out_source = $4, updated_at = $3";

/// A contact's tags (`$1` account, `$2` number).
pub(crate) const TAGS: &str = "SELECT tags FROM account_contacts WHERE account_id = $1 AND number = $2";

/// `tags` (a stored JSON array) with `tag` added, unless it is there.
pub(crate) fn with_tag(tags: Option<&str>, tag: &str) -> String {
    let mut tags: Vec<String> = tags.and_then(|t| serde_json::from_str(t).ok()).unwrap_or_default();
    if !tags.iter().any(|t| t == tag) {
        tags.push(tag.to_owned());
    }
    serde_json::to_string(&tags).unwrap_or_else(|_| "[]".to_owned())
}

/// The columns of a stored card (`a`, left-joined: all NULL without one), read by the stores'
/// reply paths after the columns of their own.
pub(crate) const JOINED_CARD_COLUMNS: &str =
    "a.number, a.firstname, a.lastname, a.fields, a.tags, a.created_at, a.updated_at,
     a.opt_in_at, a.opt_in_source, a.opt_in_proof, a.opt_in_address, a.opt_out_at, a.opt_out_source";

impl ContactCard {
    /// The card as the wire shows it (times in Paris).
    pub(crate) fn to_wire(&self) -> ContactCardDto {
        let opt_in = self.opt_in.as_ref();
        let consent = ConsentDto {
            opt_in_date: opt_in.map(|c| shown(&c.at)),
            source: opt_in.map(|c| c.source.clone()),
            proof: opt_in.map(|c| c.proof.clone()).filter(|p| !p.is_empty()),
            address: opt_in.map(|c| c.address.clone()).filter(|a| !a.is_empty()),
            opt_out_date: self.opt_out.as_ref().map(|c| shown(&c.at)),
            opt_out_source: self.opt_out.as_ref().map(|c| c.source.clone()),
        };
        ContactCardDto {
            number: Some(self.number.to_string()),
            firstname: Some(self.firstname.clone()),
            lastname: Some(self.lastname.clone()),
            fields: Some(serde_json::from_str(&self.fields).unwrap_or_default()),
            tags: Some(serde_json::from_str(&self.tags).unwrap_or_default()),
            consent: Some(consent),
            created_at: Some(self.created_at.as_str()).filter(|c| !c.is_empty()).map(shown),
            updated_at: Some(self.updated_at.as_str()).filter(|c| !c.is_empty()).map(shown),
        }
    }
}

/// A stored time as the wire shows it (Paris), or as stored when it does not read.
fn shown(stored: &str) -> String {
    DateTime::parse_from_rfc3339(stored).map_or_else(|_| stored.to_owned(), |at| format_paris(at.with_timezone(&Utc)))
}

/// A consent record from its stored columns (`None` without a date).
pub(crate) fn consent_of(
    at: Option<String>,
    source: Option<String>,
    proof: Option<String>,
    address: Option<String>,
) -> Option<ConsentRecord> {
    at.map(|at| ConsentRecord {
        at,
        source: source.unwrap_or_default(),
        proof: proof.unwrap_or_default(),
        address: address.unwrap_or_default(),
    })
}

/// Reads a row of [`CARD_COLUMNS`].
pub(super) fn read_card<R: Columns>(row: &R) -> Result<ContactCard, R::Fault> {
    card_at(row, 0)
}

/// Reads the card columns from column `at` on.
fn card_at<R: Columns>(row: &R, at: usize) -> Result<ContactCard, R::Fault> {
    Ok(ContactCard {
        number: row.column(at)?,
        firstname: row.column(at + 1)?,
        lastname: row.column(at + 2)?,
        fields: row.column(at + 3)?,
        tags: row.column(at + 4)?,
        created_at: row.column(at + 5)?,
        updated_at: row.column(at + 6)?,
        opt_in: consent_of(row.column(at + 7)?, row.column(at + 8)?, row.column(at + 9)?, row.column(at + 10)?),
        opt_out: consent_of(row.column(at + 11)?, row.column(at + 12)?, None, None),
    })
}

/// Reads [`JOINED_CARD_COLUMNS`] from column `at` on: `None` when the number has no card.
pub(super) fn joined_card<R: Columns>(row: &R, at: usize) -> Result<Option<ContactCard>, R::Fault> {
    match row.column::<Option<i64>>(at)? {
        Some(_) => card_at(row, at).map(Some),
        None => Ok(None),
    }
}

/// One [`ContactClick`], read from a row.
pub(super) fn read_click<R: Columns>(row: &R) -> Result<ContactClick, R::Fault> {
    Ok(ContactClick { campaign: row.column(0)?, at: row.time(1)? })
}

/// One [`Membership`], read from a row.
pub(super) fn read_membership<R: Columns>(row: &R) -> Result<Membership, R::Fault> {
    Ok(Membership {
        list: row.column(0)?,
        name: row.column(1)?,
        info: [row.column(2)?, row.column(3)?, row.column(4)?, row.column(5)?],
    })
}
