//! `GET` and `PUT /settings` (texto's): what HELP answers, and whether STOP is
//! confirmed.

use axum::{Router, extract::State, response::Response, routing::get};
use texto_core::{
    FieldError, MOST_REPLY_CHARS, MarketingCap, Utm,
    wire::{SettingsDto, SettingsRequest, SettingsResponse},
};

use crate::{
    Error,
    http::{Accept, access::noted, auth::Caller, body::WireBody},
    state::AppState,
    store::AccountSettings,
};

pub(crate) fn router() -> Router<AppState> {
    Router::new().route("/settings", get(show).put(save))
}

fn answer(accept: Accept, settings: &AccountSettings) -> Response {
    let settings = SettingsDto {
        help_text: Some(settings.help_text.clone()),
        stop_confirmation: Some(i64::from(settings.stop_confirmation)),
        marketing_needs_consent: Some(i64::from(settings.marketing_needs_consent)),
        utm: settings.utm.as_ref().map(|utm| Some(utm.to_dto())),
        marketing_cap: settings.marketing_cap.map(|cap| Some(cap.to_dto())),
    };
    accept.ok(&SettingsResponse { status: 1, message: "OK".into(), settings })
}

/// `GET /settings`: the account's settings.
#[utoipa::path(get, path = "/settings", tag = "keywords",
    responses((status = 200, description = "The account's settings", body = texto_core::wire::SettingsResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn show(State(state): State<AppState>, caller: Caller, accept: Accept) -> Result<Response, Error> {
    Ok(answer(accept, &state.store.settings(caller.account).await?))
}

/// `PUT /settings` (`{"settings": {"help_text", "stop_confirmation", "marketing_needs_consent",
/// "utm", "marketing_cap"}}`): a field left out keeps its value; `null` turns UTM tagging or
/// the cap off.
#[utoipa::path(put, path = "/settings", tag = "keywords", request_body = texto_core::wire::SettingsRequest,
    responses((status = 200, description = "The settings now in force", body = texto_core::wire::SettingsResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn save(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    body: WireBody,
) -> Result<Response, Error> {
    let SettingsRequest { settings: asked } = body.decode()?;
    let mut settings = state.store.settings(caller.account).await?;
    let mut errors = Vec::new();
    if let Some(help) = asked.help_text {
        if help.chars().count() > MOST_REPLY_CHARS {
            errors.push(FieldError::new("settings.help_text", format!("at most {MOST_REPLY_CHARS} characters")));
        }
        settings.help_text = help.trim().to_owned();
    }
    match asked.stop_confirmation {
        None => {}
        Some(flag @ (0 | 1)) => settings.stop_confirmation = flag == 1,
        Some(_) => errors.push(FieldError::new("settings.stop_confirmation", "0 or 1")),
    }
    match asked.marketing_needs_consent {
        None => {}
        Some(flag @ (0 | 1)) => settings.marketing_needs_consent = flag == 1,
        Some(_) => errors.push(FieldError::new("settings.marketing_needs_consent", "0 or 1")),
    }
    if let Some(utm) = asked.utm {
        match utm.as_ref().map(|dto| Utm::from_dto(dto, "settings.utm")).transpose() {
            Ok(utm) => settings.utm = utm.flatten(),
            Err(mut refused) => errors.append(&mut refused),
        }
    }
    if let Some(cap) = asked.marketing_cap {
        // An empty cap (`{}`, or XML's empty element) turns it off, as `null` does.
        let cap = cap.filter(|dto| dto.messages.is_some() || dto.days.is_some());
        match cap.as_ref().map(|dto| MarketingCap::from_dto(dto, "settings.marketing_cap")).transpose() {
            Ok(cap) => settings.marketing_cap = cap,
            Err(mut refused) => errors.append(&mut refused),
        }
    }
    if !errors.is_empty() {
        return Err(Error::Invalid(errors));
    }
    state.store.set_settings(caller.account, settings.clone()).await?;
    let summary = format!(
        "settings: help text {}, STOP {}confirmed, marketing {}, UTM {}, marketing cap {}",
        if settings.help_text.is_empty() { "none" } else { "set" },
        if settings.stop_confirmation { "" } else { "not " },
        if settings.marketing_needs_consent { "needs consent" } else { "without consent check" },
        if settings.utm.is_some() { "on" } else { "off" },
        settings
            .marketing_cap
            .map_or_else(|| "off".to_owned(), |cap| format!("{} in {} days", cap.messages(), cap.days()))
    );
    Ok(noted(answer(accept, &settings), "settings", summary))
}
