//! What requests carry beside their body, read the same way by every route: the query string,
//! a number search, a list of contacts.

use axum::extract::{Query, rejection::QueryRejection};
use chrono::{DateTime, Utc};
use texto_core::{FieldError, PeriodBound, parse_international, parse_period_bound};

use crate::Error;

/// The query as `T`, or -7 with HTTP 400 naming what could not be read (instead of axum's
/// plain text); every listing route reads its query through this.
pub(crate) fn query<T>(query: Result<Query<T>, QueryRejection>) -> Result<T, Error> {
    query.map(|Query(value)| value).map_err(|rejection| Error::BadQuery(rejection.body_text()))
}

/// The id a query field `name` gives (`None` when it is absent or empty), or -7 saying it
/// wants `what`.
pub(crate) fn optional_id(name: &str, text: Option<&str>, what: &str) -> Result<Option<i64>, Error> {
    match text.map(str::trim).filter(|t| !t.is_empty()) {
        Some(text) => path_id(text).map(Some).ok_or_else(|| Error::Invalid(vec![FieldError::new(name, what)])),
        None => Ok(None),
    }
}

/// A body's 0-or-1 field `name` as a flag (`None` when absent), or -7 saying it wants 0 or 1.
pub(crate) fn flag(name: &str, value: Option<i64>) -> Result<Option<bool>, Error> {
    match value {
        None => Ok(None),
        Some(flag @ (0 | 1)) => Ok(Some(flag == 1)),
        Some(_) => Err(Error::invalid(name, "0 or 1")),
    }
}

/// The number a path names (`+` allowed), or -5 for `what` (`contact`, `conversation`).
pub(crate) fn path_number(text: &str, what: &str) -> Result<i64, Error> {
    path_id(text.trim_start_matches('+')).ok_or_else(|| Error::NotFound(format!("{what} {text}")))
}

/// A path id (`{id}`, `{ticket}`) in canonical decimal: digits only, no sign, no space and no
/// leading zero, so `+1`, `00001` and ` 1` name no resource (-5) rather than id 1.
pub(crate) fn path_id(text: &str) -> Option<i64> {
    let canonical =
        !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) && (text == "0" || !text.starts_with('0'));
    canonical.then(|| text.parse().ok()).flatten()
}

/// The digits of a number search: `text` without the separators a number may be written
/// with (spaces, dots, dashes, brackets, a leading `+`; docs/interface.md §3.1), when only digits are
/// left; `None` when anything else is.
pub(crate) fn digits_of(text: &str) -> Option<String> {
    let text = text.trim();
    let digits: String =
        text.strip_prefix('+').unwrap_or(text).chars().filter(|c| !matches!(c, ' ' | '.' | '-' | '(' | ')')).collect();
    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())).then_some(digits)
}

/// What a listing's query asks for beyond its page, read field by field so that every field
/// that does not parse is named at once (-7).
#[derive(Debug, Default)]
pub(crate) struct QueryFields {
    problems: Vec<FieldError>,
}

impl QueryFields {
    /// A `date_start` / `date_end`: `Y-m-d H:i:s` or `Y-m-d` in Paris time; empty is none.
    pub(crate) fn period_bound(
        &mut self,
        field: &str,
        value: Option<&str>,
        bound: PeriodBound,
    ) -> Option<DateTime<Utc>> {
        let value = value.map(str::trim).filter(|v| !v.is_empty())?;
        parse_period_bound(value, bound)
            .map_err(|_| self.refuse(field, value, "must be Y-m-d H:i:s or Y-m-d, in Paris time"))
            .ok()
    }

    /// Like [`QueryFields::period_bound`], refusing an absent or empty value when `required`.
    pub(crate) fn period_bound_of(
        &mut self,
        field: &str,
        value: Option<&str>,
        bound: PeriodBound,
        required: bool,
    ) -> Option<DateTime<Utc>> {
        if required && value.is_none_or(|v| v.trim().is_empty()) {
            self.refuse(field, "", "required: Y-m-d H:i:s or Y-m-d, in Paris time");
        }
        self.period_bound(field, value, bound)
    }

    /// A count such as `sms_min`: a whole number at least 0; empty is none.
    pub(crate) fn count(&mut self, field: &str, value: Option<&str>) -> Option<i64> {
        let value = value.map(str::trim).filter(|v| !v.is_empty())?;
        value.parse::<i64>().ok().filter(|n| *n >= 0).or_else(|| {
            self.refuse(field, value, "must be a whole number, 0 or more");
            None
        })
    }

    /// A phone number in international form (`33612345678`, `+33 6 12 34 56 78`); empty is none.
    pub(crate) fn number(&mut self, field: &str, value: Option<&str>) -> Option<u64> {
        let value = value.map(str::trim).filter(|v| !v.is_empty())?;
        match parse_international(value) {
            Ok(number) => Some(number.as_u64()),
            Err(why) => {
                self.refuse(field, value, &why.to_string());
                None
            }
        }
    }

    /// Notes that `field`'s `value` was refused, and why.
    pub(crate) fn refuse(&mut self, field: &str, value: &str, why: &str) {
        self.problems.push(FieldError::new(field, format!("{}: {why}", texto_core::excerpt(value))));
    }

    /// `value` when every field parsed, otherwise -7 naming each that did not.
    pub(crate) fn finish<T>(self, value: T) -> Result<T, Error> {
        if self.problems.is_empty() { Ok(value) } else { Err(Error::Invalid(self.problems)) }
    }
}

#[cfg(test)]
mod tests {
    use super::path_id;

    #[test]
    fn path_ids_are_canonical_decimal() {
        for (text, id) in [("0", 0), ("1", 1), ("42", 42), ("9223372036854775807", i64::MAX)] {
            assert_eq!(path_id(text), Some(id), "{text}");
        }
        for bad in ["", "+1", "-1", "00001", "01", " 1", "1 ", "1.0", "1e3", "0x1", "9223372036854775808", "١"] {
            assert_eq!(path_id(bad), None, "{bad:?}");
        }
    }
}
