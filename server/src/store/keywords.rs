//! Keywords and the account settings they read (migrations `0018_keywords` and
//! PostgreSQL's `0015`), and the automatic replies waiting to be sent. What a reply's keyword
//! does is decided in [`super::effects`]; the stores only read and write.

use async_trait::async_trait;
use texto_core::{BuiltinKeyword, Keyword, KeywordAction};

use super::{AccountId, columns::Columns};
use crate::Error;

/// A keyword rule as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct KeywordRule {
    /// Its id.
    pub(crate) id: i64,
    /// The word.
    pub(crate) word: Keyword,
    /// The built-in keyword it is, if it is one.
    pub(crate) builtin: Option<BuiltinKeyword>,
    /// The automatic reply (empty: none).
    pub(crate) reply: String,
    /// What else it does.
    pub(crate) actions: Vec<KeywordAction>,
}

/// A keyword to create, or what to change in one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct KeywordChange {
    /// The word (`None`: unchanged; a built-in keyword's cannot change).
    pub(crate) word: Option<Keyword>,
    /// The automatic reply (`None`: unchanged).
    pub(crate) reply: Option<String>,
    /// The actions (`None`: unchanged).
    pub(crate) actions: Option<Vec<KeywordAction>>,
}

/// What saving a keyword came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum KeywordSaved {
    /// Saved, as it now is.
    Saved(KeywordRule),
    /// The account has no keyword of that id.
    NotFound,
    /// The account has another keyword with that word.
    WordTaken,
}

/// What deleting a keyword came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeywordRemoved {
    /// Deleted.
    Deleted,
    /// A built-in keyword, which stays.
    BuiltIn,
    /// The account has no keyword of that id.
    NotFound,
}

/// Deletes one of the account's own keywords (`$1` account, `$2` id).
pub(crate) const DELETE_OWN: &str = "DELETE FROM keywords WHERE account_id = $1 AND id = $2 AND builtin IS NULL";

/// Whether a keyword of the account is built in (`$1` account, `$2` id): no row when it has
/// none of that id.
pub(crate) const IS_BUILTIN: &str = "SELECT builtin IS NOT NULL FROM keywords WHERE account_id = $1 AND id = $2";

/// An account's settings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct AccountSettings {
    /// What HELP is answered (empty: it is not answered).
    pub(crate) help_text: String,
    /// Whether STOP is answered with its confirmation.
    pub(crate) stop_confirmation: bool,
    /// Whether marketing sends skip contacts without an opt-in in force.
    pub(crate) marketing_needs_consent: bool,
    /// The UTM tags added to short links' targets, if any.
    pub(crate) utm: Option<texto_core::Utm>,
    /// The frequency cap of marketing sends, if any.
    pub(crate) marketing_cap: Option<texto_core::MarketingCap>,
}

/// An automatic reply to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DueAutoReply {
    /// Its id.
    pub(crate) id: i64,
    /// The account that sends it.
    pub(crate) account: AccountId,
    /// To whom.
    pub(crate) number: i64,
    /// From the number that was written to (empty: the default short code).
    pub(crate) sender: String,
    /// What.
    pub(crate) text: String,
    /// A STOP confirmation, which goes to a number that has just been blacklisted.
    pub(crate) to_blacklisted: bool,
}

/// What became of an automatic reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum AutoReplyOutcome {
    /// Sent as this campaign.
    Sent(i64),
    /// Not sent, for this reason (no credits, blacklisted …).
    Refused(String),
}

/// Keywords, settings and automatic replies.
#[async_trait]
pub(crate) trait KeywordStore: Send + Sync {
    /// The account's keywords, the built-in ones (written the first time) first, then by word.
    async fn keywords(&self, account: AccountId) -> Result<Vec<KeywordRule>, Error>;
    /// Creates a keyword (`change.word` given).
    async fn create_keyword(&self, account: AccountId, change: KeywordChange) -> Result<KeywordSaved, Error>;
    /// Changes one of the account's keywords.
    async fn update_keyword(&self, account: AccountId, id: i64, change: KeywordChange) -> Result<KeywordSaved, Error>;
    /// Deletes one of the account's own keywords (built-in ones stay).
    async fn delete_keyword(&self, account: AccountId, id: i64) -> Result<KeywordRemoved, Error>;
    /// The account's settings.
    async fn settings(&self, account: AccountId) -> Result<AccountSettings, Error>;
    /// Replaces the account's settings.
    async fn set_settings(&self, account: AccountId, settings: AccountSettings) -> Result<(), Error>;
    /// Up to `most` automatic replies not sent yet, the oldest first.
    async fn due_auto_replies(&self, most: i64) -> Result<Vec<DueAutoReply>, Error>;
    /// Records what became of an automatic reply.
    async fn auto_reply_done(&self, id: i64, outcome: AutoReplyOutcome) -> Result<(), Error>;
}

/// The columns of a [`KeywordRule`] (both stores).
pub(crate) const RULE_COLUMNS: &str = "id, word, builtin, reply, actions";

/// The account's rule for a word (`$1` the account, `$2` the word).
pub(crate) const RULE_FOR_WORD: &str =
    "SELECT id, word, builtin, reply, actions FROM keywords WHERE account_id = $1 AND word = $2";

/// Writes a built-in keyword unless the account has it (`$1` account, `$2` word, `$3` name,
/// `$4` reply, `$5` now).
pub(crate) const SEED_BUILTIN: &str = "INSERT INTO keywords (account_id, word, builtin, reply, actions, created_at)
     VALUES ($1, $2, $3, $4, '[]', $5) ON CONFLICT (account_id, word) DO NOTHING";

/// The account's settings (`$1`).
pub(crate) const SETTINGS: &str = "SELECT help_text, stop_confirmation, marketing_needs_consent, utm, marketing_cap FROM account_settings WHERE account_id = $1";

/// Writes the account's settings (`$1` account, `$2` help text, `$3` STOP confirmation, `$4`
/// marketing needs consent, `$5` UTM tags and `$6` the marketing cap, as JSON).
pub(crate) const SET_SETTINGS: &str = "INSERT INTO account_settings (account_id, help_text, stop_confirmation, marketing_needs_consent, utm, marketing_cap)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (account_id) DO UPDATE SET help_text = excluded.help_text, stop_confirmation = excluded.stop_confirmation,
         marketing_needs_consent = excluded.marketing_needs_consent, utm = excluded.utm, marketing_cap = excluded.marketing_cap";

/// Automatic replies to send (`$1` how many).
pub(crate) const DUE_AUTO_REPLIES: &str =
    "SELECT id, account_id, number, sender, text, to_blacklisted FROM auto_replies
     WHERE outcome IS NULL ORDER BY id LIMIT $1";

/// Records an automatic reply's outcome (`$1` id, `$2` ticket, `$3` outcome).
pub(crate) const AUTO_REPLY_DONE: &str = "UPDATE auto_replies SET ticket = $2, outcome = $3 WHERE id = $1";

/// Adds a number to one of the account's lists unless it is in it (`$1` account, `$2` list,
/// `$3` number, `$4`…`$7` info1…info4, `$8` now).
pub(crate) const ADD_TO_LIST: &str = "INSERT INTO contacts (list_id, number, info1, info2, info3, info4, added_at)
     SELECT id, $3, $4, $5, $6, $7, $8 FROM lists WHERE id = $2 AND account_id = $1
     ON CONFLICT (list_id, number) DO NOTHING";

/// Takes a number out of one of the account's lists (`$1` account, `$2` list, `$3` number).
pub(crate) const REMOVE_FROM_LIST: &str = "DELETE FROM contacts WHERE list_id = $2 AND number = $3 AND list_id IN (SELECT id FROM lists WHERE account_id = $1)";

/// Takes a number off the account's blacklist (`$1` account, `$2` number).
pub(crate) const UNBLACKLIST: &str = "DELETE FROM blacklist WHERE account_id = $1 AND number = $2";

/// Puts a number on the account's blacklist unless it is there (`$1` account, `$2` number,
/// `$3`…`$6` info1…info4, `$7` campaign, `$8` now).
pub(crate) const BLACKLIST: &str =
    "INSERT INTO blacklist (account_id, number, info1, info2, info3, info4, campaign_id, created_at, source)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'keyword') ON CONFLICT (account_id, number) DO NOTHING";

/// Writes an automatic reply unless the number had one for the keyword that day (`$1` account,
/// `$2` number, `$3` sender, `$4` word, `$5` day, `$6` text, `$7` to a blacklisted number,
/// `$8` now).
pub(crate) const AUTO_REPLY: &str =
    "INSERT INTO auto_replies (account_id, number, sender, word, day, text, to_blacklisted, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (account_id, number, word, day) DO NOTHING";

/// What STOP answers when the account confirms it and has not written its own text.
pub(crate) const DEFAULT_STOP_CONFIRMATION: &str =
    "Votre désinscription est prise en compte : vous ne recevrez plus de SMS de notre part.";

/// The text stored for a built-in keyword when it is first written.
pub(crate) fn builtin_reply(builtin: BuiltinKeyword) -> &'static str {
    match builtin {
        BuiltinKeyword::Stop => DEFAULT_STOP_CONFIRMATION,
        BuiltinKeyword::Start | BuiltinKeyword::Help => "",
    }
}

/// A rule from its stored columns: id, word, built-in name, reply, actions (JSON). Only texto
/// writes them, from checked values; a row that does not read back is logged and skipped.
pub(crate) fn rule_of(id: i64, word: &str, builtin: Option<&str>, reply: String, actions: &str) -> Option<KeywordRule> {
    let word = Keyword::parse(word, "word").ok();
    let actions = serde_json::from_str(actions).ok();
    let (Some(word), Some(actions)) = (word, actions) else {
        tracing::error!(id, "a stored keyword does not read back: skipped");
        return None;
    };
    Some(KeywordRule { id, word, builtin: builtin.and_then(BuiltinKeyword::from_name), reply, actions })
}

/// `actions` as stored.
pub(crate) fn actions_column(actions: &[KeywordAction]) -> String {
    serde_json::to_string(actions).unwrap_or_else(|_| "[]".to_owned())
}

/// The order keywords are listed in: built-in ones in their order, then the others by word.
pub(crate) fn listing_order(rules: &mut [KeywordRule]) {
    rules.sort_by_key(|rule| {
        let builtin = rule.builtin.and_then(|b| BuiltinKeyword::ALL.iter().position(|x| *x == b));
        (builtin.unwrap_or(usize::MAX), rule.word.clone())
    });
}

/// Reads a row of [`RULE_COLUMNS`].
pub(super) fn read_rule<R: Columns>(row: &R) -> Result<Option<KeywordRule>, R::Fault> {
    let (builtin, actions): (Option<String>, String) = (row.column(2)?, row.column(4)?);
    Ok(rule_of(row.column(0)?, &row.column::<String>(1)?, builtin.as_deref(), row.column(3)?, &actions))
}

/// The UTM tags and the marketing cap of `settings` as stored (JSON), if any.
pub(crate) fn stored_json(settings: &AccountSettings) -> [Option<String>; 2] {
    [
        settings.utm.as_ref().and_then(|utm| serde_json::to_string(utm).ok()),
        settings.marketing_cap.and_then(|cap| serde_json::to_string(&cap).ok()),
    ]
}

/// One [`AccountSettings`], read from a row.
pub(super) fn read_settings<R: Columns>(row: &R) -> Result<AccountSettings, R::Fault> {
    Ok(AccountSettings {
        help_text: row.column(0)?,
        stop_confirmation: row.column(1)?,
        marketing_needs_consent: row.column(2)?,
        utm: row.column::<Option<String>>(3)?.and_then(|utm| serde_json::from_str(&utm).ok()),
        marketing_cap: row.column::<Option<String>>(4)?.and_then(|cap| serde_json::from_str(&cap).ok()),
    })
}

/// One [`DueAutoReply`], read from a row.
pub(super) fn read_due_reply<R: Columns>(row: &R) -> Result<DueAutoReply, R::Fault> {
    Ok(DueAutoReply {
        id: row.column(0)?,
        account: row.column(1)?,
        number: row.column(2)?,
        sender: row.column(3)?,
        text: row.column(4)?,
        to_blacklisted: row.column(5)?,
    })
}
