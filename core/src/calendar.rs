//! The Paris calendar (docs/interface.md §5): French public holidays, the marketing window, and the
//! `delay` field (`Y-m-d H:i:s` in Europe/Paris).

use std::fmt;

use chrono::{
    DateTime, Datelike, Days, LocalResult, Months, NaiveDate, NaiveDateTime, NaiveTime, Offset, TimeZone, Timelike,
    Utc, Weekday,
};
use chrono_tz::{Europe::Paris, Tz};

use crate::PushType;

/// Marketing goes out from this Paris wall-clock hour (inclusive)…
const WINDOW_START_HOUR: u32 = 8;
/// …until this one (exclusive).
const WINDOW_END_HOUR: u32 = 20;

/// Easter Sunday of a Gregorian `year` (anonymous Gregorian algorithm, Meeus/Jones/Butcher).
///
/// Floor (Euclidean) division keeps it valid for years before 1 CE too. `year` must already be
/// within chrono's range; Easter always falls between 22 March and 25 April.
fn easter_sunday(year: i32) -> NaiveDate {
    let a = year.rem_euclid(19);
    let b = year.div_euclid(100);
    let c = year.rem_euclid(100);
    let d = b.div_euclid(4);
    let e = b.rem_euclid(4);
    let f = (b + 8).div_euclid(25);
    let g = (b - f + 1).div_euclid(3);
    let h = (19 * a + b - d - g + 15).rem_euclid(30);
    let i = c.div_euclid(4);
    let k = c.rem_euclid(4);
    let l = (32 + 2 * e + 2 * i - h - k).rem_euclid(7);
    let m = (a + 11 * h + 22 * l).div_euclid(451);
    let month = (h + l - 7 * m + 114).div_euclid(31);
    let day = (h + l - 7 * m + 114).rem_euclid(31) + 1;
    // month is 3 or 4 and day 1..=31 by construction; the casts cannot wrap.
    ymd(year, month as u32, day as u32)
}

/// A date that is known to exist (the fallback is unreachable for in-range years).
fn ymd(year: i32, month: u32, day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(year, month, day).unwrap_or(NaiveDate::MIN)
}

/// The 11 French public holidays of `year`, in calendar order: 1 January, Easter Monday,
/// 1 May, 8 May, Ascension (Easter + 39 days), Whit Monday (Easter + 50 days), 14 July,
/// 15 August, 1 November, 11 November and 25 December.
///
/// Easter follows the Gregorian computus for any year. Years outside chrono's date range
/// (about ±262 000) are clamped to its first or last year.
pub fn french_public_holidays(year: i32) -> [NaiveDate; 11] {
    let year = year.clamp(NaiveDate::MIN.year(), NaiveDate::MAX.year());
    let easter = easter_sunday(year);
    // Easter is in March or April, so these offsets stay inside the same year.
    let after_easter = |days| easter.checked_add_days(Days::new(days)).unwrap_or(easter);
    [
        ymd(year, 1, 1),
        after_easter(1),
        ymd(year, 5, 1),
        ymd(year, 5, 8),
        after_easter(39),
        after_easter(50),
        ymd(year, 7, 14),
        ymd(year, 8, 15),
        ymd(year, 11, 1),
        ymd(year, 11, 11),
        ymd(year, 12, 25),
    ]
}

/// Whether `date` is one of the French public holidays of its year
/// (see [`french_public_holidays`]).
pub fn is_french_public_holiday(date: NaiveDate) -> bool {
    french_public_holidays(date.year()).contains(&date)
}

/// Whether marketing may go out at some time of this Paris calendar day.
pub(crate) fn is_marketing_day(date: NaiveDate) -> bool {
    date.weekday() != Weekday::Sun && !is_french_public_holiday(date)
}

/// The wall-clock time of `at` in `zone`, or `None` at the very edges of chrono's range.
pub(crate) fn local_time(zone: Tz, at: DateTime<Utc>) -> Option<NaiveDateTime> {
    let offset = zone.offset_from_utc_datetime(&at.naive_utc()).fix();
    at.naive_utc().checked_add_offset(offset)
}

/// The earliest instant at or after `at` when a campaign of kind `pushtype` may be sent
/// (docs/interface.md §5.2).
///
/// Alerts may go out at any time: `at` is returned unchanged. Marketing goes out Monday to
/// Saturday from 08:00 (inclusive) to 20:00 (exclusive) Europe/Paris, never on a French public
/// holiday: inside that window `at` is returned unchanged, otherwise the result is 08:00:00
/// Paris time of the next allowed day, as a UTC instant (DST aware). Numbers of the overseas
/// territories keep their own clock and holidays: see [`crate::next_allowed_send_in`].
///
/// At most a few days are ever skipped. Only at the very end of chrono's range, where no later
/// day can be represented, is `at` returned unchanged.
pub fn next_allowed_send(pushtype: PushType, at: DateTime<Utc>) -> DateTime<Utc> {
    if pushtype == PushType::Alert {
        return at;
    }
    next_opening(Paris, is_marketing_day, at)
}

/// The earliest instant at or after `at` inside the marketing window of a place whose clock is
/// `zone` and whose marketing days are those `is_day` accepts: 08:00 to 20:00 local time.
pub(crate) fn next_opening(zone: Tz, is_day: impl Fn(NaiveDate) -> bool, at: DateTime<Utc>) -> DateTime<Utc> {
    let Some(local) = local_time(zone, at) else {
        return at;
    };
    let today = local.date();
    let hour = local.hour();
    if is_day(today) && (WINDOW_START_HOUR..WINDOW_END_HOUR).contains(&hour) {
        return at;
    }
    let first = if hour < WINDOW_START_HOUR { Some(today) } else { today.succ_opt() };
    let opening = NaiveTime::from_hms_opt(WINDOW_START_HOUR, 0, 0).unwrap_or(NaiveTime::MIN);
    // A Sunday next to a holiday (or two adjacent holidays) blocks at most three days in a
    // row; two weeks is a generous bound that still keeps the loop finite for any input.
    let mut day = first;
    for _ in 0..14 {
        let Some(date) = day else { break };
        if is_day(date) {
            // 08:00 is never inside a DST transition of the zones texto knows (they happen at
            // night), but `earliest` would still pick a sensible instant if it were.
            if let Some(open) = zone.from_local_datetime(&date.and_time(opening)).earliest() {
                return open.with_timezone(&Utc);
            }
        }
        day = date.succ_opt();
    }
    at
}

/// Why a `delay` value was refused. All of them are answered with status -4 (docs/interface.md §1.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DelayError {
    /// Not `Y-m-d H:i:s` with zero-padded fields, or not a real calendar date and time.
    Format,
    /// A Paris wall-clock time skipped by the switch to summer time (e.g. 02:30 on the last
    /// Sunday of March).
    NonexistentLocalTime,
    /// Later than one calendar year after now.
    TooFarAhead,
}

impl fmt::Display for DelayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DelayError::Format => "delay must be formatted Y-m-d H:i:s in Paris time, e.g. 2026-12-24 09:30:00",
            DelayError::NonexistentLocalTime => {
                "delay does not exist in Paris time (the clocks skip that hour when summer time starts)"
            }
            DelayError::TooFarAhead => "delay must not be more than one year ahead",
        })
    }
}

impl std::error::Error for DelayError {}

/// Whether `s` has exactly `shape`'s bytes, each `d` of it an ASCII digit.
fn has_shape(s: &str, shape: &[u8]) -> bool {
    let b = s.as_bytes();
    b.len() == shape.len()
        && b.iter().zip(shape).all(|(&c, &want)| match want {
            b'd' => c.is_ascii_digit(),
            sep => c == sep,
        })
}

/// The number in `s[from..to]`, which [`has_shape`] found to be digits.
fn number_at(s: &str, from: usize, to: usize) -> Option<u32> {
    // All ASCII digits, so slicing on these byte offsets is on char boundaries.
    s.get(from..to)?.parse::<u32>().ok()
}

/// Parses exactly `YYYY-MM-DD` (every field zero-padded) into a day that exists on the
/// calendar, e.g. a day of the interface's answers (`2026-08-29`).
pub fn parse_day(s: &str) -> Option<NaiveDate> {
    if !has_shape(s, b"dddd-dd-dd") {
        return None;
    }
    NaiveDate::from_ymd_opt(i32::try_from(number_at(s, 0, 4)?).ok()?, number_at(s, 5, 7)?, number_at(s, 8, 10)?)
}

/// Parses exactly `YYYY-MM-DD HH:MM:SS` (PHP's `Y-m-d H:i:s`, every field zero-padded) into a
/// naive date-time, checking that the date and time exist on the calendar.
fn parse_wall_clock(s: &str) -> Option<NaiveDateTime> {
    if !has_shape(s, b"dddd-dd-dd dd:dd:dd") {
        return None;
    }
    let date = parse_day(s.get(..10)?)?;
    let time = NaiveTime::from_hms_opt(number_at(s, 11, 13)?, number_at(s, 14, 16)?, number_at(s, 17, 19)?)?;
    Some(date.and_time(time))
}

/// Parses a `delay` field (docs/interface.md §5.1): `Y-m-d H:i:s` in Europe/Paris, e.g.
/// `2026-12-24 09:30:00`; surrounding whitespace is ignored.
///
/// * Empty → `Ok(None)`: send now.
/// * A time at or before `now` → `Ok(None)`: send now.
/// * Otherwise → `Ok(Some(instant))`.
///
/// An ambiguous local time (the repeated hour when summer time ends) takes the first, earlier
/// instant. Errors: [`DelayError::Format`] for anything not exactly `Y-m-d H:i:s` with
/// zero-padded fields or not a real date/time; [`DelayError::NonexistentLocalTime`] for a time
/// skipped when summer time starts (checked before the past/now test, so such a value is refused
/// even when it lies in the past); [`DelayError::TooFarAhead`] for an instant later than `now`
/// plus 12 calendar months (computed in UTC; a 29 February `now` gives 28 February next year as
/// the limit, which itself is still accepted).
pub fn parse_delay(input: &str, now: DateTime<Utc>) -> Result<Option<DateTime<Utc>>, DelayError> {
    let input = input.trim();
    if input.is_empty() {
        return Ok(None);
    }
    let at = parse_paris(input)?;
    if at <= now {
        return Ok(None);
    }
    match now.checked_add_months(Months::new(12)) {
        Some(limit) if at > limit => Err(DelayError::TooFarAhead),
        _ => Ok(Some(at)),
    }
}

/// Parses exactly `Y-m-d H:i:s` in Paris wall-clock time (the `delay` format, e.g.
/// `2026-12-24 09:30:00`) into an instant, whether past or future.
///
/// An ambiguous local time (the repeated hour when summer time ends) takes the first, earlier
/// instant. Errors: [`DelayError::Format`] for anything else, surrounding whitespace included;
/// [`DelayError::NonexistentLocalTime`] for a time skipped when summer time starts.
pub fn parse_paris(input: &str) -> Result<DateTime<Utc>, DelayError> {
    let wall = parse_wall_clock(input).ok_or(DelayError::Format)?;
    match Paris.from_local_datetime(&wall) {
        LocalResult::Single(t) | LocalResult::Ambiguous(t, _) => Ok(t.with_timezone(&Utc)),
        LocalResult::None => Err(DelayError::NonexistentLocalTime),
    }
}

/// `at` as `Y-m-d H:i:s` in Paris wall-clock time (the `delay` wire format), e.g.
/// `2026-12-24 09:30:00`.
pub fn format_paris(at: DateTime<Utc>) -> String {
    // Written out rather than with chrono's strftime, whose parser and formatter would
    // otherwise weigh on every page of the web app.
    // At the very edges of chrono's range, where Paris time cannot be represented: UTC's.
    let local = local_time(Paris, at).unwrap_or(at.naive_utc());
    let (date, time) = (local.date(), local.time());
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02}:{:02}",
        date.year(),
        date.month(),
        date.day(),
        time.hour(),
        time.minute(),
        time.second()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(y: i32, mo: u32, d: u32, h: u32, mi: u32, s: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(y, mo, d, h, mi, s).unwrap()
    }

    #[test]
    fn parse_paris_reads_the_delay_format_past_or_future() {
        let winter = parse_paris("2026-12-24 09:30:00");
        assert_eq!(winter, Ok(utc(2026, 12, 24, 8, 30, 0)));
        let summer = parse_paris("2026-07-14 09:30:00");
        assert_eq!(summer, Ok(utc(2026, 7, 14, 7, 30, 0)));
        let past = parse_paris("1999-12-31 23:59:59");
        assert_eq!(past, Ok(utc(1999, 12, 31, 22, 59, 59)));
        let ambiguous = parse_paris("2026-10-25 02:30:00");
        assert_eq!(ambiguous, Ok(utc(2026, 10, 25, 0, 30, 0)));
        let skipped = parse_paris("2026-03-29 02:30:00");
        assert_eq!(skipped, Err(DelayError::NonexistentLocalTime));
        for bad in ["", " 2026-12-24 09:30:00", "2026-12-24T09:30:00Z", "2026-02-29 10:00:00"] {
            assert_eq!(parse_paris(bad), Err(DelayError::Format), "{bad:?}");
        }
    }
}
