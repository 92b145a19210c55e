//! A journey's clock: the days of a week and a time of day that a `wait` step waits for (in the
//! contact's own time), a schedule that puts a segment in a journey (in Paris time, as a
//! campaign's `delay`), and a date field that does (a birthday, a renewal: in the contact's
//! own time).

use chrono::{DateTime, Datelike, Duration, NaiveDate, NaiveTime, TimeZone, Utc, Weekday};
use chrono_tz::{Europe::Paris, Tz};

use crate::{ContactField, FieldError};

/// The most days a date trigger's offset moves the date, before or after.
pub const MOST_DATE_OFFSET_DAYS: i64 = 366;

const WEEKDAYS: [(Weekday, &str); 7] = [
    (Weekday::Mon, "mon"),
    (Weekday::Tue, "tue"),
    (Weekday::Wed, "wed"),
    (Weekday::Thu, "thu"),
    (Weekday::Fri, "fri"),
    (Weekday::Sat, "sat"),
    (Weekday::Sun, "sun"),
];

/// Some days of the week (never none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Weekdays(u8);

impl Weekdays {
    /// Every day.
    pub const EVERY_DAY: Weekdays = Weekdays(0x7f);

    /// The days named (`mon` … `sun` or `monday` …, any case) at `path`; none named:
    /// `when_none`.
    pub fn parse(names: &[String], path: &str, when_none: Option<Weekdays>) -> Result<Weekdays, FieldError> {
        let mut bits = 0u8;
        for name in names {
            let Ok(day) = name.trim().parse::<Weekday>() else {
                return Err(FieldError::new(path, "days of the week: mon, tue, wed, thu, fri, sat, sun"));
            };
            bits |= 1 << day.num_days_from_monday();
        }
        match (bits, when_none) {
            (0, Some(none)) => Ok(none),
            (0, None) => Err(FieldError::new(path, "at least one day of the week: mon … sun")),
            (bits, _) => Ok(Weekdays(bits)),
        }
    }

    /// Whether `day` is one of them.
    pub fn contains(self, day: Weekday) -> bool {
        self.0 & (1 << day.num_days_from_monday()) != 0
    }

    /// Their names, Monday first; none for every day.
    pub fn to_wire(self) -> Vec<String> {
        if self == Weekdays::EVERY_DAY {
            return Vec::new();
        }
        WEEKDAYS.iter().filter(|(day, _)| self.contains(*day)).map(|(_, name)| (*name).to_owned()).collect()
    }
}

/// A time of day, `HH:MM`, at `path`.
pub fn parse_clock(given: Option<&str>, path: &str) -> Result<NaiveTime, FieldError> {
    let given = given.unwrap_or("").trim();
    NaiveTime::parse_from_str(given, "%H:%M")
        .map_err(|_| FieldError::new(path, format!("a time of day, HH:MM, found {}", crate::excerpt(given))))
}

/// A time of day as written back.
pub fn format_clock(at: NaiveTime) -> String {
    at.format("%H:%M").to_string()
}

/// The instant `day` at `at` in `zone`: a time summer time skips is taken an hour later, and
/// a time it repeats the first time.
pub fn local_instant(zone: Tz, day: NaiveDate, at: NaiveTime) -> DateTime<Utc> {
    let wall = day.and_time(at);
    zone.from_local_datetime(&wall)
        .earliest()
        .or_else(|| zone.from_local_datetime(&(wall + Duration::hours(1))).earliest())
        .map_or_else(|| Utc.from_utc_datetime(&wall), |t| t.with_timezone(&Utc))
}

/// A wait until one of some days of the week at a time of day, in the contact's own time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct WaitUntil {
    /// The days it may end.
    pub days: Weekdays,
    /// The time of day it ends.
    pub at: NaiveTime,
}

impl WaitUntil {
    /// The first instant after `after` on one of its days at its time, in `zone`.
    pub fn next(&self, zone: Tz, after: DateTime<Utc>) -> DateTime<Utc> {
        let today = after.with_timezone(&zone).date_naive();
        (0..=8)
            .filter_map(|ahead| today.checked_add_signed(Duration::days(ahead)))
            .filter(|day| self.days.contains(day.weekday()))
            .map(|day| local_instant(zone, day, self.at))
            .find(|at| *at > after)
            .unwrap_or(after + Duration::days(7))
    }
}

/// How often a schedule comes round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Repeat {
    /// Every day.
    Daily,
    /// On these days of each week.
    Weekly(Weekdays),
    /// On this day of each month (1 to 28, so that every month has it).
    Monthly(u32),
}

/// When a schedule trigger puts its segment in the journey, Paris time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Schedule {
    /// How often.
    pub repeat: Repeat,
    /// At what time of day.
    pub at: NaiveTime,
}

impl Schedule {
    /// Whether it comes round on `day`.
    fn falls_on(&self, day: NaiveDate) -> bool {
        match self.repeat {
            Repeat::Daily => true,
            Repeat::Weekly(days) => days.contains(day.weekday()),
            Repeat::Monthly(of_month) => day.day() == of_month,
        }
    }

    /// The latest time it came round after `after` and at or before `now` (a schedule missed
    /// while texto was down comes round once, not once for each time missed).
    pub fn latest(&self, after: DateTime<Utc>, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        let today = now.with_timezone(&Paris).date_naive();
        (0..=31)
            .filter_map(|back| today.checked_sub_signed(Duration::days(back)))
            .filter(|day| self.falls_on(*day))
            .map(|day| local_instant(Paris, day, self.at))
            .find(|at| *at <= now)
            .filter(|at| *at > after)
    }
}

/// A trigger on a date field of the contact: each year on the date (a birthday) or once (a
/// renewal), moved by an offset, at a time of the contact's own day.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DateTrigger {
    /// The custom field holding the date, `YYYY-MM-DD`.
    pub field: String,
    /// Days after the date (before it when negative).
    pub offset_days: i64,
    /// The time of the contact's day it enters at.
    pub at: NaiveTime,
    /// Every year on the date, else once on it.
    pub yearly: bool,
}

impl DateTrigger {
    /// `field` as a date trigger's field at `path`: a custom field.
    pub fn parse_field(given: Option<&str>, path: &str) -> Result<String, FieldError> {
        match ContactField::parse(given.unwrap_or(""), path)? {
            ContactField::Custom(name) => Ok(name),
            _ => Err(FieldError::new(path, "a custom field holding a date, YYYY-MM-DD")),
        }
    }

    /// The offset as given (`-3d`, `7d`, `0d`) at `path`.
    pub fn parse_offset(given: Option<&str>, path: &str) -> Result<i64, FieldError> {
        let given = given.unwrap_or("").trim();
        let (sign, rest) = match given.strip_prefix('-') {
            Some(rest) => (-1, rest),
            None => (1, given.strip_prefix('+').unwrap_or(given)),
        };
        let days = match rest {
            "" => Some(0),
            rest => rest.strip_suffix('d').and_then(|n| n.parse::<i64>().ok()),
        };
        days.filter(|d| *d <= MOST_DATE_OFFSET_DAYS).map(|d| sign * d).ok_or_else(|| {
            FieldError::new(path, format!("days before (-3d) or after (3d) the date, at most {MOST_DATE_OFFSET_DAYS}d"))
        })
    }

    /// The offset as written back.
    pub fn offset_text(&self) -> String {
        format!("{}d", self.offset_days)
    }

    /// The dates of the field that enter on `day`, as the endings of `YYYY-MM-DD` they have:
    /// `-MM-DD` each year (a 29 February on the 28th when the year has none), the whole date
    /// once.
    pub fn field_dates(&self, day: NaiveDate) -> Vec<String> {
        let Some(date) = day.checked_sub_signed(Duration::days(self.offset_days)) else { return Vec::new() };
        if !self.yearly {
            return vec![date.format("%Y-%m-%d").to_string()];
        }
        let mut endings = vec![date.format("-%m-%d").to_string()];
        let leap = NaiveDate::from_ymd_opt(date.year(), 2, 29).is_some();
        if !leap && date.month() == 2 && date.day() == 28 {
            endings.push("-02-29".to_owned());
        }
        endings
    }

    /// When a contact of `zone` whose date falls on `day` enters.
    pub fn entry_time(&self, zone: Tz, day: NaiveDate) -> DateTime<Utc> {
        local_instant(zone, day, self.at)
    }
}
