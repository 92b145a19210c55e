//! A/B tests: up to four texts tried on a sample of the recipients, the best of them sent to
//! the rest once the wait is over. The sample is drawn from a seed the campaign keeps, so the
//! same campaign always splits the same way.

use crate::{FieldError, duration::parse_duration, wire::AbDto};

/// The most texts a test compares (`text` and three `variants`).
pub const MOST_VARIANTS: usize = 4;
/// The sample's share of the recipients, in percent.
pub const SHARE_RANGE: std::ops::RangeInclusive<u8> = 5..=50;
/// How long the sample runs before the winner is chosen, in minutes (30 minutes to 24 hours).
pub const WAIT_RANGE: std::ops::RangeInclusive<u32> = 30..=1440;

/// What makes a variant the best.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Criterion {
    /// The most clicked messages per message sent.
    Clicks,
    /// The most replied-to messages per message sent.
    Replies,
    /// The most delivered messages per message sent.
    Delivered,
}

impl Criterion {
    /// The name on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Criterion::Clicks => "clicks",
            Criterion::Replies => "replies",
            Criterion::Delivered => "delivered",
        }
    }

    /// From its name on the wire.
    pub fn parse(name: &str) -> Option<Criterion> {
        [Criterion::Clicks, Criterion::Replies, Criterion::Delivered].into_iter().find(|c| c.as_str() == name)
    }
}

/// A campaign's A/B test: its other texts and how the winner is found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AbTest {
    variants: Vec<String>,
    share: u8,
    wait_minutes: u32,
    criterion: Criterion,
    seed: u64,
}

impl AbTest {
    /// A test of `variants` (the texts beside the campaign's own, already checked), read from
    /// `sms.message.ab`; every problem is named with its path.
    pub fn from_dto(variants: Vec<String>, dto: &AbDto) -> Result<AbTest, Vec<FieldError>> {
        let mut errors = Vec::new();
        let share = match dto.share {
            Some(share) if (5..=50).contains(&share) => share as u8,
            Some(share) => {
                errors.push(FieldError::new("sms.message.ab.share", format!("must be 5 to 50 (percent), not {share}")));
                0
            }
            None => {
                errors.push(FieldError::new("sms.message.ab.share", "is required: the sample's percent, 5 to 50"));
                0
            }
        };
        let wait_minutes = match dto.wait.as_deref().map(parse_duration) {
            Some(Ok(wait)) if wait.num_seconds() % 60 == 0 && WAIT_RANGE.contains(&(wait.num_minutes() as u32)) => {
                wait.num_minutes() as u32
            }
            Some(Ok(_)) => {
                errors.push(FieldError::new("sms.message.ab.wait", "must be 30m to 24h, in whole minutes"));
                0
            }
            Some(Err(why)) => {
                errors.push(FieldError::new("sms.message.ab.wait", why));
                0
            }
            None => {
                errors.push(FieldError::new("sms.message.ab.wait", "is required: 30m to 24h, such as 2h"));
                0
            }
        };
        let criterion = match dto.criterion.as_deref().map(str::trim) {
            Some(name) => Criterion::parse(name).unwrap_or_else(|| {
                errors.push(FieldError::new(
                    "sms.message.ab.criterion",
                    format!("must be clicks, replies or delivered, not {}", crate::excerpt(name)),
                ));
                Criterion::Clicks
            }),
            None => {
                errors.push(FieldError::new("sms.message.ab.criterion", "is required: clicks, replies or delivered"));
                Criterion::Clicks
            }
        };
        match errors.is_empty() {
            true => Ok(AbTest { variants, share, wait_minutes, criterion, seed: 0 }),
            false => Err(errors),
        }
    }

    /// A stored test, as [`AbTest::to_dto`] and [`AbTest::seed`] wrote it; `None` if it no
    /// longer reads.
    pub fn stored(variants: Vec<String>, dto: &AbDto, seed: u64) -> Option<AbTest> {
        AbTest::from_dto(variants, dto).ok().map(|ab| ab.with_seed(seed))
    }

    /// The test whose sample is drawn from `seed` (the server draws one at random for each
    /// campaign, and keeps it).
    pub fn with_seed(self, seed: u64) -> AbTest {
        AbTest { seed, ..self }
    }
    /// What its sample is drawn from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The texts beside the campaign's own, in order (variant 2, 3, 4).
    pub fn variants(&self) -> &[String] {
        &self.variants
    }
    /// How many texts are compared, the campaign's own included.
    pub fn texts(&self) -> usize {
        1 + self.variants.len()
    }
    /// The sample's share of the recipients, in percent.
    pub fn share(&self) -> u8 {
        self.share
    }
    /// How long the sample runs before the winner is chosen.
    pub fn wait(&self) -> chrono::Duration {
        chrono::Duration::minutes(i64::from(self.wait_minutes))
    }
    /// The wait as written on the wire (`2h`, `90m`).
    pub fn wait_text(&self) -> String {
        crate::duration::format_minutes(self.wait_minutes)
    }
    /// What decides the winner.
    pub fn criterion(&self) -> Criterion {
        self.criterion
    }
    /// The settings as on the wire.
    pub fn to_dto(&self) -> AbDto {
        AbDto {
            share: Some(i64::from(self.share)),
            wait: Some(self.wait_text()),
            criterion: Some(self.criterion.as_str().to_owned()),
        }
    }

    /// How many of `recipients` make the sample: the share, rounded up, and at least one per
    /// text (never more than there are).
    pub fn sample_size(&self, recipients: usize) -> usize {
        let share = (recipients * usize::from(self.share)).div_ceil(100);
        share.max(self.texts()).min(recipients)
    }

    /// Which text each of `recipients` messages gets: `Some(variant)` (0 is the campaign's own
    /// text) for the sample, `None` for the rest, who wait for the winner. The sample is drawn
    /// at random from the test's seed and dealt to the texts in turn, so that each gets an
    /// equal part (one more for the first ones when it does not divide).
    pub fn split(&self, recipients: usize) -> Vec<Option<u8>> {
        let sample = self.sample_size(recipients);
        let mut order: Vec<u32> = (0..recipients as u32).collect();
        let mut random = SplitMix(self.seed);
        let mut slots = vec![None; recipients];
        for i in 0..sample {
            let j = i + random.below(recipients - i);
            order.swap(i, j);
            slots[order[i] as usize] = Some((i % self.texts()) as u8);
        }
        slots
    }
}

/// SplitMix64 (Steele, Lea and Flood, 2014): a tiny generator whose output for a seed never
/// changes, so that a campaign's sample can be drawn again from its id years later.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `bound` (Lemire's multiply-shift: a bias below 2^-40 for a million).
    fn below(&mut self, bound: usize) -> usize {
        ((u128::from(self.next()) * bound as u128) >> 64) as usize
    }
}

/// What one text's sample did, as the winner is judged.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct VariantCounts {
    /// Messages of the sample with this text.
    pub sent: u64,
    /// Of them, delivered.
    pub delivered: u64,
    /// Of them, clicked at least once.
    pub clicked: u64,
    /// Of them, replied to.
    pub replied: u64,
}

impl VariantCounts {
    /// The criterion's rate as a fraction, as the report reads it: delivered of sent, clicked
    /// and replied of delivered.
    fn rate(&self, criterion: Criterion) -> (u128, u128) {
        let (part, whole) = match criterion {
            Criterion::Clicks => (self.clicked, self.delivered),
            Criterion::Replies => (self.replied, self.delivered),
            Criterion::Delivered => (self.delivered, self.sent),
        };
        (u128::from(part), u128::from(whole.max(1)))
    }
}

/// The best text by `criterion` (the highest rate, as the report gives it); ties go to the
/// first.
pub fn winner(criterion: Criterion, counts: &[VariantCounts]) -> usize {
    let rate = |c: &VariantCounts| c.rate(criterion);
    let mut best = 0;
    for (i, candidate) in counts.iter().enumerate().skip(1) {
        let ((hits, sent), (best_hits, best_sent)) = (rate(candidate), rate(&counts[best]));
        if hits * best_sent > best_hits * sent {
            best = i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test(share: i64, texts: usize) -> AbTest {
        let dto = AbDto { share: Some(share), wait: Some("2h".into()), criterion: Some("clicks".into()) };
        AbTest::from_dto(vec!["B".to_owned(); texts - 1], &dto).expect("a valid test")
    }

    #[test]
    fn the_sample_is_the_share_rounded_up_dealt_evenly_and_drawn_again_from_the_same_seed() {
        let ab = test(20, 2).with_seed(42);
        let slots = ab.split(1000);
        assert_eq!(slots.iter().filter(|s| **s == Some(0)).count(), 100);
        assert_eq!(slots.iter().filter(|s| **s == Some(1)).count(), 100);
        assert_eq!(slots.iter().filter(|s| s.is_none()).count(), 800);
        assert_eq!(ab.clone().with_seed(42).split(1000), slots, "the same seed draws the same sample");
        assert_ne!(ab.with_seed(43).split(1000), slots, "another seed draws another");
        // Not the first fifth: drawn across the whole audience.
        assert!(slots[800..].iter().any(Option::is_some));
        assert_eq!(test(5, 4).sample_size(10), 4, "one per text at least");
        assert_eq!(test(5, 4).sample_size(3), 3, "never more than there are");
        assert_eq!(test(50, 3).sample_size(7), 4);
    }

    #[test]
    fn the_best_rate_wins_and_ties_go_to_the_first() {
        let counts = |delivered, clicked| VariantCounts { sent: 100, delivered, clicked, ..VariantCounts::default() };
        assert_eq!(winner(Criterion::Clicks, &[counts(100, 10), counts(50, 6)]), 1);
        assert_eq!(winner(Criterion::Clicks, &[counts(100, 10), counts(50, 5)]), 0);
        assert_eq!(winner(Criterion::Clicks, &[counts(0, 0), counts(0, 0)]), 0);
        let replies = [VariantCounts { sent: 10, delivered: 10, replied: 1, ..Default::default() }, counts(10, 9)];
        assert_eq!(winner(Criterion::Replies, &replies), 0, "judged by the criterion only");
    }

    #[test]
    fn each_setting_out_of_range_is_named() {
        let dto = AbDto { share: Some(60), wait: Some("10m".into()), criterion: Some("opens".into()) };
        let paths: Vec<String> =
            AbTest::from_dto(vec![], &dto).unwrap_err().into_iter().map(|e| e.path.to_string()).collect();
        assert_eq!(paths, ["sms.message.ab.share", "sms.message.ab.wait", "sms.message.ab.criterion"]);
        let none = AbTest::from_dto(vec![], &AbDto::default()).unwrap_err();
        assert_eq!(none.len(), 3);
        assert_eq!(test(20, 2).to_dto().wait.as_deref(), Some("2h"));
    }
}
