//! The `status`/`message` envelope every response carries, and error responses.

use serde::{Deserialize, Serialize, Serializer};

use super::{Document, lenient};
use crate::{Error, FieldError, excerpt::clip};

/// A response with nothing but the envelope (deletions, cancellations).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StatusResponse {
    /// 1 on success.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK` on success.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
}

impl StatusResponse {
    /// `{status: 1, message: "OK"}`.
    pub fn ok() -> StatusResponse {
        StatusResponse { status: 1, message: "OK".to_owned() }
    }
}

impl Document for StatusResponse {
    const JSON_ROOT: Option<&'static str> = None;
    const XML_ROOTS: &'static [&'static str] = &["response"];
}

/// An error answer: negative `status`, a `message`, and `details` naming what was wrong.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ErrorResponse {
    /// The negative status of docs/interface.md §1.4.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// Short description (`JSON error`, `Invalid data`, …).
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// Human-readable details: every problem as `path: what is wrong`, joined by `; `.
    #[serde(default, deserialize_with = "lenient::opt_string", skip_serializing_if = "Option::is_none")]
    pub details: Option<String>,
    /// The same problems as data, one per field.
    #[serde(default, deserialize_with = "lenient::list")]
    pub errors: Vec<ErrorDetailDto>,
}

/// One problem of an error answer.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ErrorDetailDto {
    /// The field (`sms.message.text`), empty for the whole document.
    #[serde(default, deserialize_with = "lenient::string")]
    pub path: String,
    /// What is wrong.
    #[serde(default, deserialize_with = "lenient::string")]
    pub message: String,
}

impl ErrorResponse {
    /// An error answer with `status`, `message` and one entry per problem, bounded: at most
    /// [`MAX_LISTED_PROBLEMS`] problems (within [`PROBLEM_CHARS_BUDGET`] characters), then one
    /// entry that counts the others; each path and message clipped (see [`crate::excerpt`]),
    /// so that no error answer is over 64 KiB whatever the request held.
    pub fn new(status: i64, message: impl Into<String>, problems: &[FieldError]) -> ErrorResponse {
        let mut errors = Vec::new();
        let mut budget = PROBLEM_CHARS_BUDGET;
        for (i, problem) in problems.iter().enumerate() {
            let detail = ErrorDetailDto {
                path: clip(&problem.path, MAX_PATH_CHARS),
                message: clip(&problem.message, MAX_MESSAGE_CHARS),
            };
            let cost = detail.path.chars().count() + detail.message.chars().count();
            if i == MAX_LISTED_PROBLEMS || cost > budget {
                let more = problems.len() - i;
                errors.push(ErrorDetailDto { path: String::new(), message: format!("and {more} more problems") });
                break;
            }
            budget -= cost;
            errors.push(detail);
        }
        let details = errors
            .iter()
            .map(|p| if p.path.is_empty() { p.message.clone() } else { format!("{}: {}", p.path, p.message) })
            .collect::<Vec<_>>()
            .join("; ");
        ErrorResponse { status, message: message.into(), details: (!details.is_empty()).then_some(details), errors }
    }
}

/// Most problems an error answer lists; the others are counted.
pub const MAX_LISTED_PROBLEMS: usize = 100;

/// Characters of paths and messages an error answer lists at most (each is written twice:
/// in `details` and in `errors`).
pub const PROBLEM_CHARS_BUDGET: usize = 12 * 1024;

/// Longest message of one problem (a message quotes values through [`crate::excerpt`]; this
/// also bounds the wording of the JSON and XML parsers).
const MAX_MESSAGE_CHARS: usize = 512;

/// Longest path of one problem.
const MAX_PATH_CHARS: usize = 256;

impl From<&Error> for ErrorResponse {
    fn from(error: &Error) -> ErrorResponse {
        let message = match error {
            Error::Json { .. } => "JSON error",
            Error::Xml { .. } => "XML error",
            Error::Invalid(_) => "Invalid data",
            Error::Delay(_) => "Incorrect date delay",
            Error::NotFound(_) => "Resource not found",
        };
        ErrorResponse::new(i64::from(error.status()), message, &error.field_errors())
    }
}

impl Document for ErrorResponse {
    const JSON_ROOT: Option<&'static str> = None;
    const XML_ROOTS: &'static [&'static str] = &["response"];
}

/// Writes credits as an integer when whole (`2`, not `2.0`), else as a decimal.
pub(crate) fn decimal<S: Serializer>(value: &f64, s: S) -> Result<S::Ok, S::Error> {
    if value.fract() == 0.0 && value.abs() < 9.0e15 { s.serialize_i64(*value as i64) } else { s.serialize_f64(*value) }
}
