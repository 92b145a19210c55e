//! Wire request → [`Campaign`], collecting every problem with its path.

use chrono::{DateTime, Utc};

use super::{
    AbTest, Audience, Campaign, MAX_PARTS, MOST_VARIANTS, MessageOptions, Recipients, SHORT_MARKER, Sender, Smart,
    Validity, rendered_segments,
};
use crate::{
    Error, FieldError, PushType, SmartEncoding, UtmChoice, parse_delay, to_gsm,
    wire::{AbDto, SmsRequest},
};

/// The four send paths, which differ in what they require.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endpoint {
    /// `POST /send` (and `GET /send`).
    Send,
    /// `POST /send/lists`.
    SendLists,
    /// `POST /send/simulate`.
    Simulate,
    /// `POST /send/lists/simulate`.
    SimulateLists,
}

impl Endpoint {
    fn to_lists(self) -> bool {
        matches!(self, Endpoint::SendLists | Endpoint::SimulateLists)
    }
    fn simulated(self) -> bool {
        matches!(self, Endpoint::Simulate | Endpoint::SimulateLists)
    }
}

/// Checks a decoded `sms` request for `endpoint` and builds the campaign. Every problem is
/// reported at once; a bad `delay` alone is [`Error::Delay`] (status -4), anything else
/// [`Error::Invalid`] (status -7).
pub fn validate_send<'a>(
    request: SmsRequest<'a>,
    endpoint: Endpoint,
    options: &MessageOptions,
    now: DateTime<Utc>,
) -> Result<Campaign<'a>, Error> {
    let mut errors = Vec::new();
    let message = request.message;

    // Blanks around the text are dropped: the public XML samples wrap the CDATA in indentation.
    let mut text = match message.text.as_deref().map(str::trim) {
        // CR and LF are GSM characters; NUL is not text.
        Some(text) if text.contains('\0') => {
            errors.push(FieldError::new(
                "sms.message.text",
                "holds the control character U+0000 (NUL): not allowed in a text",
            ));
            String::new()
        }
        Some(text) if !text.is_empty() => text.to_owned(),
        _ => {
            errors.push(FieldError::new("sms.message.text", "is required"));
            String::new()
        }
    };

    let pushtype = match message.pushtype.as_deref().map(str::trim) {
        Some("") | None if endpoint.simulated() => PushType::Alert,
        Some("") | None => {
            errors.push(FieldError::new("sms.message.pushtype", "is required: alert or marketing"));
            PushType::Alert
        }
        Some(value) => PushType::parse(value).unwrap_or_else(|| {
            errors.push(FieldError::new(
                "sms.message.pushtype",
                format!("must be alert or marketing, not {}", crate::excerpt(value)),
            ));
            PushType::Alert
        }),
    };

    let sender = match message.sender.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(value) => match Sender::parse(value) {
            Ok(sender) => Some(sender),
            Err(why) => {
                errors.push(FieldError::new("sms.message.sender", why));
                None
            }
        },
    };

    let links = message.links.unwrap_or_default();
    let markers = text.matches(SHORT_MARKER).count();
    if links.len() != markers {
        errors.push(FieldError::new(
            "sms.message.links",
            format!("the text has {markers} <-short-> marker(s) but {} link(s) were given", links.len()),
        ));
    }
    for (i, link) in links.iter().enumerate() {
        if let Err(why) = check_url(link) {
            errors.push(FieldError::new(format!("sms.message.links[{i}]"), why));
        }
    }

    let unicode = message.unicode.unwrap_or(false);
    let encoding = match message.encoding.as_deref().map(str::trim) {
        None | Some("") => SmartEncoding::Auto,
        Some(value) => SmartEncoding::parse(value).unwrap_or_else(|| {
            errors.push(FieldError::new(
                "sms.message.encoding",
                format!("must be auto or gsm, not {}", crate::excerpt(value)),
            ));
            SmartEncoding::Auto
        }),
    };
    // The text as sent, with the parts it took as written (its length is checked as sent).
    let smart = match encoding {
        SmartEncoding::Gsm if unicode => {
            errors.push(FieldError::new(
                "sms.message.encoding",
                "gsm keeps the GSM alphabet: it cannot go with unicode 1",
            ));
            None
        }
        SmartEncoding::Gsm => {
            let written = rendered_segments(&text, pushtype, false, options, None).parts;
            let gsm = to_gsm(&text);
            text = gsm.text;
            Some((gsm.replaced, written))
        }
        SmartEncoding::Auto => None,
    };
    let validity = message.validity.and_then(|minutes| {
        Validity::from_minutes(minutes).map_err(|why| errors.push(FieldError::new("sms.message.validity", why))).ok()
    });
    let template = message.template.as_deref().map(str::trim).filter(|id| !id.is_empty()).and_then(|id| {
        let parsed = id.parse::<i64>().ok().filter(|n| *n > 0);
        if parsed.is_none() {
            errors
                .push(FieldError::new("sms.message.template", format!("a template id, found {}", crate::excerpt(id))));
        }
        parsed
    });
    let utm = UtmChoice::from_message(message.utm.as_ref()).unwrap_or_else(|mut refused| {
        errors.append(&mut refused);
        UtmChoice::Account
    });
    if let Some(unknown) = super::merge::unknown_field(&text, None, "sms.message.text") {
        errors.push(unknown);
    }
    let parts = if text.is_empty() { 0 } else { rendered_segments(&text, pushtype, unicode, options, None).parts };
    if parts > MAX_PARTS {
        errors
            .push(FieldError::new("sms.message.text", format!("is too long: {parts} SMS parts, at most {MAX_PARTS}")));
    }
    let smart = smart.map(|(replaced, written)| Smart { replaced, parts_saved: written.saturating_sub(parts) });
    let cards = super::card_fields(&text);
    let shape = TextShape { links: links.len(), pushtype, unicode, gsm: smart.is_some(), cards };
    let ab = ab_test(message.variants, message.ab.as_ref(), &shape, options, &mut errors);

    let audience = if endpoint.to_lists() {
        let ids = |refs: Option<Vec<crate::wire::ListRefDto>>| -> Vec<String> {
            refs.unwrap_or_default().into_iter().map(|l| l.value.trim().to_owned()).collect()
        };
        let (lists, segments) = (ids(request.lists), ids(request.segments));
        if lists.is_empty() && segments.is_empty() {
            errors.push(FieldError::new("sms.lists", "at least one list (or segment) is required"));
        }
        for (name, ids) in [("lists", &lists), ("segments", &segments)] {
            for (i, id) in ids.iter().enumerate().filter(|(_, l)| l.is_empty()) {
                errors.push(FieldError::new(
                    format!("sms.{name}[{i}].value"),
                    format!("id is empty: {}", crate::excerpt(id)),
                ));
            }
        }
        Audience::Lists { lists, segments }
    } else {
        let recipients = Recipients(request.recipients.map(|r| r.gsm).unwrap_or_default());
        if recipients.is_empty() {
            errors.push(FieldError::new("sms.recipients.gsm", "at least one recipient is required"));
        }
        Audience::Numbers(recipients)
    };

    let delay = match parse_delay(message.delay.as_deref().unwrap_or(""), now) {
        Ok(delay) => delay,
        Err(why) => {
            let error = FieldError::new("sms.message.delay", why.to_string());
            if errors.is_empty() {
                return Err(Error::Delay(error));
            }
            errors.push(error);
            None
        }
    };

    if !errors.is_empty() {
        return Err(Error::Invalid(errors));
    }
    Ok(Campaign { text, pushtype, sender, delay, links, unicode, smart, validity, utm, template, ab, audience })
}

/// What every text of a campaign shares: its links, push type and alphabet.
struct TextShape {
    links: usize,
    pushtype: PushType,
    unicode: bool,
    /// Smart encoding made the text GSM: the variants are made GSM too.
    gsm: bool,
    /// The contact fields the text names, in order: each message keeps their values.
    cards: Vec<crate::ContactField>,
}

/// The A/B test of `sms.message.variants` and `sms.message.ab`, each variant checked as the
/// text is (and made GSM when the text was); `None` without one, or when a problem was noted.
fn ab_test(
    variants: Option<Vec<String>>,
    dto: Option<&AbDto>,
    shape: &TextShape,
    options: &MessageOptions,
    errors: &mut Vec<FieldError>,
) -> Option<AbTest> {
    let variants = variants.unwrap_or_default();
    let dto = match (variants.is_empty(), dto) {
        (true, None) => return None,
        (true, Some(_)) => {
            errors.push(FieldError::new("sms.message.variants", "an A/B test needs one to three texts beside text"));
            return None;
        }
        (false, None) => {
            errors.push(FieldError::new("sms.message.ab", "variants need the test's share, wait and criterion"));
            return None;
        }
        (false, Some(dto)) => dto,
    };
    if variants.len() >= MOST_VARIANTS {
        let most = MOST_VARIANTS - 1;
        errors.push(FieldError::new("sms.message.variants", format!("at most {most} texts beside text")));
        return None;
    }
    let before = errors.len();
    let mut texts = Vec::with_capacity(variants.len());
    for (i, variant) in variants.iter().enumerate() {
        let path = format!("sms.message.variants[{i}]");
        let text = variant.trim();
        if text.is_empty() || text.contains('\0') {
            errors.push(FieldError::new(path, "must be a text, without U+0000 (NUL)"));
            continue;
        }
        let markers = text.matches(SHORT_MARKER).count();
        if markers != shape.links {
            let links = shape.links;
            errors.push(FieldError::new(
                path.clone(),
                format!("has {markers} <-short-> marker(s) but the campaign has {links} link(s)"),
            ));
        }
        let text = if shape.gsm { to_gsm(text).text } else { text.to_owned() };
        if let Some(unknown) = super::merge::unknown_field(&text, None, &path) {
            errors.push(unknown);
        }
        // Each message keeps the values of the text's contact fields, in the text's order.
        if !shape.cards.starts_with(&super::card_fields(&text)) {
            errors.push(FieldError::new(
                path.clone(),
                "names contact fields the text does not, or in another order: a variant may use the text's first contact fields, in its order",
            ));
        }
        let parts = rendered_segments(&text, shape.pushtype, shape.unicode, options, None).parts;
        if parts > MAX_PARTS {
            errors.push(FieldError::new(path, format!("is too long: {parts} SMS parts, at most {MAX_PARTS}")));
        }
        texts.push(text);
    }
    match AbTest::from_dto(texts, dto) {
        Ok(ab) if errors.len() == before => Some(ab),
        Ok(_) => None,
        Err(mut refused) => {
            errors.append(&mut refused);
            None
        }
    }
}

/// An absolute http(s) URL with a host and no spaces.
fn check_url(link: &str) -> Result<(), String> {
    let rest = link
        .strip_prefix("https://")
        .or_else(|| link.strip_prefix("http://"))
        .ok_or_else(|| format!("must be an absolute http(s) URL, not {}", crate::excerpt(link)))?;
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    if host.is_empty() || link.chars().any(char::is_whitespace) {
        return Err(format!("must be an absolute http(s) URL with a host and no spaces, not {}", crate::excerpt(link)));
    }
    Ok(())
}
