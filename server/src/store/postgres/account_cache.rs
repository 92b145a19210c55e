//! A node's copy of what the filter reads of an account besides its blacklist and NPAI: the
//! balance, the anti-flood limits, the country rules and this month's counters.
//!
//! Reading them for every send read the account's row, which every send's debit rewrites: the
//! read walked that row's versions, which slowed every one-recipient send.
//! A send now reads the account's change counter (`account_changes`, moved by top-ups, refunds
//! and settings changes on any node) beside its blacklist and NPAI look-ups, and uses this copy
//! while the counter has not moved. So settings are never stale. The balance and the counters,
//! which sends move, may be: the campaign writer checks both again under the account's lock,
//! and the copy only decides which recipients the filter lets through before that check.
//! - The balance: a copy above the stored one is refused by the writer (not enough credits);
//!   one below it is checked against the stored balance before a send is refused.
//! - This month's counters: the writer raises them after each commit; a copy below the stored
//!   ones is refused by the writer (the cap was reached meanwhile, send again), which then
//!   drops the copy. They only grow within a month, so a copy is never above them.
//!
//! A copy is also read again after [`MOST_AGE`], so that a change made outside texto (an
//! operator's SQL, which moves no counter) reaches every node within that time.

use std::{
    collections::{HashMap, HashSet},
    sync::{Mutex, MutexGuard, PoisonError},
};

use chrono::{DateTime, Duration, Utc};
use texto_core::{Country, Credits, FloodLimits};

use crate::store::{AccountId, FilterInputs};

/// How long a copy serves before the account is read again whatever its change counter says.
const MOST_AGE: Duration = Duration::seconds(60);

/// What the copy holds of one account.
#[derive(Debug)]
pub(super) struct AccountCopy {
    /// The account's `account_changes` version when it was read.
    pub(super) version: i64,
    /// When it was read.
    pub(super) read_at: DateTime<Utc>,
    /// The month of `monthly_usage` (`YYYY-MM`).
    pub(super) month: String,
    /// The balance, as last read or written by this node.
    pub(super) balance: Credits,
    /// The anti-flood limits.
    pub(super) flood: FloodLimits,
    /// The countries allowed (`None`: all).
    pub(super) allowed_countries: Option<HashSet<Country>>,
    /// The monthly caps per country.
    pub(super) monthly_caps: HashMap<Country, u64>,
    /// The messages counted this month in the capped countries.
    pub(super) monthly_usage: HashMap<Country, u64>,
}

impl AccountCopy {
    /// The filter's inputs from this copy, with `blacklist` and `npai` read for the request.
    pub(super) fn inputs(
        &self,
        blacklist: impl IntoIterator<Item = u64>,
        npai: impl IntoIterator<Item = u64>,
    ) -> FilterInputs {
        FilterInputs {
            blacklist: blacklist.into_iter().collect(),
            npai: npai.into_iter().collect(),
            recent: Default::default(),
            monthly_usage: self.monthly_usage.clone(),
            monthly_caps: self.monthly_caps.clone(),
            allowed_countries: self.allowed_countries.clone(),
            balance: self.balance,
            flood: self.flood,
        }
    }
}

/// Per account, its copy.
#[derive(Debug, Default)]
pub(super) struct AccountCache(Mutex<HashMap<AccountId, AccountCopy>>);

impl AccountCache {
    fn copies(&self) -> MutexGuard<'_, HashMap<AccountId, AccountCopy>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether there is a copy of `account` for `month`, younger than [`MOST_AGE`] at `now`.
    pub(super) fn has_copy(&self, account: AccountId, month: &str, now: DateTime<Utc>) -> bool {
        self.copies().get(&account).is_some_and(|copy| copy.month == month && now - copy.read_at < MOST_AGE)
    }

    /// The filter's inputs from the copy of `account`, if it is still at `version`, with
    /// `blacklist` and `npai` read for the request.
    pub(super) fn inputs(
        &self,
        account: AccountId,
        version: i64,
        blacklist: impl IntoIterator<Item = u64>,
        npai: impl IntoIterator<Item = u64>,
    ) -> Option<FilterInputs> {
        self.copies().get(&account).filter(|copy| copy.version == version).map(|copy| copy.inputs(blacklist, npai))
    }

    /// Keeps `copy`, just read, for `account`.
    pub(super) fn put(&self, account: AccountId, copy: AccountCopy) {
        self.copies().insert(account, copy);
    }

    /// Drops the copy of `account`: the next send reads the account again.
    pub(super) fn forget(&self, account: AccountId) {
        self.copies().remove(&account);
    }

    /// After a commit that left `account` with `balance`.
    pub(super) fn set_balance(&self, account: AccountId, balance: Credits) {
        if let Some(copy) = self.copies().get_mut(&account) {
            copy.balance = balance;
        }
    }

    /// After a commit that left `account`'s counter of `country` in `month` at `count` (or
    /// more, if another node counted since).
    pub(super) fn raise_counter(&self, account: AccountId, month: &str, country: Country, count: u64) {
        if let Some(copy) = self.copies().get_mut(&account).filter(|copy| copy.month == month) {
            let used = copy.monthly_usage.entry(country).or_default();
            *used = (*used).max(count);
        }
    }
}
