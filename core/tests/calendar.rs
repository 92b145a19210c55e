//! The Paris calendar (docs/interface.md §5): holidays, the marketing window, `delay` parsing.

use chrono::{DateTime, Datelike, NaiveDate, TimeZone, Utc, Weekday};
use texto_core::{
    DelayError, PushType, format_paris, french_public_holidays, is_french_public_holiday, next_allowed_send,
    parse_delay,
};

fn date(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

fn utc(y: i32, mo: u32, d: u32, h: u32, mi: u32, s: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(y, mo, d, h, mi, s).unwrap()
}

/// Easter Sunday as the day before Easter Monday.
fn easter(year: i32) -> NaiveDate {
    french_public_holidays(year)[1].pred_opt().unwrap()
}

#[test]
fn easter_known_years() {
    for (y, m, d) in [
        (2024, 3, 31),
        (2025, 4, 20),
        (2026, 4, 5),
        (2027, 3, 28),
        (2038, 4, 25),
        (2000, 4, 23),
        (1818, 3, 22),
        (2285, 3, 22),
        (1943, 4, 25),
        (1961, 4, 2),
        (2008, 3, 23),
        (2011, 4, 24),
    ] {
        assert_eq!(easter(y), date(y, m, d), "Easter {y}");
    }
}

#[test]
fn easter_is_a_sunday_between_22_march_and_25_april() {
    for y in 1583..=5000 {
        let e = easter(y);
        assert_eq!(e.weekday(), Weekday::Sun, "{e}");
        assert!(e >= date(y, 3, 22) && e <= date(y, 4, 25), "{e}");
    }
}

#[test]
fn holidays_of_2026() {
    let expected = [
        date(2026, 1, 1),
        date(2026, 4, 6),
        date(2026, 5, 1),
        date(2026, 5, 8),
        date(2026, 5, 14),
        date(2026, 5, 25),
        date(2026, 7, 14),
        date(2026, 8, 15),
        date(2026, 11, 1),
        date(2026, 11, 11),
        date(2026, 12, 25),
    ];
    assert_eq!(french_public_holidays(2026), expected);
    for d in expected {
        assert!(is_french_public_holiday(d), "{d}");
    }
    assert!(!is_french_public_holiday(date(2026, 4, 5))); // Easter Sunday itself
    assert!(!is_french_public_holiday(date(2026, 12, 24)));
    assert!(!is_french_public_holiday(date(2026, 12, 26)));
}

#[test]
fn holidays_never_panic_for_any_year() {
    for y in [i32::MIN, -262_145, -262_144, -1, 0, 1, 262_142, 262_143, i32::MAX] {
        let h = french_public_holidays(y);
        assert!(h.windows(2).all(|w| w[0] < w[1]), "{y}: {h:?}");
    }
}

// Marketing window. March 2026: 1 = Sunday, 29 = Sunday (summer time starts at 01:00 UTC).

fn marketing(at: DateTime<Utc>) -> DateTime<Utc> {
    next_allowed_send(PushType::Marketing, at)
}

#[test]
fn sunday_goes_to_monday_0800() {
    assert_eq!(marketing(utc(2026, 3, 1, 9, 0, 0)), utc(2026, 3, 2, 7, 0, 0));
}

#[test]
fn inside_the_window_is_unchanged() {
    // Saturday 19:59:59 Paris (CET).
    let at = utc(2026, 3, 7, 18, 59, 59);
    assert_eq!(marketing(at), at);
    // Tuesday 08:00:00 Paris exactly.
    let at = utc(2026, 3, 10, 7, 0, 0);
    assert_eq!(marketing(at), at);
}

#[test]
fn saturday_2000_goes_to_monday() {
    assert_eq!(marketing(utc(2026, 3, 7, 19, 0, 0)), utc(2026, 3, 9, 7, 0, 0));
}

#[test]
fn saturday_before_easter_monday_goes_to_tuesday() {
    // Saturday 4 April 2026 20:00 CEST; Monday 6 April is Easter Monday.
    assert_eq!(marketing(utc(2026, 4, 4, 18, 0, 0)), utc(2026, 4, 7, 6, 0, 0));
}

#[test]
fn early_morning_goes_to_0800_same_day() {
    // Tuesday 10 March 2026 07:59 CET.
    assert_eq!(marketing(utc(2026, 3, 10, 6, 59, 0)), utc(2026, 3, 10, 7, 0, 0));
}

#[test]
fn weekday_holiday_is_skipped() {
    // Tuesday 14 July 2026 10:00 CEST → Wednesday 15 July 08:00 CEST.
    assert_eq!(marketing(utc(2026, 7, 14, 8, 0, 0)), utc(2026, 7, 15, 6, 0, 0));
}

#[test]
fn christmas_eve_evening_goes_to_26_december() {
    // Thursday 24 December 2026 21:00 CET → Saturday 26 December 08:00 CET.
    assert_eq!(marketing(utc(2026, 12, 24, 20, 0, 0)), utc(2026, 12, 26, 7, 0, 0));
}

#[test]
fn new_years_eve_evening_goes_to_2_january() {
    // Thursday 31 December 2026 20:30 CET → Saturday 2 January 2027 08:00 CET.
    assert_eq!(marketing(utc(2026, 12, 31, 19, 30, 0)), utc(2027, 1, 2, 7, 0, 0));
}

#[test]
fn spring_forward_weekend() {
    // Saturday 28 March 20:00 CET → Monday 30 March 08:00 CEST = 06:00 UTC.
    assert_eq!(marketing(utc(2026, 3, 28, 19, 0, 0)), utc(2026, 3, 30, 6, 0, 0));
    // Sunday 29 March, right after the switch (03:00 CEST).
    assert_eq!(marketing(utc(2026, 3, 29, 1, 0, 0)), utc(2026, 3, 30, 6, 0, 0));
    // Monday 30 March 06:30 UTC is 08:30 CEST: inside (it would be 07:30 in winter time).
    let at = utc(2026, 3, 30, 6, 30, 0);
    assert_eq!(marketing(at), at);
    // Monday 30 March 05:59 UTC is 07:59 CEST.
    assert_eq!(marketing(utc(2026, 3, 30, 5, 59, 0)), utc(2026, 3, 30, 6, 0, 0));
    // Monday 30 March 18:00 UTC is 20:00 CEST: closed.
    assert_eq!(marketing(utc(2026, 3, 30, 18, 0, 0)), utc(2026, 3, 31, 6, 0, 0));
}

#[test]
fn fall_back_weekend() {
    // Saturday 24 October 20:00 CEST → Monday 26 October 08:00 CET = 07:00 UTC.
    assert_eq!(marketing(utc(2026, 10, 24, 18, 0, 0)), utc(2026, 10, 26, 7, 0, 0));
    // Sunday 25 October 02:30 CEST and 02:30 CET (both sides of the repeated hour).
    assert_eq!(marketing(utc(2026, 10, 25, 0, 30, 0)), utc(2026, 10, 26, 7, 0, 0));
    assert_eq!(marketing(utc(2026, 10, 25, 1, 30, 0)), utc(2026, 10, 26, 7, 0, 0));
    // Monday 26 October 06:30 UTC is 07:30 CET: not yet open.
    assert_eq!(marketing(utc(2026, 10, 26, 6, 30, 0)), utc(2026, 10, 26, 7, 0, 0));
}

#[test]
fn alerts_are_never_postponed() {
    for at in [utc(2026, 3, 1, 3, 0, 0), utc(2026, 12, 25, 22, 0, 0), utc(2026, 3, 7, 19, 0, 0)] {
        assert_eq!(next_allowed_send(PushType::Alert, at), at);
    }
}

#[test]
fn next_allowed_send_never_panics_at_the_edges() {
    for at in [DateTime::<Utc>::MIN_UTC, DateTime::<Utc>::MAX_UTC] {
        let _ = marketing(at);
        let _ = format_paris(at);
    }
}

#[test]
fn next_allowed_send_is_always_allowed_and_not_earlier() {
    // Every 37 minutes over two years: the result is never earlier, and always inside the window.
    let mut at = utc(2026, 1, 1, 0, 0, 0);
    while at < utc(2028, 1, 1, 0, 0, 0) {
        let next = marketing(at);
        assert!(next >= at);
        let paris = format_paris(next);
        let local = chrono::NaiveDateTime::parse_from_str(&paris, "%Y-%m-%d %H:%M:%S").unwrap();
        let hour = chrono::Timelike::hour(&local);
        assert!((8..20).contains(&hour), "{at} → {paris}");
        assert_ne!(local.weekday(), Weekday::Sun, "{at} → {paris}");
        assert!(!is_french_public_holiday(local.date()), "{at} → {paris}");
        assert!(next - at < chrono::TimeDelta::days(4), "{at} → {paris}");
        at += chrono::TimeDelta::minutes(37);
    }
}

// `delay` parsing.

fn now() -> DateTime<Utc> {
    utc(2026, 6, 1, 12, 0, 0) // 14:00 CEST
}

#[test]
fn empty_delay_sends_now() {
    assert_eq!(parse_delay("", now()), Ok(None));
    assert_eq!(parse_delay("  \t\n", now()), Ok(None));
}

#[test]
fn past_or_present_delay_sends_now() {
    assert_eq!(parse_delay("2026-01-01 00:00:00", now()), Ok(None));
    assert_eq!(parse_delay("2026-06-01 14:00:00", now()), Ok(None));
    assert_eq!(parse_delay("2026-06-01 14:00:01", now()), Ok(Some(utc(2026, 6, 1, 12, 0, 1))));
}

#[test]
fn future_delay_in_winter_and_summer() {
    // Winter: UTC+1.
    assert_eq!(parse_delay("2026-12-24 09:30:00", now()), Ok(Some(utc(2026, 12, 24, 8, 30, 0))));
    // Summer: UTC+2.
    assert_eq!(parse_delay("2026-07-14 09:30:00", now()), Ok(Some(utc(2026, 7, 14, 7, 30, 0))));
    // Surrounding whitespace is trimmed.
    assert_eq!(parse_delay(" 2026-12-24 09:30:00\n", now()), Ok(Some(utc(2026, 12, 24, 8, 30, 0))));
}

#[test]
fn nonexistent_local_time_is_refused() {
    let jan = utc(2026, 1, 1, 0, 0, 0);
    assert_eq!(parse_delay("2026-03-29 02:30:00", jan), Err(DelayError::NonexistentLocalTime));
    assert_eq!(parse_delay("2026-03-29 02:00:00", jan), Err(DelayError::NonexistentLocalTime));
    // Just outside the gap.
    assert_eq!(parse_delay("2026-03-29 01:59:59", jan), Ok(Some(utc(2026, 3, 29, 0, 59, 59))));
    assert_eq!(parse_delay("2026-03-29 03:00:00", jan), Ok(Some(utc(2026, 3, 29, 1, 0, 0))));
    // Refused even when it lies in the past.
    assert_eq!(parse_delay("2026-03-29 02:30:00", now()), Err(DelayError::NonexistentLocalTime));
}

#[test]
fn ambiguous_local_time_takes_the_first() {
    let jan = utc(2026, 1, 1, 0, 0, 0);
    assert_eq!(parse_delay("2026-10-25 02:30:00", jan), Ok(Some(utc(2026, 10, 25, 0, 30, 0))));
}

#[test]
fn more_than_one_year_ahead_is_refused() {
    // now + 12 months = 2027-06-01 12:00 UTC = 14:00 CEST; the limit itself is accepted.
    assert_eq!(parse_delay("2027-06-01 14:00:00", now()), Ok(Some(utc(2027, 6, 1, 12, 0, 0))));
    assert_eq!(parse_delay("2027-06-01 14:00:01", now()), Err(DelayError::TooFarAhead));
    assert_eq!(parse_delay("9999-12-31 23:59:59", now()), Err(DelayError::TooFarAhead));
    // From 29 February the limit is 28 February next year.
    let leap = utc(2028, 2, 29, 12, 0, 0);
    assert_eq!(parse_delay("2029-02-28 13:00:00", leap), Ok(Some(utc(2029, 2, 28, 12, 0, 0))));
    assert_eq!(parse_delay("2029-03-01 00:00:00", leap), Err(DelayError::TooFarAhead));
}

#[test]
fn bad_formats_are_refused() {
    for bad in [
        "2026-13-01 10:00:00",
        "2026-12-24T09:30:00",
        "24/12/2026 09:30",
        "2026-12-24 9:30:00",
        "abc",
        "2026-12-24",
        "2026-12-24 09:30",
        "2026-02-29 10:00:00",
        "2026-04-31 10:00:00",
        "2026-12-24 24:00:00",
        "2026-12-24 09:60:00",
        "2026-12-24 09:30:60",
        "2026-12-24 09:30:00Z",
        "2026-12-24  09:30:00",
        "+026-12-24 09:30:00",
        "2026-1-24 09:30:000",
        "２026-12-24 09:30:00",
        "2026-12-24 09:30:0é",
    ] {
        assert_eq!(parse_delay(bad, now()), Err(DelayError::Format), "{bad:?}");
    }
}

#[test]
fn delay_errors_read_well() {
    assert_eq!(
        DelayError::Format.to_string(),
        "delay must be formatted Y-m-d H:i:s in Paris time, e.g. 2026-12-24 09:30:00"
    );
    for e in [DelayError::NonexistentLocalTime, DelayError::TooFarAhead] {
        let message = e.to_string();
        assert!(message.starts_with("delay "), "{message}");
        let _: &dyn std::error::Error = &e;
    }
}

#[test]
fn format_paris_is_the_wire_format() {
    assert_eq!(format_paris(utc(2026, 12, 24, 8, 30, 0)), "2026-12-24 09:30:00");
    assert_eq!(format_paris(utc(2026, 7, 14, 7, 5, 9)), "2026-07-14 09:05:09");
    assert_eq!(format_paris(utc(2026, 10, 25, 0, 30, 0)), "2026-10-25 02:30:00");
    assert_eq!(format_paris(utc(2026, 10, 25, 1, 30, 0)), "2026-10-25 02:30:00");
    // Round trip through parse_delay.
    let at = utc(2026, 11, 2, 16, 45, 30);
    assert_eq!(parse_delay(&format_paris(at), now()), Ok(Some(at)));
}

#[test]
fn parse_day_reads_a_zero_padded_day_that_exists() {
    assert_eq!(texto_core::parse_day("2026-08-29"), Some(date(2026, 8, 29)));
    for bad in ["2026-8-29", "2026-02-30", " 2026-08-29", "2026-08-29 10:00:00", "29/08/2026", ""] {
        assert_eq!(texto_core::parse_day(bad), None, "{bad:?}");
    }
}

#[test]
fn format_paris_writes_the_delay_format_in_paris_time() {
    assert_eq!(format_paris(utc(2026, 12, 24, 8, 30, 5)), "2026-12-24 09:30:05");
    assert_eq!(format_paris(utc(2026, 7, 14, 22, 0, 0)), "2026-07-15 00:00:00", "summer time: UTC+2");
}
