//! The overseas territories' marketing windows (docs/interface.md §5.2): their own clock
//! (summer time included), their own holidays, and the Paris window for every other number.

use chrono::{DateTime, Datelike, TimeDelta, TimeZone, Timelike, Utc, Weekday};
use texto_core::{
    OpenWindows, PushType, Territory, Zone, next_allowed_send, next_allowed_send_in, parse_international,
};

fn utc(y: i32, mo: u32, d: u32, h: u32, mi: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(y, mo, d, h, mi, 0).unwrap()
}

fn marketing_in(territory: Territory, at: DateTime<Utc>) -> DateTime<Utc> {
    next_allowed_send_in(Zone::Overseas(territory), PushType::Marketing, at)
}

fn zone_of(number: &str) -> Zone {
    Zone::of(parse_international(number).expect("a number"))
}

#[test]
fn each_number_keeps_its_territorys_window_and_every_other_keeps_paris() {
    assert_eq!(zone_of("262692123456"), Zone::Overseas(Territory::Reunion));
    assert_eq!(zone_of("262639012345"), Zone::Overseas(Territory::Mayotte), "Mayotte shares +262 with La Réunion");
    assert_eq!(zone_of("590690123456"), Zone::Overseas(Territory::Guadeloupe));
    assert_eq!(zone_of("596696123456"), Zone::Overseas(Territory::Martinique));
    assert_eq!(zone_of("594694123456"), Zone::Overseas(Territory::FrenchGuiana));
    assert_eq!(zone_of("508551234"), Zone::Overseas(Territory::SaintPierreEtMiquelon));
    assert_eq!(zone_of("687751234"), Zone::Overseas(Territory::NewCaledonia));
    assert_eq!(zone_of("68987123456"), Zone::Overseas(Territory::FrenchPolynesia));
    assert_eq!(zone_of("681821234"), Zone::Overseas(Territory::WallisEtFutuna));
    assert_eq!(zone_of("33612345678"), Zone::Paris);
    assert_eq!(zone_of("32470123456"), Zone::Paris, "a Belgian number keeps the Paris window");
    for zone in std::iter::once(Zone::Paris).chain(Territory::ALL.map(Zone::Overseas)) {
        assert_eq!(Zone::parse(zone.as_str()), Some(zone));
    }
    assert_eq!(Zone::parse("XX"), None);
}

#[test]
fn a_territory_opens_at_eight_of_its_own_time() {
    // Monday 30 November 2026, 03:30 UTC: 07:30 in La Réunion (UTC+4), 04:30 in Paris.
    let at = utc(2026, 11, 30, 3, 30);
    assert_eq!(marketing_in(Territory::Reunion, at), utc(2026, 11, 30, 4, 0));
    assert_eq!(marketing_in(Territory::Mayotte, at), utc(2026, 11, 30, 5, 0), "Mayotte is UTC+3");
    assert_eq!(next_allowed_send(PushType::Marketing, at), utc(2026, 11, 30, 7, 0));
    // 19:59 in Martinique (UTC−4) is open; 20:00 waits for Tuesday 08:00.
    assert_eq!(marketing_in(Territory::Martinique, utc(2026, 12, 1, 23, 59)), utc(2026, 12, 1, 23, 59));
    assert_eq!(marketing_in(Territory::Martinique, utc(2026, 12, 2, 0, 0)), utc(2026, 12, 2, 12, 0));
    // Alerts go at any time, anywhere.
    let sunday = utc(2026, 11, 29, 3, 0);
    assert_eq!(next_allowed_send_in(Zone::Overseas(Territory::Reunion), PushType::Alert, sunday), sunday);
}

#[test]
fn saint_pierre_et_miquelon_keeps_summer_time() {
    // UTC−2 in summer, UTC−3 in winter: 08:00 there is 10:00 UTC in July and 11:00 in December.
    let pm = Territory::SaintPierreEtMiquelon;
    assert_eq!(marketing_in(pm, utc(2026, 7, 1, 9, 30)), utc(2026, 7, 1, 10, 0));
    assert_eq!(marketing_in(pm, utc(2026, 12, 1, 10, 30)), utc(2026, 12, 1, 11, 0));
}

#[test]
fn sunday_is_each_territorys_own_sunday() {
    // Saturday 28 November 2026, 21:30 UTC: Sunday 08:30 in Nouméa (UTC+11), still Saturday
    // in Paris.
    let at = utc(2026, 11, 28, 21, 30);
    assert_eq!(marketing_in(Territory::NewCaledonia, at), utc(2026, 11, 29, 21, 0), "Monday 08:00 in Nouméa");
    assert_eq!(marketing_in(Territory::FrenchPolynesia, at), at, "Saturday 11:30 in Tahiti");
}

#[test]
fn each_territory_rests_on_its_own_holidays_and_frances() {
    // The abolition of slavery: 20 December 2027 (a Monday) in La Réunion only.
    let monday = utc(2027, 12, 20, 6, 0);
    assert_eq!(marketing_in(Territory::Reunion, monday), utc(2027, 12, 21, 4, 0));
    assert_eq!(marketing_in(Territory::Mayotte, monday), monday);
    // 27 April 2027 (a Tuesday) in Mayotte; 27 May 2027 (a Thursday) in Guadeloupe; 22 May
    // 2026 (a Friday) in Martinique; 10 June 2027 (a Thursday) in French Guiana.
    assert_eq!(marketing_in(Territory::Mayotte, utc(2027, 4, 27, 9, 0)), utc(2027, 4, 28, 5, 0));
    assert_eq!(marketing_in(Territory::Guadeloupe, utc(2027, 5, 27, 15, 0)), utc(2027, 5, 28, 12, 0));
    assert_eq!(marketing_in(Territory::Martinique, utc(2026, 5, 22, 15, 0)), utc(2026, 5, 23, 12, 0));
    assert_eq!(marketing_in(Territory::FrenchGuiana, utc(2027, 6, 10, 15, 0)), utc(2027, 6, 11, 11, 0));
    // Good Friday 2027 (26 March) in French Polynesia, whose Saturday is open.
    assert_eq!(marketing_in(Territory::FrenchPolynesia, utc(2027, 3, 26, 20, 0)), utc(2027, 3, 27, 18, 0));
    // 14 July everywhere.
    assert_eq!(marketing_in(Territory::NewCaledonia, utc(2027, 7, 13, 22, 0)), utc(2027, 7, 14, 21, 0));
    assert!(Territory::WallisEtFutuna.is_public_holiday(chrono::NaiveDate::from_ymd_opt(2027, 7, 29).unwrap()));
}

#[test]
fn the_open_windows_are_those_of_that_instant() {
    // Monday 30 November 2026, 05:00 UTC: 06:00 in Paris, 09:00 in La Réunion, 08:00 in
    // Mayotte, 16:00 in Nouméa, 01:00 in Guadeloupe.
    let open = OpenWindows::at(utc(2026, 11, 30, 5, 0));
    assert!(!open.contains(Zone::Paris));
    for territory in [Territory::Reunion, Territory::Mayotte, Territory::NewCaledonia, Territory::WallisEtFutuna] {
        assert!(open.contains(Zone::Overseas(territory)), "{territory:?}");
    }
    assert!(!open.contains(Zone::Overseas(Territory::Guadeloupe)));
    assert!(OpenWindows::NONE.with(Zone::Paris).contains(Zone::Paris));
    assert!(!OpenWindows::NONE.contains(Zone::Paris));
}

#[test]
fn the_next_send_is_never_earlier_and_always_inside_its_window() {
    // Every 41 minutes over two years, for each territory.
    for territory in Territory::ALL {
        let zone = territory.time_zone();
        let mut at = utc(2026, 1, 1, 0, 0);
        while at < utc(2028, 1, 1, 0, 0) {
            let next = marketing_in(territory, at);
            let local = next.with_timezone(&zone).naive_local();
            assert!(next >= at && next - at < TimeDelta::days(4), "{territory:?}: {at} → {local}");
            assert!((8..20).contains(&local.hour()), "{territory:?}: {at} → {local}");
            assert_ne!(local.weekday(), Weekday::Sun, "{territory:?}: {at} → {local}");
            assert!(!territory.is_public_holiday(local.date()), "{territory:?}: {at} → {local}");
            assert!(OpenWindows::at(next).contains(Zone::Overseas(territory)), "{territory:?}: {at} → {local}");
            at += TimeDelta::minutes(41);
        }
    }
}
