//! The balance alert settings: `GET` and `PUT /notification/balance`.

use axum::{Router, extract::State, response::Response, routing::get};
use texto_core::{
    FieldError, PlainText, parse_international,
    wire::{NotificationDto, NotificationRequest, NotificationResponse},
};

use crate::{
    Error,
    http::{Accept, auth::Caller, body::WireBody},
    state::AppState,
    store::BalanceAlert,
};

pub(crate) fn router() -> Router<AppState> {
    Router::new().route("/notification/balance", get(show).put(save))
}

/// Digits accepted in `alert_trigger`: whole credits, far beyond any balance, and within an i64.
const MAX_TRIGGER_DIGITS: usize = 15;
/// Longest email address (RFC 5321's path limit).
const MAX_EMAIL_CHARS: usize = 254;

/// The settings as the interface shows them: all five as strings (flags `1`/`0`).
fn dto(alert: &BalanceAlert) -> NotificationDto {
    let flag = |on: bool| if on { "1" } else { "0" }.to_owned();
    NotificationDto {
        alert_trigger: Some(alert.trigger.to_string()),
        alert_email: Some(flag(alert.email_enabled)),
        alert_gsm: Some(flag(alert.gsm_enabled)),
        email: Some(alert.email.clone()),
        phone_number: Some(alert.phone_number.clone()),
        gsm: None,
    }
}

/// `GET /notification/balance`: the settings, with the number also as `gsm` (as in the public
/// sample). An account that never saved any gets the defaults — trigger `0`, both flags `0`,
/// empty `email` and `phone_number` — which is what "no alert" looks like, rather than 404.
#[utoipa::path(
    get,
    path = "/notification/balance",
    tag = "notification",
    responses((status = 200, description = "The balance alert settings", body = texto_core::wire::NotificationResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn show(State(state): State<AppState>, caller: Caller, accept: Accept) -> Result<Response, Error> {
    let alert = state.store.balance_alert(caller.account).await?.unwrap_or_default();
    let mut notification = dto(&alert);
    notification.gsm = Some(alert.phone_number.clone());
    Ok(accept.ok(&NotificationResponse { status: 1, message: "OK".into(), notification }))
}

/// `PUT /notification/balance`: replaces the settings and echoes them. `alert_trigger` (whole
/// credits, digits only) is required; a missing or empty flag is `0`; `email` is required when
/// `alert_email` is 1 and `phone_number` when `alert_gsm` is 1, and either is checked whenever
/// it is given. Echoed values are the stored ones: the trigger without leading zeros, the
/// number as international digits.
#[utoipa::path(
    put,
    path = "/notification/balance",
    tag = "notification",
    request_body = texto_core::wire::NotificationRequest,
    responses((status = 200, description = "The settings as saved", body = texto_core::wire::NotificationResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn save(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    body: WireBody,
) -> Result<Response, Error> {
    let NotificationRequest { notification } = body.decode()?;
    let alert = validate(&notification)?;
    state.store.set_balance_alert(caller.account, &alert).await?;
    tracing::info!(
        trigger = alert.trigger,
        email = alert.email_enabled,
        gsm = alert.gsm_enabled,
        "balance alert saved"
    );
    Ok(accept.ok(&NotificationResponse { status: 1, message: "OK".into(), notification: dto(&alert) }))
}

/// The settings of a request, or every problem in it.
fn validate(dto: &NotificationDto) -> Result<BalanceAlert, Error> {
    let mut problems = Vec::new();
    let text = |value: &Option<String>| value.as_deref().map(str::trim).unwrap_or_default().to_owned();

    let trigger_text = text(&dto.alert_trigger);
    let trigger = if trigger_text.is_empty() {
        problems.push(FieldError::new(
            "notification.alert_trigger",
            "alert_trigger is required: the balance, in credits, that fires the alert",
        ));
        0
    } else if !trigger_text.bytes().all(|b| b.is_ascii_digit()) || trigger_text.len() > MAX_TRIGGER_DIGITS {
        problems.push(FieldError::new(
            "notification.alert_trigger",
            format!(
                "{} is not a trigger: expected digits only (whole credits, at most {MAX_TRIGGER_DIGITS} digits)",
                texto_core::excerpt(&trigger_text)
            ),
        ));
        0
    } else {
        trigger_text.parse::<i64>().unwrap_or_default()
    };

    let mut flag = |name: &str, value: &Option<String>| match text(value).as_str() {
        "" | "0" => false,
        "1" => true,
        other => {
            problems.push(FieldError::new(
                format!("notification.{name}"),
                format!("{}: expected 1 (on) or 0 (off)", texto_core::excerpt(other)),
            ));
            false
        }
    };
    let email_enabled = flag("alert_email", &dto.alert_email);
    let gsm_enabled = flag("alert_gsm", &dto.alert_gsm);

    let email = text(&dto.email);
    if email.is_empty() {
        if email_enabled {
            problems.push(FieldError::new("notification.email", "email is required when alert_email is 1"));
        }
    } else if let Err(why) = PlainText::parse(&email) {
        problems.push(FieldError::new("notification.email", why));
    } else if !plausible_email(&email) {
        problems.push(FieldError::new(
            "notification.email",
            format!("{} is not an email address", texto_core::excerpt(&email)),
        ));
    }

    let number = text(&dto.phone_number);
    let phone_number = if number.is_empty() {
        if gsm_enabled {
            problems.push(FieldError::new("notification.phone_number", "phone_number is required when alert_gsm is 1"));
        }
        String::new()
    } else {
        match parse_international(&number) {
            Ok(msisdn) => msisdn.as_u64().to_string(),
            Err(e) => {
                problems.push(FieldError::new(
                    "notification.phone_number",
                    format!("{} is not an international number: {e}", texto_core::excerpt(&number)),
                ));
                String::new()
            }
        }
    };

    if !problems.is_empty() {
        return Err(Error::Invalid(problems));
    }
    Ok(BalanceAlert { trigger, email_enabled, gsm_enabled, email, phone_number })
}

/// One `@` with text on both sides, a dot inside the domain, no spaces or control characters.
/// Deliverability is the mail server's to judge.
fn plausible_email(email: &str) -> bool {
    let Some((local, domain)) = email.split_once('@') else { return false };
    email.chars().count() <= MAX_EMAIL_CHARS
        && !local.is_empty()
        && !domain.contains('@')
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !domain.contains("..")
        && !email.chars().any(|c| c.is_whitespace() || c.is_control())
}

#[cfg(test)]
mod tests {
    use super::plausible_email;

    #[test]
    fn emails_need_one_at_and_a_dotted_domain() {
        for ok in ["a@example.com", "first.last+tag@mail.example.co.uk"] {
            assert!(plausible_email(ok), "{ok}");
        }
        for bad in [
            "",
            "a",
            "a@b",
            "@example.com",
            "a@@example.com",
            "a@b@example.com",
            "a b@example.com",
            "a@.com",
            "a@example.",
            "a@ex..com",
            "a@exa\tmple.com",
        ] {
            assert!(!plausible_email(bad), "{bad}");
        }
    }
}
