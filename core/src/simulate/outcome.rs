//! What the filter decides for each recipient, and the counters of a campaign's result.

use crate::{Credits, Msisdn, wire::CampaignResultDto};

/// What happened to one recipient: the first rule that filtered it, or sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Passed every rule.
    Sent,
    /// Not a valid mobile number.
    Invalid,
    /// Same number earlier in the request.
    Duplicated,
    /// On the account's blacklist.
    Blacklisted,
    /// On the account's NPAI list.
    Npai,
    /// A marketing send to a number without an opt-in, when the account asks for consent.
    NoConsent,
    /// A marketing send to a number that reached the account's frequency cap.
    Capped,
    /// Country not allowed for the account.
    NotAllowed,
    /// Anti-flood.
    Flood,
    /// Monthly country cap reached.
    CountryLimit,
}

impl Outcome {
    /// The counter name on the wire (`sent`, `invalid`, `not_allowed`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Sent => "sent",
            Outcome::Invalid => "invalid",
            Outcome::Duplicated => "duplicated",
            Outcome::Blacklisted => "blacklisted",
            Outcome::Npai => "npai",
            Outcome::NoConsent => "no_consent",
            Outcome::Capped => "capped",
            Outcome::NotAllowed => "not_allowed",
            Outcome::Flood => "flood",
            Outcome::CountryLimit => "country_limit",
        }
    }
}

/// One recipient's result, in request order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecipientOutcome {
    /// The normalised number (`None` when invalid).
    pub number: Option<Msisdn>,
    /// Sent or why not.
    pub outcome: Outcome,
    /// SMS parts (0 when filtered): of the recipient's text, or in an A/B test of its longest
    /// text while the recipient waits for the winner.
    pub parts: u32,
    /// Credits (zero when filtered), for [`RecipientOutcome::parts`].
    pub cost: Credits,
    /// The parts each of the campaign's texts takes for this recipient (its own, then its A/B
    /// test's variants; 0 past the last).
    pub text_parts: [u8; crate::MOST_VARIANTS],
    /// In an A/B test, the text of a recipient of its sample (0 is the campaign's own); `None`
    /// for the rest, held at the longest text until the winner is known, and without a test.
    pub variant: Option<u8>,
}

/// The counters of docs/interface.md §3.2.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counters {
    /// Recipients before filtering.
    pub total: u64,
    /// Recipients after filtering.
    pub sent: u64,
    /// Filtered as invalid.
    pub invalid: u64,
    /// Filtered as duplicated.
    pub duplicated: u64,
    /// Filtered as blacklisted.
    pub blacklisted: u64,
    /// Filtered as NPAI.
    pub npai: u64,
    /// Filtered for want of consent.
    pub no_consent: u64,
    /// Filtered by the frequency cap.
    pub capped: u64,
    /// Filtered as not allowed.
    pub not_allowed: u64,
    /// Filtered by anti-flood.
    pub flood: u64,
    /// Filtered by the country cap.
    pub country_limit: u64,
}

impl Counters {
    pub(super) fn count(&mut self, outcome: Outcome) {
        self.total += 1;
        *match outcome {
            Outcome::Sent => &mut self.sent,
            Outcome::Invalid => &mut self.invalid,
            Outcome::Duplicated => &mut self.duplicated,
            Outcome::Blacklisted => &mut self.blacklisted,
            Outcome::Npai => &mut self.npai,
            Outcome::NoConsent => &mut self.no_consent,
            Outcome::Capped => &mut self.capped,
            Outcome::NotAllowed => &mut self.not_allowed,
            Outcome::Flood => &mut self.flood,
            Outcome::CountryLimit => &mut self.country_limit,
        } += 1;
    }
}

impl Counters {
    /// The answer to a send or simulation with these counters (docs/interface.md §3.2): its
    /// `cost`, the balance it leaves (`credits`) and its `ticket` (none for a simulation).
    pub fn to_wire(&self, cost: Credits, credits: Credits, ticket: Option<String>) -> CampaignResultDto {
        let count = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
        CampaignResultDto {
            status: 1,
            message: "OK".to_owned(),
            ticket,
            cost: cost.as_f64(),
            credits: credits.as_f64(),
            total: count(self.total),
            sent: count(self.sent),
            blacklisted: count(self.blacklisted),
            duplicated: count(self.duplicated),
            invalid: count(self.invalid),
            npai: count(self.npai),
            not_allowed: Some(count(self.not_allowed)),
            flood: Some(count(self.flood)),
            country_limit: Some(count(self.country_limit)),
            no_consent: None,
            capped: None,
            replaced: None,
            parts_saved: None,
            ab_sample: None,
            ab_remainder: None,
            overseas: None,
        }
    }
}
