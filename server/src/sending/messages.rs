//! `GET /messages` and `GET /messages/mo`: every message sent and every reply received, by
//! period, with the filters of the public API.

use axum::{
    Router,
    extract::{Path, Query, State, rejection::QueryRejection},
    http::header,
    response::{IntoResponse, Response},
    routing::get,
};
use chrono::{DateTime, Utc};
use texto_core::{
    CSV_BOM, Country, DeliveryCode, MergeValues, PeriodBound, PushType, format_paris, render, spreadsheet_cell,
    wire::{MessagesResponse, RepliesResponse, ReplyDto, SentMessageDto},
};

use crate::{
    Error,
    http::{
        Accept,
        auth::Caller,
        inputs::{QueryFields, path_id, query},
    },
    state::AppState,
    store::{MessageFilter, MessageRecord, Page, ReplyFilter, ReplyRecord, SortOrder},
};

pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .route("/messages", get(messages))
        .route("/messages/mo", get(replies))
        .route("/campaign/{ticket}/messages.csv", get(messages_csv))
}

/// The query of `GET /messages` and `GET /messages/mo` (the replies take only the period, the
/// page and the order).
#[derive(Debug, serde::Deserialize)]
pub(crate) struct MessagesQuery {
    #[serde(default = "Page::first_record")]
    start: i64,
    #[serde(default = "Page::records_per_page")]
    length: i64,
    date_start: Option<String>,
    date_end: Option<String>,
    destination: Option<String>,
    message: Option<String>,
    #[serde(rename = "type")]
    kind: Option<String>,
    country: Option<String>,
    status: Option<String>,
    campaign_id: Option<String>,
    sort: Option<SortOrder>,
}

/// Reads `value` with `read`, or notes why `field` is refused; empty is none.
fn optional<T>(
    fields: &mut QueryFields,
    field: &str,
    value: Option<&str>,
    read: fn(&str) -> Option<T>,
    why: &str,
) -> Option<T> {
    let value = value.map(str::trim).filter(|v| !v.is_empty())?;
    read(value).or_else(|| {
        fields.refuse(field, value, why);
        None
    })
}

impl MessagesQuery {
    /// The period: both bounds required unless `optional` (a campaign's messages).
    fn period(&self, fields: &mut QueryFields, optional: bool) -> (Option<DateTime<Utc>>, Option<DateTime<Utc>>) {
        let from = fields.period_bound_of("date_start", self.date_start.as_deref(), PeriodBound::Start, !optional);
        let until = fields.period_bound_of("date_end", self.date_end.as_deref(), PeriodBound::End, !optional);
        (from, until)
    }

    fn message_filter(self) -> Result<MessageFilter, Error> {
        let mut fields = QueryFields::default();
        let campaign = optional(&mut fields, "campaign_id", self.campaign_id.as_deref(), path_id, "a campaign ticket");
        let (from, until) = self.period(&mut fields, campaign.is_some());
        let filter = MessageFilter {
            page: Page { start: self.start, length: self.length },
            from,
            until,
            campaign,
            destination: fields.number("destination", self.destination.as_deref()),
            text: self.message.filter(|text| !text.trim().is_empty()),
            pushtype: optional(&mut fields, "type", self.kind.as_deref(), PushType::parse, "alert or marketing"),
            country: optional(
                &mut fields,
                "country",
                self.country.as_deref(),
                |c| Country::from_iso2(&c.to_ascii_uppercase()),
                "an ISO 3166 country code such as FR",
            ),
            status: optional(
                &mut fields,
                "status",
                self.status.as_deref(),
                DeliveryCode::from_label,
                "a status such as delivered, not_delivered, npai, expired, pending, sent",
            ),
            order: self.sort.unwrap_or_default(),
        };
        fields.finish(filter)
    }

    fn reply_filter(self) -> Result<ReplyFilter, Error> {
        let mut fields = QueryFields::default();
        let (from, until) = self.period(&mut fields, false);
        let filter = ReplyFilter {
            page: Page { start: self.start, length: self.length },
            from: from.unwrap_or_default(),
            until: until.unwrap_or_default(),
            order: self.sort.unwrap_or_default(),
            number: None,
        };
        fields.finish(filter)
    }
}

/// A message as `GET /messages` writes it, its text as its recipient got it.
pub(crate) fn message_dto(state: &AppState, record: &MessageRecord) -> SentMessageDto {
    let values = record.info.as_deref().map(MergeValues::stored);
    let text = if record.text.is_empty() {
        String::new()
    } else {
        let short_urls = state.codes.short_urls(&state.message, record.id, &record.links);
        render(&record.text, record.pushtype, &short_urls, &state.message, values.as_ref())
    };
    SentMessageDto {
        message_id: record.id,
        campaign_id: record.campaign,
        client_message_id: record.gsmsmsid.clone().unwrap_or_default(),
        message: text,
        cost: record.cost.as_f64(),
        country: record.country.clone(),
        destination: record.number.map(|n| n.to_string()).unwrap_or_default(),
        sender: record.sender.clone().unwrap_or_default(),
        date: format_paris(record.created_at),
        dlr_date: record.delivered_at.map(format_paris).unwrap_or_default(),
        status: record.delivery.label().to_owned(),
        status_details: record.delivery.description().to_owned(),
        kind: record.pushtype.as_str().to_owned(),
    }
}

/// A reply as `GET /messages/mo` and `GET /campaign/:id/mo` write it.
pub(crate) fn reply_dto(record: &ReplyRecord) -> ReplyDto {
    let [info1, info2, info3, info4] = record.info.clone().unwrap_or_default();
    ReplyDto {
        message_id: record.id,
        campaign_id: record.campaign.unwrap_or(0),
        destination: record.number.map(|n| n.to_string()).unwrap_or_default(),
        message: record.text.clone(),
        info1,
        info2,
        info3,
        info4,
        date: format_paris(record.received_at),
    }
}

#[utoipa::path(
    get,
    path = "/messages",
    tag = "messages",
    params(
        ("date_start" = String, Query, description = "Accepted at or after: Y-m-d H:i:s or Y-m-d (Paris); required"),
        ("date_end" = String, Query, description = "Accepted at or before: Y-m-d H:i:s or Y-m-d (the whole day); required"),
        ("destination" = Option<String>, Query, description = "To this number (international form)"),
        ("message" = Option<String>, Query, description = "With this text in the message (any case)"),
        ("type" = Option<String>, Query, description = "alert or marketing"),
        ("country" = Option<String>, Query, description = "ISO 3166 code of the number's country"),
        ("campaign_id" = Option<String>, Query, description = "Of this campaign (texto's addition; the period is then optional)"),
        ("status" = Option<String>, Query, description = "pending, sent, delivered, not_delivered, not_allowed, npai, invalid_sender, no_route, rejected, network_error, expired (or the code's number)"),
        ("start" = Option<i64>, Query, description = "First record (default 0)"),
        ("length" = Option<i64>, Query, description = "Records per page (default 100, at most 1000)"),
        ("sort" = Option<String>, Query, description = "asc (oldest first) or desc (newest first, the default)")
    ),
    responses((status = 200, description = "The page of messages", body = texto_core::wire::MessagesResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn messages(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    asked: Result<Query<MessagesQuery>, QueryRejection>,
) -> Result<Response, Error> {
    let (records, total, kept) = state.store.messages(caller.account, query(asked)?.message_filter()?).await?;
    Ok(accept.ok(&MessagesResponse {
        status: 1,
        message: "OK".into(),
        messages: records.iter().map(|record| message_dto(&state, record)).collect(),
        total_records: total,
        total_display_records: kept,
    }))
}

#[utoipa::path(
    get,
    path = "/messages/mo",
    tag = "messages",
    params(
        ("date_start" = String, Query, description = "Received at or after: Y-m-d H:i:s or Y-m-d (Paris); required"),
        ("date_end" = String, Query, description = "Received at or before: Y-m-d H:i:s or Y-m-d (the whole day); required"),
        ("start" = Option<i64>, Query, description = "First record (default 0)"),
        ("length" = Option<i64>, Query, description = "Records per page (default 100, at most 1000)"),
        ("sort" = Option<String>, Query, description = "asc (oldest first) or desc (newest first, the default)")
    ),
    responses((status = 200, description = "The page of replies", body = texto_core::wire::RepliesResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn replies(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    asked: Result<Query<MessagesQuery>, QueryRejection>,
) -> Result<Response, Error> {
    let (records, total) = state.store.replies(caller.account, query(asked)?.reply_filter()?).await?;
    Ok(accept.ok(&RepliesResponse {
        status: 1,
        message: "OK".into(),
        replies: records.iter().map(reply_dto).collect(),
        total_records: total,
        total_display_records: total,
    }))
}

/// `GET /campaign/:ticket/messages.csv` (texto's addition, the export of the campaign's
/// Messages table): each message, oldest first, narrowed by `status` as `GET /messages` is;
/// UTF-8 with a byte order mark, cells a spreadsheet would run as formulas quoted.
pub(crate) async fn messages_csv(
    State(state): State<AppState>,
    caller: Caller,
    Path(ticket): Path<String>,
    asked: Result<Query<MessagesQuery>, QueryRejection>,
) -> Result<Response, Error> {
    let not_found = || Error::NotFound(format!("campaign {ticket}"));
    let id = path_id(&ticket).ok_or_else(not_found)?;
    state.store.campaign(caller.account, id).await?.ok_or_else(not_found)?;
    let mut filter = MessagesQuery { campaign_id: Some(id.to_string()), ..query(asked)? }.message_filter()?;
    filter.order = SortOrder::Asc;
    filter.page = Page { start: 0, length: 1000 };
    let mut out = csv::Writer::from_writer(CSV_BOM.as_bytes().to_vec());
    let csv_failed = |_| Error::Unavailable("the CSV export could not be written");
    out.write_record(["number", "status", "status_details", "date", "dlr_date", "cost", "country", "message"])
        .map_err(csv_failed)?;
    loop {
        let (records, _, _) = state.store.messages(caller.account, filter.clone()).await?;
        for record in &records {
            let m = message_dto(&state, record);
            let cost = m.cost.to_string();
            let fields =
                [&m.destination, &m.status, &m.status_details, &m.date, &m.dlr_date, &cost, &m.country, &m.message];
            out.write_record(fields.map(|field| spreadsheet_cell(field).into_owned())).map_err(csv_failed)?;
        }
        if records.len() < filter.page.length as usize {
            break;
        }
        filter.page.start += filter.page.length;
    }
    let body = out.into_inner().map_err(|_| Error::Unavailable("the CSV export could not be written"))?;
    let name = format!("attachment; filename=\"campaign-{id}-messages.csv\"");
    Ok(([(header::CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()), (header::CONTENT_DISPOSITION, name)], body)
        .into_response())
}
