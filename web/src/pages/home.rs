//! Home, the first screen after sign-in: over 7, 30 or 90 days, the messages sent, the share
//! delivered, clicks, replies and STOPs, the credits spent per day (a chart), the last
//! campaigns with their rates, the credits and this month's consumption. From
//! `GET /metrics/daily`, `GET /campaigns` and `GET /metrics/consumption`.

use leptos::{prelude::*, task::spawn_local};
use leptos_router::components::A;
use texto_core::wire::{CampaignsResponse, ConsumptionResponse, DailyMetricsResponse, DayMetricsDto};

use crate::{
    api::{Paging, use_api, with_query},
    components::{errors::ErrorAlert, table::rows_or},
    format,
    i18n::{Lang, Texts, use_lang, use_texts},
    session::use_session,
};

/// The periods offered, in days.
const PERIODS: [i64; 3] = [7, 30, 90];

/// Campaigns listed.
const LAST_CAMPAIGNS: i64 = 5;

/// A period's label.
fn period_label(t: &'static Texts, days: i64) -> &'static str {
    match days {
        7 => t.last_7_days,
        30 => t.last_30_days,
        _ => t.last_90_days,
    }
}

/// The period's totals.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Totals {
    sent: i64,
    delivered: i64,
    clicks: i64,
    replies: i64,
    stops: i64,
    cost: f64,
}

impl Totals {
    fn of(days: &[DayMetricsDto]) -> Totals {
        days.iter().fold(Totals::default(), |t, d| Totals {
            sent: t.sent + d.sent,
            delivered: t.delivered + d.delivered,
            clicks: t.clicks + d.clicks,
            replies: t.replies + d.replies,
            stops: t.stops + d.stops,
            cost: t.cost + d.cost,
        })
    }

    /// The share delivered, in percent (0 when nothing was sent).
    fn delivered_percent(self) -> i64 {
        if self.sent == 0 { 0 } else { (self.delivered * 100 + self.sent / 2) / self.sent }
    }
}

/// The Home page.
#[component]
pub fn Home() -> impl IntoView {
    let (t, lang, api, session) = (use_texts(), use_lang(), use_api(), use_session());
    let period = RwSignal::new(30i64);
    let daily = LocalResource::new(move || {
        let days = period.get();
        async move {
            // The last 30 days, which end with the server's today (Paris); another period is
            // asked once that day is known.
            let last_30 = api.get::<DailyMetricsResponse>("/metrics/daily").await?.days;
            let Some(today) = last_30.last().map(|d| d.date.clone()).filter(|_| days != 30) else { return Ok(last_30) };
            let start = shifted(&today, days - 1);
            let path = format!("/metrics/daily?date_start={start}&date_end={today}");
            api.get::<DailyMetricsResponse>(&path).await.map(|a| a.days)
        }
    });
    let month = RwSignal::new(None::<i64>);
    spawn_local(async move {
        let Ok(answer) = api.get::<DailyMetricsResponse>("/metrics/daily").await else { return };
        let Some(today) = answer.days.last().map(|d| d.date.clone()) else { return };
        let path = format!("/metrics/consumption?date_start={}-01&date_end={today}", &today[..7.min(today.len())]);
        if let Ok(consumption) = api.get::<ConsumptionResponse>(&path).await {
            month.set(Some(consumption.data.total));
        }
    });
    let campaigns = LocalResource::new(move || async move {
        api.get::<CampaignsResponse>(&with_query("/campaigns", Paging::first(LAST_CAMPAIGNS), &[])).await
    });
    let error = Signal::derive(move || daily.get().and_then(Result::err));
    let days = Signal::derive(move || daily.get().and_then(Result::ok).unwrap_or_default());
    let totals = Signal::derive(move || Totals::of(&days.get()));
    let stat = move |label: fn(&'static Texts) -> &'static str, value: Signal<String>| {
        view! { <div class="stat"><dt>{move || label(t())}</dt><dd>{move || value.get()}</dd></div> }
    };
    let number = move |pick: fn(Totals) -> i64| Signal::derive(move || format::integer(lang.get(), pick(totals.get())));
    let rows = move || {
        campaigns.get().and_then(Result::ok).map(|answer| {
            rows_or(answer.campaigns, 4, t().no_campaigns_yet, move |c| {
                let sent = c.sent.or(c.total).unwrap_or_default();
                view! {
                    <tr>
                        <td data-label=t().date><A href=format!("/app/campaigns/{}", c.id)>{format::wire_date(lang.get(), &c.date)}</A></td>
                        <td data-label=t().message class="text">{c.text.clone()}</td>
                        <td data-label=t().recipients>{format::integer(lang.get(), sent)}</td>
                        <td data-label=t().delivered_pct>{format::percent(lang.get(), c.delivery_rate)}</td>
                    </tr>
                }
            })
        })
    };
    view! {
        <h1>{move || t().home_title}</h1>
        <div class="row filters">
            <div class="field">
                <label for="home-period">{move || t().period}</label>
                <select id="home-period" on:change=move |ev| period.set(event_target_value(&ev).parse().unwrap_or(30))>
                    {PERIODS.map(|days| view! { <option value=days.to_string() selected=move || period.get() == days>{move || period_label(t(), days)}</option> })}
                </select>
            </div>
        </div>
        <ErrorAlert error=error />
        <dl class="stats" data-testid="home-figures">
            {stat(|t| t.stat_sent, number(|s| s.sent))}
            {stat(|t| t.delivered_pct, Signal::derive(move || format::percent(lang.get(), totals.get().delivered_percent())))}
            {stat(|t| t.stat_clicks, number(|s| s.clicks))}
            {stat(|t| t.stat_replies, number(|s| s.replies))}
            {stat(|t| t.stat_stops, number(|s| s.stops))}
            {stat(|t| t.stat_spent, Signal::derive(move || format::credits(lang.get(), totals.get().cost)))}
        </dl>
        <section class="card" aria-labelledby="spending-title">
            <h2 id="spending-title">{move || t().spending_per_day}</h2>
            <SpendingChart days lang />
        </section>
        <section class="card" aria-labelledby="account-title">
            <h2 id="account-title">{move || t().account_label}</h2>
            <dl class="stats">
                {stat(|t| t.credits, Signal::derive(move || session.credits.get().map(|c| format::credits(lang.get(), c)).unwrap_or_default()))}
                {stat(|t| t.messages_this_month, Signal::derive(move || month.get().map(|n| format::integer(lang.get(), n)).unwrap_or_default()))}
            </dl>
        </section>
        <section class="card" aria-labelledby="last-campaigns-title">
            <h2 id="last-campaigns-title">{move || t().last_campaigns}</h2>
            <div class="table-wrap">
                <table class="stack">
                    <thead><tr>
                        <th scope="col">{move || t().date}</th><th scope="col">{move || t().message}</th>
                        <th scope="col">{move || t().recipients}</th><th scope="col">{move || t().delivered_pct}</th>
                    </tr></thead>
                    <tbody><Suspense fallback=move || view! { <tr><td colspan="4">{t().loading}</td></tr> }>{rows}</Suspense></tbody>
                </table>
            </div>
        </section>
    }
}

/// `day` (`Y-m-d`) moved back by `back` days.
fn shifted(day: &str, back: i64) -> String {
    texto_core::parse_day(day).map(|d| (d - chrono::Duration::days(back)).to_string()).unwrap_or_else(|| day.to_owned())
}

/// The credits spent per day: a column per day, the highest full height; its accessible name
/// says the period, the total and the busiest day.
#[component]
fn SpendingChart(days: Signal<Vec<DayMetricsDto>>, lang: RwSignal<Lang>) -> impl IntoView {
    let t = use_texts();
    move || {
        let days = days.get();
        let lang = lang.get();
        let most = days.iter().map(|d| d.cost).fold(0.0, f64::max);
        let total: f64 = days.iter().map(|d| d.cost).sum();
        let busiest = days.iter().filter(|d| d.cost > 0.0).max_by(|a, b| a.cost.total_cmp(&b.cost));
        let label = match busiest {
            Some(day) => format!(
                "{} {} — {}: {}",
                t().spending_per_day,
                format::credits(lang, total),
                format::day(lang, &day.date),
                format::credits(lang, day.cost)
            ),
            None => format!("{} 0", t().spending_per_day),
        };
        let width = 100.0 / days.len().max(1) as f64;
        let columns = days
            .iter()
            .enumerate()
            .map(|(i, day)| {
                let height = if most > 0.0 { day.cost / most * 100.0 } else { 0.0 };
                let title = format!("{}: {}", format::day(lang, &day.date), format::credits(lang, day.cost));
                view! {
                    <rect x=format!("{:.3}%", i as f64 * width) y=format!("{:.3}%", 100.0 - height)
                        width=format!("{:.3}%", width * 0.8) height=format!("{height:.3}%") class="spend">
                        <title>{title}</title>
                    </rect>
                }
            })
            .collect_view();
        let first = days.first().map(|d| format::day(lang, &d.date)).unwrap_or_default();
        let last = days.last().map(|d| format::day(lang, &d.date)).unwrap_or_default();
        view! {
            <svg class="spending" role="img" aria-label=label width="100%" height="140" preserveAspectRatio="none">
                {columns}
            </svg>
            <p class="chart-axis"><span>{first}</span><span>{last}</span></p>
        }
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn totals_add_up_and_the_delivered_share_is_rounded() {
        let day = |sent, delivered, cost| DayMetricsDto { sent, delivered, cost, ..DayMetricsDto::default() };
        let totals = Totals::of(&[day(2, 1, 1.5), day(1, 1, 0.5)]);
        assert_eq!((totals.sent, totals.delivered, totals.cost), (3, 2, 2.0));
        assert_eq!(totals.delivered_percent(), 67);
        assert_eq!(Totals::default().delivered_percent(), 0);
        assert_eq!(shifted("2026-03-01", 1), "2026-02-28");
    }
}
