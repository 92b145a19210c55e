//! A campaign's report on its page: the funnel with its rates, deliveries and clicks over the
//! first 48 hours, and per country (`GET /campaign/:id/report`), and its CSV.

use leptos::{prelude::*, task::spawn_local};
use texto_core::wire::ReportResponse;

use super::{ab_results::AbResults, hours::Hours};
use crate::{
    api::{ApiError, use_api},
    components::{
        chart::{Bar, BarChart},
        download::download_csv,
        errors::ErrorAlert,
    },
    format,
    i18n::{use_lang, use_texts},
};

/// The report section of campaign `id`.
#[component]
pub fn CampaignReport(id: String) -> impl IntoView {
    let (t, lang, api) = (use_texts(), use_lang(), use_api());
    let error = RwSignal::new(None::<ApiError>);
    let path = format!("/campaign/{id}/report");
    let campaign = id.clone();
    let report = LocalResource::new(move || {
        let path = path.clone();
        async move { api.get::<ReportResponse>(&path).await.map(|a| a.report) }
    });
    let export = {
        let id = id.clone();
        move |_| {
            let id = id.clone();
            spawn_local(async move {
                match api.get_text(&format!("/campaign/{id}/report.csv")).await {
                    Ok(csv) => download_csv(&format!("campaign-{id}-report.csv"), &csv),
                    Err(e) => error.set(Some(e)),
                }
            });
        }
    };
    let load_error = Signal::derive(move || report.get().and_then(Result::err));
    let body = move || {
        report.get().and_then(Result::ok).map(|r| {
            let lang = lang.get();
            let pct = |rate: f64| format::rate(lang, rate);
            let funnel = vec![
                Bar { label: t().sent, value: r.sent, class: "pending" },
                Bar { label: t().delivered, value: r.delivered, class: "delivered" },
                Bar { label: t().clicked, value: r.clicked, class: "delivered" },
                Bar { label: t().replied, value: r.replied, class: "delivered" },
                Bar { label: t().stopped, value: r.stopped, class: "failed" },
                Bar { label: t().converted, value: r.converted, class: "delivered" },
            ];
            let rates = vec![
                (t().delivered_pct, pct(r.delivered_rate)),
                (t().click_rate, pct(r.clicked_rate)),
                (t().reply_rate, pct(r.replied_rate)),
                (t().stop_rate, pct(r.stopped_rate)),
                (t().conversion_rate, pct(r.converted_rate)),
                (t().conversion_value, format::credits(lang, r.conversion_value)),
            ];
            let countries = r.countries.clone();
            let ab = r.ab.clone().map(|ab| {
                let chosen = Callback::new(move |()| report.refetch());
                view! { <AbResults id=campaign.clone() ab chosen /> }
            });
            view! {
                <dl class="figures" data-testid="report-rates">
                    {rates.into_iter().map(|(l, v)| view! { <div><dt>{l}</dt><dd>{v}</dd></div> }).collect_view()}
                </dl>
                <BarChart title=Signal::derive(move || t().report_funnel) bars=funnel />
                {ab}
                <h3>{move || t().report_hours}</h3>
                <Hours hours=r.hours.clone() title=Signal::derive(move || t().report_hours.to_owned()) />
                <h3>{move || t().report_countries}</h3>
                <div class="table-wrap">
                    <table class="stack">
                        <thead><tr>
                            <th scope="col">{move || t().country}</th>
                            <th scope="col" class="num">{move || t().sent}</th>
                            <th scope="col" class="num">{move || t().delivered}</th>
                            <th scope="col" class="num">{move || t().clicked}</th>
                        </tr></thead>
                        <tbody>
                            {countries.into_iter().map(|c| view! {
                                <tr>
                                    <td data-label=t().country>{c.country}</td>
                                    <td data-label=t().sent class="num">{format::integer(lang, c.sent)}</td>
                                    <td data-label=t().delivered class="num">{format::integer(lang, c.delivered)}</td>
                                    <td data-label=t().clicked class="num">{format::integer(lang, c.clicked)}</td>
                                </tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                </div>
            }
        })
    };
    view! {
        <section class="report" aria-labelledby="report-title" data-testid="report">
            <h2 id="report-title">{move || t().report_title}</h2>
            <ErrorAlert error=load_error />
            <ErrorAlert error=error />
            <Suspense fallback=move || view! { <p>{t().loading}</p> }>{body}</Suspense>
            <button type="button" on:click=export>{move || t().export_report}</button>
        </section>
    }
}
