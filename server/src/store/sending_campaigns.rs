//! The sending campaigns a wave looks at, written once for both stores: each account's first
//! ones in wave order (alerts first, then by id), a wave's worth per account, read on the
//! `campaigns_sending` index, instead of every sending campaign. A backlog of thousands of
//! one-recipient sends made each wave read all of them, so the hand-over fell further behind
//! as the backlog grew (one-recipient sends from 5,969 to 1,821 a second within a minute:
//! docs/performance.md). Reading per account keeps each account's fair share of a wave
//! ([`super::wave`]) however large another account's backlog. When a round leaves the wave
//! short and an account had more, the next round reads on past what the last one read (its
//! campaigns may have had nothing to take now: their open zones done, or claimed by another
//! node).

use texto_core::PushType;

use super::{AccountId, CampaignText, delivery::WaveLimit, segment_sql::Dialect};

/// The accounts with a sending campaign: one index look-up per account, not a read per
/// campaign.
pub(super) const ACCOUNTS_SENDING_SQL: &str = "WITH RECURSIVE sending (account) AS (
         SELECT MIN(account_id) FROM campaigns WHERE status = 'sending'
         UNION ALL
         SELECT (SELECT MIN(account_id) FROM campaigns WHERE status = 'sending' AND account_id > sending.account)
         FROM sending WHERE sending.account IS NOT NULL
     )
     SELECT account FROM sending WHERE account IS NOT NULL";

/// `columns` of an account's (the first parameter) sending campaigns that are not paused, in
/// wave order, after the one whose [`WaveKey`] is the second and third parameters, up to the
/// fourth's count.
pub(super) fn campaigns_of_account_sql(columns: &str, dialect: Dialect) -> String {
    let [account, marketing, id, count] = match dialect {
        Dialect::Sqlite => ["?1", "?2", "?3", "?4"],
        Dialect::Postgres => ["$1", "$2", "$3", "$4"],
    };
    format!(
        "SELECT {columns} FROM campaigns
         WHERE account_id = {account} AND status = 'sending' AND paused_at IS NULL
         AND ((pushtype = 'marketing') > {marketing} OR ((pushtype = 'marketing') = {marketing} AND id > {id}))
         ORDER BY (pushtype = 'marketing'), id LIMIT {count}"
    )
}

/// A campaign's place in wave order: marketing after alerts, then its id.
pub(super) type WaveKey = (bool, i64);

/// `campaign`'s place in wave order.
pub(super) fn wave_key(campaign: &CampaignText) -> WaveKey {
    (campaign.pushtype == PushType::Marketing, campaign.id)
}

/// Campaigns read account by account, put in wave order.
pub(super) fn in_wave_order<T>(campaigns: &mut [T], text: impl Fn(&T) -> &CampaignText) {
    campaigns.sort_by_key(|campaign| wave_key(text(campaign)));
}

/// The rounds of a wave's reads: which accounts to read and from where.
pub(super) struct Rounds {
    /// The accounts to read this round, each after the last campaign read of it.
    accounts: Vec<(AccountId, WaveKey)>,
    /// The accounts that had more than a round's read, after what was read of them.
    more: Vec<(AccountId, WaveKey)>,
    /// Campaigns read of an account a round.
    per_read: usize,
}

impl Rounds {
    /// The first round of a wave of `limit` messages: every account in `accounts`, from its
    /// first campaign.
    pub(super) fn new(accounts: Vec<AccountId>, limit: usize) -> Rounds {
        Rounds {
            accounts: accounts.into_iter().map(|account| (account, (false, 0))).collect(),
            more: Vec::new(),
            per_read: limit.max(1),
        }
    }

    /// The accounts to read this round, with the key to read after.
    pub(super) fn accounts(&self) -> Vec<(AccountId, WaveKey)> {
        self.accounts.clone()
    }

    /// How many campaigns to read of an account.
    pub(super) fn per_read(&self) -> i64 {
        i64::try_from(self.per_read).unwrap_or(i64::MAX)
    }

    /// Records that `read` campaigns were read of `account` this round, the last at `last`.
    pub(super) fn read(&mut self, account: AccountId, read: usize, last: Option<WaveKey>) {
        if let Some(last) = last.filter(|_| read >= self.per_read) {
            self.more.push((account, last));
        }
    }

    /// Starts the next round, if the wave can still take something (`remaining`) from an
    /// account that had more.
    pub(super) fn next_round(&mut self, remaining: &WaveLimit) -> bool {
        let mut more = std::mem::take(&mut self.more);
        more.retain(|(account, _)| remaining.allowed(*account) > 0);
        self.accounts = more;
        remaining.total > 0 && !self.accounts.is_empty()
    }
}
