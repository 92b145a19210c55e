//! The team's rules for its account: campaigns over a number of recipients wait for
//! approval, and people must sign in with two factors.

use std::num::NonZeroU32;

use async_trait::async_trait;

use super::{AccountId, columns::Columns};
use crate::Error;

/// An account's team rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct TeamRules {
    /// Campaigns to more recipients than this wait for approval, whoever sends them.
    pub(crate) approval_over: Option<NonZeroU32>,
    /// People sign in with an authentication code as well: until they set it up, their session
    /// may do nothing else.
    pub(crate) require_two_factor: bool,
}

impl TeamRules {
    /// Whether a campaign to `recipients` needs approval under these rules.
    pub(crate) fn needs_approval(self, recipients: u64) -> bool {
        self.approval_over.is_some_and(|most| recipients > u64::from(most.get()))
    }
}

/// The team rules of accounts.
#[async_trait]
pub(crate) trait TeamRulesStore: Send + Sync {
    /// The account's rules.
    async fn team_rules(&self, account: AccountId) -> Result<TeamRules, Error>;
    /// Replaces the account's rules.
    async fn set_team_rules(&self, account: AccountId, rules: TeamRules) -> Result<(), Error>;
}

/// The statement that reads them (both stores; `$1` the account).
pub(crate) const TEAM_RULES: &str = "SELECT approval_over, require_two_factor FROM accounts WHERE id = $1";

/// The statement that writes them (both stores).
pub(crate) const SET_TEAM_RULES: &str = "UPDATE accounts SET approval_over = $2, require_two_factor = $3 WHERE id = $1";

/// `approval_over` as stored: NULL for none.
pub(crate) fn approval_over_from_column(value: Option<i64>) -> Option<NonZeroU32> {
    value.and_then(|n| u32::try_from(n).ok()).and_then(NonZeroU32::new)
}

/// One [`TeamRules`], read from a row.
pub(super) fn read_team_rules<R: Columns>(row: &R) -> Result<TeamRules, R::Fault> {
    Ok(TeamRules { approval_over: approval_over_from_column(row.column(0)?), require_two_factor: row.column(1)? })
}

#[cfg(test)]
mod tests {
    use std::num::NonZeroU32;

    use super::TeamRules;

    #[test]
    fn only_campaigns_over_the_threshold_need_approval() {
        let rules = TeamRules { approval_over: NonZeroU32::new(1000), require_two_factor: false };
        assert!(!rules.needs_approval(1000));
        assert!(rules.needs_approval(1001));
        assert!(!TeamRules::default().needs_approval(u64::MAX));
    }
}
