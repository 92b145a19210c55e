//! Moderation (in migrations `0022_operator` and PostgreSQL's `0019`): which accounts
//! are moderated, the operator's rules, and the campaigns held for an operator. A held campaign
//! is written like one awaiting approval (credits debited, nothing handed over) but scheduled at
//! [`held`], which only an operator's release changes.

use async_trait::async_trait;
use chrono::{DateTime, TimeZone, Utc};

use super::{AccountId, approval::Hand, columns::Columns};
use crate::Error;

/// The send time of a campaign held for moderation.
pub(crate) fn held() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(9999, 12, 30, 0, 0, 0).single().unwrap_or(DateTime::<Utc>::MAX_UTC)
}

/// What a moderation rule looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RuleKind {
    /// A regular expression over the text (case does not matter).
    Pattern,
    /// A domain that the campaign's links point to (or a subdomain of it).
    Domain,
}

impl RuleKind {
    /// As stored.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            RuleKind::Pattern => "pattern",
            RuleKind::Domain => "domain",
        }
    }

    /// The kind [`RuleKind::as_str`] names, if any.
    pub(crate) fn named(text: &str) -> Option<RuleKind> {
        match text {
            "pattern" => Some(RuleKind::Pattern),
            "domain" => Some(RuleKind::Domain),
            _ => None,
        }
    }

    /// Reads [`RuleKind::as_str`] as stored.
    pub(crate) fn parse(text: &str) -> Result<RuleKind, Error> {
        RuleKind::named(text).ok_or_else(|| Error::Stored(format!("moderation rule kind {text:?}")))
    }
}

/// A rule as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ModerationRule {
    /// Its id.
    pub(crate) id: i64,
    /// What it looks at.
    pub(crate) kind: RuleKind,
    /// The pattern or the domain.
    pub(crate) value: String,
}

/// A held campaign, as the operator's queue shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HeldCampaign {
    /// Its ticket.
    pub(crate) ticket: i64,
    /// Its account.
    pub(crate) account: AccountId,
    /// The account's name.
    pub(crate) account_name: String,
    /// Its text.
    pub(crate) text: String,
    /// Its recipients to send to.
    pub(crate) sent: i64,
    /// Why it is held.
    pub(crate) reason: String,
    /// When it was sent.
    pub(crate) created_at: DateTime<Utc>,
}

/// Where moderation lives.
#[async_trait]
pub(crate) trait ModerationStore: Send + Sync {
    /// Marks the account moderated or not.
    async fn set_moderated(&self, account: AccountId, moderated: bool) -> Result<(), Error>;
    /// The moderated accounts and every rule.
    async fn moderation(&self) -> Result<(Vec<AccountId>, Vec<ModerationRule>), Error>;
    /// The accounts an operator suspended, and their sub-accounts.
    async fn suspended_accounts(&self) -> Result<Vec<AccountId>, Error>;
    /// Adds a rule; returns its id.
    async fn add_moderation_rule(&self, kind: RuleKind, value: &str) -> Result<i64, Error>;
    /// Deletes a rule; `false` when there is none of that id.
    async fn remove_moderation_rule(&self, id: i64) -> Result<bool, Error>;
    /// Notes on the campaign `ticket` (just written at [`held`]) why it is held, who sent it,
    /// and what its release is to do.
    async fn mark_held(&self, account: AccountId, ticket: i64, hold: &Hold) -> Result<(), Error>;
    /// Every held campaign, oldest first.
    async fn held_campaigns(&self) -> Result<Vec<HeldCampaign>, Error>;
    /// The held campaign `ticket`, if it is held.
    async fn held_campaign(&self, ticket: i64) -> Result<Option<HeldCampaign>, Error>;
    /// Releases a held campaign at `now` ([`RELEASE`]); `None` when it was not held.
    async fn release_held(
        &self,
        account: AccountId,
        ticket: i64,
        now: DateTime<Utc>,
    ) -> Result<Option<Released>, Error>;
    /// Whether an account created without saying otherwise is moderated (off until set).
    async fn new_accounts_moderated(&self) -> Result<bool, Error>;
    /// Sets [`ModerationStore::new_accounts_moderated`].
    async fn set_new_accounts_moderated(&self, on: bool) -> Result<(), Error>;
}

/// Whether new accounts are moderated: `'1'` or `'0'`, no row when never set.
pub(crate) const NEW_ACCOUNTS_MODERATED: &str =
    "SELECT value FROM platform_settings WHERE name = 'new_accounts_moderated'";
/// Sets it (`$1` `'1'` or `'0'`).
pub(crate) const SET_NEW_ACCOUNTS_MODERATED: &str = "INSERT INTO platform_settings (name, value)
     VALUES ('new_accounts_moderated', $1) ON CONFLICT (name) DO UPDATE SET value = excluded.value";

/// The stored value of the setting.
pub(crate) fn setting(on: bool) -> &'static str {
    if on { "1" } else { "0" }
}

/// Marks an account moderated (`$1` account, `$2` on or off).
pub(crate) const SET_MODERATED: &str = "UPDATE accounts SET moderated = $2 WHERE id = $1";
/// The moderated accounts.
pub(crate) const MODERATED: &str = "SELECT id FROM accounts WHERE moderated";
/// The suspended accounts and their sub-accounts.
pub(crate) const SUSPENDED: &str = "SELECT a.id FROM accounts a LEFT JOIN accounts p ON p.id = a.parent_id
     WHERE a.suspended_at IS NOT NULL OR p.suspended_at IS NOT NULL";
/// Every rule.
pub(crate) const RULES: &str = "SELECT id, kind, value FROM moderation_rules ORDER BY id";
/// Adds a rule (`$1` kind, `$2` value, `$3` now).
pub(crate) const ADD_RULE: &str =
    "INSERT INTO moderation_rules (kind, value, created_at) VALUES ($1, $2, $3) RETURNING id";
/// Deletes a rule (`$1` id).
pub(crate) const REMOVE_RULE: &str = "DELETE FROM moderation_rules WHERE id = $1";
/// Notes a held campaign (`$1` ticket, `$2` account, `$3` the time asked for, `$4` who, `$5`
/// why, `$6` and `$7` whose hand sent it, `$8` whether the team must approve it once released).
pub(crate) const MARK_HELD: &str = "UPDATE campaigns SET approval = 'awaiting', requested_send_at = $3,
        created_by = $4, approval_note = $5, sent_by_person = $6, sent_by_token = $7, awaits_team = $8
     WHERE id = $1 AND account_id = $2";

/// Releases a held campaign (`$1` ticket, `$2` account, `$3` now, `$4` the held time, `$5` the
/// awaiting time): to the team's approval, from now, when it needs it; else scheduled at the
/// time it asked for, or now if that has passed. Answers `awaits_team`; no row when it was
/// not held.
pub(crate) const RELEASE: &str = "UPDATE campaigns SET
        approval = CASE WHEN awaits_team THEN 'awaiting' ELSE 'approved' END,
        awaiting_since = CASE WHEN awaits_team THEN $3 ELSE awaiting_since END,
        send_at = CASE WHEN awaits_team THEN $5
            WHEN requested_send_at IS NOT NULL AND requested_send_at > $3 THEN requested_send_at ELSE $3 END
     WHERE id = $1 AND account_id = $2 AND status = 'scheduled' AND send_at = $4
     RETURNING awaits_team";

/// Why a campaign is held, who sent it, and what its release is to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Hold {
    /// Why it is held.
    pub(crate) reason: String,
    /// Who sent it, as the audit log names them.
    pub(crate) actor: String,
    /// Whose hand sent it.
    pub(crate) hand: Hand,
    /// When it asked to go.
    pub(crate) requested: DateTime<Utc>,
    /// Whether the team must approve it once released (an author's campaign, or one over the
    /// team's threshold).
    pub(crate) awaits_team: bool,
}

/// What became of a held campaign the operator released.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Released {
    /// It goes at the time it asked for, or at once.
    Going,
    /// It needs the team's approval too, and now waits for it: the operator approves nothing
    /// for the team.
    ToTheTeam,
}

impl Released {
    /// From the stored `awaits_team`.
    pub(crate) fn from_awaits_team(awaits_team: bool) -> Released {
        if awaits_team { Released::ToTheTeam } else { Released::Going }
    }
}
/// The held campaigns (`$1` the held time).
pub(crate) const HELD: &str =
    "SELECT c.id, c.account_id, a.name, c.text, c.sent, coalesce(c.approval_note, ''), c.created_at
     FROM campaigns c JOIN accounts a ON a.id = c.account_id
     WHERE c.status = 'scheduled' AND c.send_at = $1";

/// A held campaign from the columns of [`HELD`].
pub(super) fn read_held<R: Columns>(row: &R) -> Result<HeldCampaign, R::Fault> {
    Ok(HeldCampaign {
        ticket: row.column(0)?,
        account: row.column(1)?,
        account_name: row.column(2)?,
        text: row.column(3)?,
        sent: row.column(4)?,
        reason: row.column(5)?,
        created_at: row.time(6)?,
    })
}
