//! The mapping of texto's one error type to HTTP (docs/interface.md §1.4), in one place: the
//! status, the interface's status and message, the problems, and the `Retry-After` of what may
//! be tried again.

use axum::{
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use texto_core::FieldError;

use crate::Error;

/// `(HTTP status, interface status, message, problems)` of this error.
fn parts(error: &Error) -> (StatusCode, i64, String, Vec<FieldError>) {
    let whole = |message: String| vec![FieldError::new("", message)];
    match error {
        Error::Unauthorized(why) => (StatusCode::UNAUTHORIZED, -1, "Authentication error".into(), whole((*why).into())),
        Error::NotAcceptable(accept) => (
            StatusCode::NOT_ACCEPTABLE,
            -7,
            "Not acceptable".into(),
            whole(format!("Accept {}: texto answers application/json or application/xml", texto_core::excerpt(accept))),
        ),
        Error::Request(error) => {
            let http = match error {
                texto_core::Error::Json { .. } | texto_core::Error::Xml { .. } => StatusCode::BAD_REQUEST,
                texto_core::Error::NotFound(_) => StatusCode::NOT_FOUND,
                texto_core::Error::Invalid(_) | texto_core::Error::Delay(_) => StatusCode::UNPROCESSABLE_ENTITY,
            };
            let envelope = texto_core::wire::ErrorResponse::from(error);
            (http, envelope.status, envelope.message, error.field_errors())
        }
        Error::Invalid(problems) => (StatusCode::UNPROCESSABLE_ENTITY, -7, "Invalid data".into(), problems.clone()),
        Error::IdempotencyKeyReused => (
            StatusCode::UNPROCESSABLE_ENTITY,
            -7,
            "Invalid data".into(),
            vec![FieldError::new("Idempotency-Key", error.to_string())],
        ),
        Error::NotEnoughCredits { .. } => {
            (StatusCode::PAYMENT_REQUIRED, -3, "Not enough credits".into(), whole(error.to_string()))
        }
        Error::NotFound(what) => {
            (StatusCode::NOT_FOUND, -5, "Resource not found".into(), whole(format!("{what} not found")))
        }
        Error::TooLarge(_) => (StatusCode::PAYLOAD_TOO_LARGE, -7, "Request too large".into(), whole(error.to_string())),
        Error::NotJson => {
            (StatusCode::UNSUPPORTED_MEDIA_TYPE, -7, "Unsupported media type".into(), whole(error.to_string()))
        }
        Error::BadQuery(problem) => (StatusCode::BAD_REQUEST, -7, "Invalid query".into(), whole(problem.clone())),
        Error::BadBody(_) => (StatusCode::BAD_REQUEST, -7, "Malformed body".into(), whole(error.to_string())),
        Error::BodyTimeout(_) => (StatusCode::REQUEST_TIMEOUT, -7, "Request timeout".into(), whole(error.to_string())),
        Error::Busy(_) | Error::PasswordChecksBusy => {
            (StatusCode::SERVICE_UNAVAILABLE, -11, "Server busy".into(), whole(error.to_string()))
        }
        Error::DatabaseDown(fault) => {
            tracing::error!(%fault, "request refused: the database cannot serve it");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                -11,
                "Database unavailable".into(),
                whole(format!("{fault}: try again shortly")),
            )
        }
        Error::Contended(_) => {
            // Rare, and answered "send again": logged, so that an operator sees why.
            tracing::warn!(error = %error, "request refused for a concurrent change");
            (StatusCode::SERVICE_UNAVAILABLE, -11, "Server busy".into(), whole(error.to_string()))
        }
        Error::Forbidden { .. }
        | Error::CrossSite
        | Error::OtherSite
        | Error::TwoFactorRequired
        | Error::OwnCampaign
        | Error::OwnJourney
        | Error::OperatorsOnly
        | Error::NotYourNumber
        | Error::Suspended => (StatusCode::FORBIDDEN, -12, "forbidden".into(), whole(error.to_string())),
        Error::SignInSlowed(_) => {
            (StatusCode::TOO_MANY_REQUESTS, -11, "Too many requests".into(), whole(error.to_string()))
        }
        Error::RateLimited => (
            StatusCode::TOO_MANY_REQUESTS,
            -11,
            "Too many requests".into(),
            whole("slow down: this token's request rate is over its limit".into()),
        ),
        Error::Database(_)
        | Error::Postgres(_)
        | Error::Pool(_)
        | Error::Migration(_)
        | Error::Stored(_)
        | Error::Unavailable(_)
        | Error::Io { .. }
        | Error::Command(_) => {
            tracing::error!(error = %error, "request failed");
            (StatusCode::INTERNAL_SERVER_ERROR, -99, "Unknown error".into(), Vec::new())
        }
    }
}

/// The `Retry-After` of an answer refused for a database fault: long enough not to hammer it.
const DATABASE_RETRY_AFTER_SECS: u64 = 5;

/// An error on its way out: the envelope is written by [`crate::http::render_errors`], which
/// knows the format the client accepts.
#[derive(Debug, Clone)]
pub(crate) struct Failure(pub(crate) texto_core::wire::ErrorResponse);

impl IntoResponse for Error {
    fn into_response(self) -> Response {
        let (http, status, message, problems) = parts(&self);
        let mut response = http.into_response();
        match self {
            Error::Busy(seconds) => {
                response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(seconds));
            }
            Error::Contended(_) | Error::PasswordChecksBusy => {
                response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(1));
            }
            Error::SignInSlowed(seconds) => {
                response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(seconds.max(1)));
            }
            Error::DatabaseDown(_) => {
                response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(DATABASE_RETRY_AFTER_SECS));
            }
            _ => {}
        }
        response.extensions_mut().insert(Failure(texto_core::wire::ErrorResponse::new(status, message, &problems)));
        response
    }
}

#[cfg(test)]
mod tests {
    use axum::{
        http::{StatusCode, header},
        response::IntoResponse,
    };

    use super::Failure;
    use crate::{Error, store::faults::DatabaseFault};

    #[test]
    fn a_database_fault_is_503_with_retry_after_and_its_cause() {
        for (fault, cause) in [
            (DatabaseFault::Full, "the database is full"),
            (DatabaseFault::CannotWrite, "the database cannot write to its disk"),
            (DatabaseFault::Unreachable, "the database is unreachable"),
        ] {
            let response = Error::DatabaseDown(fault).into_response();
            assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
            assert_eq!(response.headers()[header::RETRY_AFTER], "5");
            let Some(Failure(envelope)) = response.extensions().get::<Failure>() else { panic!("an envelope") };
            assert_eq!(envelope.status, -11);
            let details = envelope.details.clone().unwrap_or_default();
            assert!(details.contains(cause), "{details}");
        }
    }
}
