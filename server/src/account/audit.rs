//! `GET /audit` and `GET /audit.csv`: the account's audit log, newest first, filtered by who,
//! action and period.

use axum::{
    Router,
    extract::{Query, State, rejection::QueryRejection},
    http::header,
    response::{IntoResponse, Response},
    routing::get,
};
use serde::Deserialize;
use texto_core::{
    CSV_BOM, PeriodBound, format_paris, spreadsheet_cell,
    wire::{AuditEntryDto, AuditResponse},
};

use crate::{
    Error,
    http::{
        Accept,
        auth::Caller,
        inputs::{QueryFields, query},
    },
    state::AppState,
    store::{AuditEntry, AuditFilter, Page},
};

pub(crate) fn router() -> Router<AppState> {
    Router::new().route("/audit", get(audit)).route("/audit.csv", get(audit_csv))
}

/// The query of `GET /audit`.
#[derive(Debug, Deserialize)]
pub(crate) struct AuditQuery {
    #[serde(default = "Page::first_record")]
    start: i64,
    #[serde(default = "Page::records_per_page")]
    length: i64,
    actor: Option<String>,
    action: Option<String>,
    date_start: Option<String>,
    date_end: Option<String>,
}

impl AuditQuery {
    fn filter(&self) -> Result<AuditFilter, Error> {
        let mut fields = QueryFields::default();
        let filter = AuditFilter {
            actor: self.actor.clone().filter(|a| !a.trim().is_empty()),
            action: self.action.clone().filter(|a| !a.trim().is_empty()),
            from: fields.period_bound("date_start", self.date_start.as_deref(), PeriodBound::Start),
            until: fields.period_bound("date_end", self.date_end.as_deref(), PeriodBound::End),
        };
        fields.finish(filter)
    }
}

fn dto(entry: &AuditEntry) -> AuditEntryDto {
    AuditEntryDto {
        date: format_paris(entry.at),
        actor: entry.actor.clone(),
        address: entry.address.clone(),
        action: entry.action.clone(),
        object: entry.object.clone(),
        summary: entry.summary.clone(),
    }
}

/// `GET /audit`: who did what, newest first.
#[utoipa::path(get, path = "/audit", tag = "team",
    params(("start" = Option<i64>, Query), ("length" = Option<i64>, Query), ("actor" = Option<String>, Query, description = "An actor exactly as the log writes it (any case)"),
        ("action" = Option<String>, Query, description = "An action (campaign.send) or its family (campaign)"),
        ("date_start" = Option<String>, Query), ("date_end" = Option<String>, Query)),
    responses((status = 200, description = "The audit log", body = texto_core::wire::AuditResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn audit(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    asked: Result<Query<AuditQuery>, QueryRejection>,
) -> Result<Response, Error> {
    page_of(&state, caller.account, accept, asked).await
}

/// A page of the log of `account` (the operators' own log: [`crate::account::audit_log::PLATFORM_LOG`]).
pub(crate) async fn page_of(
    state: &AppState,
    account: crate::store::AccountId,
    accept: Accept,
    asked: Result<Query<AuditQuery>, QueryRejection>,
) -> Result<Response, Error> {
    let asked = query(asked)?;
    let filter = asked.filter()?;
    // What the requests before this one recorded is read too.
    state.audit.flush().await?;
    let page = Page { start: asked.start, length: asked.length };
    let found = state.store.audit(account, &filter, page).await?;
    Ok(accept.ok(&AuditResponse {
        status: 1,
        message: "OK".into(),
        audit: found.entries.iter().map(dto).collect(),
        total_records: found.total,
        total_display_records: found.kept,
    }))
}

/// `GET /audit.csv`: the lines the same filters keep, newest first, as a spreadsheet reads them.
#[utoipa::path(get, path = "/audit.csv", tag = "team",
    responses((status = 200, description = "CSV: date, actor, address, action, object, summary", content_type = "text/csv"), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn audit_csv(
    State(state): State<AppState>,
    caller: Caller,
    asked: Result<Query<AuditQuery>, QueryRejection>,
) -> Result<Response, Error> {
    let filter = query(asked)?.filter()?;
    state.audit.flush().await?;
    let mut out = csv::Writer::from_writer(CSV_BOM.as_bytes().to_vec());
    let failed = |_| Error::Unavailable("the CSV export could not be written");
    out.write_record(["date", "actor", "address", "action", "object", "summary"]).map_err(failed)?;
    let mut page = Page { start: 0, length: 1000 };
    loop {
        let entries = state.store.audit(caller.account, &filter, page).await?.entries;
        for e in entries.iter().map(dto) {
            let fields = [&e.date, &e.actor, &e.address, &e.action, &e.object, &e.summary];
            out.write_record(fields.map(|f| spreadsheet_cell(f).into_owned())).map_err(failed)?;
        }
        if entries.len() < page.length as usize {
            break;
        }
        page.start += page.length;
    }
    let body = out.into_inner().map_err(|_| Error::Unavailable("the CSV export could not be written"))?;
    let name = "attachment; filename=\"audit.csv\"".to_owned();
    Ok(([(header::CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()), (header::CONTENT_DISPOSITION, name)], body)
        .into_response())
}
