//! A campaign's deliveries (bars) and clicks (a line) over its first 48 hours, drawn in SVG with
//! a description of its own: the whole campaign's on its report, and each A/B text's.

use leptos::prelude::*;
use texto_core::wire::ReportHourDto;

use crate::i18n::use_texts;

/// Height of the hourly chart's drawing, in SVG units.
const HEIGHT: i64 = 120;

/// Deliveries (bars) and clicks (a line) hour by hour, as an image with its own description,
/// which starts with `title` (the whole campaign's, or one A/B text's).
#[component]
pub(super) fn Hours(hours: Vec<ReportHourDto>, #[prop(into)] title: Signal<String>) -> impl IntoView {
    let t = use_texts();
    let max = hours.iter().map(|h| h.delivered.max(h.clicks)).max().unwrap_or(0).max(1);
    let y = move |value: i64| HEIGHT - value * HEIGHT / max;
    let bars = hours
        .iter()
        .map(|h| view! { <rect class="delivered" x=h.hour * 10 + 1 y=y(h.delivered) width="8" height=HEIGHT - y(h.delivered) /> })
        .collect_view();
    let clicks = hours.iter().map(|h| format!("{},{}", h.hour * 10 + 5, y(h.clicks))).collect::<Vec<_>>().join(" ");
    let (delivered, clicked): (i64, i64) = hours.iter().fold((0, 0), |(d, c), h| (d + h.delivered, c + h.clicks));
    let label = move || format!("{}: {} {}, {} {}", title.get(), delivered, t().delivered, clicked, t().clicks_word);
    view! {
        <figure class="hours-chart">
            <svg viewBox=format!("0 0 480 {HEIGHT}") role="img" aria-label=label preserveAspectRatio="none">
                {bars}
                <polyline class="clicks" points=clicks fill="none" />
            </svg>
            <figcaption>
                <span class="key delivered">{move || t().delivered}</span>" "
                <span class="key clicks">{move || t().clicks_word}</span>" · "{move || t().report_hours_axis}
            </figcaption>
        </figure>
    }
}
