//! The marketing window in the recipient's own time (migrations `0042_overseas_zones` and
//! PostgreSQL's `0037`): a campaign with numbers in the overseas territories writes its
//! messages zone by zone, and notes where each zone's run ends; the hand-over then takes
//! marketing only from the runs whose window is open, by id range, as it takes an A/B test's
//! sample before its rest. No message row grows, and no queued message is scanned twice.

use chrono::{DateTime, Utc};
use texto_core::{OpenWindows, PushType, Territory, Zone, next_allowed_send_in};

/// An id range of a campaign's messages: (after, up to].
pub(crate) type IdRange = (i64, i64);

/// A run of a campaign's messages in one zone: the zone and its last message id (the run
/// starts after the previous run's last).
pub(crate) type ZoneRun = (Zone, i64);

/// After PostgreSQL's batch writer (which learns no ids) wrote a campaign with overseas numbers
/// (`$1` the ticket, `$2` the territories' ISO codes, `$3` Paris's zone name): its `zones`
/// column, from the last message of each country in its sample and in its rest (each such
/// group lies inside one run; a run ends where the next group's zone differs). SQLite's
/// writer notes the runs as it writes.
pub(crate) const NOTE_THE_RUNS: &str = "UPDATE campaigns SET zones = (
         SELECT json_agg(json_build_array(zone, last) ORDER BY last)::text FROM (
             SELECT zone, last, lead(zone) OVER (ORDER BY last) AS next FROM (
                 SELECT CASE WHEN country = ANY($2) THEN country ELSE $3 END AS zone, max(id) AS last
                 FROM messages WHERE campaign_id = $1 GROUP BY country, variant IS NULL) AS lasts) AS runs
         WHERE next IS DISTINCT FROM zone)
     WHERE id = $1";

/// The parameters of [`NOTE_THE_RUNS`] beside the ticket: the territories' ISO codes and
/// Paris's zone name.
pub(crate) fn run_names() -> (Vec<&'static str>, &'static str) {
    (Territory::ALL.iter().map(|t| t.iso2()).collect(), Zone::Paris.as_str())
}

/// Notes that message `id` of `zone` was written after those of `runs`.
pub(crate) fn extend(runs: &mut Vec<ZoneRun>, zone: Zone, id: i64) {
    match runs.last_mut() {
        Some((last_zone, last)) if *last_zone == zone => *last = id,
        _ => runs.push((zone, id)),
    }
}

/// The `zones` column of `runs`: none when every message keeps Paris's window.
pub(crate) fn column(runs: &[ZoneRun]) -> Option<String> {
    if runs.iter().all(|&(zone, _)| zone == Zone::Paris) {
        return None;
    }
    let named: Vec<(&str, i64)> = runs.iter().map(|&(zone, last)| (zone.as_str(), last)).collect();
    serde_json::to_string(&named).ok()
}

/// The runs a `zones` column holds (none for NULL: every message keeps Paris's window).
pub(crate) fn parse(column: Option<&str>) -> Vec<ZoneRun> {
    let named: Vec<(String, i64)> = column.and_then(|json| serde_json::from_str(json).ok()).unwrap_or_default();
    named.into_iter().filter_map(|(zone, last)| Some((Zone::parse(&zone)?, last))).collect()
}

/// The id ranges (after, up to] of a campaign's messages that may be handed over while `open`
/// windows are: every message for an alert; for marketing, those of the runs whose window is
/// open (all of them in Paris's without runs), none after `hold` (an A/B test's rest waiting
/// for its winner). Adjacent ranges are joined.
pub(crate) fn open_ranges(pushtype: PushType, runs: &[ZoneRun], open: OpenWindows, hold: i64) -> Vec<IdRange> {
    if pushtype == PushType::Alert {
        return vec![(0, hold)];
    }
    if runs.is_empty() {
        return if open.contains(Zone::Paris) { vec![(0, hold)] } else { Vec::new() };
    }
    let mut ranges: Vec<IdRange> = Vec::new();
    let mut after = 0;
    for &(zone, last) in runs {
        if open.contains(zone) && after < hold {
            match ranges.last_mut() {
                Some((_, up_to)) if *up_to == after => *up_to = last.min(hold),
                _ => ranges.push((after, last.min(hold))),
            }
        }
        after = last;
    }
    ranges
}

/// When the last window among the messages up to `hold` (an A/B test's sample) opens, from
/// `at`: `at` for an alert or a campaign without runs (Paris's window, in which `at` already
/// lies), else the latest of its zones' next openings.
pub(crate) fn last_opening(pushtype: PushType, runs: &[ZoneRun], hold: i64, at: DateTime<Utc>) -> DateTime<Utc> {
    let mut after = 0;
    let mut latest = at;
    for &(zone, last) in runs {
        if after < hold {
            latest = latest.max(next_allowed_send_in(zone, pushtype, at));
        }
        after = last;
    }
    latest
}

#[cfg(test)]
mod tests {
    use super::*;

    const RE: Zone = Zone::Overseas(Territory::Reunion);
    const NC: Zone = Zone::Overseas(Territory::NewCaledonia);

    #[test]
    fn runs_read_back_as_written_and_paris_alone_is_no_column() {
        let mut runs = Vec::new();
        for (zone, id) in [(Zone::Paris, 1), (Zone::Paris, 2), (RE, 3), (RE, 5), (NC, 6), (Zone::Paris, 9)] {
            extend(&mut runs, zone, id);
        }
        assert_eq!(runs, [(Zone::Paris, 2), (RE, 5), (NC, 6), (Zone::Paris, 9)]);
        assert_eq!(parse(column(&runs).as_deref()), runs);
        assert_eq!(column(&[(Zone::Paris, 4)]), None);
        assert_eq!(parse(None), []);
    }

    #[test]
    fn a_sample_goes_out_when_the_last_of_its_windows_opens() {
        // Saturday 2026-11-28 at 17:00 UTC: 18:00 in Paris, 21:00 in La Réunion, 04:00 on
        // Sunday in New Caledonia.
        let at = chrono::DateTime::parse_from_rfc3339("2026-11-28T17:00:00Z").expect("a time").to_utc();
        let runs = [(Zone::Paris, 10), (RE, 20), (NC, 30), (Zone::Paris, 100)];
        let marketing = PushType::Marketing;
        // La Réunion opens Monday 08:00 there (04:00 UTC); New Caledonia Monday 08:00 there
        // (Sunday 21:00 UTC).
        let reunion = next_allowed_send_in(RE, marketing, at);
        assert_eq!(reunion.to_rfc3339(), "2026-11-30T04:00:00+00:00");
        assert_eq!(last_opening(marketing, &runs, 25, at), reunion, "the sample reaches into both territories");
        assert_eq!(last_opening(marketing, &runs, 10, at), at, "a Paris-only sample goes at once");
        assert_eq!(last_opening(marketing, &[], 10, at), at);
        assert_eq!(last_opening(PushType::Alert, &runs, 25, at), at, "an alert goes everywhere at once");
    }

    #[test]
    fn only_the_open_windows_runs_go_and_never_past_the_hold() {
        let runs = [(Zone::Paris, 10), (RE, 20), (NC, 30), (Zone::Paris, 100), (RE, 120)];
        let paris = OpenWindows::NONE.with(Zone::Paris);
        let overseas = OpenWindows::NONE.with(RE).with(NC);
        let marketing = PushType::Marketing;
        assert_eq!(open_ranges(marketing, &runs, paris, i64::MAX), [(0, 10), (30, 100)]);
        assert_eq!(open_ranges(marketing, &runs, overseas, i64::MAX), [(10, 30), (100, 120)]);
        assert_eq!(open_ranges(marketing, &runs, overseas, 25), [(10, 25)], "the sample only");
        assert_eq!(open_ranges(marketing, &runs, OpenWindows::NONE, i64::MAX), []);
        assert_eq!(open_ranges(PushType::Alert, &runs, OpenWindows::NONE, 25), [(0, 25)]);
        assert_eq!(open_ranges(marketing, &[], paris, i64::MAX), [(0, i64::MAX)]);
        assert_eq!(open_ranges(marketing, &[], overseas, i64::MAX), []);
    }
}
