//! The recipient filter and cost ("simulation"), shared by simulate and send (docs/interface.md §3, §4).

mod ab_deal;
mod cards;
mod context;
mod dedup;
mod listed;
mod outcome;
mod partition;

use std::{cell::Cell, collections::HashMap};

use chrono::{DateTime, Utc};

pub use cards::{CardValues, CardsBuilder};
pub use context::{Contact, FilterContext, FloodLimits, RecentSends};
pub use outcome::{Counters, Outcome, RecipientOutcome};

use crate::{
    Audience, Campaign, Country, Credits, Error, FieldError, MergeValues, Msisdn, PushType, campaign::PartsPlan,
    has_contact_fields, parse_international, wire::CampaignResultDto,
};

/// The result of filtering and pricing a campaign.
#[derive(Debug, Clone, PartialEq)]
pub struct Simulation {
    /// The counters.
    pub counters: Counters,
    /// Credits the campaign costs.
    pub cost: Credits,
    /// Credits before it.
    pub balance: Credits,
    /// When it goes out: the delay, pushed into the marketing window for marketing (the first
    /// of its recipients' windows to open).
    pub send_at: DateTime<Utc>,
    /// Each recipient's result, in request (or list) order.
    pub outcomes: Vec<RecipientOutcome>,
    /// The account asks for consent for marketing ([`FilterContext::consented`]).
    pub consent_asked: bool,
    /// The account caps marketing ([`FilterContext::capped`]).
    pub cap_asked: bool,
    /// What smart encoding did to the text, when the send asked for it.
    pub smart: Option<crate::Smart>,
    /// How many messages make an A/B test's sample, and how many wait for its winner.
    pub ab: Option<(u64, u64)>,
    /// Marketing's recipients in the overseas territories, each territory's when its own
    /// window opens (`send_at` is the earliest of theirs and Paris's).
    pub overseas: Vec<crate::OverseasPart>,
}

impl Simulation {
    /// Credits left after the campaign (negative when the balance does not cover it).
    pub fn credits_after(&self) -> Credits {
        self.balance - self.cost
    }

    /// The balance covers the cost.
    pub fn affordable(&self) -> bool {
        self.cost <= self.balance
    }

    /// The campaign result on the wire; `ticket` for a real send. `no_consent` is there when
    /// the account asks for consent.
    pub fn to_wire(&self, ticket: Option<String>) -> CampaignResultDto {
        let mut result = self.counters.to_wire(self.cost, self.credits_after(), ticket);
        result.no_consent = self.consent_asked.then(|| i64::try_from(self.counters.no_consent).unwrap_or(i64::MAX));
        result.capped = self.cap_asked.then(|| i64::try_from(self.counters.capped).unwrap_or(i64::MAX));
        if let Some(smart) = self.smart {
            result.replaced = Some(i64::try_from(smart.replaced).unwrap_or(i64::MAX));
            result.parts_saved = Some(i64::try_from(smart.parts_saved).unwrap_or(i64::MAX));
        }
        if let Some((sample, remainder)) = self.ab {
            result.ab_sample = Some(i64::try_from(sample).unwrap_or(i64::MAX));
            result.ab_remainder = Some(i64::try_from(remainder).unwrap_or(i64::MAX));
        }
        if !self.overseas.is_empty() {
            let parts = self.overseas.iter().map(|part| crate::wire::OverseasDto {
                territory: part.territory.iso2().to_owned(),
                recipients: i64::try_from(part.recipients).unwrap_or(i64::MAX),
                send_at: crate::format_paris(part.send_at),
            });
            result.overseas = Some(parts.collect());
        }
        result
    }
}

/// Filters and prices `campaign` for the account described by `context`, as of `now`.
/// Simulate and send both call exactly this; nothing is written.
pub fn simulate(campaign: &Campaign, context: &FilterContext, now: DateTime<Utc>) -> Result<Simulation, Error> {
    let filter = Filter::new(campaign, context);
    let (counters, cost, mut outcomes) = match campaign.audience() {
        Audience::Numbers(recipients) => filter.run(recipients.iter().map(|r| (r.number, None))),
        Audience::Lists { lists, segments } => {
            let mut found = Vec::with_capacity(lists.len() + segments.len());
            let mut missing = Vec::new();
            for (name, ids, stored) in [("lists", lists, &context.lists), ("segments", segments, &context.segments)] {
                for (i, id) in ids.iter().enumerate() {
                    match stored.get(id) {
                        Some(contacts) => found.push(contacts),
                        None => missing.push(FieldError::new(
                            format!("sms.{name}[{i}].value"),
                            format!("no {} {}", name.trim_end_matches('s'), crate::excerpt(id)),
                        )),
                    }
                }
            }
            if !missing.is_empty() {
                return Err(Error::NotFound(missing));
            }
            filter.run(found.into_iter().flatten().map(|c| (c.number.as_str(), Some(&c.info))))
        }
    };
    let (cost, ab) = match campaign.ab() {
        Some(ab) => ab_deal::deal(ab, &mut outcomes, cost),
        None => (cost, None),
    };
    let start = campaign.delay().unwrap_or(now).max(now);
    let (send_at, overseas) = match campaign.pushtype() {
        PushType::Alert => (start, Vec::new()),
        PushType::Marketing => {
            let passed = outcomes.iter().filter(|o| o.outcome == Outcome::Sent).filter_map(|o| o.number);
            crate::overseas::schedule(passed, start)
        }
    };
    let consent_asked = context.consented.is_some();
    let cap_asked = context.capped.is_some();
    Ok(Simulation {
        counters,
        cost,
        balance: context.balance,
        send_at,
        outcomes,
        consent_asked,
        cap_asked,
        smart: campaign.smart(),
        ab,
        overseas,
    })
}

/// One filter pass over a campaign's recipients.
struct Filter<'c> {
    campaign: &'c Campaign<'c>,
    context: &'c FilterContext,
    /// The campaign's texts (its own, then its A/B test's variants).
    texts: Vec<TextParts<'c>>,
    /// What [`Filter::parts`] gives every recipient when no text has merge fields.
    fixed_parts: Option<(u32, [u8; crate::MOST_VARIANTS])>,
}

/// One of a campaign's texts, as its parts are counted.
struct TextParts<'c> {
    text: &'c str,
    /// Its parts without merge fields.
    parts: u32,
    /// How each recipient's parts are counted, when the text has merge fields.
    plan: Option<PartsPlan>,
    /// When those merge fields are all card fields: the parts of each set of card values once
    /// counted (first for a number without a card, then by [`CardValues::sets_of`]'s position),
    /// since a million recipients share a few thousand sets.
    by_set: Vec<Cell<Option<u32>>>,
}

impl<'c> Filter<'c> {
    fn new(campaign: &'c Campaign<'c>, context: &'c FilterContext) -> Filter<'c> {
        let options = &context.message;
        let texts = campaign
            .texts()
            .map(|text| {
                let plan = has_contact_fields(text).then(|| campaign.parts_plan(text, options));
                let by_set = match &plan {
                    Some(plan) if !plan.reads_info() => vec![Cell::new(None); context.cards.sets() + 1],
                    _ => Vec::new(),
                };
                TextParts { text, parts: parts_u32(campaign.segments_of(text, options, None).parts), plan, by_set }
            })
            .collect();
        let mut filter = Filter { campaign, context, texts, fixed_parts: None };
        if filter.texts.iter().all(|text| text.plan.is_none()) {
            filter.fixed_parts = Some(filter.parts(None, None));
        }
        filter
    }

    /// The parts of each text for one recipient, and the most of them.
    fn parts(&self, card: Option<u32>, info: Option<&[String; 4]>) -> (u32, [u8; crate::MOST_VARIANTS]) {
        if let Some(fixed) = self.fixed_parts {
            return fixed;
        }
        let mut each = [0; crate::MOST_VARIANTS];
        let mut most = 0;
        for (slot, text) in each.iter_mut().zip(&self.texts) {
            let parts = match &text.plan {
                Some(plan) => self.merged_parts(text, plan, card, info),
                None => text.parts,
            };
            *slot = u8::try_from(parts).unwrap_or(u8::MAX);
            most = most.max(parts);
        }
        (most, each)
    }

    /// The parts of `text` (which has merge fields, counted by `plan`) merged for one
    /// recipient whose card has the set of values at `card`: counted once per set of card
    /// values when only card fields fill it.
    fn merged_parts(&self, text: &TextParts, plan: &PartsPlan, card: Option<u32>, info: Option<&[String; 4]>) -> u32 {
        let counted = text.by_set.get(card.map_or(0, |set| set as usize + 1));
        if let Some(parts) = counted.and_then(Cell::get) {
            return parts;
        }
        let info = info.map_or(["", "", "", ""], |info| info.each_ref().map(String::as_str));
        let card = card.and_then(|set| self.context.cards.values(set)).unwrap_or_default();
        let values = MergeValues { info, card };
        let parts = parts_u32(self.campaign.parts_for(text.text, plan, &self.context.message, &values));
        counted.inspect(|slot| slot.set(Some(parts)));
        parts
    }

    /// Two passes: parse every number (and find repeats) first, then apply the rules in order.
    fn run<'r>(
        &self,
        recipients: impl Iterator<Item = (&'r str, Option<&'r [String; 4]>)> + Clone,
    ) -> (Counters, Credits, Vec<RecipientOutcome>) {
        let numbers: Vec<Option<Msisdn>> = recipients.clone().map(|(n, _)| parse_international(n).ok()).collect();
        let repeated = dedup::repeated(&numbers);
        // The recipients' cards, looked up all at once when a text merges them.
        let cards = match self.texts.iter().any(|text| text.plan.is_some()) {
            true => self.context.cards.sets_of(&numbers),
            false => Vec::new(),
        };
        let listed = listed::Listed::worth_building(self.context, self.campaign.pushtype(), numbers.len());
        let mut usage = self.context.monthly_usage.clone();
        let mut last_price: Option<(Msisdn, Credits)> = None;
        let (mut counters, mut cost) = (Counters::default(), Credits::ZERO);
        let mut outcomes = Vec::with_capacity(numbers.len());
        for ((((_, info), number), repeated), card) in
            recipients.zip(&numbers).zip(repeated).zip(cards.into_iter().chain(std::iter::repeat(None)))
        {
            let outcome = match number {
                None => Outcome::Invalid,
                Some(_) if repeated => Outcome::Duplicated,
                Some(msisdn) => self.rule(*msisdn, listed.as_ref(), &mut usage),
            };
            let (parts, price, text_parts) = match (outcome, number) {
                (Outcome::Sent, Some(msisdn)) => {
                    let (parts, text_parts) = self.parts(card, info);
                    let price = match last_price {
                        Some((last, price)) if last.same_country(*msisdn) => price,
                        _ => self.context.prices.part_price(msisdn.country()),
                    };
                    last_price = Some((*msisdn, price));
                    (parts, price * parts, text_parts)
                }
                _ => (0, Credits::ZERO, [0; crate::MOST_VARIANTS]),
            };
            counters.count(outcome);
            cost = cost + price;
            outcomes.push(RecipientOutcome { number: *number, outcome, parts, cost: price, text_parts, variant: None });
        }
        (counters, cost, outcomes)
    }

    /// The first rule of docs/interface.md §3.2 after invalid and duplicated that filters a
    /// number, or `Sent`. A number `listed` does not mark is on none of the lists.
    fn rule(&self, msisdn: Msisdn, listed: Option<&listed::Listed>, usage: &mut HashMap<Country, u64>) -> Outcome {
        let n = msisdn.as_u64();
        let context = self.context;
        let on_a_list = listed.is_none_or(|listed| listed.may_hold(n));
        if on_a_list && context.blacklist.contains(&n) {
            return Outcome::Blacklisted;
        }
        if on_a_list && context.npai.contains(&n) {
            return Outcome::Npai;
        }
        if self.campaign.pushtype() == crate::PushType::Marketing
            && context.consented.as_ref().is_some_and(|consented| !consented.contains(&n))
        {
            return Outcome::NoConsent;
        }
        if on_a_list
            && self.campaign.pushtype() == crate::PushType::Marketing
            && context.capped.as_ref().is_some_and(|capped| capped.contains(&n))
        {
            return Outcome::Capped;
        }
        let country = msisdn.country();
        if context.allowed_countries.as_ref().is_some_and(|allowed| !allowed.contains(&country)) {
            return Outcome::NotAllowed;
        }
        if on_a_list
            && let Some(recent) = context.recent.get(&n)
            && (recent.identical >= context.flood.identical_per_hour || recent.any >= context.flood.any_per_hour)
        {
            return Outcome::Flood;
        }
        if let Some(cap) = context.monthly_caps.get(&country) {
            let used = usage.entry(country).or_insert(0);
            if *used >= *cap {
                return Outcome::CountryLimit;
            }
            *used += 1;
        }
        Outcome::Sent
    }
}

fn parts_u32(parts: usize) -> u32 {
    u32::try_from(parts).unwrap_or(u32::MAX)
}
