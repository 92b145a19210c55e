//! How money moves, written once for both stores: every change of a balance is a line of the
//! ledger (a top-up, a campaign's debit or refund, a transfer between a parent and its
//! sub-account), and the balance moves by the sum of an account's lines in the same
//! transaction. Each store runs [`RECORD`] for every [`Movement`] and [`MOVE_BALANCE`] (PostgreSQL
//! [`MOVE_BALANCE_RETURNING`]) once per account of [`net`]; the PostgreSQL campaign writer runs
//! the same for a whole batch at once.

use std::collections::BTreeMap;

use texto_core::{Credits, FieldError};

use super::{AccountId, campaigns::CampaignStatus};
use crate::Error;

/// Records one line of the ledger: `$1` the account, `$2` the amount in hundredths (negative
/// out), `$3` its kind, `$4` the campaign, `$5` the other account of a transfer.
pub(crate) const RECORD: &str =
    "INSERT INTO ledger (account_id, amount, kind, campaign_id, counterpart_id) VALUES ($1, $2, $3, $4, $5)";

/// The statement of [`MOVE_BALANCE`], written once for both forms.
macro_rules! move_balance {
    () => {
        "UPDATE accounts SET balance = balance + $2 WHERE id = $1"
    };
}

/// Moves account `$1`'s balance by `$2` hundredths. The balance cannot go below zero (the
/// column's check refuses it). SQLite runs this one: it answers a `RETURNING` through a
/// temporary b-tree built and dropped at each execution, and its writer needs no balance back.
pub(crate) const MOVE_BALANCE: &str = move_balance!();

/// [`MOVE_BALANCE`], answering the balance after: PostgreSQL's writers tell it to the nodes.
pub(crate) const MOVE_BALANCE_RETURNING: &str = concat!(move_balance!(), " RETURNING balance");

/// Why a line of the ledger was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Entry {
    /// Credits bought (the operator's top-up, or the opening credits of an account).
    TopUp,
    /// A campaign's cost, taken as it is written.
    Debit {
        /// The campaign.
        campaign: i64,
    },
    /// A cancelled campaign's cost, or what it held beyond its cost, given back.
    Refund {
        /// The campaign.
        campaign: i64,
    },
    /// Credits moved between a parent and its sub-account.
    Transfer {
        /// The account on the other side.
        counterpart: AccountId,
    },
}

/// One line of the ledger: `amount` hundredths into `account` (out of it when negative).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Movement {
    /// The account whose balance moves.
    pub(crate) account: AccountId,
    /// Hundredths of a credit, negative when they leave the account.
    pub(crate) amount: i64,
    /// Why.
    pub(crate) entry: Entry,
}

impl Movement {
    /// The ledger's `kind` column.
    pub(crate) fn kind(&self) -> &'static str {
        match self.entry {
            Entry::TopUp => "topup",
            Entry::Debit { .. } => "debit",
            Entry::Refund { .. } => "refund",
            Entry::Transfer { .. } => "transfer",
        }
    }

    /// The ledger's `campaign_id` column.
    pub(crate) fn campaign(&self) -> Option<i64> {
        match self.entry {
            Entry::Debit { campaign } | Entry::Refund { campaign } => Some(campaign),
            Entry::TopUp | Entry::Transfer { .. } => None,
        }
    }

    /// The ledger's `counterpart_id` column.
    pub(crate) fn counterpart(&self) -> Option<AccountId> {
        match self.entry {
            Entry::Transfer { counterpart } => Some(counterpart),
            _ => None,
        }
    }
}

/// Credits bought by `account`; nothing for none.
pub(crate) fn top_up(account: AccountId, credits: Credits) -> Vec<Movement> {
    one(account, credits.hundredths(), Entry::TopUp)
}

/// Campaign `campaign`'s cost taken from `account`; nothing for a free campaign.
pub(crate) fn debit(account: AccountId, campaign: i64, cost: Credits) -> Vec<Movement> {
    one(account, -cost.hundredths(), Entry::Debit { campaign })
}

/// What campaign `campaign` held of `account`'s beyond its cost, given back (an A/B test's
/// rest, held at its longest text until the winner); nothing for nothing.
pub(crate) fn refund(account: AccountId, campaign: i64, credits: Credits) -> Vec<Movement> {
    one(account, credits.hundredths(), Entry::Refund { campaign })
}

/// A campaign found for cancelling: its stored status, whether it is paused, its cost and
/// what its messages not handed over (nor being handed over) cost, in hundredths.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cancelling<'a> {
    /// The stored status.
    pub(crate) status: &'a str,
    /// Paused while sending.
    pub(crate) paused: bool,
    /// What it cost.
    pub(crate) cost: i64,
    /// What its messages still queued cost.
    pub(crate) unsent: i64,
}

/// Cancelling campaign `campaign` of `account`: a scheduled campaign gets its cost back, a
/// paused one what its messages not handed over cost; any other cannot be cancelled.
pub(crate) fn cancel(account: AccountId, campaign: i64, found: Cancelling) -> Result<Vec<Movement>, Error> {
    let refund = match (found.status, found.paused) {
        (status, _) if status == CampaignStatus::Scheduled.as_str() => found.cost,
        (status, true) if status == CampaignStatus::Sending.as_str() => found.unsent,
        (status, _) => {
            return Err(Error::Invalid(vec![FieldError::new(
                "ticket",
                format!("campaign {campaign} is {status}: only a scheduled or paused campaign can be cancelled"),
            )]));
        }
    };
    Ok(one(account, refund, Entry::Refund { campaign }))
}

/// `credits` moved from `from`, which holds `available`, to `to`: refused when `from` holds
/// too few.
pub(crate) fn transfer(
    from: AccountId,
    to: AccountId,
    credits: Credits,
    available: Credits,
) -> Result<Vec<Movement>, Error> {
    if available < credits {
        return Err(Error::NotEnoughCredits { cost: credits, balance: available });
    }
    Ok(vec![
        Movement { account: from, amount: -credits.hundredths(), entry: Entry::Transfer { counterpart: to } },
        Movement { account: to, amount: credits.hundredths(), entry: Entry::Transfer { counterpart: from } },
    ])
}

/// How much each account's balance moves, in account order (the order in which rows are
/// locked); accounts whose lines cancel out are left out.
pub(crate) fn net(movements: &[Movement]) -> BTreeMap<AccountId, i64> {
    let mut net = BTreeMap::new();
    for movement in movements {
        *net.entry(movement.account).or_default() += movement.amount;
    }
    net.retain(|_, amount| *amount != 0);
    net
}

/// A movement of `amount`, or none when it is zero.
fn one(account: AccountId, amount: i64, entry: Entry) -> Vec<Movement> {
    match amount {
        0 => Vec::new(),
        _ => vec![Movement { account, amount, entry }],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_transfer_moves_both_balances_and_is_refused_beyond_what_the_payer_holds() {
        let moved = transfer(1, 2, Credits::from_hundredths(500), Credits::from_hundredths(500)).unwrap();
        assert_eq!(net(&moved), BTreeMap::from([(1, -500), (2, 500)]));
        assert_eq!(moved[0].counterpart(), Some(2));
        assert_eq!(moved[1].counterpart(), Some(1));
        let refused = transfer(1, 2, Credits::from_hundredths(501), Credits::from_hundredths(500));
        assert!(matches!(refused, Err(Error::NotEnoughCredits { .. })));
    }

    #[test]
    fn a_scheduled_campaign_gets_its_cost_back_and_a_paused_one_what_it_did_not_send() {
        let found =
            |status: CampaignStatus, paused| Cancelling { status: status.as_str(), paused, cost: 1250, unsent: 400 };
        let refund = cancel(7, 42, found(CampaignStatus::Scheduled, false)).unwrap();
        assert_eq!(refund, vec![Movement { account: 7, amount: 1250, entry: Entry::Refund { campaign: 42 } }]);
        assert_eq!((refund[0].kind(), refund[0].campaign()), ("refund", Some(42)));
        let free = Cancelling { cost: 0, ..found(CampaignStatus::Scheduled, false) };
        assert!(cancel(7, 42, free).unwrap().is_empty(), "a free campaign");
        let paused = cancel(7, 42, found(CampaignStatus::Sending, true)).unwrap();
        assert_eq!(paused[0].amount, 400);
        for (status, paused) in [(CampaignStatus::Sending, false), (CampaignStatus::Sent, false)] {
            assert!(matches!(cancel(7, 42, found(status, paused)), Err(Error::Invalid(_))));
        }
    }

    #[test]
    fn the_net_of_a_batch_is_one_move_per_account_in_account_order() {
        let mut batch = debit(3, 10, Credits::from_hundredths(100));
        batch.extend(debit(1, 11, Credits::from_hundredths(40)));
        batch.extend(debit(3, 12, Credits::from_hundredths(60)));
        batch.extend(top_up(2, Credits::ZERO));
        assert_eq!(net(&batch).into_iter().collect::<Vec<_>>(), vec![(1, -40), (3, -160)]);
        assert_eq!(batch.iter().map(Movement::kind).collect::<Vec<_>>(), vec!["debit"; 3]);
    }
}
