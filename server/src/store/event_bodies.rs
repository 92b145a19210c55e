//! Event bodies both stores build the same way from what they read.

use chrono::{DateTime, Utc};
use texto_core::{format_paris, wire::ClickerEvent};

use super::Click;

/// A list contact's info1…info4 from its stored JSON (empty strings when there is none).
pub(crate) fn info_of(json: Option<&str>) -> [String; 4] {
    json.and_then(|json| serde_json::from_str(json).ok()).unwrap_or_default()
}

/// What one click on a short link sent in `campaign` raises.
pub(crate) struct Clicked<'a> {
    /// The campaign's ticket.
    pub(crate) campaign: i64,
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
    /// The CLICKER body (docs/interface.md §7.5).
    pub(crate) fn event(self, now: DateTime<Utc>) -> ClickerEvent {
        let [info1, info2, info3, info4] = info_of(self.info);
        let [brand, model, os] = self.click.device.clone();
        ClickerEvent {
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
        }
    }
}
