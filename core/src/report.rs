//! A campaign's report from its counts: the funnel's rates and the first 48 hours after it
//! went out, hour by hour (docs/api/send.md, "The campaign report").

use chrono::{DateTime, DurationRound, TimeDelta, Utc};

use crate::{
    AbTest, VariantCounts,
    wire::{ReportAbDto, ReportCountryDto, ReportDto, ReportHourDto, ReportVariantDto},
};

/// Hours the report follows a campaign for.
pub const REPORT_HOURS: usize = 48;

/// What a report is made of.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReportCounts {
    /// Messages sent.
    pub sent: i64,
    /// Delivered.
    pub delivered: i64,
    /// Recipients who clicked.
    pub clicked: i64,
    /// Numbers that replied, not with a stop word.
    pub replied: i64,
    /// Numbers that replied with a stop word.
    pub stopped: i64,
    /// Recipients whose click converted.
    pub converted: i64,
    /// What their conversions were worth, in hundredths.
    pub conversion_hundredths: i64,
    /// Delivered messages per hour, keyed `YYYY-MM-DDTHH` (UTC).
    pub delivered_hours: Vec<(String, i64)>,
    /// Clicks per hour, keyed the same way.
    pub click_hours: Vec<(String, i64)>,
    /// Per country, the most messages first.
    pub countries: Vec<ReportCountryDto>,
}

/// `part` in % of `whole`, to one decimal (0 when there is no whole).
fn rate(part: i64, whole: i64) -> f64 {
    if whole <= 0 { 0.0 } else { (part as f64 * 1000.0 / whole as f64).round() / 10.0 }
}

/// The hour (0 = the hour `start` falls in) of a `YYYY-MM-DDTHH` key, if within the report.
fn hour_of(key: &str, start: DateTime<Utc>) -> Option<usize> {
    let (day, hour) = key.split_once('T')?;
    let hour = hour.parse::<u32>().ok().filter(|_| hour.len() == 2 && hour.bytes().all(|b| b.is_ascii_digit()))?;
    let at = crate::parse_day(day)?.and_hms_opt(hour, 0, 0)?.and_utc();
    let first = start.duration_trunc(TimeDelta::hours(1)).ok()?;
    usize::try_from((at - first).num_hours()).ok().filter(|hour| *hour < REPORT_HOURS)
}

/// Deliveries and clicks in each of the first [`REPORT_HOURS`] after `start`, from their counts
/// per `YYYY-MM-DDTHH` key.
fn hours_of(start: DateTime<Utc>, delivered: &[(String, i64)], clicks: &[(String, i64)]) -> Vec<ReportHourDto> {
    let mut hours: Vec<ReportHourDto> =
        (0..REPORT_HOURS).map(|hour| ReportHourDto { hour: hour as i64, ..ReportHourDto::default() }).collect();
    for (key, count) in delivered {
        if let Some(hour) = hour_of(key, start) {
            hours[hour].delivered += count;
        }
    }
    for (key, count) in clicks {
        if let Some(hour) = hour_of(key, start) {
            hours[hour].clicks += count;
        }
    }
    hours
}

/// The report of campaign `id`, which went out at `start`.
pub fn campaign_report(id: &str, start: DateTime<Utc>, counts: ReportCounts) -> ReportDto {
    let hours = hours_of(start, &counts.delivered_hours, &counts.click_hours);
    ReportDto {
        id: id.to_owned(),
        sent: counts.sent,
        delivered: counts.delivered,
        clicked: counts.clicked,
        replied: counts.replied,
        stopped: counts.stopped,
        converted: counts.converted,
        conversion_value: counts.conversion_hundredths as f64 / 100.0,
        delivered_rate: rate(counts.delivered, counts.sent),
        clicked_rate: rate(counts.clicked, counts.delivered),
        replied_rate: rate(counts.replied, counts.delivered),
        stopped_rate: rate(counts.stopped, counts.delivered),
        converted_rate: rate(counts.converted, counts.delivered),
        hours,
        countries: counts.countries,
        ab: None,
    }
}

/// Deliveries and clicks of one text's sample per `YYYY-MM-DDTHH` key.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SampleHours {
    /// Messages delivered per hour.
    pub delivered: Vec<(String, i64)>,
    /// Clicks per hour.
    pub clicks: Vec<(String, i64)>,
}

/// The A/B test part of a report: each text (the campaign's own `text` first) with what its
/// sample did (`counts` and `hours`, in text order, hour 0 the one `start` falls in), the
/// winner once chosen and the text leading so far.
pub fn ab_report(
    text: &str,
    test: &AbTest,
    (counts, hours): (&[VariantCounts], &[SampleHours]),
    start: DateTime<Utc>,
    winner: Option<u8>,
    decide_at: DateTime<Utc>,
) -> ReportAbDto {
    let count = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
    let texts = std::iter::once(text).chain(test.variants().iter().map(String::as_str));
    let variants = texts
        .zip(counts.iter().copied().chain(std::iter::repeat(VariantCounts::default())))
        .enumerate()
        .map(|(i, (text, c))| ReportVariantDto {
            hours: hours
                .get(i)
                .map_or_else(|| hours_of(start, &[], &[]), |sample| hours_of(start, &sample.delivered, &sample.clicks)),
            variant: i as i64 + 1,
            text: text.to_owned(),
            sent: count(c.sent),
            delivered: count(c.delivered),
            clicked: count(c.clicked),
            replied: count(c.replied),
            delivered_rate: rate(count(c.delivered), count(c.sent)),
            clicked_rate: rate(count(c.clicked), count(c.delivered)),
            replied_rate: rate(count(c.replied), count(c.delivered)),
        })
        .collect();
    ReportAbDto {
        share: i64::from(test.share()),
        wait: test.wait_text(),
        criterion: test.criterion().as_str().to_owned(),
        decide_at: crate::format_paris(decide_at),
        winner: winner.map(|w| i64::from(w) + 1),
        leading: crate::winner(test.criterion(), counts) as i64 + 1,
        variants,
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    #[test]
    fn rates_are_of_sent_then_of_delivered_and_hours_count_from_the_start() {
        let start = Utc.with_ymd_and_hms(2026, 11, 24, 10, 40, 0).unwrap();
        let counts = ReportCounts {
            sent: 200,
            delivered: 160,
            clicked: 40,
            replied: 3,
            stopped: 1,
            converted: 8,
            conversion_hundredths: 39_960,
            delivered_hours: vec![
                ("2026-11-24T10".into(), 150),
                ("2026-11-24T11".into(), 9),
                ("2026-11-26T10".into(), 1),
            ],
            click_hours: vec![("2026-11-24T09".into(), 1), ("2026-11-25T09".into(), 39)],
            countries: Vec::new(),
        };
        let report = campaign_report("7", start, counts);
        assert_eq!(
            (report.delivered_rate, report.clicked_rate, report.replied_rate, report.stopped_rate),
            (80.0, 25.0, 1.9, 0.6)
        );
        assert_eq!((report.converted, report.converted_rate, report.conversion_value), (8, 5.0, 399.6));
        assert_eq!(report.hours.len(), 48);
        assert_eq!((report.hours[0].delivered, report.hours[1].delivered), (150, 9));
        assert_eq!(report.hours[23].clicks, 39, "the next day at 09:00 is the 23rd hour");
        let counted: i64 = report.hours.iter().map(|h| h.delivered).sum();
        assert_eq!(counted, 159, "what came 48 hours later and what came before the start are left out");
        assert_eq!(campaign_report("8", start, ReportCounts::default()).delivered_rate, 0.0);
    }
}
