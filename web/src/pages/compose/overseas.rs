//! When each overseas territory's recipients get a marketing campaign: in their own time
//! (docs/interface.md §5.2), from the simulation's `overseas`, which core works out in the
//! page as the server will.

use leptos::prelude::*;
use texto_core::{Territory, parse_paris, wire::OverseasDto};

use crate::{
    format,
    i18n::{Lang, use_lang, use_texts},
};

/// A territory's name.
fn name(lang: Lang, territory: Territory) -> &'static str {
    let (en, fr) = match territory {
        Territory::Reunion => ("La Réunion", "La Réunion"),
        Territory::Mayotte => ("Mayotte", "Mayotte"),
        Territory::Guadeloupe => ("Guadeloupe", "Guadeloupe"),
        Territory::SaintBarthelemy => ("Saint Barthélemy", "Saint-Barthélemy"),
        Territory::SaintMartin => ("Saint Martin", "Saint-Martin"),
        Territory::Martinique => ("Martinique", "Martinique"),
        Territory::FrenchGuiana => ("French Guiana", "Guyane"),
        Territory::SaintPierreEtMiquelon => ("Saint Pierre and Miquelon", "Saint-Pierre-et-Miquelon"),
        Territory::NewCaledonia => ("New Caledonia", "Nouvelle-Calédonie"),
        Territory::FrenchPolynesia => ("French Polynesia", "Polynésie française"),
        Territory::WallisEtFutuna => ("Wallis and Futuna", "Wallis-et-Futuna"),
    };
    if lang == Lang::Fr { fr } else { en }
}

/// One territory's line: `La Réunion, 2 recipients: 30 Nov 2026, 08:00 their time (05:00 in
/// Paris)`; `None` for a part the page cannot read.
fn line(lang: Lang, part: &OverseasDto) -> Option<String> {
    let territory = Territory::from_iso2(&part.territory)?;
    let at = parse_paris(&part.send_at).ok()?;
    let local = format::wall_clock(lang, at.with_timezone(&territory.time_zone()).naive_local());
    let paris = format::paris(lang, at);
    let count = format::integer(lang, part.recipients);
    let name = name(lang, territory);
    Some(match (lang, part.recipients) {
        (Lang::En, 1) => format!("{name}, 1 recipient: {local} their time ({paris} in Paris)"),
        (Lang::En, _) => format!("{name}, {count} recipients: {local} their time ({paris} in Paris)"),
        (Lang::Fr, 1) => format!("{name}, 1 destinataire : {local}, heure locale ({paris} à Paris)"),
        (Lang::Fr, _) => format!("{name}, {count} destinataires : {local}, heure locale ({paris} à Paris)"),
    })
}

/// The overseas recipients' sending times, when a marketing draft has some.
#[component]
pub fn OverseasParts(parts: Vec<OverseasDto>) -> impl IntoView {
    let t = use_texts();
    let lang = use_lang();
    let lines: Vec<String> = parts.iter().filter_map(|part| line(lang.get_untracked(), part)).collect();
    view! {
        <section class="overseas" aria-labelledby="overseas-title">
            <h3 id="overseas-title">{t().overseas_title}</h3>
            <p class="hint">{t().overseas_explained}</p>
            <ul>{lines.into_iter().map(|line| view! { <li>{line}</li> }).collect_view()}</ul>
        </section>
    }
}
