//! The overseas territories' marketing windows (docs/interface.md §5.2): their numbers get
//! marketing from 08:00 to 20:00 Monday to Saturday of their own time, never on a public
//! holiday of theirs (France's, and their own, such as the day slavery was abolished there).
//! Every other number, in France or abroad, keeps the Paris window.

use chrono::{DateTime, Datelike, Days, NaiveDate, Utc, Weekday};
use chrono_tz::{America, Indian, Pacific, Tz};

use crate::{
    PushType, calendar,
    phone::{Country, Msisdn},
};

/// A French overseas territory with its own clock and holidays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Territory {
    /// La Réunion (UTC+4).
    Reunion,
    /// Mayotte (UTC+3).
    Mayotte,
    /// Guadeloupe (UTC−4).
    Guadeloupe,
    /// Saint-Barthélemy (UTC−4).
    SaintBarthelemy,
    /// Saint-Martin (UTC−4).
    SaintMartin,
    /// Martinique (UTC−4).
    Martinique,
    /// French Guiana (UTC−3).
    FrenchGuiana,
    /// Saint-Pierre-et-Miquelon (UTC−3, summer time as North America).
    SaintPierreEtMiquelon,
    /// New Caledonia (UTC+11).
    NewCaledonia,
    /// French Polynesia (Tahiti's time, UTC−10).
    FrenchPolynesia,
    /// Wallis-et-Futuna (UTC+12).
    WallisEtFutuna,
}

impl Territory {
    /// Every territory, in the order the answers list them.
    pub const ALL: [Territory; 11] = [
        Territory::Reunion,
        Territory::Mayotte,
        Territory::Guadeloupe,
        Territory::SaintBarthelemy,
        Territory::SaintMartin,
        Territory::Martinique,
        Territory::FrenchGuiana,
        Territory::SaintPierreEtMiquelon,
        Territory::NewCaledonia,
        Territory::FrenchPolynesia,
        Territory::WallisEtFutuna,
    ];

    /// Its ISO 3166 alpha-2 code, as the answers name it (`RE`, `YT` …).
    pub fn iso2(self) -> &'static str {
        match self {
            Territory::Reunion => "RE",
            Territory::Mayotte => "YT",
            Territory::Guadeloupe => "GP",
            Territory::SaintBarthelemy => "BL",
            Territory::SaintMartin => "MF",
            Territory::Martinique => "MQ",
            Territory::FrenchGuiana => "GF",
            Territory::SaintPierreEtMiquelon => "PM",
            Territory::NewCaledonia => "NC",
            Territory::FrenchPolynesia => "PF",
            Territory::WallisEtFutuna => "WF",
        }
    }

    /// The territory of an ISO 3166 alpha-2 code, if it is one (any case).
    pub fn from_iso2(code: &str) -> Option<Territory> {
        Territory::ALL.into_iter().find(|t| t.iso2().eq_ignore_ascii_case(code))
    }

    /// The territory a country of the numbering plan is, if any.
    pub fn of_country(country: Country) -> Option<Territory> {
        Territory::from_iso2(country.iso2())
    }

    /// Its clock.
    pub fn time_zone(self) -> Tz {
        match self {
            Territory::Reunion => Indian::Reunion,
            Territory::Mayotte => Indian::Mayotte,
            Territory::Guadeloupe => America::Guadeloupe,
            Territory::SaintBarthelemy => America::St_Barthelemy,
            Territory::SaintMartin => America::Marigot,
            Territory::Martinique => America::Martinique,
            Territory::FrenchGuiana => America::Cayenne,
            Territory::SaintPierreEtMiquelon => America::Miquelon,
            Territory::NewCaledonia => Pacific::Noumea,
            Territory::FrenchPolynesia => Pacific::Tahiti,
            Territory::WallisEtFutuna => Pacific::Wallis,
        }
    }

    /// Its own public holidays of `year` beyond France's: the abolition of slavery in the
    /// overseas departments and Saint-Barthélemy and Saint-Martin, and each collectivity's
    /// days (French Polynesia's Good Friday, 5 March and 29 June; New Caledonia's 24
    /// September; Wallis-et-Futuna's 28 April and 29 July).
    pub fn own_holidays(self, year: i32) -> Vec<NaiveDate> {
        let day = |month, day| NaiveDate::from_ymd_opt(year, month, day);
        let days = match self {
            Territory::Reunion => vec![day(12, 20)],
            Territory::Mayotte => vec![day(4, 27)],
            Territory::Guadeloupe => vec![day(5, 27)],
            Territory::SaintBarthelemy => vec![day(10, 9)],
            Territory::SaintMartin => vec![day(5, 28)],
            Territory::Martinique => vec![day(5, 22)],
            Territory::FrenchGuiana => vec![day(6, 10)],
            Territory::SaintPierreEtMiquelon => Vec::new(),
            Territory::NewCaledonia => vec![day(9, 24)],
            Territory::FrenchPolynesia => {
                // Easter Monday, less three days.
                let easter_monday = calendar::french_public_holidays(year)[1];
                vec![easter_monday.checked_sub_days(Days::new(3)), day(3, 5), day(6, 29)]
            }
            Territory::WallisEtFutuna => vec![day(4, 28), day(7, 29)],
        };
        days.into_iter().flatten().collect()
    }

    /// Whether `date` (its own calendar day) is a public holiday there: France's or its own.
    pub fn is_public_holiday(self, date: NaiveDate) -> bool {
        calendar::is_french_public_holiday(date) || self.own_holidays(date.year()).contains(&date)
    }

    /// Whether marketing may go out at some time of this day of its own calendar.
    fn is_marketing_day(self, date: NaiveDate) -> bool {
        date.weekday() != Weekday::Sun && !self.is_public_holiday(date)
    }
}

/// Whose marketing window a number keeps: Paris's (metropolitan France and every other
/// country) or its overseas territory's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Zone {
    /// The Paris window.
    Paris,
    /// An overseas territory's own window.
    Overseas(Territory),
}

impl Zone {
    /// The zone of a recipient.
    pub fn of(number: Msisdn) -> Zone {
        let country = number.country();
        // The calling codes of the territories first: most numbers are compared once.
        match country.calling_code() {
            262 | 508 | 590 | 594 | 596 | 681 | 687 | 689 => {
                Territory::of_country(country).map_or(Zone::Paris, Zone::Overseas)
            }
            _ => Zone::Paris,
        }
    }

    /// Its clock: Paris's, or the territory's.
    pub fn time_zone(self) -> Tz {
        match self {
            Zone::Paris => chrono_tz::Europe::Paris,
            Zone::Overseas(territory) => territory.time_zone(),
        }
    }

    /// How it is stored and named: `paris`, or the territory's ISO code.
    pub fn as_str(self) -> &'static str {
        match self {
            Zone::Paris => "paris",
            Zone::Overseas(territory) => territory.iso2(),
        }
    }

    /// The zone [`Zone::as_str`] named.
    pub fn parse(name: &str) -> Option<Zone> {
        match name {
            "paris" => Some(Zone::Paris),
            other => Territory::from_iso2(other).map(Zone::Overseas),
        }
    }

    /// Its place among [`OpenWindows`]' bits.
    fn bit(self) -> u16 {
        match self {
            Zone::Paris => 1,
            Zone::Overseas(territory) => 2 << Territory::ALL.iter().position(|&t| t == territory).unwrap_or(0),
        }
    }
}

/// The earliest instant at or after `at` when a campaign of kind `pushtype` may reach a
/// number of `zone`: any time for alerts; for marketing, 08:00 to 20:00 Monday to Saturday of
/// the zone's own time, on none of its public holidays (DST aware).
pub fn next_allowed_send_in(zone: Zone, pushtype: PushType, at: DateTime<Utc>) -> DateTime<Utc> {
    match (pushtype, zone) {
        (PushType::Alert, _) => at,
        (PushType::Marketing, Zone::Paris) => calendar::next_allowed_send(pushtype, at),
        (PushType::Marketing, Zone::Overseas(territory)) => {
            calendar::next_opening(territory.time_zone(), |date| territory.is_marketing_day(date), at)
        }
    }
}

/// A campaign's recipients in one overseas territory and when its window lets them go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OverseasPart {
    /// The territory.
    pub territory: Territory,
    /// Its recipients.
    pub recipients: u64,
    /// When they get it.
    pub send_at: DateTime<Utc>,
}

/// When marketing asked for `start` goes to `recipients`: the earliest opening among their
/// zones' windows, and each overseas territory's part with its own opening.
pub(crate) fn schedule(
    recipients: impl Iterator<Item = Msisdn>,
    start: DateTime<Utc>,
) -> (DateTime<Utc>, Vec<OverseasPart>) {
    let mut counts = [0u64; Territory::ALL.len()];
    let mut paris = false;
    for number in recipients {
        match Zone::of(number) {
            Zone::Paris => paris = true,
            Zone::Overseas(territory) => counts[territory as usize] += 1,
        }
    }
    let parts: Vec<OverseasPart> = Territory::ALL
        .into_iter()
        .zip(counts)
        .filter(|&(_, recipients)| recipients > 0)
        .map(|(territory, recipients)| OverseasPart {
            territory,
            recipients,
            send_at: next_allowed_send_in(Zone::Overseas(territory), PushType::Marketing, start),
        })
        .collect();
    let paris_at = (paris || parts.is_empty()).then(|| calendar::next_allowed_send(PushType::Marketing, start));
    let send_at = parts.iter().map(|part| part.send_at).chain(paris_at).min().unwrap_or(start);
    (send_at, parts)
}

/// The zones whose marketing window is open at one instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct OpenWindows(u16);

impl OpenWindows {
    /// Every window closed (nothing but alerts goes).
    pub const NONE: OpenWindows = OpenWindows(0);

    /// The windows open at `at`.
    pub fn at(at: DateTime<Utc>) -> OpenWindows {
        let zones = std::iter::once(Zone::Paris).chain(Territory::ALL.map(Zone::Overseas));
        OpenWindows(
            zones
                .filter(|&zone| next_allowed_send_in(zone, PushType::Marketing, at) <= at)
                .fold(0, |bits, zone| bits | zone.bit()),
        )
    }

    /// These windows and `zone`'s.
    pub fn with(self, zone: Zone) -> OpenWindows {
        OpenWindows(self.0 | zone.bit())
    }

    /// Whether marketing may reach `zone` now.
    pub fn contains(self, zone: Zone) -> bool {
        self.0 & zone.bit() != 0
    }
}
