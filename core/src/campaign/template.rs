//! A template: a campaign's message kept to start campaigns from, checked by the very rules of
//! a send ([`validate_send`](super::validate_send)) so that a valid template always sends.

use chrono::{DateTime, Utc};

use super::{Endpoint, MessageOptions, validate_send};
use crate::{
    Error, FieldError, LineText, PushType,
    wire::{GsmDto, MessageDto, RecipientsDto, SmsRequest, TemplateDto},
};

/// The longest template name.
pub const TEMPLATE_NAME_CHARS: usize = 100;

/// A valid template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    /// Its name: one line, 1 to [`TEMPLATE_NAME_CHARS`] characters.
    pub name: String,
    /// The message as a send takes it.
    pub text: String,
    /// Alert (the default) or marketing.
    pub pushtype: PushType,
    /// A valid custom sender, if any.
    pub sender: Option<String>,
    /// One absolute http(s) URL per `<-short->`.
    pub links: Vec<String>,
}

/// Checks a template from the wire: a name, and a message that a send would take (every
/// problem at once, paths under `template.`).
pub fn validate_template(dto: TemplateDto, options: &MessageOptions, now: DateTime<Utc>) -> Result<Template, Error> {
    let mut errors = Vec::new();
    let name = dto.name.as_deref().map(str::trim).unwrap_or_default().to_owned();
    match name.chars().count() {
        0 => errors.push(FieldError::new("template.name", "is required")),
        n if n > TEMPLATE_NAME_CHARS => errors
            .push(FieldError::new("template.name", format!("is {n} characters long: at most {TEMPLATE_NAME_CHARS}"))),
        _ => {
            if let Err(why) = LineText::parse(&name) {
                errors.push(FieldError::new("template.name", why));
            }
        }
    }
    let pushtype = dto.pushtype.filter(|p| !p.trim().is_empty()).unwrap_or_else(|| "alert".to_owned());
    let message = MessageDto {
        text: dto.text,
        pushtype: Some(pushtype),
        sender: dto.sender,
        links: Some(dto.links),
        ..MessageDto::default()
    };
    // One stand-in recipient: a template has none, and the send's rules need one.
    let recipients = Some(RecipientsDto { gsm: vec![GsmDto::default()] });
    let request = SmsRequest { message, recipients, lists: None, segments: None };
    let checked = validate_send(request, Endpoint::Send, options, now);
    let campaign = match checked {
        Ok(campaign) => Some(campaign),
        Err(error) => {
            let message_errors = error.field_errors().into_iter().filter_map(|e| {
                e.path.strip_prefix("sms.message.").map(|field| FieldError::new(format!("template.{field}"), e.message))
            });
            errors.extend(message_errors);
            None
        }
    };
    match campaign {
        Some(campaign) if errors.is_empty() => Ok(Template {
            name,
            text: campaign.text().to_owned(),
            pushtype: campaign.pushtype(),
            sender: campaign.sender().map(|s| s.as_str().to_owned()),
            links: campaign.links().to_vec(),
        }),
        _ => Err(Error::Invalid(errors)),
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    fn check(json: &str) -> Result<Template, Error> {
        let dto: TemplateDto = serde_json::from_str(json).expect("a template");
        validate_template(dto, &MessageOptions::default(), Utc.with_ymd_and_hms(2026, 11, 29, 9, 0, 0).unwrap())
    }

    #[test]
    fn a_template_is_a_sendable_message_with_a_name() {
        let template =
            check(r#"{"name":" Soldes ","text":"Soldes <-short->","links":["https://ex.com/s"]}"#).expect("valid");
        assert_eq!((template.name.as_str(), template.pushtype), ("Soldes", PushType::Alert));
        assert_eq!(template.links, ["https://ex.com/s"]);
    }

    #[test]
    fn every_problem_is_named_under_template() {
        let error = check(r#"{"text":"Go <-short->","pushtype":"promo","sender":"A B"}"#).expect_err("invalid");
        let mut paths: Vec<String> = error.field_errors().into_iter().map(|e| e.path).collect();
        paths.sort();
        assert_eq!(paths, ["template.links", "template.name", "template.pushtype", "template.sender"]);
        let long = format!(r#"{{"name":"{}","text":"Hi"}}"#, "n".repeat(101));
        assert_eq!(check(&long).expect_err("too long").field_errors()[0].path, "template.name");
        assert!(check(r#"{"name":"A","text":""}"#).is_err(), "a text is required");
    }
}
