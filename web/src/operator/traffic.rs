//! Traffic: messages a second handed to each connector, per minute over the last hour, as a
//! line chart (read again every 10 s), with the figures in a table below it.

use std::collections::BTreeMap;

use leptos::prelude::*;
use texto_core::wire::{TrafficDto, TrafficResponse};

use super::{
    client::{use_console, use_op_texts},
    every,
};
use crate::components::errors::ErrorAlert;

/// The chart's drawing area, in SVG units.
const WIDTH: f64 = 600.0;
const HEIGHT: f64 = 200.0;
/// Colours for the first connectors; later ones reuse them.
const SERIES: usize = 5;

/// The traffic page.
#[component]
pub fn Traffic() -> impl IntoView {
    let (t, console) = (use_op_texts(), use_console());
    let version = RwSignal::new(0u32);
    let list = LocalResource::new(move || {
        version.track();
        async move { console.get::<TrafficResponse>("/operator/traffic").await }
    });
    every(10, move || version.update(|v| *v += 1));
    let load_error = Signal::derive(move || list.get().and_then(Result::err));
    let traffic = Signal::derive(move || list.get().and_then(Result::ok).map(|a| a.traffic));
    view! {
        <h1>{move || t().traffic_title}</h1>
        <p class="hint">{move || t().traffic_intro}</p>
        <ErrorAlert error=load_error />
        {move || traffic.get().map(|traffic| {
            if traffic.is_empty() {
                view! { <p data-testid="no-traffic">{t().no_traffic}</p> }.into_any()
            } else {
                view! { <Chart traffic=traffic.clone() /> <Figures traffic /> }.into_any()
            }
        })}
    }
}

/// Minutes before now of a stored minute (`2026-11-26T18:30:00Z`).
fn minutes_ago(minute: &str, now_ms: f64) -> f64 {
    ((now_ms - js_sys::Date::parse(minute)) / 60_000.0).floor()
}

/// The lines: one per connector, with a legend giving each one's peak.
#[component]
fn Chart(traffic: Vec<TrafficDto>) -> impl IntoView {
    let t = use_op_texts();
    let now = js_sys::Date::now();
    // Each connector's rate for each of the last 61 minutes (a minute without traffic is 0).
    let mut series: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    for point in &traffic {
        let ago = minutes_ago(&point.minute, now);
        if (0.0..=60.0).contains(&ago) {
            let minutes = series
                .entry(point.connector.clone())
                .or_insert_with(|| (0..=60).map(|m| (f64::from(m), 0.0)).collect());
            minutes[ago as usize].1 = point.per_second;
        }
    }
    let top = series.values().flatten().map(|(_, rate)| *rate).fold(1.0_f64, f64::max);
    let x = |ago: f64| WIDTH - ago / 60.0 * WIDTH;
    let y = |rate: f64| HEIGHT - rate / top * (HEIGHT - 10.0);
    let lines = series
        .iter()
        .enumerate()
        .map(|(i, (_, points))| {
            let mut points = points.clone();
            points.sort_by(|a, b| b.0.total_cmp(&a.0));
            let path: Vec<String> =
                points.iter().map(|(ago, rate)| format!("{:.1},{:.1}", x(*ago), y(*rate))).collect();
            view! { <polyline class=format!("series series-{}", i % SERIES) points=path.join(" ") /> }
        })
        .collect_view();
    let legend = series
        .iter()
        .enumerate()
        .map(|(i, (name, points))| {
            let peak = points.iter().map(|(_, rate)| *rate).fold(0.0, f64::max);
            view! {
                <li><span class=format!("swatch series-{}", i % SERIES) aria-hidden="true"></span>
                    {name.clone()}" · "{t().peak}" "{format!("{peak:.1}")}" "{t().per_second}</li>
            }
        })
        .collect_view();
    view! {
        <figure class="card traffic" data-testid="traffic-chart">
            <svg class="chart" role="img" aria-label=move || t().traffic_chart viewBox=format!("0 0 {WIDTH} {HEIGHT}")
                preserveAspectRatio="none" width="100%" height="220">
                <line class="axis" x1="0" y1=HEIGHT x2=WIDTH y2=HEIGHT />
                {lines}
            </svg>
            <p class="chart-axis" aria-hidden="true"><span>{t().hour_ago}</span><span>{format!("0 – {top:.1} {}", t().per_second)}</span><span>{t().now}</span></p>
            <ul class="legend">{legend}</ul>
        </figure>
    }
}

/// The same figures as a table, newest minute first.
#[component]
fn Figures(mut traffic: Vec<TrafficDto>) -> impl IntoView {
    let t = use_op_texts();
    traffic.sort_by(|a, b| b.minute.cmp(&a.minute).then_with(|| a.connector.cmp(&b.connector)));
    let rows = traffic
        .into_iter()
        .map(|point| {
            view! {
                <tr>
                    <td data-label=t().minute>{point.minute.get(11..16).unwrap_or(&point.minute).to_owned()}</td>
                    <td data-label=t().connectors class="text">{point.connector}</td>
                    <td data-label=t().handed>{point.handed}</td>
                    <td data-label=t().per_second>{format!("{:.1}", point.per_second)}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <details class="card">
            <summary>{move || t().traffic_table}</summary>
            <div class="table-wrap">
                <table class="stack" data-testid="traffic">
                    <thead><tr>
                        <th scope="col">{move || t().minute}</th>
                        <th scope="col">{move || t().connectors}</th>
                        <th scope="col">{move || t().handed}</th>
                        <th scope="col">{move || t().per_second}</th>
                    </tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        </details>
    }
}
