//! Campaign history and detail, and the credit balance.

use axum::{
    Router,
    extract::{Path, Query, State, rejection::QueryRejection},
    response::Response,
    routing::get,
};
use texto_core::{
    DeliveryCode, PeriodBound, format_paris,
    wire::{
        CampaignDetailDto, CampaignDetailResponse, CampaignListDto, CampaignSummaryDto, CampaignsResponse,
        CreditsResponse, LinkClicksDto,
    },
};

use crate::{
    Error,
    http::{
        Accept,
        auth::Caller,
        inputs::{QueryFields, path_id, query},
    },
    state::AppState,
    store::{CampaignFilter, CampaignRecord, CampaignStatus, Page, SortOrder},
};

pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .route("/campaigns", get(history))
        .route("/campaign/{ticket}", get(detail))
        .route("/credits", get(credits))
}

fn delivery_rate(record: &CampaignRecord) -> i64 {
    let delivered = record.deliveries.of(DeliveryCode::Delivered);
    if record.sent == 0 { 0 } else { delivered * 100 / record.sent }
}

fn summary(record: &CampaignRecord) -> CampaignSummaryDto {
    let counts = Outcomes::of(record);
    CampaignSummaryDto {
        id: record.id.to_string(),
        sender: record.sender.clone().unwrap_or_default(),
        text: record.text.clone(),
        date: crate::sending::approval::shown_date(record),
        cost: record.cost.as_f64(),
        delivery_rate: delivery_rate(record),
        status: crate::sending::approval::status_label(record).to_owned(),
        total: Some(record.total),
        sent: Some(record.sent),
        pushtype: Some(record.pushtype.clone()),
        creation_date: Some(format_paris(record.created_at)),
        lists: Some(record.lists.iter().map(|id| CampaignListDto { id: id.clone() }).collect()),
        delivered: Some(counts.delivered),
        error: Some(counts.error),
        expired: Some(counts.expired),
        network_error: Some(counts.network_error),
        stop: Some(counts.stop),
        npai: Some(counts.npai),
        journey: record.journey.map(|id| id.to_string()),
    }
}

/// What became of a campaign's messages, as `GET /campaigns` and `GET /campaign/:id` count it.
struct Outcomes {
    delivered: i64,
    error: i64,
    expired: i64,
    network_error: i64,
    stop: i64,
    npai: i64,
}

impl Outcomes {
    fn of(record: &CampaignRecord) -> Outcomes {
        Outcomes {
            delivered: record.deliveries.of(DeliveryCode::Delivered),
            error: record.deliveries.of_any(&DeliveryCode::ERRORS),
            expired: record.deliveries.of(DeliveryCode::Expired),
            network_error: record.deliveries.of(DeliveryCode::NetworkError),
            stop: record.stops,
            // Filtered as NPAI when accepted, and found unknown by the carrier since.
            npai: record.npai + record.deliveries.of(DeliveryCode::InvalidDestination),
        }
    }
}

/// Messages of the campaign still without a final delivery code; none once it is cancelled,
/// as its messages never go out.
fn pending(record: &CampaignRecord) -> i64 {
    if record.status == CampaignStatus::Cancelled {
        return 0;
    }
    record.deliveries.of_any(&[DeliveryCode::NotSent, DeliveryCode::Sent])
}

/// The query of `GET /campaigns`: its page, and filters that each narrow the answer.
#[derive(Debug, serde::Deserialize)]
pub(crate) struct HistoryQuery {
    #[serde(default = "Page::first_record")]
    start: i64,
    #[serde(default = "Page::records_per_page")]
    length: i64,
    date_start: Option<String>,
    date_end: Option<String>,
    sms_min: Option<String>,
    sms_max: Option<String>,
    destination: Option<String>,
    text: Option<String>,
    sort: Option<SortOrder>,
    approval: Option<String>,
}

impl HistoryQuery {
    fn filter(self) -> Result<CampaignFilter, Error> {
        let mut fields = QueryFields::default();
        let filter = CampaignFilter {
            page: Page { start: self.start, length: self.length },
            sent_from: fields.period_bound("date_start", self.date_start.as_deref(), PeriodBound::Start),
            sent_until: fields.period_bound("date_end", self.date_end.as_deref(), PeriodBound::End),
            recipients_min: fields.count("sms_min", self.sms_min.as_deref()),
            recipients_max: fields.count("sms_max", self.sms_max.as_deref()),
            destination: fields.number("destination", self.destination.as_deref()),
            text: self.text.filter(|text| !text.trim().is_empty()),
            order: self.sort.unwrap_or_default(),
            awaiting_approval: match self.approval.as_deref().map(str::trim) {
                None | Some("") => false,
                Some("awaiting") => true,
                Some(other) => {
                    fields.refuse("approval", other, "awaiting, or nothing");
                    false
                }
            },
        };
        fields.finish(filter)
    }
}

#[utoipa::path(
    get,
    path = "/campaigns",
    tag = "campaigns",
    params(
        ("start" = Option<i64>, Query, description = "First record (default 0)"),
        ("length" = Option<i64>, Query, description = "Records per page (default 100, at most 1000)"),
        ("date_start" = Option<String>, Query, description = "Sent at or after: Y-m-d H:i:s or Y-m-d (Paris)"),
        ("date_end" = Option<String>, Query, description = "Sent at or before: Y-m-d H:i:s or Y-m-d (the whole day)"),
        ("sms_min" = Option<i64>, Query, description = "At least this many recipients"),
        ("sms_max" = Option<i64>, Query, description = "At most this many recipients"),
        ("destination" = Option<String>, Query, description = "Sent to this number (international form)"),
        ("text" = Option<String>, Query, description = "With this text in the message (any case)"),
        ("sort" = Option<String>, Query, description = "asc (oldest first) or desc (newest first, the default)"),
        ("approval" = Option<String>, Query, description = "texto's: awaiting, for the campaigns that await approval only")
    ),
    responses((status = 200, description = "Campaigns, newest first", body = texto_core::wire::CampaignsResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn history(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    asked: Result<Query<HistoryQuery>, QueryRejection>,
) -> Result<Response, Error> {
    let (records, total) = state.store.campaigns(caller.account, query(asked)?.filter()?).await?;
    Ok(accept.ok(&CampaignsResponse {
        status: 1,
        message: "OK".into(),
        campaigns: records.iter().map(summary).collect(),
        total_records: total,
        total_display_records: total,
    }))
}

#[utoipa::path(
    get,
    path = "/campaign/{ticket}",
    tag = "campaigns",
    params(("ticket" = String, Path, description = "The campaign ticket")),
    responses((status = 200, description = "The campaign and its delivery statistics", body = texto_core::wire::CampaignDetailResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn detail(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(ticket): Path<String>,
) -> Result<Response, Error> {
    let not_found = || Error::NotFound(format!("campaign {ticket}"));
    let id = path_id(&ticket).ok_or_else(not_found)?;
    match state.store.campaign(caller.account, id).await? {
        Some(record) => Ok(accept.ok(&detail_response(&state, &caller, record).await?)),
        None => crate::sending::drafts::show(&state, &caller, accept, id).await?.ok_or_else(not_found),
    }
}

/// The answer of `GET /campaign/:ticket` (and of the changes to a campaign) for `record`.
pub(crate) async fn detail_response(
    state: &AppState,
    caller: &Caller,
    record: CampaignRecord,
) -> Result<CampaignDetailResponse, Error> {
    let counts = Outcomes::of(&record);
    let rejection = match record.status {
        CampaignStatus::Cancelled => state.store.rejection(caller.account, record.id).await?,
        _ => None,
    };
    Ok(CampaignDetailResponse {
        status: 1,
        message: "OK".into(),
        campaign: vec![CampaignDetailDto {
            id: record.id.to_string(),
            sender: record.sender.clone().unwrap_or_default(),
            text: record.text.clone(),
            creation_date: format_paris(record.created_at),
            date: crate::sending::approval::shown_date(&record),
            cost: record.cost.as_f64(),
            lists: record.lists.iter().map(|id| CampaignListDto { id: id.clone() }).collect(),
            status: Some(crate::sending::approval::status_label(&record).to_owned()),
            delivery_rate: delivery_rate(&record),
            delivered: counts.delivered,
            error: counts.error,
            expired: counts.expired,
            network_error: counts.network_error,
            stop: counts.stop,
            npai: counts.npai,
            total: record.total,
            sent: Some(record.sent),
            pushtype: Some(record.pushtype.clone()),
            pending: Some(pending(&record)),
            short_links: record.short_links.clone().map(|links| {
                links
                    .into_iter()
                    .map(|l| LinkClicksDto { url: l.url, clicks: l.clicks, clickers: l.clickers })
                    .collect()
            }),
            rejection,
            waiting: match record.status {
                CampaignStatus::Sending => state.connectors.waiting(record.id),
                _ => None,
            },
            validity: record.validity,
            template: record.template.map(|id| id.to_string()),
            journey: record.journey.map(|id| id.to_string()),
        }],
    })
}

#[utoipa::path(
    get,
    path = "/credits",
    tag = "campaigns",
    responses((status = 200, description = "The balance", body = texto_core::wire::CreditsResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn credits(State(state): State<AppState>, caller: Caller, accept: Accept) -> Result<Response, Error> {
    let mut balance = state.store.balance(caller.account).await?;
    // An unlimited sub-account may spend its parent's balance as well as its own.
    let payer = state.store.family(caller.account).await?.payer();
    if let Some(payer) = payer {
        balance = balance + state.store.balance(payer).await?;
    }
    Ok(accept.ok(&CreditsResponse {
        status: 1,
        message: "OK".into(),
        credits: balance.to_string(),
        postpaid: "0".into(),
        postpaid_limit: Some(false),
        unlimited: Some(payer.is_some()),
    }))
}
