//! Numbers, credits, dates and durations written the way each language writes them
//! (`12 345,50` and `22/11/2026 14:30` in French).

use chrono::{DateTime, Datelike, NaiveDateTime, Timelike, Utc};
use chrono_tz::Europe::Paris;

use crate::i18n::Lang;

/// French groups thousands with a narrow no-break space, as the browser's `Intl` does.
const FR_GROUP: char = '\u{202f}';

/// A whole number with grouped thousands: `12,345` / `12 345`.
pub fn integer(lang: Lang, n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let group = match lang {
        Lang::En => ',',
        Lang::Fr => FR_GROUP,
    };
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if n < 0 {
        out.push('-');
    }
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(group);
        }
        out.push(c);
    }
    out
}

/// An amount of credits: whole amounts without decimals, others with two
/// (`12,345.50` / `12 345,50`).
pub fn credits(lang: Lang, amount: f64) -> String {
    let cents = (amount * 100.0).round() as i64;
    let whole = integer(lang, cents / 100);
    let whole = if cents < 0 && cents / 100 == 0 { format!("-{whole}") } else { whole };
    match cents.unsigned_abs() % 100 {
        0 => whole,
        fraction => format!("{whole}{}{fraction:02}", if lang == Lang::Fr { ',' } else { '.' }),
    }
}

/// A percentage: `87 %` in French, `87%` in English.
pub fn percent(lang: Lang, value: i64) -> String {
    match lang {
        Lang::En => format!("{value}%"),
        Lang::Fr => format!("{value}\u{a0}%"),
    }
}

/// A rate to one decimal, the decimal left out when it is 0: `33,3 %` / `33.3%`, `25 %`.
pub fn rate(lang: Lang, value: f64) -> String {
    let tenths = (value * 10.0).round() as i64;
    let shown = match tenths % 10 {
        0 => (tenths / 10).to_string(),
        fraction => format!("{}{}{}", tenths / 10, if lang == Lang::Fr { ',' } else { '.' }, fraction.abs()),
    };
    match lang {
        Lang::En => format!("{shown}%"),
        Lang::Fr => format!("{shown}\u{a0}%"),
    }
}

/// A Paris wall-clock time: `22/11/2026 14:30` / `22 Nov 2026, 14:30`.
pub fn wall_clock(lang: Lang, at: NaiveDateTime) -> String {
    const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    match lang {
        Lang::Fr => format!("{:02}/{:02}/{} {:02}:{:02}", at.day(), at.month(), at.year(), at.hour(), at.minute()),
        Lang::En => {
            format!("{} {} {}, {:02}:{:02}", at.day(), MONTHS[at.month0() as usize], at.year(), at.hour(), at.minute())
        }
    }
}

/// An instant shown in Paris time.
pub fn paris(lang: Lang, at: DateTime<Utc>) -> String {
    wall_clock(lang, at.with_timezone(&Paris).naive_local())
}

/// A `Y-m-d H:i:s` date of the interface (Paris time) shown for `lang`; unchanged when it
/// does not parse.
pub fn wire_date(lang: Lang, value: &str) -> String {
    texto_core::parse_paris(value.trim()).map_or_else(|_| value.to_owned(), |at| paris(lang, at))
}

/// A day of the interface (`Y-m-d`): `29/08/2026` / `29 Aug 2026`; unchanged when it does not
/// parse.
pub fn day(lang: Lang, value: &str) -> String {
    const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let Some(day) = texto_core::parse_day(value.trim()) else { return value.to_owned() };
    match lang {
        Lang::Fr => format!("{:02}/{:02}/{}", day.day(), day.month(), day.year()),
        Lang::En => format!("{} {} {}", day.day(), MONTHS[day.month0() as usize], day.year()),
    }
}

/// How far ahead `at` is: `in 3 h 10 min` / `dans 3 h 10 min`; days past 48 hours.
pub fn time_until(lang: Lang, now: DateTime<Utc>, at: DateTime<Utc>) -> String {
    let minutes = (at - now).num_minutes().max(0);
    let (days, hours, mins) = (minutes / 1440, minutes / 60 % 24, minutes % 60);
    let span = if minutes >= 2 * 1440 {
        match lang {
            Lang::En => format!("{days} days {hours} h"),
            Lang::Fr => format!("{days} jours {hours} h"),
        }
    } else if minutes >= 60 {
        format!("{} h {mins} min", minutes / 60)
    } else {
        format!("{mins} min")
    };
    match lang {
        Lang::En => format!("in {span}"),
        Lang::Fr => format!("dans {span}"),
    }
}

/// The import summary: `98 rows imported, 2 rejected`.
pub fn imported(lang: Lang, imported: usize, rejected: usize) -> String {
    let (imported, rejected) = (integer(lang, imported as i64), integer(lang, rejected as i64));
    match lang {
        Lang::En => format!("{imported} rows imported, {rejected} rejected."),
        Lang::Fr => format!("{imported} lignes importées, {rejected} refusées."),
    }
}

/// The live counter: `172 characters · 2 SMS · GSM-7 · 134 left`; for a list send whose
/// contact fields change the length, the parts as a range (`1–2 SMS`).
pub fn counter(lang: Lang, split: &texto_core::Segments, parts: (usize, usize)) -> String {
    let encoding = match split.encoding {
        texto_core::Encoding::Gsm7 => "GSM-7",
        texto_core::Encoding::Ucs2 => "Unicode (UCS-2)",
    };
    let sms = if parts.0 == parts.1 { parts.0.to_string() } else { format!("{}–{}", parts.0, parts.1) };
    match lang {
        Lang::En => format!("{} characters · {sms} SMS · {encoding} · {} left", split.length, split.remaining),
        Lang::Fr => format!("{} caractères · {sms} SMS · {encoding} · {} restants", split.length, split.remaining),
    }
}

/// What smart encoding does: `4 characters replaced: 1 SMS instead of 2 per recipient`.
pub fn gsm_replaced(lang: Lang, replaced: usize, (before, after): (usize, usize)) -> String {
    let (en, fr) =
        if replaced == 1 { ("character", "caractère remplacé") } else { ("characters", "caractères remplacés") };
    match (lang, after < before) {
        (Lang::En, true) => format!("{replaced} {en} replaced: {after} SMS instead of {before} per recipient"),
        (Lang::En, false) => format!("{replaced} {en} replaced: {after} SMS per recipient"),
        (Lang::Fr, true) => format!("{replaced} {fr} : {after} SMS au lieu de {before} par destinataire"),
        (Lang::Fr, false) => format!("{replaced} {fr} : {after} SMS par destinataire"),
    }
}

/// When a scheduled campaign goes: `in 3 h 10 min (Paris, 24 Nov 2026, 17:40)`.
pub fn goes_at(lang: Lang, now: DateTime<Utc>, at: DateTime<Utc>) -> String {
    format!("{} (Paris, {})", time_until(lang, now, at), paris(lang, at))
}

/// Marketing outside the allowed window: when it really goes.
pub fn postponed(lang: Lang, at: DateTime<Utc>) -> String {
    match lang {
        Lang::En => format!(
            "Marketing cannot go out then (Monday–Saturday 08:00–20:00, no public holidays): it will go on {} (Paris).",
            paris(lang, at)
        ),
        Lang::Fr => format!(
            "Le marketing ne part pas à ce moment-là (du lundi au samedi de 8 h à 20 h, hors jours fériés) : envoi le {} (Paris).",
            paris(lang, at)
        ),
    }
}

/// What an addition to a list did: `3 added, 1 invalid, 0 already there`.
pub fn added(lang: Lang, added: i64, invalid: i64, duplicates: i64) -> String {
    let (a, i, d) = (integer(lang, added), integer(lang, invalid), integer(lang, duplicates));
    match lang {
        Lang::En => format!("{a} added, {i} invalid, {d} already there."),
        Lang::Fr => format!("{a} ajoutés, {i} invalides, {d} déjà présents."),
    }
}

/// How many contacts an upkeep took out of a list: `2 contacts removed.`, `1 contact retiré.`
pub fn removed(lang: Lang, count: i64) -> String {
    let n = integer(lang, count);
    match (lang, count) {
        (Lang::En, 1) => format!("{n} contact removed."),
        (Lang::En, _) => format!("{n} contacts removed."),
        (Lang::Fr, 0 | 1) => format!("{n} contact retiré."),
        (Lang::Fr, _) => format!("{n} contacts retirés."),
    }
}

/// How many numbers were typed: `1 number`, `12 numéros`.
pub fn numbers(lang: Lang, count: usize) -> String {
    let n = integer(lang, count as i64);
    match (lang, count) {
        (Lang::En, 1) => format!("{n} number"),
        (Lang::En, _) => format!("{n} numbers"),
        (Lang::Fr, 0 | 1) => format!("{n} numéro"),
        (Lang::Fr, _) => format!("{n} numéros"),
    }
}

/// How many contacts a segment holds: `1 contact`, `1 234 contacts`.
pub fn contacts(lang: Lang, count: i64) -> String {
    let n = integer(lang, count);
    match (lang, count) {
        (Lang::En, 1) | (Lang::Fr, 0 | 1) => format!("{n} contact"),
        _ => format!("{n} contacts"),
    }
}

/// The letter an A/B test's text goes by: text 1 (the campaign's own) is A, text 2 B…
pub fn text_letter(number: i64) -> char {
    char::from(b'A' + u8::try_from(number - 1).unwrap_or(0).min(25))
}
