//! A horizontal bar chart in SVG: one bar per delivery status.

use leptos::prelude::*;

/// One bar: its label, its count and its CSS class (the colour).
#[derive(Debug, Clone, PartialEq)]
pub struct Bar {
    /// What it counts.
    pub label: &'static str,
    /// The count.
    pub value: i64,
    /// `delivered`, `failed`, `pending`…
    pub class: &'static str,
}

/// Bars scaled to the largest, each labelled with its count; `title` names the chart.
#[component]
pub fn BarChart(
    /// The chart's accessible name.
    #[prop(into)]
    title: Signal<&'static str>,
    /// The bars, top to bottom.
    #[prop(into)]
    bars: Signal<Vec<Bar>>,
) -> impl IntoView {
    const ROW: i64 = 28;
    move || {
        let bars = bars.get();
        let max = bars.iter().map(|b| b.value).max().unwrap_or(0).max(1);
        let height = ROW * i64::try_from(bars.len()).unwrap_or(0);
        let rows = bars
            .into_iter()
            .enumerate()
            .map(|(i, bar)| {
                let y = ROW * i64::try_from(i).unwrap_or(0);
                let width = (bar.value as f64 / max as f64 * 100.0).max(if bar.value > 0 { 0.5 } else { 0.0 });
                view! {
                    <g class=format!("bar {}", bar.class)>
                        <text x="10" y=y + 18 class="bar-label">{bar.label}</text>
                        <rect x="45%" y=y + 4 width=format!("{:.2}%", width * 0.45) height="18" rx="3"></rect>
                        <text x="93%" y=y + 18 class="bar-value" text-anchor="end">{bar.value}</text>
                    </g>
                }
            })
            .collect_view();
        view! {
            <svg class="chart" role="img" aria-label=move || title.get() width="100%" height=height>
                {rows}
            </svg>
        }
    }
}
