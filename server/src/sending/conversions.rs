//! Conversions: `POST /conversion` (a token) and the pixel `GET /conversion.gif?click=…&value=…`
//! (none: the site's thank-you page shows it) credit a sale or a sign-up to the followed short
//! link that led to it; the campaign's report counts them. A click converts once: a second
//! conversion of the same click answers the first. The site learns the click's code from the
//! parameter the account's link tagging names (`settings.utm.click`).

use axum::{
    Router,
    extract::{Query, State, rejection::QueryRejection},
    http::header,
    response::{IntoResponse, Response},
    routing::{get, post},
};
use chrono::Utc;
use serde::Deserialize;
use texto_core::{
    NewConversion, format_paris,
    wire::{ConversionDto, ConversionRequest, ConversionResponse},
};

use crate::{
    Error,
    http::{Accept, auth::Caller, body::WireBody},
    state::AppState,
    store::conversions::{ConversionRecord, Converter},
};

pub(crate) fn router() -> Router<AppState> {
    Router::new().route("/conversion", post(record)).route("/conversion.gif", get(pixel))
}

/// A transparent GIF of one pixel.
const PIXEL: &[u8] = &[
    0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff,
    0x21, 0xf9, 0x04, 0x01, 0x00, 0x00, 0x00, 0x00, 0x2c, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x02,
    0x02, 0x44, 0x01, 0x00, 0x3b,
];

/// The conversion as the wire shows it.
fn dto(click: &str, recorded: &ConversionRecord) -> ConversionDto {
    ConversionDto {
        id: Some(recorded.id.to_string()),
        click: Some(click.to_owned()),
        value: Some(recorded.hundredths as f64 / 100.0),
        campaign_id: Some(recorded.campaign.to_string()),
        created_at: Some(format_paris(recorded.created_at)),
    }
}

/// Credits `new` for `by`: the conversion recorded, or `None` when its code names no followed
/// link of `by`'s.
async fn convert(state: &AppState, by: Converter, new: &NewConversion) -> Result<Option<ConversionRecord>, Error> {
    let Some((message, link)) = state.codes.decode(&new.click) else { return Ok(None) };
    let link = i64::try_from(link).unwrap_or(i64::MAX);
    state.store.convert(by, (message, link), new.hundredths, Utc::now()).await
}

/// `POST /conversion` (`{"conversion": {"click": "AbC123", "value": 49.9}}`).
#[utoipa::path(post, path = "/conversion", tag = "conversions", request_body = texto_core::wire::ConversionRequest,
    responses((status = 200, description = "The conversion recorded (the first, when the click had converted)", body = texto_core::wire::ConversionResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn record(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    body: WireBody,
) -> Result<Response, Error> {
    let ConversionRequest { conversion } = body.decode()?;
    let new = NewConversion::parse(&conversion, "conversion").map_err(Error::Invalid)?;
    let recorded = convert(&state, Converter::Account(caller.account), &new)
        .await?
        .ok_or_else(|| Error::NotFound(format!("followed short link {}", new.click)))?;
    let conversion = dto(&new.click, &recorded);
    Ok(accept.ok(&ConversionResponse { status: 1, message: "OK".into(), conversion }))
}

/// The pixel's query: the click's code and the value (`49.90`).
#[derive(Debug, Default, Deserialize)]
struct PixelQuery {
    click: Option<String>,
    value: Option<String>,
}

/// The conversion the pixel's query asks for, when it is one (a value, if given, an amount).
fn requested(query: PixelQuery) -> Option<NewConversion> {
    let value = match query.value.as_deref().map(str::trim).filter(|v| !v.is_empty()) {
        Some(text) => Some(text.parse::<f64>().ok()?),
        None => None,
    };
    NewConversion::parse(&ConversionDto { click: query.click, value, ..ConversionDto::default() }, "conversion").ok()
}

/// `GET /conversion.gif?click=AbC123&value=49.90`: always the same pixel, so that a page tells
/// nothing of what was recorded; a code that names no followed link, or a value that is no
/// amount, records nothing.
async fn pixel(State(state): State<AppState>, query: Result<Query<PixelQuery>, QueryRejection>) -> Response {
    let query = query.map(|Query(query)| query).unwrap_or_default();
    if let Some(new) = requested(query)
        && let Err(error) = convert(&state, Converter::Pixel, &new).await
    {
        tracing::warn!(%error, "a conversion pixel could not be recorded");
    }
    ([(header::CONTENT_TYPE, "image/gif"), (header::CACHE_CONTROL, "no-store")], PIXEL).into_response()
}
