//! Accounts and their credits, and how a token's errors are answered.

use async_trait::async_trait;
use sha2::{Digest, Sha256};
use texto_core::{Country, Credits, FloodLimits};

use super::{AccountId, columns::Columns};
use crate::Error;

/// What an account may send to one country (docs/interface.md §3.4: not_allowed, country_limit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CountryRule {
    /// Sends to the country are allowed.
    pub(crate) allowed: bool,
    /// Messages a month to the country, if capped.
    pub(crate) monthly_cap: Option<u64>,
}

/// A change to a [`CountryRule`]: `None` keeps the field.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct CountryRuleChange {
    /// Allow (`true`) or block (`false`) the country.
    pub(crate) allowed: Option<bool>,
    /// A new cap, or `Some(None)` to remove it.
    pub(crate) monthly_cap: Option<Option<u64>>,
}

/// Whether a token's error answers carry their HTTP status (`On`, texto's default) or all
/// come as HTTP 200 with the same envelope (`Off`): the SMSFactor SDKs read an error's
/// `status` only from a 2xx answer (docs/interface.md §9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum HttpErrors {
    /// Each error with its HTTP status (402 for -3, 401 for -1, …).
    #[default]
    On,
    /// Every error as HTTP 200, as SMSFactor answers.
    Off,
}

impl HttpErrors {
    /// On for `true`.
    pub(crate) fn from_bool(on: bool) -> HttpErrors {
        if on { HttpErrors::On } else { HttpErrors::Off }
    }

    /// `true` for On.
    pub(crate) fn is_on(self) -> bool {
        self == HttpErrors::On
    }
}

impl std::str::FromStr for HttpErrors {
    type Err = String;

    fn from_str(text: &str) -> Result<HttpErrors, String> {
        match text {
            "on" | "1" => Ok(HttpErrors::On),
            "off" | "0" => Ok(HttpErrors::Off),
            _ => Err(format!("{text:?}: on or off")),
        }
    }
}

/// Accounts, tokens and the credit ledger.
#[async_trait]
pub(crate) trait AccountStore: Send + Sync {
    /// Creates the account `name` with `credits` (a top-up in the ledger).
    async fn create_account(&self, name: &str, credits: Credits) -> Result<AccountId, Error>;
    /// The account called `name`.
    async fn account_by_name(&self, name: &str) -> Result<Option<AccountId>, Error>;
    /// The name of the account.
    async fn account_name(&self, account: AccountId) -> Result<String, Error>;
    /// Adds `credits` to the account (a ledger row); returns the new balance.
    async fn top_up(&self, account: AccountId, credits: Credits) -> Result<Credits, Error>;
    /// The balance: the sum of the account's ledger.
    async fn balance(&self, account: AccountId) -> Result<Credits, Error>;
    /// Changes the account's anti-flood limits (`None` keeps a limit); returns them after.
    async fn update_flood_limits(
        &self,
        account: AccountId,
        identical_per_hour: Option<u32>,
        any_per_hour: Option<u32>,
    ) -> Result<FloodLimits, Error>;
    /// Changes the account's rule for `country` (`None` keeps a field); returns it after.
    async fn update_country_rule(
        &self,
        account: AccountId,
        country: Country,
        change: CountryRuleChange,
    ) -> Result<CountryRule, Error>;
    /// Whether the store answers reads and writes (for `GET /health`).
    async fn ping(&self) -> Result<(), Error>;
    /// Called at shutdown, once nothing writes any more: gives back what the database keeps
    /// aside while it runs (SQLite: empties the WAL file).
    async fn close(&self) -> Result<(), Error>;
}

/// SHA-256 of a token: what the database stores, and what a request's token is looked up by.
pub(crate) fn token_hash(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// A country's rule from its `(allowed, monthly_cap)` columns; a negative cap, which texto
/// never writes, reads as 0.
pub(super) fn read_country_rule<R: Columns>(row: &R) -> Result<CountryRule, R::Fault> {
    let cap = row.column::<Option<i64>>(1)?;
    Ok(CountryRule { allowed: row.column(0)?, monthly_cap: cap.map(|cap| u64::try_from(cap).unwrap_or(0)) })
}
