//! API tokens: what a token is allowed (its account, expiry and addresses), and the tokens an
//! account manages through `/token` and `texto token`.

use std::net::IpAddr;

use async_trait::async_trait;
use chrono::{DateTime, Duration, Utc};
use texto_core::Role;

use super::{AccountId, HttpErrors};
use crate::{
    Error,
    team::{
        address_range::{AddressRange, any_contains},
        names::{TokenLifetime, TokenName},
    },
};

/// A token to create.
#[derive(Debug, Clone)]
pub(crate) struct NewToken {
    /// Its name.
    pub(crate) name: TokenName,
    /// How long it lives; `None`: until revoked.
    pub(crate) lifetime: Option<TokenLifetime>,
    /// The addresses it answers to; empty: any.
    pub(crate) allowed: Vec<AddressRange>,
    /// How its errors are answered.
    pub(crate) http_errors: HttpErrors,
    /// What it may do.
    pub(crate) role: Role,
    /// The person who made it, who answers for it: their removal revokes it and their role caps
    /// it. `None` for a token of the command line (or of a token without a maker).
    pub(crate) made_by: Option<i64>,
}

impl NewToken {
    /// When a token created at `now` expires.
    pub(crate) fn expires_at(&self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        self.lifetime.map(|lifetime| now + Duration::seconds(lifetime.seconds()))
    }
}

/// A stored token (never the token itself).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TokenRecord {
    /// Its id.
    pub(crate) id: i64,
    /// Its name (empty for tokens created before tokens had names).
    pub(crate) name: String,
    /// Its first characters, to tell it apart.
    pub(crate) hint: String,
    /// When it was created.
    pub(crate) created_at: DateTime<Utc>,
    /// When it expires; `None`: never.
    pub(crate) expires_at: Option<DateTime<Utc>>,
    /// The addresses it answers to; empty: any.
    pub(crate) allowed: Vec<AddressRange>,
    /// When a request last used it (to the minute).
    pub(crate) last_used_at: Option<DateTime<Utc>>,
    /// How its errors are answered.
    pub(crate) http_errors: HttpErrors,
    /// What it may do now: its own role, capped by its maker's.
    pub(crate) role: Role,
    /// The email of the person who made it; `None` for a token without a maker.
    pub(crate) made_by: Option<String>,
}

impl TokenRecord {
    /// Its lifetime in seconds, from its creation to its expiry.
    pub(crate) fn ttl(&self) -> Option<i64> {
        self.expires_at.map(|at| (at - self.created_at).num_seconds())
    }

    /// Whether the token is still accepted at `now`.
    pub(crate) fn is_active(&self, now: DateTime<Utc>) -> bool {
        self.expires_at.is_none_or(|at| at > now)
    }
}

/// What a presented token grants: looked up by its hash on every request.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TokenGrant {
    /// The account it acts for.
    pub(crate) account: AccountId,
    /// The token's id.
    pub(crate) token: i64,
    /// How its errors are answered.
    pub(crate) http_errors: HttpErrors,
    /// When it expires.
    pub(crate) expires_at: Option<DateTime<Utc>>,
    /// The addresses it answers to; empty: any.
    pub(crate) allowed: Vec<AddressRange>,
    /// When a request last used it.
    pub(crate) last_used_at: Option<DateTime<Utc>>,
    /// What it may do now: its own role, capped by its maker's.
    pub(crate) role: Role,
    /// Its name, as the audit log names who acted.
    pub(crate) name: String,
    /// The person who made it, as they are now.
    pub(crate) maker: Option<TokenMaker>,
}

/// The person who made a token, as they are now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TokenMaker {
    /// Their id.
    pub(crate) id: i64,
    /// Their email.
    pub(crate) email: String,
    /// Their role.
    pub(crate) role: Role,
}

/// What a token given `role` may do while its maker has `maker`: the less powerful of the two,
/// so that a person demoted cannot keep their old power through the tokens they made.
pub(crate) fn capped(role: Role, maker: Option<Role>) -> Role {
    // Ord puts the most powerful role first.
    maker.map_or(role, |maker| role.max(maker))
}

/// How the audit log names whoever acts with the token `id` called `name` and made by `maker`
/// (an email): `token "NAME"`, or `token "NAME" (made by EMAIL)`. The name is quoted (and its
/// quotes escaped) so that no name reads as a person, nor as another maker.
pub(crate) fn token_actor(name: &str, id: i64, maker: Option<&str>) -> String {
    let token = if name.is_empty() { format!("token #{id}") } else { format!("token {name:?}") };
    match maker {
        Some(email) => format!("{token} (made by {email})"),
        None => token,
    }
}

/// How often a token's last use is written: at most once a minute, so that busy tokens do not
/// add a write to every request.
const LAST_USE_PRECISION: Duration = Duration::minutes(1);

impl TokenGrant {
    /// Whether a request at `now` should record the token's use.
    pub(crate) fn use_is_stale(&self, now: DateTime<Utc>) -> bool {
        self.last_used_at.is_none_or(|at| now - at >= LAST_USE_PRECISION)
    }

    /// Whether the token still lets a request from `address` in at `now`: before its expiry,
    /// from one of its addresses. Checked for the token itself and for every request of a
    /// session opened with it, which lives no longer and reaches no further than the token.
    pub(crate) fn admits(&self, now: DateTime<Utc>, address: IpAddr) -> Result<(), Error> {
        if self.expires_at.is_some_and(|at| at <= now) {
            return Err(Error::Unauthorized("this token has expired"));
        }
        if !self.allowed.is_empty() && !any_contains(&self.allowed, address) {
            return Err(Error::Unauthorized("this token is not allowed from this address"));
        }
        Ok(())
    }

    /// The token as the audit log names whoever acted with it.
    pub(crate) fn actor(&self) -> String {
        token_actor(&self.name, self.token, self.maker.as_ref().map(|maker| maker.email.as_str()))
    }
}

/// The columns a [`TokenGrant`] is read from, in this order: the token `t`, then its maker `m`
/// (the person `t.made_by` names).
macro_rules! grant_columns {
    () => {
        "t.account_id, t.id, t.http_errors, t.expires_at, t.allowed_ips, t.last_used_at, t.role, t.name,
         m.id, m.email, m.role"
    };
}
pub(crate) use grant_columns;

/// The tokens `t` with their makers `m`.
macro_rules! token_and_maker {
    () => {
        "api_tokens t LEFT JOIN users m ON m.id = t.made_by"
    };
}

/// Whether the token `t` (with its maker `m`) is live: not revoked, and its maker, if it has
/// one, still there (their removal revokes it too, but this holds whatever removed them).
macro_rules! live {
    () => {
        "t.revoked_at IS NULL AND (t.made_by IS NULL OR m.id IS NOT NULL)"
    };
}
pub(crate) use live;

/// The grant of the live token whose hash is `$1`.
pub(crate) const TOKEN_GRANT: &str =
    concat!("SELECT ", grant_columns!(), " FROM ", token_and_maker!(), " WHERE t.token_hash = $1 AND ", live!());

/// The columns a [`TokenRecord`] is read from, in this order.
pub(crate) const TOKEN_COLUMNS: &str = concat!(
    "SELECT t.id, t.name, t.hint, t.created_at, t.expires_at, t.allowed_ips, t.last_used_at, t.http_errors, t.role,
        m.email, m.role FROM ",
    token_and_maker!()
);

/// The account's live token `$1` (`$2` the account).
pub(crate) const LIVE_TOKEN: &str = concat!("WHERE t.id = $1 AND t.account_id = $2 AND ", live!());

/// The account's live tokens (`$1` the account), newest first.
pub(crate) const LIVE_TOKENS: &str = concat!("WHERE t.account_id = $1 AND ", live!(), " ORDER BY t.id DESC");

/// Stores a token; `$1`… as the columns are named.
pub(crate) const ADD_TOKEN: &str = "INSERT INTO api_tokens
     (account_id, token_hash, http_errors, name, hint, expires_at, allowed_ips, created_at, role, made_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id";

/// A stored role read back (a name no role has is read as the least powerful, analyst).
pub(crate) fn role_from_column(column: &str) -> Role {
    column.parse().unwrap_or(Role::Analyst)
}

/// The comma-separated stored form of address ranges.
pub(crate) fn ranges_to_column(ranges: &[AddressRange]) -> String {
    ranges.iter().map(ToString::to_string).collect::<Vec<_>>().join(",")
}

/// Address ranges read back from their stored form (what does not parse is left out).
pub(crate) fn ranges_from_column(column: &str) -> Vec<AddressRange> {
    column.split(',').filter(|r| !r.is_empty()).filter_map(|r| r.parse().ok()).collect()
}

/// An account's API tokens.
#[async_trait]
pub(crate) trait TokenStore: Send + Sync {
    /// Stores a token (by its hash, with its first characters `hint`) for the account, created
    /// at `now`.
    async fn add_token(
        &self,
        account: AccountId,
        hash: &[u8; 32],
        hint: &str,
        new: &NewToken,
        now: DateTime<Utc>,
    ) -> Result<TokenRecord, Error>;
    /// The account's tokens that are not revoked, newest first.
    async fn tokens(&self, account: AccountId) -> Result<Vec<TokenRecord>, Error>;
    /// One of the account's tokens that is not revoked.
    async fn token(&self, account: AccountId, id: i64) -> Result<Option<TokenRecord>, Error>;
    /// Revokes the account's token `id`; false when it has no live token with that id.
    async fn revoke_token_id(&self, account: AccountId, id: i64) -> Result<bool, Error>;
    /// Revokes a token by its hash; false when no live token has that hash.
    async fn revoke_token(&self, hash: &[u8; 32]) -> Result<bool, Error>;
    /// What the live token with this hash grants (expired or not: the caller tells).
    async fn token_grant(&self, hash: &[u8; 32]) -> Result<Option<TokenGrant>, Error>;
    /// Records that the token was used at `at`.
    async fn touch_token(&self, token: i64, at: DateTime<Utc>) -> Result<(), Error>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_one_line_of_one_to_a_hundred_characters() {
        assert_eq!(TokenName::parse("  Boutique  ").map(|n| n.as_str().to_owned()), Ok("Boutique".into()));
        assert!(TokenName::parse("   ").is_err());
        assert!(TokenName::parse("a\nb").is_err());
        assert!(TokenName::parse(&"é".repeat(100)).is_ok());
        assert!(TokenName::parse(&"é".repeat(101)).is_err());
    }

    #[test]
    fn a_lifetime_is_from_a_second_to_ten_years() {
        assert!(TokenLifetime::from_seconds(0).is_err());
        assert!(TokenLifetime::from_seconds(-5).is_err());
        assert_eq!(TokenLifetime::from_seconds(3600).map(TokenLifetime::seconds), Ok(3600));
        assert!(TokenLifetime::from_seconds(11 * 366 * 86_400).is_err());
    }

    #[test]
    fn a_token_does_no_more_than_its_maker_may_now() {
        assert_eq!(capped(Role::Admin, None), Role::Admin, "a token of the command line");
        assert_eq!(capped(Role::Admin, Some(Role::Owner)), Role::Admin);
        assert_eq!(capped(Role::Admin, Some(Role::Analyst)), Role::Analyst, "its maker was demoted");
    }

    #[test]
    fn a_token_is_named_in_quotes_with_its_maker() {
        assert_eq!(token_actor("Boutique", 3, None), "token \"Boutique\"");
        assert_eq!(token_actor("", 3, None), "token #3");
        assert_eq!(
            token_actor("boss@shop.example", 3, Some("max@shop.example")),
            "token \"boss@shop.example\" (made by max@shop.example)"
        );
        assert_eq!(
            token_actor("x\" (made by boss@shop.example)", 3, None),
            "token \"x\\\" (made by boss@shop.example)\"",
            "a quote in the name cannot end it"
        );
    }

    #[test]
    fn stored_ranges_read_back_as_written() {
        let ranges: Vec<AddressRange> = ["10.0.0.0/8", "::1"].iter().map(|r| r.parse().unwrap()).collect();
        assert_eq!(ranges_from_column(&ranges_to_column(&ranges)), ranges);
        assert!(ranges_from_column("").is_empty());
    }
}
