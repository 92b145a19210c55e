//! The sending campaigns a wave looks at, written once for both stores: each account's first
//! ones in wave order (alerts first, then marketing, each by id), read a range of the
//! `campaigns_sending` index at a time until a wave's worth of them may send now (those waiting
//! for a closed zone do not count), instead of every sending campaign. A backlog of thousands
//! of one-recipient sends made each wave read all of them, so the hand-over fell further behind
//! as the backlog grew (one-recipient sends from 5,378 to 1,769 a second within a minute:
//! docs/performance.md). Reading each account in turn keeps its fair share of a wave
//! ([`super::wave`]) however large another account's backlog. When a round leaves the wave
//! short and an account has more, the next round reads on past what the last one read (its
//! campaigns may have had nothing queued, or been claimed by another node).

use texto_core::PushType;

use super::{AccountId, CampaignText, delivery::WaveLimit};

/// The accounts with a sending campaign: one index look-up per account, not a read per
/// campaign.
pub(super) const ACCOUNTS_SENDING_SQL: &str = "WITH RECURSIVE sending (account) AS (
         SELECT MIN(account_id) FROM campaigns WHERE status = 'sending'
         UNION ALL
         SELECT (SELECT MIN(account_id) FROM campaigns WHERE status = 'sending' AND account_id > sending.account)
         FROM sending WHERE sending.account IS NOT NULL
     )
     SELECT account FROM sending WHERE account IS NOT NULL";

/// `columns` of an account's (`$1`) sending campaigns that are not paused, of one push type
/// (`$2`: marketing or not), after an id (`$3`), by id, up to `$4` of them. Each read is a range
/// of the `campaigns_sending` index.
pub(super) fn campaigns_of_account_sql(columns: &str) -> String {
    format!(
        "SELECT {columns} FROM campaigns
         WHERE account_id = $1 AND status = 'sending' AND paused_at IS NULL
         AND (pushtype = 'marketing') = $2 AND id > $3
         ORDER BY id LIMIT $4"
    )
}

/// A campaign's place in wave order: marketing after alerts, then its id.
type WaveKey = (bool, i64);

/// Campaigns read account by account, put in wave order.
pub(super) fn in_wave_order<T>(campaigns: &mut [T], text: impl Fn(&T) -> &CampaignText) {
    campaigns.sort_by_key(|campaign| {
        let campaign = text(campaign);
        (campaign.pushtype == PushType::Marketing, campaign.id)
    });
}

/// How many round's worths of an account's campaigns a round reads at most, when most of them
/// wait for a closed zone: a backlog of marketing read overnight costs a wave this much per
/// account, not the whole backlog. Past it, the account's later campaigns wait for a round
/// with room (the wave short) or for the zones to open.
const MOST_READ_PER_ROUND: usize = 8;

/// One read of an account's campaigns: of its alerts or its marketing, after this id, this many.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Read {
    /// The account.
    pub(super) account: AccountId,
    /// Marketing campaigns, or alerts.
    pub(super) marketing: bool,
    /// After this id.
    pub(super) after: i64,
    /// At most this many.
    pub(super) count: i64,
}

/// Where the reading of one account's campaigns has got to.
#[derive(Debug)]
struct AccountReading {
    account: AccountId,
    /// The last campaign read (or where reading starts).
    at: WaveKey,
    /// Campaigns found this round that may send now.
    live: usize,
    /// Campaigns read this round.
    read: usize,
    /// Nothing past `at`.
    exhausted: bool,
}

/// The rounds of a wave's reads: which accounts to read and from where.
pub(super) struct Rounds {
    accounts: Vec<AccountReading>,
    /// The account being read this round (those before it are done with): each read is one
    /// step, not a search of every account.
    current: usize,
    /// Campaigns that may send now to find of an account a round.
    per_round: usize,
}

impl Rounds {
    /// The first round of a wave of `limit` messages: every account in `accounts`, from its
    /// first campaign.
    pub(super) fn new(accounts: Vec<AccountId>, limit: usize) -> Rounds {
        let accounts = accounts
            .into_iter()
            .map(|account| AccountReading { account, at: (false, 0), live: 0, read: 0, exhausted: false })
            .collect();
        Rounds { accounts, current: 0, per_round: limit.max(1) }
    }

    /// The next read this round, if any: an account is read until a round's worth of its
    /// campaigns may send now (those waiting for a closed zone do not count), or it has no
    /// more, or [`MOST_READ_PER_ROUND`] round's worths were read of it.
    pub(super) fn next_read(&mut self) -> Option<Read> {
        let count = i64::try_from(self.per_round).unwrap_or(i64::MAX);
        let most = self.per_round.saturating_mul(MOST_READ_PER_ROUND);
        let unfinished =
            |reading: &AccountReading| !reading.exhausted && reading.live < self.per_round && reading.read < most;
        while self.accounts.get(self.current).is_some_and(|reading| !unfinished(reading)) {
            self.current += 1;
        }
        self.accounts.get(self.current).map(|reading| Read {
            account: reading.account,
            marketing: reading.at.0,
            after: reading.at.1,
            count,
        })
    }

    /// Records what `read` (the last [`Rounds::next_read`]) found: `read_count` campaigns, the
    /// last at `last` (an id), `live` of them may send now.
    pub(super) fn found(&mut self, read: Read, read_count: usize, last: Option<i64>, live: usize) {
        let Some(reading) = self.accounts.get_mut(self.current) else { return };
        reading.live += live;
        reading.read += read_count;
        if let Some(last) = last {
            reading.at.1 = last;
        }
        if (read_count as i64) < read.count {
            // This push type is read to its end: alerts are followed by marketing.
            match reading.at.0 {
                false => reading.at = (true, 0),
                true => reading.exhausted = true,
            }
        }
    }

    /// Starts the next round, if the wave can still take something (`remaining`) from an
    /// account that has more.
    pub(super) fn next_round(&mut self, remaining: &WaveLimit) -> bool {
        self.accounts.retain(|reading| !reading.exhausted && remaining.allowed(reading.account) > 0);
        self.accounts.iter_mut().for_each(|reading| (reading.live, reading.read) = (0, 0));
        self.current = 0;
        remaining.total > 0 && !self.accounts.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_account_is_read_alerts_then_marketing_until_a_wave_s_worth_may_send() {
        let mut rounds = Rounds::new(vec![7], 4);
        let first = rounds.next_read().expect("a read");
        assert_eq!((first.account, first.marketing, first.after, first.count), (7, false, 0, 4));
        // Two alerts: the alerts are read to their end, marketing next, from its start.
        rounds.found(first, 2, Some(12), 2);
        let second = rounds.next_read().expect("a read");
        assert_eq!((second.marketing, second.after), (true, 0));
        // Four marketing campaigns, two of which may send: four may send now, the round is done.
        rounds.found(second, 4, Some(40), 2);
        assert_eq!(rounds.next_read(), None);
        // The wave is short: the next round reads on after campaign 40.
        assert!(rounds.next_round(&WaveLimit::from(3)));
        let third = rounds.next_read().expect("a read");
        assert_eq!((third.marketing, third.after), (true, 40));
        rounds.found(third, 1, Some(41), 1);
        assert_eq!(rounds.next_read(), None, "nothing left");
        assert!(!rounds.next_round(&WaveLimit::from(3)), "no account has more");
    }

    #[test]
    fn campaigns_waiting_for_a_closed_zone_are_read_eight_wave_s_worths_a_round_at_most() {
        let mut rounds = Rounds::new(vec![7], 4);
        let mut reads = 0;
        while let Some(read) = rounds.next_read() {
            reads += 1;
            // Four campaigns a read, none of which may send now.
            rounds.found(read, 4, Some(read.after + 4), 0);
        }
        assert_eq!(reads, MOST_READ_PER_ROUND);
        assert!(rounds.next_round(&WaveLimit::from(1)), "the account has more");
        assert!(rounds.next_read().is_some());
        assert!(!rounds.next_round(&WaveLimit::from(0)), "a full wave reads no further");
    }
}
