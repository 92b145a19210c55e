//! Documents whose type is known only at run time (the JavaScript `decode`/`encode`): each
//! [`Kind`] names one DTO, and can be told from a body's root key or element and its fields.

use serde_json::{Map, Value};

use super::{Format, decode, encode};
use super::{
    AddedContactsResponse, BalanceAlertEvent, BlacklistAddRequest, CampaignDetailResponse, CampaignResultDto,
    CampaignsResponse, ClickerEvent, CreditsResponse, DlrEvent, ErrorResponse, ListRequest, ListResponse,
    ListSavedResponse, ListsResponse, NotificationRequest, NotificationResponse, NpaiAddRequest,
    NumberListResponse, ReplyEvent, SmsRequest, StatusResponse, WebhookListResponse, WebhookLogResponse,
    WebhookRequest, WebhookResponse,
};
use crate::{Error, FieldError};

macro_rules! kinds {
    ($($kind:ident = $name:literal => $ty:ty),* $(,)?) => {
        /// Every document of the interface.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Kind { $(#[doc = $name] $kind),* }

        impl Kind {
            /// The kind's name (`sms`, `campaignResult`, …), as the JavaScript API spells it.
            pub fn name(self) -> &'static str {
                match self { $(Kind::$kind => $name),* }
            }

            /// The kind named `name`.
            pub fn parse(name: &str) -> Option<Kind> {
                match name { $($name => Some(Kind::$kind),)* _ => None }
            }

            /// Decodes `body` as this kind and gives its JSON form (XML becomes the JSON shape).
            pub fn to_json(self, body: &str, format: Format) -> Result<Value, Error> {
                match self { $(Kind::$kind => json_value(&decode::<$ty>(body, format)?)),* }
            }

            /// Reads the JSON form `value` as this kind and writes it in `format`.
            pub fn encode_json(self, value: &Value, format: Format) -> Result<String, Error> {
                let text = value.to_string();
                match self { $(Kind::$kind => Ok(encode(&decode::<$ty>(&text, Format::Json)?, format))),* }
            }
        }
    };
}

kinds! {
    Sms = "sms" => SmsRequest<'_>,
    Webhook = "webhook" => WebhookRequest,
    Notification = "notification" => NotificationRequest,
    NpaiAdd = "npaiAdd" => NpaiAddRequest,
    BlacklistAdd = "blacklistAdd" => BlacklistAddRequest,
    List = "list" => ListRequest,
    CampaignResult = "campaignResult" => CampaignResultDto,
    WebhookResponse = "webhookResponse" => WebhookResponse,
    WebhookList = "webhookList" => WebhookListResponse,
    WebhookLog = "webhookLog" => WebhookLogResponse,
    NotificationResponse = "notificationResponse" => NotificationResponse,
    NumberList = "numberList" => NumberListResponse,
    AddedContacts = "addedContacts" => AddedContactsResponse,
    ListSaved = "listSaved" => ListSavedResponse,
    ListContents = "listContents" => ListResponse,
    Lists = "lists" => ListsResponse,
    Campaigns = "campaigns" => CampaignsResponse,
    CampaignDetail = "campaignDetail" => CampaignDetailResponse,
    Credits = "credits" => CreditsResponse,
    Error = "error" => ErrorResponse,
    Status = "status" => StatusResponse,
    Dlr = "dlr" => DlrEvent,
    Reply = "reply" => ReplyEvent,
    Clicker = "clicker" => ClickerEvent,
    BalanceAlert = "balanceAlert" => BalanceAlertEvent,
}

/// The JSON wire form of `value`: requests under their root key, as on the wire.
fn json_value<T: super::Document>(value: &T) -> Result<Value, Error> {
    let inner = serde_json::to_value(value).map_err(|e| Error::Invalid(vec![FieldError::new("", e.to_string())]))?;
    Ok(match T::JSON_ROOT {
        Some(root) => Value::Object(Map::from_iter([(root.to_owned(), inner)])),
        None => inner,
    })
}

impl Kind {
    /// Tells a document's kind: requests by their root key or element, responses and events
    /// by the fields they carry. `None` when nothing matches.
    pub fn detect(body: &str, format: Format) -> Option<Kind> {
        let (root, fields) = match format {
            Format::Json => json_fields(body)?,
            Format::Xml => xml_fields(body)?,
        };
        match root.as_deref() {
            Some("sms") => return Some(Kind::Sms),
            Some("webhook") => return Some(Kind::Webhook),
            Some("notification") => return Some(Kind::Notification),
            Some("npai") => return Some(Kind::NpaiAdd),
            Some("blacklist") => return Some(Kind::BlacklistAdd),
            Some("list") => return Some(Kind::List),
            _ => {}
        }
        Kind::from_fields(&fields)
    }

    /// A response or event, from the names of its top-level fields.
    pub fn from_fields(fields: &[String]) -> Option<Kind> {
        let has = |name: &str| fields.iter().any(|f| f == name);
        Some(match () {
            _ if has("ticket") || (has("sent") && has("total") && has("cost")) => Kind::CampaignResult,
            _ if has("webhook") && has("totalRecords") => Kind::WebhookList,
            _ if has("webhook") => Kind::WebhookResponse,
            _ if has("log") && has("totalRecords") => Kind::WebhookLog,
            _ if has("notification") => Kind::NotificationResponse,
            _ if has("added_contacts") => Kind::AddedContacts,
            _ if has("list") && has("name") => Kind::ListContents,
            _ if has("list") => Kind::NumberList,
            _ if has("lists") => Kind::Lists,
            _ if has("campaigns") => Kind::Campaigns,
            _ if has("campaign") => Kind::CampaignDetail,
            _ if has("credits") => Kind::Credits,
            _ if has("duplicates") => Kind::ListSaved,
            _ if has("errors") || has("details") => Kind::Error,
            _ if has("country_code") => Kind::Dlr,
            _ if has("account_id") => Kind::Reply,
            _ if has("long_url") => Kind::Clicker,
            _ if has("trigger") => Kind::BalanceAlert,
            _ if has("status") && has("message") => Kind::Status,
            _ => return None,
        })
    }
}

/// `(single root key of a request, top-level keys)` of a JSON object.
fn json_fields(body: &str) -> Option<(Option<String>, Vec<String>)> {
    // Requests are read by their first key alone (a send request can be 30 MB).
    let first_key = body.trim_start().strip_prefix('{')?.trim_start().strip_prefix('"')?.split('"').next()?;
    if matches!(first_key, "sms" | "webhook" | "notification" | "npai" | "blacklist" | "list") {
        let whole: Option<Map<String, Value>> = serde_json::from_str(body).ok();
        if whole.as_ref().is_none_or(|map| map.len() == 1) {
            return Some((Some(first_key.to_owned()), vec![first_key.to_owned()]));
        }
    }
    let map: Map<String, Value> = serde_json::from_str(body).ok()?;
    Some((None, map.keys().cloned().collect()))
}

/// `(root element of a request, names of a response's top-level children)` of an XML document.
fn xml_fields(body: &str) -> Option<(Option<String>, Vec<String>)> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(body);
    let mut depth = 0usize;
    let mut children = Vec::new();
    loop {
        let (element, opens) = match reader.read_event().ok()? {
            Event::Start(e) => (String::from_utf8_lossy(e.name().as_ref()).into_owned(), true),
            Event::Empty(e) => (String::from_utf8_lossy(e.name().as_ref()).into_owned(), false),
            Event::End(_) => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some((None, children));
                }
                continue;
            }
            Event::Eof => return None,
            _ => continue,
        };
        match depth {
            0 if element != "response" && element != "event" => return Some((Some(element), Vec::new())),
            0 => {}
            1 => children.push(element),
            _ => {}
        }
        if opens {
            depth += 1;
        }
    }
}
