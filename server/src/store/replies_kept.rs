//! Which replies are kept and for whom, written once for both stores: a reply from an address
//! that is not a number is dropped, one from a number nobody sent to in the last
//! [`REPLIES_WITHIN_DAYS`](super::effects::REPLIES_WITHIN_DAYS) days too; a kept one belongs to the account that last sent to the
//! number, is a STOP or not, may carry a keyword, and counts in its account's day. The stores
//! look the owners up (one number at a time, or all at once) with [`owners_query`] and write
//! the replies their way; what follows a reply is [`super::effects::of_replies`] and
//! [`super::keyword_effects`].

use std::collections::{BTreeMap, HashMap};

use texto_core::{BuiltinKeyword, Keyword};

use super::{
    AccountId,
    account_contacts::{ContactCard, JOINED_CARD_COLUMNS, joined_card},
    columns::Columns,
    effects::{Reply, reply_number},
};

/// A reply as the carrier delivered it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Incoming<'a> {
    /// The phone that wrote.
    pub(crate) from: &'a str,
    /// The number it wrote to.
    pub(crate) to: &'a str,
    /// What it wrote.
    pub(crate) text: &'a str,
}

/// Whose a number's replies are: the account's last message to it in the last
/// [`REPLIES_WITHIN_DAYS`](super::effects::REPLIES_WITHIN_DAYS) days.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Owner {
    /// The account that last sent to the number.
    pub(crate) account: AccountId,
    /// That message.
    pub(crate) last_message: i64,
    /// Its campaign.
    pub(crate) campaign: i64,
    /// The list contact's info stored with it.
    pub(crate) info: Option<String>,
    /// The account's contact card of the number, if it has one.
    pub(crate) contact: Option<ContactCard>,
}

/// The replies kept, each with what is written with it (the `i`th of each list is the `i`th
/// reply's).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Kept<'a> {
    /// The replies and the messages they answer.
    pub(crate) replies: Vec<Reply<'a>>,
    /// The number each was written to.
    pub(crate) tos: Vec<&'a str>,
    /// Whether each is a STOP.
    pub(crate) stops: Vec<bool>,
    /// Each one's first word, when that is a keyword (and the built-in one it is, if any).
    pub(crate) keywords: Vec<Option<(Keyword, Option<BuiltinKeyword>)>>,
}

/// The owners' query: the number (column 0), then [`Owner`]'s fields in order from column 1,
/// for the numbers `condition` names (a placeholder or an array, as each store asks) among
/// last messages sent since `$2`.
pub(crate) fn owners_query(condition: &str) -> String {
    format!(
        "SELECT l.number, l.account_id, l.message_id, m.campaign_id, m.info, {JOINED_CARD_COLUMNS}
         FROM last_sent l JOIN messages m ON m.id = l.message_id
         LEFT JOIN account_contacts a ON a.account_id = l.account_id AND a.number = l.number
         WHERE l.number {condition} AND l.sent_at >= $2"
    )
}

/// The numbers of `incoming` to look owners up for; replies from an address that is not a
/// number are dropped (and logged).
pub(crate) fn numbers_of(incoming: &[Incoming<'_>]) -> Vec<i64> {
    incoming
        .iter()
        .filter_map(|reply| {
            let number = reply_number(reply.from);
            if number.is_none() {
                tracing::info!(from = reply.from, "a reply from an address that is not a number: dropped");
            }
            number
        })
        .collect()
}

/// The replies of `incoming` that are kept, in order: each from a number `owners` has an owner
/// for (the others are dropped, and logged).
pub(crate) fn kept<'a>(incoming: &[Incoming<'a>], owners: &HashMap<i64, Owner>) -> Kept<'a> {
    let mut kept = Kept::default();
    for reply in incoming {
        let Some(number) = reply_number(reply.from) else { continue };
        let Some(owner) = owners.get(&number) else {
            tracing::info!(from = reply.from, "a reply to no message sent in the last 30 days: dropped");
            continue;
        };
        let answer = Reply {
            account: owner.account,
            number,
            text: reply.text,
            last_message: owner.last_message,
            campaign: owner.campaign,
            info: owner.info.clone(),
            contact: owner.contact.clone(),
        };
        kept.stops.push(answer.is_stop());
        kept.keywords.push(texto_core::keyword_of_reply(reply.text));
        kept.replies.push(answer);
        kept.tos.push(reply.to);
    }
    kept
}

/// What kept replies add to each account's day: replies, and STOPs among them.
pub(crate) fn day_counts(kept: &Kept<'_>) -> BTreeMap<AccountId, (i64, i64)> {
    let mut counts: BTreeMap<AccountId, (i64, i64)> = BTreeMap::new();
    for (reply, &stop) in kept.replies.iter().zip(&kept.stops) {
        let (replies, stops) = counts.entry(reply.account).or_default();
        *replies += 1;
        *stops += i64::from(stop);
    }
    counts
}

/// The owner of a number from a row of [`owners_query`] (the number is column 0).
pub(super) fn read_owner<R: Columns>(row: &R) -> Result<Owner, R::Fault> {
    Ok(Owner {
        account: row.column(1)?,
        last_message: row.column(2)?,
        campaign: row.column(3)?,
        info: row.column(4)?,
        contact: joined_card(row, 5)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn owner(account: AccountId) -> Owner {
        Owner { account, last_message: 9, campaign: 3, info: None, contact: None }
    }

    #[test]
    fn a_reply_is_kept_for_the_numbers_owner_and_dropped_without_one_or_a_number() {
        let incoming = [
            Incoming { from: "+33612345678", to: "36111", text: "STOP" },
            Incoming { from: "Acme", to: "36111", text: "hello" },
            Incoming { from: "33699999999", to: "36111", text: "hello" },
            Incoming { from: "33612345678", to: "36111", text: "Merci" },
        ];
        assert_eq!(numbers_of(&incoming), vec![33612345678, 33699999999, 33612345678]);
        let owners = HashMap::from([(33612345678, owner(7))]);
        let kept = kept(&incoming, &owners);
        assert_eq!(kept.replies.len(), 2);
        assert_eq!(kept.stops, vec![true, false]);
        assert_eq!((kept.replies[0].account, kept.replies[0].last_message, kept.tos[0]), (7, 9, "36111"));
        assert!(kept.keywords[0].as_ref().is_some_and(|(_, builtin)| builtin.is_some()), "STOP is built in");
        assert_eq!(day_counts(&kept), BTreeMap::from([(7, (2, 1))]));
    }
}
