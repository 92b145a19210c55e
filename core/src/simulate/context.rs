//! What the filter needs to know about the account (passed in: the core does no I/O).

use std::collections::{HashMap, HashSet};

use rustc_hash::{FxHashMap, FxHashSet};

use super::CardValues;
use crate::{Country, Credits, MessageOptions, PriceTable};

/// Anti-flood limits per number over a rolling 60 minutes (docs/interface.md §3.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FloodLimits {
    /// Identical texts to one number.
    pub identical_per_hour: u32,
    /// Texts of any kind to one number.
    pub any_per_hour: u32,
}

impl Default for FloodLimits {
    fn default() -> FloodLimits {
        FloodLimits { identical_per_hour: 6, any_per_hour: 20 }
    }
}

/// Messages already sent to one number in the last 60 minutes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RecentSends {
    /// With the same text as this campaign.
    pub identical: u32,
    /// With any text.
    pub any: u32,
}

/// A contact of a stored list.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Contact {
    /// The number as stored.
    pub number: String,
    /// `info1`…`info4`.
    pub info: [String; 4],
}

/// Everything about the account that the filter and the cost depend on.
#[derive(Debug, Clone, Default)]
pub struct FilterContext {
    /// Blacklisted numbers (as digits, `33612345678`).
    pub blacklist: FxHashSet<u64>,
    /// NPAI numbers.
    pub npai: FxHashSet<u64>,
    /// Countries the account may send to; `None` allows all.
    pub allowed_countries: Option<HashSet<Country>>,
    /// Recent sends per number, for anti-flood.
    pub recent: FxHashMap<u64, RecentSends>,
    /// Anti-flood limits.
    pub flood: FloodLimits,
    /// Messages sent this month per country.
    pub monthly_usage: HashMap<Country, u64>,
    /// Monthly message caps per country (none: unlimited).
    pub monthly_caps: HashMap<Country, u64>,
    /// Credits per SMS part.
    pub prices: PriceTable,
    /// Credits before the campaign.
    pub balance: Credits,
    /// Short link origin and opt-out text.
    pub message: MessageOptions,
    /// The contacts of the stored lists a list campaign names.
    pub lists: HashMap<String, Vec<Contact>>,
    /// The contacts of the segments a list campaign names.
    pub segments: HashMap<String, Vec<Contact>>,
    /// When the account's marketing needs consent: the numbers with an opt-in in force (a
    /// marketing send skips the others). `None`: consent is not asked.
    pub consented: Option<FxHashSet<u64>>,
    /// When the account caps marketing: the numbers that reached the cap (a marketing send
    /// skips them). `None`: no cap.
    pub capped: Option<FxHashSet<u64>>,
    /// When the text names card fields (`[firstname]`, `[field:ville]`): each recipient's
    /// values of them, in the order [`crate::card_fields`] lists them (a number without a card,
    /// or with nothing in those fields, is absent).
    pub cards: CardValues,
}
