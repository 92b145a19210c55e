//! Sign-up pages and the sign-ups made on them: the pages an account sets, each sign-up waiting
//! for its confirmation, how many a visitor's address and a number made lately (the limits are
//! applied in the sign-up's own write, so that two at once cannot both pass), and the
//! confirmation that adds the number to the page's list with its consent, in one transaction.

use std::collections::BTreeMap;

use async_trait::async_trait;
use chrono::{DateTime, Duration, Utc};
use texto_core::{SignupPage, wire::SignupPageDto};

use super::{AccountId, account_contacts::ConsentRecord, columns::Columns, time};
use crate::Error;

/// How many sign-ups one address may make in an hour, over every page.
pub(crate) const PER_ADDRESS_AN_HOUR: i64 = 5;
/// How many sign-ups one number may make in an hour, on one account's pages.
pub(crate) const PER_NUMBER_AN_HOUR: i64 = 3;
/// How long after a confirmation SMS another may go to the same number (from the same account).
pub(crate) const RESEND_AFTER: Duration = Duration::days(1);
/// How long a sign-up may be confirmed.
pub(crate) const VALID_FOR: Duration = Duration::days(1);
/// How many wrong codes a sign-up takes before it must start again.
pub(crate) const MOST_TRIES: i64 = 5;

/// A page as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SavedSignupPage {
    /// Its id.
    pub(crate) id: i64,
    /// Its account.
    pub(crate) account: AccountId,
    /// What it says and asks.
    pub(crate) page: SignupPage,
    /// Sign-ups confirmed on it.
    pub(crate) confirmed: i64,
    /// Sign-ups never confirmed (waiting, or given up).
    pub(crate) unconfirmed: i64,
}

impl SavedSignupPage {
    /// The page on the wire.
    pub(crate) fn to_wire(&self) -> SignupPageDto {
        SignupPageDto {
            id: Some(self.id.to_string()),
            confirmed: Some(self.confirmed),
            unconfirmed: Some(self.unconfirmed),
            ..self.page.to_wire()
        }
    }
}

/// What saving a page came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PageSaved {
    /// Saved.
    Saved(Box<SavedSignupPage>),
    /// Another page has that slug.
    SlugTaken,
    /// No such page of the account.
    NotFound,
}

/// A sign-up a visitor just made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NewSignup {
    /// The page.
    pub(crate) page: i64,
    /// Its account.
    pub(crate) account: AccountId,
    /// The number.
    pub(crate) number: i64,
    /// The fields given, a JSON object.
    pub(crate) fields: String,
    /// The SHA-256 of a new code, in hex: kept and sent unless a code went to the number lately.
    pub(crate) code_hash: String,
    /// The page's language (`fr`, `en`).
    pub(crate) language: String,
    /// The visitor's address.
    pub(crate) address: String,
    /// When.
    pub(crate) at: DateTime<Utc>,
}

/// What became of a new sign-up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SignupStarted {
    /// Kept: its code is to be sent now.
    Send(i64),
    /// Kept without a new code: one went to the number within [`RESEND_AFTER`], and that code
    /// confirms it.
    AlreadySent(i64),
    /// Refused: the address made [`PER_ADDRESS_AN_HOUR`] within the hour.
    AddressBusy,
    /// Refused: the number made [`PER_NUMBER_AN_HOUR`] within the hour.
    NumberBusy,
}

/// What the store saw before a new sign-up: the address's and the number's sign-ups within the
/// hour, and the code of the last SMS to the number within [`RESEND_AFTER`] if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Seen {
    /// The address's sign-ups within the hour.
    pub(crate) by_address: i64,
    /// The number's sign-ups within the hour.
    pub(crate) by_number: i64,
    /// The code hash of the last confirmation sent to the number lately.
    pub(crate) sent_code: Option<String>,
}

/// What the rule decided of a new sign-up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Decision {
    /// Refused: the address made [`PER_ADDRESS_AN_HOUR`] within the hour.
    AddressBusy,
    /// Refused: the number made [`PER_NUMBER_AN_HOUR`] within the hour.
    NumberBusy,
    /// Kept with this code hash, sent now or not.
    Keep {
        /// The code that confirms it.
        code_hash: String,
        /// Whether an SMS carries it now.
        send: bool,
    },
}

/// The rule, in one place: refused past either limit; else kept, with the new code sent unless
/// a code went to the number lately (then that code stands).
pub(crate) fn decide(seen: Seen, new_code: &str) -> Decision {
    match seen {
        Seen { by_address, .. } if by_address >= PER_ADDRESS_AN_HOUR => Decision::AddressBusy,
        Seen { by_number, .. } if by_number >= PER_NUMBER_AN_HOUR => Decision::NumberBusy,
        Seen { sent_code: Some(code_hash), .. } => Decision::Keep { code_hash, send: false },
        Seen { sent_code: None, .. } => Decision::Keep { code_hash: new_code.to_owned(), send: true },
    }
}

/// A sign-up waiting for its confirmation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PendingSignup {
    /// Its id.
    pub(crate) id: i64,
    /// Its page.
    pub(crate) page: i64,
    /// Its account.
    pub(crate) account: AccountId,
    /// The number.
    pub(crate) number: i64,
    /// The fields given, a JSON object.
    pub(crate) fields: String,
    /// The visitor's address.
    pub(crate) address: String,
    /// When it was made.
    pub(crate) created_at: DateTime<Utc>,
}

/// What a typed code came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CodeChecked {
    /// The right code: the sign-up to confirm.
    Right(PendingSignup),
    /// A wrong one; so many tries are left.
    Wrong(i64),
    /// No sign-up of the number waits on the page (none, expired, or out of tries).
    NoneWaiting,
}

/// How a sign-up was confirmed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ConfirmedBy {
    /// The code typed on the page.
    Code,
    /// A reply OUI or YES to the SMS.
    Reply,
}

impl ConfirmedBy {
    /// As stored.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            ConfirmedBy::Code => "code",
            ConfirmedBy::Reply => "reply",
        }
    }
}

/// A confirmation to write: the number joins `list`, its card takes the fields, and its opt-in
/// is `consent`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Confirmation {
    /// The sign-up.
    pub(crate) signup: PendingSignup,
    /// How.
    pub(crate) by: ConfirmedBy,
    /// The list it joins.
    pub(crate) list: i64,
    /// The opt-in recorded.
    pub(crate) consent: ConsentRecord,
    /// When.
    pub(crate) at: DateTime<Utc>,
}

/// Sign-up pages' storage.
#[async_trait]
pub(crate) trait SignupStore: Send + Sync {
    /// Creates a page (`id` none) or replaces one of the account's.
    async fn save_signup_page(&self, account: AccountId, id: Option<i64>, page: SignupPage)
    -> Result<PageSaved, Error>;
    /// The account's pages, by slug.
    async fn signup_pages(&self, account: AccountId) -> Result<Vec<SavedSignupPage>, Error>;
    /// One of the account's pages.
    async fn signup_page(&self, account: AccountId, id: i64) -> Result<Option<SavedSignupPage>, Error>;
    /// Deletes one of the account's pages and its sign-ups; whether there was one.
    async fn delete_signup_page(&self, account: AccountId, id: i64) -> Result<bool, Error>;
    /// The page at `/join/{slug}`, whoever's it is.
    async fn signup_page_by_slug(&self, slug: &str) -> Result<Option<SavedSignupPage>, Error>;
    /// Keeps a new sign-up under [`decide`]'s rule, in one write.
    async fn start_signup(&self, new: NewSignup) -> Result<SignupStarted, Error>;
    /// Lets the next sign-up of the number send a code again: this one's could not be sent.
    async fn forget_signup_send(&self, id: i64) -> Result<(), Error>;
    /// Checks a code typed for the latest sign-up of `number` on `page`, counting a wrong one.
    async fn check_signup_code(
        &self,
        page: i64,
        number: i64,
        code_hash: String,
        now: DateTime<Utc>,
    ) -> Result<CodeChecked, Error>;
    /// Sign-ups that a reply OUI or YES confirms: the latest of each number, made within
    /// [`VALID_FOR`], answered after the last confirmation SMS to it; at most `most`.
    async fn replied_signups(&self, now: DateTime<Utc>, most: i64) -> Result<Vec<PendingSignup>, Error>;
    /// Confirms the sign-up and writes what it brings, in one transaction; `false` when it was
    /// already confirmed (then nothing is written).
    async fn confirm_signup(&self, confirmation: Confirmation) -> Result<bool, Error>;
}

/// The columns a page is read from (`p`: the page), its counts last.
pub(crate) const PAGE_COLUMNS: &str = "p.id, p.account_id, p.definition,
     (SELECT COUNT(*) FROM signups s WHERE s.page_id = p.id AND s.confirmed_at IS NOT NULL),
     (SELECT COUNT(*) FROM signups s WHERE s.page_id = p.id AND s.confirmed_at IS NULL)";

/// An account's pages (`$1`), by slug.
pub(crate) const PAGES: &str = "FROM signup_pages p WHERE p.account_id = $1 ORDER BY p.slug";
/// One of an account's pages (`$1` account, `$2` id).
pub(crate) const PAGE: &str = "FROM signup_pages p WHERE p.account_id = $1 AND p.id = $2";
/// A page by its slug (`$1`).
pub(crate) const BY_SLUG: &str = "FROM signup_pages p WHERE p.slug = $1";
/// Whether another page has the slug (`$1` slug, `$2` the page saved, 0 for a new one).
pub(crate) const SLUG_TAKEN: &str = "SELECT EXISTS (SELECT 1 FROM signup_pages WHERE slug = $1 AND id <> $2)";
/// A new page (`$1` account, `$2` slug, `$3` definition, `$4` now); no row when the slug was
/// taken meanwhile.
pub(crate) const INSERT_PAGE: &str = "INSERT INTO signup_pages (account_id, slug, definition, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $4) ON CONFLICT (slug) DO NOTHING RETURNING id";
/// A page replaced (`$1` account, `$2` id, `$3` slug, `$4` definition, `$5` now).
pub(crate) const UPDATE_PAGE: &str =
    "UPDATE signup_pages SET slug = $3, definition = $4, updated_at = $5 WHERE account_id = $1 AND id = $2";
/// A page deleted with its sign-ups (`$1` account, `$2` id).
pub(crate) const DELETE_PAGE: &str = "DELETE FROM signup_pages WHERE account_id = $1 AND id = $2";

/// What [`decide`] reads (`$1` address, `$2` account, `$3` number, `$4` an hour ago, `$5` a
/// day ago).
pub(crate) const SEEN: &str = "SELECT
     (SELECT COUNT(*) FROM signups WHERE address = $1 AND created_at >= $4),
     (SELECT COUNT(*) FROM signups WHERE account_id = $2 AND number = $3 AND created_at >= $4),
     (SELECT code_hash FROM signups WHERE account_id = $2 AND number = $3 AND sent_at >= $5 ORDER BY id DESC LIMIT 1)";
/// A sign-up kept (`$1` page … `$7` address, `$8` now, `$9` sent at or null).
pub(crate) const INSERT_SIGNUP: &str = "INSERT INTO signups
     (page_id, account_id, number, fields, code_hash, language, address, created_at, sent_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id";

/// The columns a pending sign-up is read from (`s`).
pub(crate) const PENDING_COLUMNS: &str = "s.id, s.page_id, s.account_id, s.number, s.fields, s.address, s.created_at";
/// The latest sign-up of a number on a page still waiting (`$1` page, `$2` number, `$3` a
/// day ago), with its code hash and tries.
pub(crate) const LATEST: &str = "FROM signups s WHERE s.page_id = $1 AND s.number = $2 AND s.confirmed_at IS NULL
     AND s.created_at >= $3 ORDER BY s.id DESC LIMIT 1";
/// A code that could not be sent (`$1` id).
pub(crate) const FORGET_SEND: &str = "UPDATE signups SET sent_at = NULL WHERE id = $1";
/// A wrong code counted (`$1` id).
pub(crate) const TRIED: &str = "UPDATE signups SET tries = tries + 1 WHERE id = $1";
/// Sign-ups a reply confirms (`$1` a day ago, `$2` how many at most).
pub(crate) const REPLIED: &str = "FROM signups s WHERE s.confirmed_at IS NULL AND s.created_at >= $1
       AND s.id = (SELECT MAX(t.id) FROM signups t WHERE t.account_id = s.account_id AND t.number = s.number)
       AND EXISTS (SELECT 1 FROM replies r WHERE r.account_id = s.account_id AND r.number = s.number
           AND r.keyword IN ('OUI', 'YES')
           AND r.received_at >= (SELECT MAX(u.sent_at) FROM signups u WHERE u.account_id = s.account_id AND u.number = s.number))
     ORDER BY s.id LIMIT $2";
/// A sign-up confirmed, if it was not (`$1` id, `$2` now, `$3` how).
pub(crate) const CONFIRM: &str =
    "UPDATE signups SET confirmed_at = $2, confirmed_by = $3 WHERE id = $1 AND confirmed_at IS NULL";

/// The other sign-ups of a number on a page, waiting still, once one is confirmed (`$1` page,
/// `$2` number): the confirmation stands for them.
pub(crate) const SUPERSEDED: &str = "DELETE FROM signups WHERE page_id = $1 AND number = $2 AND confirmed_at IS NULL";

/// The stored form of a page.
pub(crate) fn stored_page(page: &SignupPage) -> String {
    serde_json::to_string(&page.to_wire()).unwrap_or_else(|_| "{}".to_owned())
}

/// A row of [`PAGE_COLUMNS`].
pub(crate) fn read_page<R: Columns>(row: &R) -> Result<Result<SavedSignupPage, Error>, R::Fault> {
    let definition: String = row.column(2)?;
    let page = serde_json::from_str::<SignupPageDto>(&definition)
        .ok()
        .and_then(|wire| SignupPage::parse(&wire).ok())
        .ok_or_else(|| Error::Stored("a sign-up page's definition does not read back".to_owned()));
    let (id, account, confirmed, unconfirmed) = (row.column(0)?, row.column(1)?, row.column(3)?, row.column(4)?);
    Ok(page.map(|page| SavedSignupPage { id, account, page, confirmed, unconfirmed }))
}

/// A row of [`PENDING_COLUMNS`].
pub(crate) fn read_pending<R: Columns>(row: &R) -> Result<PendingSignup, R::Fault> {
    Ok(PendingSignup {
        id: row.column(0)?,
        page: row.column(1)?,
        account: row.column(2)?,
        number: row.column(3)?,
        fields: row.column(4)?,
        address: row.column(5)?,
        created_at: row.time(6)?,
    })
}

/// When a pending sign-up made before it no longer counts, as stored.
pub(crate) fn expired_before(now: DateTime<Utc>) -> String {
    time::store(now - VALID_FOR)
}

/// The card's fields (a stored JSON object) with the sign-up's (a JSON object) written over
/// them, and the first and last names among them taken out: `(fields, firstname, lastname)`.
pub(crate) fn merged_fields(card: Option<&str>, given: &str) -> (String, Option<String>, Option<String>) {
    let mut fields: BTreeMap<String, serde_json::Value> =
        card.and_then(|c| serde_json::from_str(c).ok()).unwrap_or_default();
    let mut given: BTreeMap<String, String> = serde_json::from_str(given).unwrap_or_default();
    let (firstname, lastname) = (given.remove("firstname"), given.remove("lastname"));
    fields.extend(given.into_iter().map(|(name, value)| (name, serde_json::Value::from(value))));
    (serde_json::to_string(&fields).unwrap_or_else(|_| "{}".to_owned()), firstname, lastname)
}
