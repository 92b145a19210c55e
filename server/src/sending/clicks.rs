//! Who clicked a campaign's short links (texto's addition): `GET /campaign/:ticket/clickers`
//! (paged, JSON or XML) and `GET /campaign/:ticket/clickers.csv` (all of them, the export of
//! the web app). Clicks per link come with the campaign's detail.

use axum::{
    Router,
    extract::{Path, Query, State, rejection::QueryRejection},
    http::header,
    response::{IntoResponse, Response},
    routing::get,
};
use texto_core::{
    CSV_BOM, format_paris, spreadsheet_cell,
    wire::{ClickerDto, ClickersResponse},
};

use crate::{
    Error,
    http::{
        Accept,
        auth::Caller,
        inputs::{path_id, query},
    },
    state::AppState,
    store::{Clicker, Page},
};

pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .route("/campaign/{ticket}/clickers", get(clickers))
        .route("/campaign/{ticket}/clickers.csv", get(clickers_csv))
}

#[utoipa::path(
    get,
    path = "/campaign/{ticket}/clickers",
    tag = "campaigns",
    params(("ticket" = String, Path, description = "The campaign ticket"), ("start" = Option<i64>, Query, description = "First row (default 0)"), ("length" = Option<i64>, Query, description = "Rows per page (default 100, at most 1000)")),
    responses((status = 200, description = "Who clicked which link, by first click", body = texto_core::wire::ClickersResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn clickers(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(ticket): Path<String>,
    page: Result<Query<Page>, QueryRejection>,
) -> Result<Response, Error> {
    let not_found = || Error::NotFound(format!("campaign {ticket}"));
    let id = path_id(&ticket).ok_or_else(not_found)?;
    let (rows, total) = state.store.clickers(caller.account, id, query(page)?).await?.ok_or_else(not_found)?;
    let clickers = rows.into_iter().map(dto).collect();
    Ok(accept.ok(&ClickersResponse { status: 1, message: "OK".into(), clickers, total_records: total }))
}

/// `GET /campaign/:ticket/clickers.csv`: every row, with a header line, in UTF-8 with a byte
/// order mark and with cells a spreadsheet would run as formulas quoted ([`spreadsheet_cell`]).
pub(crate) async fn clickers_csv(
    State(state): State<AppState>,
    caller: Caller,
    Path(ticket): Path<String>,
) -> Result<Response, Error> {
    let not_found = || Error::NotFound(format!("campaign {ticket}"));
    let id = path_id(&ticket).ok_or_else(not_found)?;
    let mut out = csv::Writer::from_writer(CSV_BOM.as_bytes().to_vec());
    let csv_failed = |_| Error::Unavailable("the CSV export could not be written");
    out.write_record([
        "number",
        "link",
        "clicks",
        "last_click",
        "brand",
        "model",
        "os",
        "info1",
        "info2",
        "info3",
        "info4",
    ])
    .map_err(csv_failed)?;
    let mut page = Page { start: 0, length: 1000 };
    loop {
        let (rows, _) = state.store.clickers(caller.account, id, page).await?.ok_or_else(not_found)?;
        for row in &rows {
            let c = dto(row.clone());
            let clicks = c.clicks.to_string();
            let fields = [
                &c.destination,
                &c.url,
                &clicks,
                &c.last_click,
                &c.brand,
                &c.model,
                &c.os,
                &c.info1,
                &c.info2,
                &c.info3,
                &c.info4,
            ];
            out.write_record(fields.map(|field| spreadsheet_cell(field).into_owned())).map_err(csv_failed)?;
        }
        if rows.len() < page.length as usize {
            break;
        }
        page.start += page.length;
    }
    let body = out.into_inner().map_err(|_| Error::Unavailable("the CSV export could not be written"))?;
    let name = format!("attachment; filename=\"campaign-{id}-clicks.csv\"");
    Ok(([(header::CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()), (header::CONTENT_DISPOSITION, name)], body)
        .into_response())
}

/// A clicker as the interface writes it.
fn dto(c: Clicker) -> ClickerDto {
    let [brand, model, os] = c.device;
    let [info1, info2, info3, info4] = c.info;
    ClickerDto {
        destination: c.number.to_string(),
        url: c.url,
        clicks: c.clicks,
        last_click: format_paris(c.last_click),
        brand,
        model,
        os,
        info1,
        info2,
        info3,
        info4,
    }
}
