//! The one error type of `texto-core`.

use std::fmt;

use serde::Serialize;

/// A problem with one field of a request, named by its path (`sms.message.text`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldError {
    /// Where: a dotted path from the document root (array items as `[i]`).
    pub path: String,
    /// What is wrong and what was expected.
    pub message: String,
}

impl FieldError {
    /// A problem at `path`.
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> FieldError {
        FieldError { path: path.into(), message: message.into() }
    }
}

/// Why a body could not be turned into a valid request.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// The body is not well-formed JSON, or does not have the document's shape.
    Json {
        /// What the parser said.
        message: String,
        /// The field where it happened, when known.
        path: Option<String>,
        /// 1-based line and column of the failure.
        line: usize,
        /// 1-based column.
        column: usize,
    },
    /// The body is not well-formed or acceptable XML, or does not have the document's shape.
    Xml {
        /// What the parser said.
        message: String,
        /// The field where it happened, when known.
        path: Option<String>,
    },
    /// The document is well-formed but some fields are missing or invalid.
    Invalid(Vec<FieldError>),
    /// `delay` is not a usable date (docs/interface.md §5.1), answered with its own status (-4).
    Delay(FieldError),
    /// Something the request names does not exist (a list id), status -5.
    NotFound(Vec<FieldError>),
}

impl Error {
    /// The interface's `status` code for this error (docs/interface.md §1.4).
    pub fn status(&self) -> i32 {
        match self {
            Error::Json { .. } => -6,
            Error::Xml { .. } => -2,
            Error::Invalid(_) => -7,
            Error::Delay(_) => -4,
            Error::NotFound(_) => -5,
        }
    }

    /// The problems field by field (one entry for a syntax error).
    pub fn field_errors(&self) -> Vec<FieldError> {
        match self {
            Error::Json { message, path, line, column } => vec![FieldError::new(
                path.clone().unwrap_or_default(),
                format!("{message} (line {line}, column {column})"),
            )],
            Error::Xml { message, path } => vec![FieldError::new(path.clone().unwrap_or_default(), message.clone())],
            Error::Invalid(errors) | Error::NotFound(errors) => errors.clone(),
            Error::Delay(error) => vec![error.clone()],
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Json { .. } => f.write_str("JSON error")?,
            Error::Xml { .. } => f.write_str("XML error")?,
            Error::Invalid(_) => f.write_str("invalid data")?,
            Error::Delay(_) => f.write_str("incorrect delay")?,
            Error::NotFound(_) => f.write_str("not found")?,
        }
        for (i, error) in self.field_errors().iter().enumerate() {
            f.write_str(if i == 0 { ": " } else { "; " })?;
            if !error.path.is_empty() {
                write!(f, "{}: ", error.path)?;
            }
            f.write_str(&error.message)?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}
