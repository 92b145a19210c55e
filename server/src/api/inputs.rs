//! What requests carry beside their body, read the same way by every route: the query string,
//! a number search, a list of contacts.

use axum::extract::{Query, rejection::QueryRejection};
use texto_core::{FieldError, PlainText, parse_international, wire::ContactDto};

use crate::{Error, store::NewContact};

/// The query as `T`, or -7 with HTTP 400 naming what could not be read (instead of axum's
/// plain text); every listing route reads its query through this.
pub(super) fn query<T>(query: Result<Query<T>, QueryRejection>) -> Result<T, Error> {
    query.map(|Query(value)| value).map_err(|rejection| Error::BadQuery(rejection.body_text()))
}

/// The digits of a number search: `text` without the separators a number may be written
/// with (spaces, dots, dashes, brackets, a leading `+`; docs/interface.md §3.1), when only digits are
/// left; `None` when anything else is.
pub(super) fn digits_of(text: &str) -> Option<String> {
    let text = text.trim();
    let digits: String =
        text.strip_prefix('+').unwrap_or(text).chars().filter(|c| !matches!(c, ' ' | '.' | '-' | '(' | ')')).collect();
    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())).then_some(digits)
}

/// The contacts of a request, validated: each number must be international (docs/interface.md §3.1).
/// Returns the valid contacts and one problem per invalid number, at `{prefix}.contacts.gsm[i].value`;
/// an info field holding a control character other than tab refuses the whole request (-7).
pub(super) fn contacts(prefix: &str, gsm: &[ContactDto]) -> Result<(Vec<NewContact>, Vec<FieldError>), Error> {
    let mut valid = Vec::with_capacity(gsm.len());
    let mut problems = Vec::new();
    let mut refused = Vec::new();
    for (i, contact) in gsm.iter().enumerate() {
        let infos = [&contact.info1, &contact.info2, &contact.info3, &contact.info4];
        if let Some((n, why)) =
            infos.iter().enumerate().find_map(|(n, info)| Some((n + 1, PlainText::parse(info.as_deref()?).err()?)))
        {
            refused.push(FieldError::new(format!("{prefix}.contacts.gsm[{i}].info{n}"), why));
            continue;
        }
        match parse_international(&contact.value) {
            Ok(number) => valid.push(NewContact {
                number: number.as_u64(),
                info: [&contact.info1, &contact.info2, &contact.info3, &contact.info4]
                    .map(|info| info.clone().unwrap_or_default()),
            }),
            Err(why) => problems.push(FieldError::new(
                format!("{prefix}.contacts.gsm[{i}].value"),
                format!("{}: {why}", texto_core::excerpt(&contact.value)),
            )),
        }
    }
    match refused.is_empty() {
        true => Ok((valid, problems)),
        false => Err(Error::Invalid(refused)),
    }
}
