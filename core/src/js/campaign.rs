//! `segments`, `validateSend` and `simulate`.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use super::{
    convert::{from_js, instant, iso, parse_format, to_js},
    text::text,
};
use crate::{
    Audience, Contact, Country, Credits, Endpoint, Error, FieldError, FilterContext, FloodLimits, MessageOptions,
    Outcome, PriceTable, PushType, RecentSends, Segments, parse_international, rendered_segments,
    wire::{Object, SmsRequest, decode_sms},
};

/// Options of `segments`; a bare boolean is `{unicode}`.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct SegmentOptions {
    unicode: bool,
    pushtype: Option<String>,
    public_url: Option<String>,
    stop_text: Option<String>,
}

/// Splits `text` into SMS parts as it will be sent. `options` is `{unicode, pushtype,
/// publicUrl, stopText}`, or a boolean for `unicode`.
#[wasm_bindgen(unchecked_return_type = "Segments")]
pub fn segments(
    text: &str,
    #[wasm_bindgen(unchecked_param_type = "SegmentOptions | boolean")] options: JsValue,
) -> Result<JsValue, JsError> {
    let options: SegmentOptions = match options.as_bool() {
        Some(unicode) => SegmentOptions { unicode, ..SegmentOptions::default() },
        None if options.is_undefined() || options.is_null() => SegmentOptions::default(),
        None => from_js(options, "options")?,
    };
    let pushtype = match options.pushtype.as_deref() {
        None => PushType::Alert,
        Some(name) => PushType::parse(name).ok_or_else(|| JsError::new("pushtype must be alert or marketing"))?,
    };
    let message = message_options(options.public_url, options.stop_text);
    to_js(&rendered_segments(text, pushtype, options.unicode, &message, None))
}

fn message_options(public_url: Option<String>, stop_text: Option<String>) -> MessageOptions {
    let defaults = MessageOptions::default();
    MessageOptions {
        public_url: public_url.unwrap_or(defaults.public_url),
        stop_text: stop_text.unwrap_or(defaults.stop_text),
    }
}

/// Options of `validateSend` and `simulate` (the clock is read separately).
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct SendOptions {
    endpoint: Option<String>,
    public_url: Option<String>,
    stop_text: Option<String>,
}

#[derive(Serialize)]
struct Validation {
    ok: bool,
    errors: Vec<FieldError>,
    status: i32,
    #[serde(skip_serializing_if = "Option::is_none")]
    summary: Option<Summary>,
}

#[derive(Serialize)]
struct Summary {
    pushtype: PushType,
    recipients: usize,
    lists: Vec<String>,
    delay: Option<String>,
    sender: Option<String>,
    segments: Segments,
}

/// Checks a send request as the server would. Problems come back as data:
/// `{ok, errors: [{path, message}], status, summary}`.
#[wasm_bindgen(js_name = validateSend, unchecked_return_type = "Validation")]
pub fn validate_send(
    #[wasm_bindgen(unchecked_param_type = "string")] body: JsValue,
    format: &str,
    #[wasm_bindgen(unchecked_param_type = "SendOptions")] options: JsValue,
) -> Result<JsValue, JsError> {
    let format = parse_format(format)?;
    let body = text(&body)?;
    let now = instant(&js_sys::Reflect::get(&options, &"now".into()).unwrap_or(JsValue::UNDEFINED))?;
    let options: SendOptions =
        if options.is_undefined() || options.is_null() { SendOptions::default() } else { from_js(options, "options")? };
    let message = message_options(options.public_url, options.stop_text);
    let validation = match decode_sms(&body, format) {
        Err(error) => failure(&error),
        Ok(request) => {
            let endpoint = endpoint(options.endpoint.as_deref(), &request)?;
            match crate::validate_send(request, endpoint, &message, now) {
                Err(error) => failure(&error),
                Ok(campaign) => {
                    let (recipients, lists) = match campaign.audience() {
                        Audience::Numbers(numbers) => (numbers.len(), Vec::new()),
                        Audience::Lists { lists, .. } => (0, lists.clone()),
                    };
                    Validation {
                        ok: true,
                        errors: Vec::new(),
                        status: 1,
                        summary: Some(Summary {
                            pushtype: campaign.pushtype(),
                            recipients,
                            lists,
                            delay: campaign.delay().map(iso),
                            sender: campaign.sender().map(|s| s.to_string()),
                            segments: campaign.segments(&message, None),
                        }),
                    }
                }
            }
        }
    };
    to_js(&validation)
}

fn failure(error: &Error) -> Validation {
    Validation { ok: false, errors: error.field_errors(), status: error.status(), summary: None }
}

fn endpoint(name: Option<&str>, request: &SmsRequest) -> Result<Endpoint, JsError> {
    Ok(match name {
        None if (request.lists.is_some() || request.segments.is_some()) && request.recipients.is_none() => {
            Endpoint::SendLists
        }
        None | Some("send") => Endpoint::Send,
        Some("sendLists") => Endpoint::SendLists,
        Some("simulate") => Endpoint::Simulate,
        Some("simulateLists") => Endpoint::SimulateLists,
        Some(other) => return Err(JsError::new(&format!("unknown endpoint {other:?}"))),
    })
}

/// The account as JS describes it (see the `FilterContext` TypeScript type).
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct JsContext {
    blacklist: Vec<String>,
    npai: Vec<String>,
    allowed_countries: Option<Vec<String>>,
    recent: HashMap<String, Object<RecentSendsJs>>,
    flood: Option<Object<FloodJs>>,
    monthly_usage: HashMap<String, u64>,
    monthly_caps: HashMap<String, u64>,
    prices: Option<HashMap<String, f64>>,
    balance: f64,
    public_url: Option<String>,
    stop_text: Option<String>,
    lists: HashMap<String, Vec<Object<ContactJs>>>,
    consented: Option<Vec<String>>,
    capped: Option<Vec<String>>,
}

#[derive(Deserialize)]
struct RecentSendsJs {
    identical: u32,
    any: u32,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct FloodJs {
    identical_per_hour: u32,
    any_per_hour: u32,
}

#[derive(Deserialize)]
struct ContactJs {
    value: String,
    #[serde(default)]
    info1: String,
    #[serde(default)]
    info2: String,
    #[serde(default)]
    info3: String,
    #[serde(default)]
    info4: String,
}

fn country(iso2: &str) -> Result<Country, JsError> {
    Country::from_iso2(iso2).ok_or_else(|| JsError::new(&format!("unknown country code {iso2:?}")))
}

fn number(digits: &str) -> Result<u64, JsError> {
    parse_international(digits)
        .map(|n| n.as_u64())
        .map_err(|e| JsError::new(&format!("{digits:?} in the context: {e}")))
}

/// The numbers of a blacklist or NPAI list. An entry that is not a valid mobile number could
/// never match a recipient (recipients are validated first): it is skipped, not refused.
fn valid_numbers(entries: &[String]) -> impl Iterator<Item = u64> + '_ {
    entries.iter().filter_map(|n| parse_international(n).ok()).map(|n| n.as_u64())
}

fn credits(amount: f64) -> Result<Credits, JsError> {
    Credits::from_f64(amount).ok_or_else(|| JsError::new(&format!("not an amount of credits: {amount}")))
}

fn by_country(map: HashMap<String, u64>) -> Result<HashMap<Country, u64>, JsError> {
    map.into_iter().map(|(iso2, n)| Ok((country(&iso2)?, n))).collect()
}

impl JsContext {
    fn into_core(self) -> Result<FilterContext, JsError> {
        let prices = match self.prices {
            None => PriceTable::default(),
            Some(prices) => {
                let mut table = PriceTable::flat(credits(prices.get("other").copied().unwrap_or(1.0))?);
                for (iso2, price) in prices.iter().filter(|(k, _)| k.as_str() != "other") {
                    table.set(country(iso2)?, credits(*price)?);
                }
                table
            }
        };
        Ok(FilterContext {
            blacklist: valid_numbers(&self.blacklist).collect(),
            npai: valid_numbers(&self.npai).collect(),
            allowed_countries: self
                .allowed_countries
                .map(|list| list.iter().map(|c| country(c)).collect::<Result<HashSet<_>, _>>())
                .transpose()?,
            recent: self
                .recent
                .iter()
                .map(|(n, Object(r))| Ok((number(n)?, RecentSends { identical: r.identical, any: r.any })))
                .collect::<Result<_, JsError>>()?,
            flood: self
                .flood
                .map(|Object(f)| FloodLimits { identical_per_hour: f.identical_per_hour, any_per_hour: f.any_per_hour })
                .unwrap_or_default(),
            monthly_usage: by_country(self.monthly_usage)?,
            monthly_caps: by_country(self.monthly_caps)?,
            prices,
            balance: credits(self.balance)?,
            message: message_options(self.public_url, self.stop_text),
            lists: self
                .lists
                .into_iter()
                .map(|(id, contacts)| {
                    let contacts = contacts
                        .into_iter()
                        .map(|Object(c)| Contact { number: c.value, info: [c.info1, c.info2, c.info3, c.info4] })
                        .collect();
                    (id, contacts)
                })
                .collect(),
            segments: HashMap::new(),
            consented: self.consented.map(|numbers| valid_numbers(&numbers).collect()),
            capped: self.capped.map(|numbers| valid_numbers(&numbers).collect()),
            // Contact cards are the server's: card fields are priced with their fallbacks.
            cards: Default::default(),
        })
    }
}

/// The outcome codes, in order (new outcomes are added at the end, so codes stay).
const OUTCOMES: [Outcome; 10] = [
    Outcome::Sent,
    Outcome::Invalid,
    Outcome::Duplicated,
    Outcome::Blacklisted,
    Outcome::Npai,
    Outcome::NotAllowed,
    Outcome::Flood,
    Outcome::CountryLimit,
    Outcome::NoConsent,
    Outcome::Capped,
];

/// Filters and prices a send request for the account `context`, exactly as the server does,
/// at `now` (default: now). Throws on a body that is not a valid request.
#[wasm_bindgen(unchecked_return_type = "SimulationResult")]
pub fn simulate(
    #[wasm_bindgen(unchecked_param_type = "string")] body: JsValue,
    format: &str,
    #[wasm_bindgen(unchecked_param_type = "FilterContext")] context: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Instant")] now: JsValue,
) -> Result<JsValue, JsError> {
    let format = parse_format(format)?;
    let now = instant(&now)?;
    let context = from_js::<JsContext>(context, "context")?.into_core()?;
    let js_error = |e: Error| JsError::new(&e.to_string());
    let body = text(&body)?;
    let request = decode_sms(&body, format).map_err(js_error)?;
    let endpoint = if (request.lists.is_some() || request.segments.is_some()) && request.recipients.is_none() {
        Endpoint::SimulateLists
    } else {
        Endpoint::Simulate
    };
    let campaign = crate::validate_send(request, endpoint, &context.message, now).map_err(js_error)?;
    let result = crate::simulate(&campaign, &context, now).map_err(js_error)?;

    let object = to_js(&result.to_wire(None))?;
    let set = |key: &str, value: &JsValue| js_sys::Reflect::set(&object, &key.into(), value).map(drop);
    let codes: Vec<u8> = result
        .outcomes
        .iter()
        .map(|o| OUTCOMES.iter().position(|known| *known == o.outcome).unwrap_or(0) as u8)
        .collect();
    let parts: Vec<u8> = result.outcomes.iter().map(|o| o.parts.min(255) as u8).collect();
    let names = to_js(&OUTCOMES.map(Outcome::as_str))?;
    set("sendAt", &iso(result.send_at).into())
        .and_then(|()| set("outcomes", &js_sys::Uint8Array::from(codes.as_slice()).into()))
        .and_then(|()| set("outcomeNames", &names))
        .and_then(|()| set("parts", &js_sys::Uint8Array::from(parts.as_slice()).into()))
        .map_err(|_| JsError::new("could not build the result object"))?;
    Ok(object)
}
