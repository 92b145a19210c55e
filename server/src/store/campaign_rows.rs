//! A new campaign as rows, the same for both stores: the campaign's columns and one message
//! per recipient the filter let through.

use std::collections::BTreeMap;

use texto_core::{AbTest, Audience, Outcome, RecipientOutcome, Zone};

use super::{NewCampaign, time};

/// The columns of a campaign's row, as stored.
pub(crate) struct CampaignRow {
    /// Text as written.
    pub(crate) text: String,
    /// `alert` or `marketing`.
    pub(crate) pushtype: &'static str,
    /// Sender, if any.
    pub(crate) sender: Option<String>,
    /// Its short links (JSON).
    pub(crate) links: String,
    /// The lists it goes to (JSON).
    pub(crate) lists: String,
    /// Whether the text is sent as UCS-2.
    pub(crate) unicode: bool,
    /// Minutes the carrier keeps trying, when the send says.
    pub(crate) validity: Option<i64>,
    /// The UTM tags its short links carry (JSON), if any.
    pub(crate) utm: Option<String>,
    /// The template it started from.
    pub(crate) template: Option<i64>,
    /// An A/B test's texts beside the campaign's own (JSON).
    pub(crate) variants: Option<String>,
    /// An A/B test's settings and seed (JSON, [`AbColumn`]).
    pub(crate) ab: Option<String>,
    /// `scheduled` or `sending`.
    pub(crate) status: &'static str,
    /// When it goes out (stored form).
    pub(crate) send_at: String,
    /// When it was created (stored form).
    pub(crate) created_at: String,
    /// The filter's counters: total, sent, blacklisted, duplicated, invalid, npai,
    /// not_allowed, flood, country_limit.
    pub(crate) counters: [i64; 9],
}

/// A message to write.
pub(crate) struct MessageRow {
    /// The recipient.
    pub(crate) number: u64,
    /// Its country (ISO 3166 alpha-2).
    pub(crate) country: &'static str,
    /// The client's id of the message.
    pub(crate) gsmsmsid: Option<String>,
    /// SMS parts.
    pub(crate) parts: i64,
    /// Its cost in hundredths.
    pub(crate) cost: i64,
    /// The contact's info1…info4 as JSON.
    pub(crate) info: Option<String>,
    /// In an A/B test's sample, the text it gets (0 is the campaign's own).
    pub(crate) variant: Option<i64>,
    /// Waiting for an A/B test's winner, when its texts take different parts: its parts under
    /// each text, a byte each (the first text lowest), to be priced for the winner.
    pub(crate) text_parts: Option<i64>,
    /// Whose marketing window it keeps (its zone's run of the campaign's messages).
    pub(crate) zone: Zone,
}

/// An A/B test as its campaign's `ab` column keeps it: the settings as on the wire, and the
/// seed its sample was drawn from.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub(crate) struct AbColumn {
    /// Share, wait and criterion.
    #[serde(flatten)]
    pub(crate) settings: texto_core::wire::AbDto,
    /// What the sample was drawn from.
    pub(crate) seed: u64,
}

impl AbColumn {
    /// The column of `ab`.
    pub(crate) fn of(ab: &AbTest) -> AbColumn {
        AbColumn { settings: ab.to_dto(), seed: ab.seed() }
    }

    /// The test again, with its `variants` (the campaign's `variants` column).
    pub(crate) fn test(&self, variants: Option<&str>) -> Option<AbTest> {
        let variants: Vec<String> = serde_json::from_str(variants?).ok()?;
        AbTest::stored(variants, &self.settings, self.seed)
    }
}

/// The parts under each text of a message that waits for an A/B test's winner, a byte each.
fn packed(text_parts: [u8; texto_core::MOST_VARIANTS]) -> i64 {
    text_parts.iter().rev().fold(0, |packed, &parts| (packed << 8) | i64::from(parts))
}

/// How a campaign's stored lists name a segment it went to, beside its lists.
pub(crate) const SEGMENT_PREFIX: &str = "segment:";

impl NewCampaign<'_> {
    /// The campaign's row.
    pub(crate) fn row(&self) -> CampaignRow {
        let (campaign, simulation) = (self.campaign, self.simulation);
        let lists = match campaign.audience() {
            // A segment is kept beside the lists as `segment:ID`.
            Audience::Lists { lists, segments } => {
                let segments = segments.iter().map(|id| format!("{SEGMENT_PREFIX}{id}"));
                serde_json::to_string(&lists.iter().cloned().chain(segments).collect::<Vec<_>>()).unwrap_or_default()
            }
            Audience::Numbers(_) => "[]".to_owned(),
        };
        let c = &simulation.counters;
        CampaignRow {
            text: campaign.text().to_owned(),
            pushtype: campaign.pushtype().as_str(),
            sender: campaign.sender().map(|s| s.as_str().to_owned()),
            links: serde_json::to_string(campaign.links()).unwrap_or_default(),
            lists,
            unicode: campaign.unicode(),
            validity: campaign.validity().map(|v| i64::from(v.minutes())),
            utm: self.utm.as_ref().and_then(|utm| serde_json::to_string(utm).ok()),
            template: self.template,
            variants: campaign.ab().and_then(|ab| serde_json::to_string(ab.variants()).ok()),
            ab: campaign.ab().and_then(|ab| serde_json::to_string(&AbColumn::of(ab)).ok()),
            status: self.status.as_str(),
            send_at: time::store(simulation.send_at),
            created_at: time::store(self.now),
            counters: [
                c.total,
                c.sent,
                c.blacklisted,
                c.duplicated,
                c.invalid,
                c.npai,
                c.not_allowed,
                c.flood,
                c.country_limit,
            ]
            .map(|n| i64::try_from(n).unwrap_or(i64::MAX)),
        }
    }

    /// One message per recipient the filter let through, in request order; in an A/B test, its
    /// sample first (the messages after its last wait for the winner); with recipients in the
    /// overseas territories, each of those two zone by zone, Paris's window first (each zone's
    /// run goes when its window is open).
    pub(crate) fn message_rows(&self) -> Vec<MessageRow> {
        let texts = self.campaign.ab().map_or(1, AbTest::texts);
        let zoned = !self.simulation.overseas.is_empty();
        let row = |(i, o): (usize, &RecipientOutcome)| {
            let number = o.number?;
            Some(MessageRow {
                number: number.as_u64(),
                country: number.country().iso2(),
                gsmsmsid: self.gsmsmsids.get(i).copied().flatten().map(str::to_owned),
                parts: i64::from(o.parts),
                cost: o.cost.hundredths(),
                info: self.infos.get(i).cloned().flatten(),
                variant: o.variant.map(i64::from),
                // Only a message whose texts differ in parts is priced again for the winner.
                text_parts: (texts > 1
                    && o.variant.is_none()
                    && o.text_parts[..texts].iter().any(|&p| u32::from(p) != o.parts))
                .then(|| packed(o.text_parts)),
                zone: if zoned { Zone::of(number) } else { Zone::Paris },
            })
        };
        let passed = || self.simulation.outcomes.iter().enumerate().filter(|(_, o)| o.outcome == Outcome::Sent);
        if zoned {
            // A stable sort: request order is kept inside the sample's and the rest's zones.
            let mut rows: Vec<MessageRow> = passed().filter_map(row).collect();
            rows.sort_by_key(|row| (row.variant.is_none(), row.zone));
            return rows;
        }
        match texts > 1 {
            false => passed().filter_map(row).collect(),
            // Two passes rather than a sort: a million rows are not moved about.
            true => {
                let sample = passed().filter(|(_, o)| o.variant.is_some());
                sample.chain(passed().filter(|(_, o)| o.variant.is_none())).filter_map(row).collect()
            }
        }
    }
}

/// How many of `messages` go to each country, in a stable order.
pub(crate) fn per_country(messages: &[MessageRow]) -> BTreeMap<&'static str, i64> {
    let mut counts = BTreeMap::new();
    for m in messages {
        *counts.entry(m.country).or_insert(0) += 1;
    }
    counts
}
