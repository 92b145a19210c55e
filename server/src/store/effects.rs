//! What happens when a message's fate is known or a phone replies: the one home of those
//! rules (docs/interface.md §6, §7). Both stores read the facts, ask this module what follows,
//! and write the [`Effects`] they are given; nothing here reads or writes anything.

use std::collections::BTreeMap;

use chrono::{DateTime, Duration, Utc};
use serde::Serialize;
use texto_core::{
    DeliveryCode, format_paris, is_stop_word,
    wire::{ClickerEvent, DlrEvent, ReplyEvent},
};

use super::{AccountId, Click, WebhookType, account_contacts::ContactCard};

/// How long after its last message a number's replies still belong to the account.
pub(crate) const REPLIES_WITHIN_DAYS: i64 = 30;

/// The oldest send that still owns a reply arriving at `now`.
pub(crate) fn replies_owned_since(now: DateTime<Utc>) -> DateTime<Utc> {
    now - Duration::days(REPLIES_WITHIN_DAYS)
}

/// The number a reply from `from` is kept under (`+` or not), or `None` for an address that is
/// not a number, whose replies are dropped.
pub(crate) fn reply_number(from: &str) -> Option<i64> {
    from.trim_start_matches('+').parse().ok()
}

/// A list contact's info1…info4 from its stored JSON (empty strings when there is none).
pub(crate) fn info_of(json: Option<&str>) -> [String; 4] {
    super::messages::info_from_column(json).unwrap_or_default()
}

/// A message whose final code was just stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Finished {
    /// Its campaign's ticket.
    pub(crate) campaign: i64,
    /// The account that sent it.
    pub(crate) account: AccountId,
    /// The recipient.
    pub(crate) number: i64,
    /// The recipient's country (ISO code).
    pub(crate) country: String,
    /// The client's id of the message, if it gave one.
    pub(crate) gsmsmsid: Option<String>,
    /// The contact's info as stored with the message.
    pub(crate) info: Option<String>,
    /// The final code.
    pub(crate) code: DeliveryCode,
}

/// A message the carrier took, as the write of its SMSC id gave it back (a message whose
/// outcome was stored already is not).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Submitted {
    /// Its place in the wave's outcomes.
    pub(crate) position: i64,
    /// The message.
    pub(crate) id: i64,
    /// The recipient.
    pub(crate) number: i64,
    /// The account that sent it.
    pub(crate) account: AccountId,
    /// What it cost, in hundredths.
    pub(crate) cost: i64,
}

/// A number's last message: whose replies it owns for [`REPLIES_WITHIN_DAYS`] days.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LastSent {
    /// The number.
    pub(crate) number: i64,
    /// The account that sent to it last.
    pub(crate) account: AccountId,
    /// That message.
    pub(crate) message: i64,
}

/// What messages handed over change besides their own rows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct AfterSubmit {
    /// Each account's messages sent and their cost (hundredths), for the day's counts.
    pub(crate) sent: BTreeMap<AccountId, (i64, i64)>,
    /// Each number's last message (the last one of the wave to it), in number order: the order
    /// in which nodes writing the same numbers lock them.
    pub(crate) last_sent: Vec<LastSent>,
}

/// What `submitted` change: the day's counts and the numbers' last messages.
pub(crate) fn of_submitted(submitted: &[Submitted]) -> AfterSubmit {
    let mut in_order: Vec<&Submitted> = submitted.iter().collect();
    in_order.sort_by_key(|message| message.position);
    let mut after = AfterSubmit::default();
    let mut last = BTreeMap::new();
    for message in in_order {
        let (count, cost) = after.sent.entry(message.account).or_default();
        *count += 1;
        *cost += message.cost;
        last.insert(message.number, (message.account, message.id));
    }
    after.last_sent =
        last.into_iter().map(|(number, (account, message))| LastSent { number, account, message }).collect();
    after
}

/// A reply from a number, with the message it answers (the account's last to that number).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Reply<'a> {
    /// The account that last sent to the number.
    pub(crate) account: AccountId,
    /// The phone that replied.
    pub(crate) number: i64,
    /// What it wrote.
    pub(crate) text: &'a str,
    /// The message it answers.
    pub(crate) last_message: i64,
    /// That message's campaign.
    pub(crate) campaign: i64,
    /// That message's contact info as stored.
    pub(crate) info: Option<String>,
    /// The number's contact card, if the account has one.
    pub(crate) contact: Option<ContactCard>,
}

impl Reply<'_> {
    /// Whether the reply unsubscribes the number (a stop word).
    pub(crate) fn is_stop(&self) -> bool {
        is_stop_word(self.text)
    }
}

/// A number to add to one of an account's lists (NPAI or blacklist), unless it is there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Listing {
    /// Whose list.
    pub(crate) account: AccountId,
    /// The number.
    pub(crate) number: i64,
    /// The contact's info1…info4.
    pub(crate) info: [String; 4],
    /// The campaign it came from.
    pub(crate) campaign: i64,
}

/// The body of an event, as its webhook receives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub(crate) enum EventBody {
    /// DLR.
    Dlr(DlrEvent),
    /// MO and STOP.
    Reply(ReplyEvent),
    /// CLICKER.
    Click(ClickerEvent),
}

/// An event to raise to the account's webhooks of its type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Event {
    /// Whose webhooks.
    pub(crate) account: AccountId,
    /// Which webhooks.
    pub(crate) kind: WebhookType,
    /// What they receive.
    pub(crate) body: EventBody,
}

/// What a store writes, in this order: the NPAI additions (source `receipt`), the blacklist
/// additions (source `stop`), then the events in the order given.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Effects {
    /// Numbers found not to exist.
    pub(crate) npai: Vec<Listing>,
    /// Numbers that asked to hear no more.
    pub(crate) blacklist: Vec<Listing>,
    /// Events to raise.
    pub(crate) events: Vec<Event>,
}

/// Messages' final codes are stored, in `finished`'s order: an INVALID_DESTINATION number joins
/// its account's NPAI list, and each raises DLR.
pub(crate) fn of_finished(finished: &[Finished], now: DateTime<Utc>) -> Effects {
    let date = now.to_rfc3339();
    let mut effects = Effects::default();
    for f in finished {
        if f.code == DeliveryCode::InvalidDestination {
            effects.npai.push(Listing {
                account: f.account,
                number: f.number,
                info: info_of(f.info.as_deref()),
                campaign: f.campaign,
            });
        }
        let body = DlrEvent {
            date: date.clone(),
            status: f.code.code(),
            destination: f.number.to_string(),
            message_id: f.gsmsmsid.clone(),
            campaign_id: f.campaign.to_string(),
            country_code: f.country.clone(),
        };
        effects.events.push(Event { account: f.account, kind: WebhookType::Dlr, body: EventBody::Dlr(body) });
    }
    effects
}

/// Replies kept, in `replies`' order: each raises MO; a stop word also puts the number on the
/// account's blacklist, with the campaign and contact info of the message it answers, and
/// raises STOP with the same body.
pub(crate) fn of_replies(replies: &[Reply<'_>], now: DateTime<Utc>) -> Effects {
    let date = now.to_rfc3339();
    let mut effects = Effects::default();
    for reply in replies {
        let body = ReplyEvent {
            date: date.clone(),
            message: reply.text.to_owned(),
            from: reply.number.to_string(),
            account_id: reply.account.to_string(),
            last_message_id: Some(reply.last_message.to_string()),
            contact: reply.contact.as_ref().map(ContactCard::to_wire),
        };
        let stop = reply.is_stop();
        if stop {
            effects.blacklist.push(Listing {
                account: reply.account,
                number: reply.number,
                info: info_of(reply.info.as_deref()),
                campaign: reply.campaign,
            });
        }
        let mo = Event { account: reply.account, kind: WebhookType::Mo, body: EventBody::Reply(body) };
        let then_stop = stop.then(|| Event { kind: WebhookType::Stop, ..mo.clone() });
        effects.events.push(mo);
        effects.events.extend(then_stop);
    }
    effects
}

/// What one click on a short link sent in `campaign` raises.
pub(crate) struct Clicked<'a> {
    /// The campaign's ticket.
    pub(crate) campaign: i64,
    /// The account that sent it.
    pub(crate) account: AccountId,
    /// The client's id of the message, if it gave one.
    pub(crate) gsmsmsid: Option<String>,
    /// The contact's info as stored with the message.
    pub(crate) info: Option<&'a str>,
    /// Where the link leads.
    pub(crate) long_url: &'a str,
    /// The click, with the phone's brand, model and OS.
    pub(crate) click: &'a Click,
    /// Clicks on this link of this message so far, this one included.
    pub(crate) clicks: i64,
}

impl Clicked<'_> {
    /// CLICKER, with its body (docs/interface.md §7).
    pub(crate) fn event(self, now: DateTime<Utc>) -> Event {
        let [info1, info2, info3, info4] = info_of(self.info);
        let [brand, model, os] = self.click.device.clone();
        let body = ClickerEvent {
            campaign_id: self.campaign.to_string(),
            gsmsid: self.gsmsmsid,
            date: format_paris(now),
            long_url: self.long_url.to_owned(),
            short_url: self.click.short_url.clone(),
            brand,
            model,
            os,
            info1,
            info2,
            info3,
            info4,
            clicks_on_link: self.clicks,
        };
        Event { account: self.account, kind: WebhookType::Clicker, body: EventBody::Click(body) }
    }
}

#[cfg(test)]
mod tests {
    use chrono::{TimeZone, Utc};
    use texto_core::DeliveryCode;

    use super::*;

    fn finished(number: i64, code: DeliveryCode) -> Finished {
        Finished {
            campaign: 7,
            account: 1,
            number,
            country: "FR".into(),
            gsmsmsid: Some("g1".into()),
            info: Some(r#"["Ada","","",""]"#.into()),
            code,
        }
    }

    #[test]
    fn only_an_invalid_destination_joins_the_npai_list_and_every_final_code_raises_dlr() {
        let now = Utc.with_ymd_and_hms(2026, 11, 25, 10, 0, 0).unwrap();
        let all: Vec<Finished> = DeliveryCode::ALL
            .into_iter()
            .filter(|c| c.is_final())
            .enumerate()
            .map(|(i, c)| finished(i as i64, c))
            .collect();
        let effects = of_finished(&all, now);
        let npai: Vec<i64> = effects.npai.iter().map(|l| l.number).collect();
        let five = all.iter().find(|f| f.code == DeliveryCode::InvalidDestination).map(|f| f.number);
        assert_eq!(npai, five.into_iter().collect::<Vec<_>>());
        assert_eq!(effects.npai[0].info[0], "Ada");
        assert!(effects.blacklist.is_empty());
        assert_eq!(effects.events.len(), all.len());
        for (event, f) in effects.events.iter().zip(&all) {
            assert_eq!(event.kind, WebhookType::Dlr);
            let EventBody::Dlr(body) = &event.body else { panic!("a DLR body") };
            assert_eq!((body.status, body.destination.as_str()), (f.code.code(), f.number.to_string().as_str()));
        }
    }

    #[test]
    fn a_stop_word_blacklists_and_raises_stop_after_mo_and_other_replies_raise_mo_only() {
        let now = Utc.with_ymd_and_hms(2026, 11, 25, 10, 0, 0).unwrap();
        let reply = |number, text| Reply {
            account: 1,
            number,
            text,
            last_message: 40 + number,
            campaign: 7,
            info: Some(r#"["","Lyon","",""]"#.into()),
            contact: None,
        };
        let effects = of_replies(&[reply(1, "Bonjour"), reply(2, " stop "), reply(3, "STOP merci")], now);
        let kinds: Vec<(i64, WebhookType)> = effects
            .events
            .iter()
            .map(|e| match &e.body {
                EventBody::Reply(body) => (body.from.parse().unwrap_or_default(), e.kind),
                _ => panic!("a reply body"),
            })
            .collect();
        assert_eq!(kinds, [(1, WebhookType::Mo), (2, WebhookType::Mo), (2, WebhookType::Stop), (3, WebhookType::Mo)]);
        assert_eq!(effects.blacklist.len(), 1);
        assert_eq!((effects.blacklist[0].number, effects.blacklist[0].info[1].as_str()), (2, "Lyon"));
        assert!(effects.npai.is_empty());
    }
}
