//! The people of an account, their sessions and one-time links (invitations, password
//! resets): the types that cannot hold an invalid value, the statements both stores share
//! (written with `$n` parameters) and the trait.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use texto_core::{Msisdn, Role};

use super::{
    AccountId, TokenGrant,
    tokens::{grant_columns, live},
};
use crate::{
    Error,
    team::names::{Email, PersonName},
};

/// A person of an account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct UserRecord {
    /// Their id.
    pub(crate) id: i64,
    /// Their account.
    pub(crate) account: AccountId,
    /// Their address, which they sign in with.
    pub(crate) email: String,
    /// Their name.
    pub(crate) name: String,
    /// What they may do.
    pub(crate) role: Role,
    /// When they joined.
    pub(crate) created_at: DateTime<Utc>,
    /// Their password's argon2id hash (a PHC string).
    pub(crate) password_hash: String,
    /// Their two-factor sign-in.
    pub(crate) two_factor: TwoFactor,
    /// Their own mobile number, where their test sends go by default.
    pub(crate) phone: Option<Msisdn>,
}

/// A person's two-factor sign-in, as stored.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct TwoFactor {
    /// The TOTP secret (base32) once confirmed: sign-in then needs a code.
    pub(crate) secret: Option<String>,
    /// A secret being set up, not yet confirmed by a code.
    pub(crate) pending: Option<String>,
    /// The hashes of the unused recovery codes, comma-separated.
    pub(crate) recovery: String,
}

/// Whom a session signs in: a person, or an API token exchanged for a session by the web
/// app's "Sign in with an API token".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SessionOwner {
    /// A person, by id.
    User(i64),
    /// An API token, by id.
    Token(i64),
}

/// What a presented session cookie grants: read on every request made with it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SessionGrant {
    /// The session's id.
    pub(crate) id: i64,
    /// Its account.
    pub(crate) account: AccountId,
    /// Whom it signs in.
    pub(crate) owner: SessionOwner,
    /// The owner's role now (a role change applies at once).
    pub(crate) role: Role,
    /// The owner's email or token name, as the audit log names them.
    pub(crate) actor: String,
    /// The token the session was opened with, as it stands now: its expiry and addresses hold
    /// for every request of the session.
    pub(crate) token: Option<TokenGrant>,
    /// The value state-changing requests must repeat in `X-CSRF-Token`.
    pub(crate) csrf: String,
    /// When it began.
    pub(crate) created_at: DateTime<Utc>,
    /// When a request last used it (to the minute).
    pub(crate) seen_at: DateTime<Utc>,
    /// A person whose account requires two-factor sign-in and who has not set it up: until
    /// they do, the session may do nothing else.
    pub(crate) two_factor_missing: bool,
}

/// What a one-time link is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LinkKind {
    /// Joining an account with a role.
    Invitation,
    /// Choosing a new password.
    Reset,
}

impl LinkKind {
    /// The stored name.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            LinkKind::Invitation => "invitation",
            LinkKind::Reset => "reset",
        }
    }

    /// From the stored name.
    pub(crate) fn parse(name: &str) -> Option<LinkKind> {
        [LinkKind::Invitation, LinkKind::Reset].into_iter().find(|k| k.as_str() == name)
    }
}

/// A one-time link, stored by its secret's hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OneTimeLink {
    /// What it is for.
    pub(crate) kind: LinkKind,
    /// The account it leads into.
    pub(crate) account: AccountId,
    /// Whom it was sent to.
    pub(crate) email: String,
    /// The role an invitation gives; `None` for a reset.
    pub(crate) role: Option<Role>,
    /// Who created it (an email or a token's name; `command line` from `texto user create`).
    pub(crate) created_by: String,
    /// When.
    pub(crate) created_at: DateTime<Utc>,
    /// When it stops working.
    pub(crate) expires_at: DateTime<Utc>,
}

impl OneTimeLink {
    /// How long an invitation works.
    const INVITATION_LIFETIME: chrono::Duration = chrono::Duration::days(7);
    /// How long a password reset link works.
    const RESET_LIFETIME: chrono::Duration = chrono::Duration::hours(1);

    /// An invitation of `email` into `account` with `role`, sent by `created_by` at `now`.
    pub(crate) fn invitation(
        account: AccountId,
        email: &Email,
        role: Role,
        created_by: &str,
        now: DateTime<Utc>,
    ) -> OneTimeLink {
        OneTimeLink {
            kind: LinkKind::Invitation,
            account,
            email: email.as_str().to_owned(),
            role: Some(role),
            created_by: created_by.to_owned(),
            created_at: now,
            expires_at: now + Self::INVITATION_LIFETIME,
        }
    }

    /// A password reset link for `user`, asked for at `now`.
    pub(crate) fn reset(user: &UserRecord, now: DateTime<Utc>) -> OneTimeLink {
        OneTimeLink {
            kind: LinkKind::Reset,
            account: user.account,
            email: user.email.clone(),
            role: None,
            created_by: user.email.clone(),
            created_at: now,
            expires_at: now + Self::RESET_LIFETIME,
        }
    }

    /// The page the link opens, carrying `secret` as its last segment.
    pub(crate) fn url(&self, public_url: &str, secret: &str) -> String {
        let page = match self.kind {
            LinkKind::Invitation => "invitation",
            LinkKind::Reset => "password-reset",
        };
        format!("{}/app/{page}/{secret}", public_url.trim_end_matches('/'))
    }
}

/// The columns a user is read from.
pub(crate) const USER_COLUMNS: &str =
    "SELECT id, account_id, email, name, role, created_at, password_hash, totp_secret,
        totp_pending, recovery_codes, phone FROM users";

/// Writes a person's two-factor sign-in; `$1` the person, `$2`–`$4` the new state, and when
/// `$5` is not null only if the recovery codes are still `$5` (a code is used once). The last
/// step signed in with belongs to the secret: another secret starts without one.
pub(crate) const SET_TWO_FACTOR: &str = "UPDATE users SET totp_secret = $2, totp_pending = $3, recovery_codes = $4,
        totp_step = CASE WHEN totp_secret = $2 THEN totp_step END
     WHERE id = $1 AND (CAST($5 AS TEXT) IS NULL OR recovery_codes = CAST($5 AS TEXT))";

/// Records that person `$1` signed in with the code of time step `$2`, unless that step or a
/// later one already was: one statement, so that two sign-ins with one code cannot both pass.
pub(crate) const USE_TOTP_STEP: &str =
    "UPDATE users SET totp_step = $2 WHERE id = $1 AND (totp_step IS NULL OR totp_step < $2)";

/// A session with its person's role and email, then its token's grant; `$1` the secret's
/// hash. The session of a token no longer live is no session.
pub(crate) const SESSION_GRANT: &str = concat!(
    "SELECT s.id, s.account_id, s.user_id, s.token_id, u.role, u.email, s.csrf, s.created_at, s.seen_at,
        coalesce(a.require_two_factor AND u.id IS NOT NULL AND u.totp_secret IS NULL, false), ",
    grant_columns!(),
    " FROM sessions s JOIN accounts a ON a.id = s.account_id LEFT JOIN users u ON u.id = s.user_id
     LEFT JOIN api_tokens t ON t.id = s.token_id LEFT JOIN users m ON m.id = t.made_by
     WHERE s.secret_hash = $1 AND (u.id IS NOT NULL OR (t.id IS NOT NULL AND ",
    live!(),
    "))"
);

/// Revokes the tokens a person made (`$1`) at `$2`, as they are removed.
pub(crate) const REVOKE_TOKENS_MADE_BY: &str =
    "UPDATE api_tokens SET revoked_at = $2 WHERE made_by = $1 AND revoked_at IS NULL";

/// The columns a one-time link is read from.
pub(crate) const LINK_COLUMNS: &str =
    "SELECT kind, account_id, email, role, created_by, created_at, expires_at FROM one_time_links";

/// Stores a one-time link: `$1` its secret's hash, `$2`–`$8` kind, account, email, role,
/// creator, creation and expiry.
pub(crate) const INSERT_LINK: &str =
    "INSERT INTO one_time_links (secret_hash, kind, account_id, email, role, created_by, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";

/// Drops a person's reset links expired at `$3`; `$1` the account, `$2` the email.
pub(crate) const DROP_EXPIRED_RESETS: &str =
    "DELETE FROM one_time_links WHERE account_id = $1 AND kind = 'reset' AND email = $2 AND expires_at <= $3";

/// How many reset links a person has; `$1` the account, `$2` the email.
pub(crate) const COUNT_RESETS: &str =
    "SELECT count(*) FROM one_time_links WHERE account_id = $1 AND kind = 'reset' AND email = $2";

/// Ends every reset link of a person; `$1` the account, `$2` the email.
pub(crate) const END_RESETS: &str =
    "DELETE FROM one_time_links WHERE account_id = $1 AND kind = 'reset' AND email = $2";

/// The stored `(user_id, token_id)` of a session's owner.
pub(crate) fn owner_columns(owner: SessionOwner) -> (Option<i64>, Option<i64>) {
    match owner {
        SessionOwner::User(user) => (Some(user), None),
        SessionOwner::Token(token) => (None, Some(token)),
    }
}

/// People, sessions and one-time links.
#[async_trait]
pub(crate) trait TeamStore: Send + Sync {
    /// Adds a person; `None` when the email is taken (in any account).
    async fn add_user(
        &self,
        account: AccountId,
        email: &Email,
        name: &PersonName,
        password_hash: &str,
        role: Role,
        now: DateTime<Utc>,
    ) -> Result<Option<UserRecord>, Error>;
    /// The person who signs in with `email`.
    async fn user_by_email(&self, email: &Email) -> Result<Option<UserRecord>, Error>;
    /// The account's people, in the order they joined.
    async fn users(&self, account: AccountId) -> Result<Vec<UserRecord>, Error>;
    /// One person of the account.
    async fn user(&self, account: AccountId, id: i64) -> Result<Option<UserRecord>, Error>;
    /// Changes a person's role; whether they are the account's.
    async fn set_role(&self, account: AccountId, id: i64, role: Role) -> Result<bool, Error>;
    /// Changes a person's name.
    async fn set_name(&self, id: i64, name: &PersonName) -> Result<(), Error>;
    /// Sets (or with `None` clears) the person's own mobile number.
    async fn set_phone(&self, id: i64, phone: Option<Msisdn>) -> Result<(), Error>;
    /// Changes a person's password and ends their sessions but `keep`.
    async fn set_password(&self, id: i64, password_hash: &str, keep: Option<i64>) -> Result<(), Error>;
    /// Replaces a person's password hash `old` by `new`, the same password hashed with today's
    /// parameters (their sessions stay); nothing when the password changed meanwhile.
    async fn rehash_password(&self, id: i64, old: &str, new: &str) -> Result<(), Error>;
    /// Writes a person's two-factor sign-in; with `only_if_recovery`, only if their recovery
    /// codes are still those (so that a code is used once). Whether it was written.
    async fn set_two_factor(&self, id: i64, state: &TwoFactor, only_if_recovery: Option<&str>) -> Result<bool, Error>;
    /// Records that a person signed in with the code of time `step`; false (nothing written)
    /// when that step or a later one already signed them in, on any node.
    async fn use_totp_step(&self, id: i64, step: i64) -> Result<bool, Error>;
    /// Removes a person and their sessions, and revokes the tokens they made at `now`; whether
    /// they were the account's.
    async fn remove_user(&self, account: AccountId, id: i64, now: DateTime<Utc>) -> Result<bool, Error>;
    /// Starts a session.
    async fn add_session(
        &self,
        secret_hash: &[u8; 32],
        account: AccountId,
        owner: SessionOwner,
        csrf: &str,
        now: DateTime<Utc>,
    ) -> Result<(), Error>;
    /// The session a cookie's hash names, with its owner still there.
    async fn session_grant(&self, secret_hash: &[u8; 32]) -> Result<Option<SessionGrant>, Error>;
    /// Records a session's use.
    async fn touch_session(&self, id: i64, now: DateTime<Utc>) -> Result<(), Error>;
    /// Ends one session.
    async fn end_session(&self, id: i64) -> Result<(), Error>;
    /// Ends every session of `owner`; how many.
    async fn end_sessions(&self, owner: SessionOwner) -> Result<u64, Error>;
    /// Stores a one-time link, replacing any earlier one of its kind for the same email (an
    /// invitation: reset links go through [`TeamStore::add_reset_link`]).
    async fn add_link(&self, secret_hash: &[u8; 32], link: &OneTimeLink) -> Result<(), Error>;
    /// Stores a reset link (from [`OneTimeLink::reset`]) beside the person's earlier ones,
    /// each working until used or expired, unless `most` of theirs are still live at its
    /// creation: then nothing is stored (`false`). Their expired ones are dropped.
    async fn add_reset_link(&self, secret_hash: &[u8; 32], link: &OneTimeLink, most: u32) -> Result<bool, Error>;
    /// Uses up the link a secret's hash names, if it has not expired at `now`; using a reset
    /// link ends the person's other reset links too.
    async fn take_link(&self, secret_hash: &[u8; 32], now: DateTime<Utc>) -> Result<Option<OneTimeLink>, Error>;
    /// The account's invitations not yet accepted nor expired at `now`, newest first.
    async fn invitations(&self, account: AccountId, now: DateTime<Utc>) -> Result<Vec<OneTimeLink>, Error>;
    /// Cancels the invitation sent to `email`; whether there was one.
    async fn cancel_invitation(&self, account: AccountId, email: &Email) -> Result<bool, Error>;
}
