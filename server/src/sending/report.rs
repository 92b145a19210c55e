//! A campaign's report (texto's addition): `GET /campaign/:ticket/report` (JSON or XML) and
//! `GET /campaign/:ticket/report.csv` (UTF-8 with a byte order mark, no cell read as a
//! formula): the funnel (sent, delivered, clicked, replied, stopped) with its rates,
//! deliveries and clicks hour by hour over the first 48 hours, and per country.

use axum::{
    Router,
    extract::{Path, State},
    http::header,
    response::{IntoResponse, Response},
    routing::get,
};
use texto_core::{
    CSV_BOM, ReportCounts, ab_report, campaign_report, spreadsheet_cell,
    wire::{ReportCountryDto, ReportDto, ReportResponse},
};

use crate::{
    Error,
    http::{Accept, auth::Caller, inputs::path_id},
    state::AppState,
};

pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .route("/campaign/{ticket}/report", get(report))
        .route("/campaign/{ticket}/report.csv", get(report_csv))
}

/// The report of the caller's campaign `ticket` (-5 when it has none).
pub(crate) async fn read(state: &AppState, caller: &Caller, ticket: &str) -> Result<ReportDto, Error> {
    let not_found = || Error::NotFound(format!("campaign {ticket}"));
    let id = path_id(ticket).ok_or_else(not_found)?;
    // Read from the counts kept as messages are written and delivered: a report never scans
    // the campaign's messages.
    let rows = state.store.report_rows(caller.account, id).await?.ok_or_else(not_found)?;
    let counts = ReportCounts {
        sent: rows.sent,
        delivered: rows.countries.iter().map(|country| country.delivered).sum(),
        clicked: rows.clickers,
        replied: rows.repliers,
        stopped: rows.stops,
        converted: rows.conversions.0,
        conversion_hundredths: rows.conversions.1,
        delivered_hours: rows.delivered_hours,
        click_hours: rows.click_hours,
        countries: rows
            .countries
            .into_iter()
            .map(|c| ReportCountryDto { country: c.country, sent: c.sent, delivered: c.delivered, clicked: c.clicked })
            .collect(),
    };
    let mut report = campaign_report(&id.to_string(), rows.send_at, counts);
    if let Some(test) = state.store.ab_test(caller.account, id).await? {
        let counts = state.store.sample_counts(id, test.test.texts()).await?;
        let hours = state.store.sample_hours(id, test.test.texts()).await?;
        report.ab =
            Some(ab_report(&rows.text, &test.test, (&counts, &hours), rows.send_at, test.winner, test.due_at()));
    }
    Ok(report)
}

#[utoipa::path(get, path = "/campaign/{ticket}/report", tag = "campaigns",
    params(("ticket" = String, Path, description = "The campaign ticket")),
    responses((status = 200, description = "The campaign's report", body = texto_core::wire::ReportResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn report(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(ticket): Path<String>,
) -> Result<Response, Error> {
    let report = read(&state, &caller, &ticket).await?;
    Ok(accept.ok(&ReportResponse { status: 1, message: "OK".into(), report }))
}

#[utoipa::path(get, path = "/campaign/{ticket}/report.csv", tag = "campaigns",
    params(("ticket" = String, Path, description = "The campaign ticket")),
    responses((status = 200, description = "The report as CSV: the funnel, then per country, then hour by hour", content_type = "text/csv"), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn report_csv(
    State(state): State<AppState>,
    caller: Caller,
    Path(ticket): Path<String>,
) -> Result<Response, Error> {
    let report = read(&state, &caller, &ticket).await?;
    let body = csv_of(&report).map_err(|_| Error::Unavailable("the CSV export could not be written"))?;
    let name = format!("attachment; filename=\"campaign-{}-report.csv\"", report.id);
    Ok(([(header::CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()), (header::CONTENT_DISPOSITION, name)], body)
        .into_response())
}

/// Three tables one after the other, each with its header line and a blank line between
/// them: the funnel (`measure`, `count`, `rate_percent`), the countries, the hours; and for an
/// A/B test a fourth, its texts' samples.
fn csv_of(report: &ReportDto) -> Result<Vec<u8>, csv::Error> {
    let funnel = [
        ("sent", report.sent.to_string(), None),
        ("delivered", report.delivered.to_string(), Some(report.delivered_rate)),
        ("clicked", report.clicked.to_string(), Some(report.clicked_rate)),
        ("replied", report.replied.to_string(), Some(report.replied_rate)),
        ("stopped", report.stopped.to_string(), Some(report.stopped_rate)),
        ("converted", report.converted.to_string(), Some(report.converted_rate)),
        ("conversion_value", format!("{:.2}", report.conversion_value), None),
    ]
    .map(|(measure, count, rate)| [measure.to_owned(), count, rate.map_or_else(String::new, |r| r.to_string())]);
    let countries = report.countries.iter().map(|c| {
        [spreadsheet_cell(&c.country).into_owned(), c.sent.to_string(), c.delivered.to_string(), c.clicked.to_string()]
    });
    let hours = report.hours.iter().map(|h| [h.hour.to_string(), h.delivered.to_string(), h.clicks.to_string()]);
    let mut out = CSV_BOM.as_bytes().to_vec();
    out.extend(table(["measure", "count", "rate_percent"], funnel)?);
    out.push(b'\n');
    out.extend(table(["country", "sent", "delivered", "clicked"], countries)?);
    out.push(b'\n');
    out.extend(table(["hour", "delivered", "clicks"], hours)?);
    if let Some(ab) = &report.ab {
        let winner = ab.winner;
        let variants = ab.variants.iter().map(|v| {
            [
                v.variant.to_string(),
                spreadsheet_cell(&v.text).into_owned(),
                v.sent.to_string(),
                v.delivered.to_string(),
                v.clicked.to_string(),
                v.replied.to_string(),
                if winner == Some(v.variant) { "yes" } else { "" }.to_owned(),
            ]
        });
        out.push(b'\n');
        out.extend(table(["variant", "text", "sent", "delivered", "clicked", "replied", "winner"], variants)?);
    }
    Ok(out)
}

/// One table: its header, then its rows.
fn table<const N: usize>(
    header: [&str; N],
    rows: impl IntoIterator<Item = [String; N]>,
) -> Result<Vec<u8>, csv::Error> {
    let mut out = csv::Writer::from_writer(Vec::new());
    out.write_record(header)?;
    for row in rows {
        out.write_record(row)?;
    }
    out.into_inner().map_err(|e| e.into_error().into())
}
