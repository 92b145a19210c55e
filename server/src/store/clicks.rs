//! Clicks on a campaign's short links, for its owner: per link (with the campaign), and who
//! clicked.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::{AccountId, Click, Page};
use crate::Error;

/// A link of a campaign and its clicks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LinkClicks {
    /// The long URL.
    pub(crate) url: String,
    /// Clicks in all.
    pub(crate) clicks: i64,
    /// Recipients who clicked.
    pub(crate) clickers: i64,
}

impl LinkClicks {
    /// The campaign's `links` in the order of its text, each with its counts from `counted`:
    /// (position of the link, clicks, recipients who clicked); a link nobody clicked has 0.
    pub(crate) fn of(links: Vec<String>, counted: impl IntoIterator<Item = (i64, i64, i64)>) -> Vec<LinkClicks> {
        let mut counts = vec![(0, 0); links.len()];
        for (link, clicks, clickers) in counted {
            if let Some(slot) = usize::try_from(link).ok().and_then(|i| counts.get_mut(i)) {
                *slot = (clicks, clickers);
            }
        }
        links.into_iter().zip(counts).map(|(url, (clicks, clickers))| LinkClicks { url, clicks, clickers }).collect()
    }
}

/// A recipient's clicks on one link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Clicker {
    /// The recipient.
    pub(crate) number: u64,
    /// The long URL.
    pub(crate) url: String,
    /// How many times.
    pub(crate) clicks: i64,
    /// The last time.
    pub(crate) last_click: DateTime<Utc>,
    /// Brand, model and OS of the phone (of the last click).
    pub(crate) device: [String; 3],
    /// The contact's info1…info4.
    pub(crate) info: [String; 4],
}

/// Reading clicks.
#[async_trait]
pub(crate) trait ClickStore: Send + Sync {
    /// A page of who clicked, by first click, and how many rows there are; `None` when the
    /// account has no such campaign.
    async fn clickers(&self, account: AccountId, ticket: i64, page: Page)
    -> Result<Option<(Vec<Clicker>, i64)>, Error>;
    /// Counts a click on a short link and raises CLICKER; where it leads, or `None` when the
    /// code names no link that was sent.
    async fn click(&self, click: Click, now: DateTime<Utc>) -> Result<Option<Followed>, Error>;
}

/// A short link followed: its long URL, and the UTM tags its campaign was sent with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Followed {
    /// The URL as the campaign gave it.
    pub(crate) long_url: String,
    /// The campaign's ticket.
    pub(crate) campaign: i64,
    /// The campaign's UTM tags (JSON as stored), if any.
    pub(crate) utm: Option<String>,
}

impl Followed {
    /// Where the recipient who followed `code` goes: the long URL with the campaign's UTM tags
    /// (and the code, when they name a click parameter).
    pub(crate) fn target(&self, code: &str) -> String {
        match self.utm.as_deref().and_then(|utm| serde_json::from_str::<texto_core::Utm>(utm).ok()) {
            Some(utm) => utm.tag(&self.long_url, self.campaign, code),
            None => self.long_url.clone(),
        }
    }
}
