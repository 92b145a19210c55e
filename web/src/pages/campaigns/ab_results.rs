//! An A/B test on its campaign's report: each text with what its sample did, the text leading,
//! and while the rest waits, a button per text to send it to the rest now.

use leptos::{prelude::*, task::spawn_local};
use texto_core::wire::{ReportAbDto, ReportResponse, WinnerDto, WinnerRequest};

use super::hours::Hours;
use crate::{
    api::{ApiError, use_api},
    components::errors::ErrorAlert,
    format,
    i18n::{use_lang, use_texts},
};

/// The test of campaign `id`; `chosen` is called once a text went to the rest by hand.
#[component]
pub fn AbResults(id: String, ab: ReportAbDto, chosen: Callback<()>) -> impl IntoView {
    let (t, lang, api) = (use_texts(), use_lang(), use_api());
    let error = RwSignal::new(None::<ApiError>);
    let waiting = ab.winner.is_none();
    let choose = move |number: i64| {
        let id = id.clone();
        move |_| {
            let id = id.clone();
            spawn_local(async move {
                let request = WinnerRequest { ab: WinnerDto { winner: Some(number) } };
                match api.put::<_, ReportResponse>(&format!("/campaign/{id}/winner"), &request).await {
                    Ok(_) => chosen.run(()),
                    Err(e) => error.set(Some(e)),
                }
            });
        }
    };
    let status = match ab.winner {
        Some(winner) => format!("{} {}.", t().ab_rest_got, format::text_letter(winner)),
        None => format!("{} {}.", t().ab_chosen_at, format::wire_date(lang.get_untracked(), &ab.decide_at)),
    };
    // Each text's first 48 hours, one small chart each.
    let charts = ab
        .variants
        .iter()
        .map(|v| {
            let name = format!("{} {}", t().ab_text, format::text_letter(v.variant));
            let title = format!("{name} — {}", t().report_hours);
            view! {
                <div>
                    <p class="chart-title">{name}</p>
                    <Hours hours=v.hours.clone() title=title />
                </div>
            }
        })
        .collect_view();
    let rows = ab
        .variants
        .into_iter()
        .map(|v| {
            let lang = lang.get();
            let mark = if ab.winner == Some(v.variant) {
                Some(t().ab_winner)
            } else if waiting && ab.leading == v.variant {
                Some(t().ab_leading)
            } else {
                None
            };
            let button = waiting.then(|| {
                let label = format!("{} ({} {})", t().ab_send_to_rest, t().ab_text, format::text_letter(v.variant));
                view! { <button type="button" aria-label=label on:click=choose(v.variant)>{t().ab_send_to_rest}</button> }
            });
            view! {
                <tr>
                    <th scope="row" data-label=t().ab_text>
                        {format::text_letter(v.variant).to_string()}
                        {mark.map(|m| view! { " " <span class="badge live">{m}</span> })}
                    </th>
                    <td data-label=t().message class="ab-text">{v.text}</td>
                    <td data-label=t().sent class="num">{format::integer(lang, v.sent)}</td>
                    <td data-label=t().delivered_pct class="num">{format::rate(lang, v.delivered_rate)}</td>
                    <td data-label=t().click_rate class="num">{format::rate(lang, v.clicked_rate)}</td>
                    <td data-label=t().reply_rate class="num">{format::rate(lang, v.replied_rate)}</td>
                    <td>{button}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <h3>{move || t().ab_report}</h3>
        <p data-testid="ab-status">{status}</p>
        <ErrorAlert error=error />
        <div class="table-wrap">
            <table class="stack" data-testid="ab-results">
                <thead><tr>
                    <th scope="col">{move || t().ab_text}</th>
                    <th scope="col">{move || t().message}</th>
                    <th scope="col" class="num">{move || t().sent}</th>
                    <th scope="col" class="num">{move || t().delivered_pct}</th>
                    <th scope="col" class="num">{move || t().click_rate}</th>
                    <th scope="col" class="num">{move || t().reply_rate}</th>
                    <th scope="col"><span class="visually-hidden">{move || t().ab_choose}</span></th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        <div class="ab-hours">{charts}</div>
    }
}
