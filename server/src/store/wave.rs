//! Which messages make the next wave, written once for both stores: alerts before marketing
//! (the stores list the sending campaigns in that order, marketing only inside its window),
//! then each account's fair share of the wave first and what is left after, in the same order,
//! never more of a limited account's messages than its cap. The stores ask [`WavePlan::next`]
//! how many to take from which group of campaigns (one campaign per group in SQLite; PostgreSQL
//! claims small campaigns together), take them their way, and tell [`WavePlan::took`] whose
//! they were.

use std::collections::HashMap;

use super::{AccountId, delivery::WaveLimit};

/// Each account's share of a wave of `limit` messages: equal parts, at least one each, for the
/// accounts of the campaigns sending (`accounts`, repeats allowed). A wave gives each account its
/// share first, then fills what is left in campaign order, so that one account's large campaign
/// holds up another's messages by one wave at most.
pub(crate) fn fair_shares(accounts: impl Iterator<Item = AccountId>, limit: usize) -> HashMap<AccountId, usize> {
    let mut shares: HashMap<AccountId, usize> = HashMap::new();
    for account in accounts {
        shares.entry(account).or_default();
    }
    let share = (limit / shares.len().max(1)).max(1);
    shares.values_mut().for_each(|s| *s = share);
    shares
}

/// How many messages to take from a group of campaigns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Ask {
    /// The group, by its place in the plan's groups.
    pub(crate) group: usize,
    /// At most this many messages.
    pub(crate) wanted: usize,
}

/// A wave being filled.
#[derive(Debug)]
pub(crate) struct WavePlan {
    /// Each group's accounts, without repeats.
    groups: Vec<Vec<AccountId>>,
    shares: HashMap<AccountId, usize>,
    limit: WaveLimit,
    taken: usize,
    first_pass: bool,
    next_group: usize,
}

impl WavePlan {
    /// A wave of at most `limit` messages from `groups` of campaigns, in wave order, each group
    /// given as the accounts of its campaigns.
    pub(crate) fn new(groups: Vec<Vec<AccountId>>, limit: WaveLimit) -> WavePlan {
        let shares = fair_shares(groups.iter().flatten().copied(), limit.total);
        let groups = groups
            .into_iter()
            .map(|mut accounts| {
                accounts.sort_unstable();
                accounts.dedup();
                accounts
            })
            .collect();
        WavePlan { groups, shares, limit, taken: 0, first_pass: true, next_group: 0 }
    }

    /// The next group to take from and how many, or `None` once the wave is full or every
    /// group was asked in both passes.
    pub(crate) fn next(&mut self) -> Option<Ask> {
        loop {
            if self.next_group == self.groups.len() {
                if !self.first_pass {
                    return None;
                }
                self.first_pass = false;
                self.next_group = 0;
                continue;
            }
            let group = self.next_group;
            self.next_group += 1;
            let room = self.limit.total.saturating_sub(self.taken);
            if room == 0 {
                return None;
            }
            let accounts = &self.groups[group];
            let share: usize = match self.first_pass {
                true => accounts.iter().map(|account| self.shares.get(account).copied().unwrap_or(0)).sum(),
                false => room,
            };
            // A limited account's campaigns are a group of their own: its cap applies.
            let allowed = match accounts.as_slice() {
                [account] => self.limit.allowed(*account),
                _ => usize::MAX,
            };
            let wanted = share.min(room).min(allowed);
            if wanted > 0 {
                return Some(Ask { group, wanted });
            }
        }
    }

    /// Counts the messages taken for the last ask, one account per message.
    pub(crate) fn took(&mut self, accounts: impl IntoIterator<Item = AccountId>) {
        for account in accounts {
            if self.first_pass
                && let Some(share) = self.shares.get_mut(&account)
            {
                *share = share.saturating_sub(1);
            }
            self.limit.take(account, 1);
            self.taken += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fills a plan from queues of messages per group (each message its account).
    fn fill(plan: &mut WavePlan, queues: &mut [Vec<AccountId>]) -> Vec<(usize, usize)> {
        let mut asks = Vec::new();
        while let Some(ask) = plan.next() {
            let queue = &mut queues[ask.group];
            let taken: Vec<AccountId> = queue.drain(..ask.wanted.min(queue.len())).collect();
            asks.push((ask.group, taken.len()));
            plan.took(taken);
        }
        asks
    }

    #[test]
    fn each_account_gets_its_share_first_then_what_is_left_in_order() {
        // A large campaign of account 1, then a small one of account 2: a wave of 10.
        let mut plan = WavePlan::new(vec![vec![1], vec![2]], WaveLimit::from(10));
        let mut queues = vec![vec![1; 100], vec![2; 3]];
        assert_eq!(fill(&mut plan, &mut queues), vec![(0, 5), (1, 3), (0, 2)]);
    }

    #[test]
    fn a_limited_account_never_passes_its_cap() {
        let limit = WaveLimit { total: 10, caps: HashMap::from([(1, 2)]) };
        let mut plan = WavePlan::new(vec![vec![1], vec![2]], limit);
        let mut queues = vec![vec![1; 100], vec![2; 100]];
        assert_eq!(fill(&mut plan, &mut queues), vec![(0, 2), (1, 5), (1, 3)]);
    }

    #[test]
    fn a_group_of_several_accounts_asks_for_their_shares_together() {
        let mut plan = WavePlan::new(vec![vec![1, 2, 2], vec![3]], WaveLimit::from(9));
        let mut queues = vec![vec![1, 2, 2, 1, 2, 1, 2], vec![3; 10]];
        // Shares of 3 each: the group of accounts 1 and 2 asks for 6, account 3 for 3.
        assert_eq!(fill(&mut plan, &mut queues), vec![(0, 6), (1, 3)]);
    }

    #[test]
    fn a_wave_without_campaigns_asks_for_nothing() {
        let mut plan = WavePlan::new(Vec::new(), WaveLimit::from(10));
        assert_eq!(plan.next(), None);
        let mut full = WavePlan::new(vec![vec![1]], WaveLimit::from(0));
        assert_eq!(full.next(), None);
    }

    #[test]
    fn accounts_share_a_wave_equally_and_each_gets_one_at_least() {
        let shares = fair_shares([7, 7, 8, 9].into_iter(), 300);
        assert_eq!((shares.len(), shares[&7], shares[&8], shares[&9]), (3, 100, 100, 100));
        assert_eq!(fair_shares([1, 2, 3].into_iter(), 2)[&3], 1);
        assert!(fair_shares(std::iter::empty(), 10).is_empty());
    }
}
