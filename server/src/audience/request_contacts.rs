//! The contacts a request adds to a list or to the blacklist and NPAI list, validated.

use texto_core::{FieldError, PlainText, parse_international, wire::ContactDto};

use crate::{Error, store::NewContact};

/// The contacts of a request, validated: each number must be international (docs/interface.md §3.1).
/// Returns the valid contacts and one problem per invalid number, at `{prefix}.contacts.gsm[i].value`;
/// an info field holding a control character other than tab refuses the whole request (-7).
pub(crate) fn contacts(prefix: &str, gsm: &[ContactDto]) -> Result<(Vec<NewContact>, Vec<FieldError>), Error> {
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
            Ok(number) => {
                let card = match contact
                    .contact
                    .clone()
                    .map(|card| crate::audience::contacts::change_of(*card, chrono::Utc::now()))
                {
                    None => None,
                    Some(Ok(card)) => Some(card),
                    Some(Err(Error::Invalid(errors))) => {
                        let at = format!("{prefix}.contacts.gsm[{i}].contact.");
                        refused.extend(
                            errors.into_iter().map(|e| FieldError::new(e.path.replacen("contact.", &at, 1), e.message)),
                        );
                        continue;
                    }
                    Some(Err(other)) => return Err(other),
                };
                valid.push(NewContact {
                    number: number.as_u64(),
                    info: [&contact.info1, &contact.info2, &contact.info3, &contact.info4]
                        .map(|info| info.clone().unwrap_or_default()),
                    card,
                })
            }
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
