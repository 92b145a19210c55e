//! Documents whose type is known only at run time (the JavaScript `decode`/`encode`): each
//! [`Kind`] names one DTO, and can be told from a body's root key or element and its fields.

use serde_json::{Map, Value};

use super::Format;
use super::kind_codec::{Codec, read};
use super::{
    AddedContactsResponse, BalanceAlertEvent, BlacklistAddRequest, CampaignDetailResponse, CampaignResultDto,
    CampaignsResponse, ClickerEvent, CreditsResponse, DlrEvent, ErrorResponse, ListRequest, ListResponse,
    ListSavedResponse, ListsResponse, NotificationRequest, NotificationResponse, NpaiAddRequest, NumberListResponse,
    ReplyEvent, SmsRequest, StatusResponse, WebhookListResponse, WebhookLogResponse, WebhookRequest, WebhookResponse,
};
use crate::Error;

macro_rules! kinds {
    ($($kind:ident = $name:literal => $ty:ty),* $(,)?) => {
        /// Every document of the interface.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Kind { $(#[doc = $name] $kind),* }

        #[cfg(test)]
        const ALL_KINDS: &[Kind] = &[$(Kind::$kind),*];

        impl Kind {
            /// The kind's name (`sms`, `campaignResult`, …), as the JavaScript API spells it.
            pub fn name(self) -> &'static str {
                match self { $(Kind::$kind => $name),* }
            }

            /// The kind named `name`.
            pub fn parse(name: &str) -> Option<Kind> {
                match name { $($name => Some(Kind::$kind),)* _ => None }
            }

            /// [`Kind::to_json`] as the server reads: through [`super::decode`] of the DTO.
            #[cfg(test)]
            fn server_json(self, body: &str, format: Format) -> Result<Value, Error> {
                match self { $(Kind::$kind => json_value(&super::decode::<$ty>(body, format)?)),* }
            }

            /// [`Kind::encode_json`] as the server writes: through [`super::encode`] of the DTO.
            #[cfg(test)]
            fn server_encode_json(self, value: &Value, format: Format) -> Result<String, Error> {
                let text = value.to_string();
                match self {
                    $(Kind::$kind => Ok(super::encode(&super::decode::<$ty>(&text, Format::Json)?, format))),*
                }
            }

            /// This kind's readers (see [`Codec`]).
            fn codec(self) -> Codec {
                match self {
                    $(Kind::$kind => Codec {
                        read: |text, reading| read::<$ty>(text, reading),
                        root: json_root::<$ty>(),
                        xml_roots: xml_roots::<$ty>(),
                    },)*
                }
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

/// A document of a kind known at run time is read through its kind's [`Codec`]: one
/// deserializer and one serializer per DTO, and the rest shared (the npm package's way).
impl Kind {
    /// Decodes `body` as this kind and gives its JSON form (XML becomes the JSON shape).
    pub fn to_json(self, body: &str, format: Format) -> Result<Value, Error> {
        self.codec().to_json(body, format)
    }

    /// Reads the JSON form `value` as this kind and writes it in `format`.
    pub fn encode_json(self, value: &Value, format: Format) -> Result<String, Error> {
        self.codec().encode_json(value, format)
    }
}

/// The JSON root key of `T`.
fn json_root<T: super::Document>() -> Option<&'static str> {
    T::JSON_ROOT
}

/// The accepted XML root elements of `T`.
fn xml_roots<T: super::Document>() -> &'static [&'static str] {
    T::XML_ROOTS
}

/// The JSON wire form of `value`: requests under their root key, as on the wire.
#[cfg(test)]
fn json_value<T: super::Document>(value: &T) -> Result<Value, Error> {
    let inner =
        serde_json::to_value(value).map_err(|e| Error::Invalid(vec![crate::FieldError::new("", e.to_string())]))?;
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
            _ if (has("webhooks") || has("webhook")) && has("totalRecords") => Kind::WebhookList,
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

#[cfg(test)]
mod tests {
    //! The npm package reads documents with one deserializer per DTO (see `json_path::reread_path`
    //! and `kind_codec::xml_json_text`); these check that it says exactly what the server says, on
    //! the public samples read as every kind and on many broken variants of them.

    use super::*;

    /// The server's reading of `body` as `kind` and the npm package's, as debug text; when
    /// it reads, also both encodings of what it read, in both formats.
    fn both_readings(kind: Kind, body: &str, format: Format) -> (String, String) {
        let (server, npm) = (kind.server_json(body, format), kind.to_json(body, format));
        let mut texts = (format!("{server:?}"), format!("{npm:?}"));
        if let Ok(value) = server {
            for format in [Format::Json, Format::Xml] {
                texts.0 += &format!("{:?}", kind.server_encode_json(&value, format));
                texts.1 += &format!("{:?}", kind.encode_json(&value, format));
            }
        }
        texts
    }

    fn fixtures() -> Vec<(String, String)> {
        // Read at run time: a test binary reused from another checkout must not look in that one.
        let dir = std::path::Path::new(&std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo test"))
            .join("tests/fixtures");
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|e| e == "json" || e == "xml"))
            .collect();
        files.sort();
        files.into_iter().map(|path| (path.display().to_string(), std::fs::read_to_string(&path).unwrap())).collect()
    }

    fn truncations(body: &str) -> Vec<String> {
        (1..12).map(|i| body.chars().take(body.chars().count() * i / 12).collect()).collect()
    }

    /// Every key and index path of a JSON value.
    fn paths(value: &Value, prefix: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
        let children: Vec<(Value, &Value)> = match value {
            Value::Object(map) => map.iter().map(|(k, v)| (Value::from(k.as_str()), v)).collect(),
            Value::Array(items) => items.iter().enumerate().map(|(i, v)| (Value::from(i), v)).collect(),
            _ => return,
        };
        for (step, child) in children {
            prefix.push(step);
            out.push(prefix.clone());
            paths(child, prefix, out);
            prefix.pop();
        }
    }

    fn replaced(value: &Value, path: &[Value], with: Option<&Value>) -> Value {
        let mut copy = value.clone();
        let mut at = &mut copy;
        for step in &path[..path.len() - 1] {
            at = match step {
                Value::String(key) => &mut at[key.as_str()],
                step => &mut at[step.as_u64().unwrap() as usize],
            };
        }
        match (at, &path[path.len() - 1], with) {
            (Value::Object(map), Value::String(key), None) => {
                map.shift_remove(key);
            }
            (Value::Array(items), index, None) => {
                items.remove(index.as_u64().unwrap() as usize);
            }
            (Value::Object(map), Value::String(key), Some(with)) => {
                map[key] = with.clone();
            }
            (Value::Array(items), index, Some(with)) => items[index.as_u64().unwrap() as usize] = with.clone(),
            _ => unreachable!(),
        }
        copy
    }

    fn json_variants(body: &str) -> Vec<String> {
        let mut variants = truncations(body);
        let Ok(value) = serde_json::from_str::<Value>(body) else { return variants };
        let mut all = Vec::new();
        paths(&value, &mut Vec::new(), &mut all);
        let replacements: Vec<Value> = serde_json::from_str(
            r#"[{}, [], 5, -3, 1.5, "x", "12", "", "null", null, true, {"$text": "7"}, {"$text": 7}, [{}], [1, 2], [[1]], [{"a": 1}, 2], 1e300, 18446744073709551616]"#,
        )
        .unwrap();
        for path in &all {
            variants.push(serde_json::to_string(&replaced(&value, path, None)).unwrap());
            for with in &replacements {
                let mutated = replaced(&value, path, Some(with));
                variants.push(serde_json::to_string(&mutated).unwrap());
                variants.push(serde_json::to_string_pretty(&mutated).unwrap() + "\n");
            }
        }
        variants
    }

    /// Variants of a JSON body with a duplicate key: the server refuses them where it meets
    /// them; the npm package names the field through a JSON value, where the last key wins, so
    /// only the error and its position are compared (see `without_path`).
    fn json_duplicate_variants(body: &str) -> Vec<String> {
        let mut variants = Vec::new();
        let Ok(value) = serde_json::from_str::<Value>(body) else { return variants };
        // Duplicate keys: each object's first key again, before it.
        let compact = serde_json::to_string(&value).unwrap();
        for (at, _) in compact.match_indices("{\"").take(12) {
            let key_end = at + 2 + compact[at + 2..].find('"').unwrap();
            let key = &compact[at + 1..=key_end];
            for dup in ["\"dup\"", "7", "{}"] {
                variants.push(format!("{}{key}:{dup},{}", &compact[..=at], &compact[at + 1..]));
            }
        }
        variants
    }

    fn xml_variants(body: &str) -> Vec<String> {
        let mut variants = truncations(body);
        let lines: Vec<&str> = body.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let text_replaced = |with: &str| match (line.find('>'), line.rfind('<')) {
                (Some(open), Some(close)) if open < close => format!("{}{with}{}", &line[..=open], &line[close..]),
                _ => line.to_string(),
            };
            let tag_doubled = match (line.find('<'), line.find('>')) {
                (Some(open), Some(close)) if open < close && !line[open..].starts_with("</") => {
                    format!("{}{}/>{}", &line[..close], "", &line[close..]).replacen(
                        &line[open..close],
                        &format!("{}/><{}", &line[open..close], &line[open + 1..close]),
                        1,
                    )
                }
                _ => line.to_string(),
            };
            let with_attribute = line.replacen('>', " x=\"1\">", 1);
            for replacement in [
                format!("{line}\n{line}"),
                String::new(),
                text_replaced("abc"),
                text_replaced(""),
                text_replaced("null"),
                text_replaced("1.5"),
                text_replaced("<b>x</b>"),
                text_replaced("<b>x</b><b>y</b>"),
                with_attribute,
                format!("{line}{line}{line}"),
                tag_doubled,
            ] {
                let mut mutated = lines.clone();
                mutated[i] = &replacement;
                variants.push(mutated.join("\n"));
            }
        }
        variants
    }

    /// A reading's debug text without the field path of its error.
    fn without_path(reading: &str) -> String {
        match (reading.find("path: "), reading.find(", line: ")) {
            (Some(start), Some(end)) if start < end => format!("{}{}", &reading[..start], &reading[end..]),
            _ => reading.to_owned(),
        }
    }

    #[test]
    fn the_npm_reading_says_what_the_server_says() {
        let mut compared = 0;
        for (name, body) in fixtures() {
            let format = if name.ends_with(".xml") { Format::Xml } else { Format::Json };
            for &kind in ALL_KINDS {
                let (server, npm) = both_readings(kind, &body, format);
                assert_eq!(server, npm, "{name} as {kind:?}");
                compared += 1;
            }
            let Some(kind) = Kind::detect(&body, format) else { continue };
            let variants = match format {
                Format::Json => json_variants(&body),
                Format::Xml => xml_variants(&body),
            };
            for variant in variants {
                let (server, npm) = both_readings(kind, &variant, format);
                assert_eq!(server, npm, "{name} as {kind:?}:\n{variant}");
                compared += 1;
            }
            let duplicates = match format {
                Format::Json => json_duplicate_variants(&body),
                Format::Xml => Vec::new(),
            };
            for variant in duplicates {
                let (server, npm) = both_readings(kind, &variant, format);
                assert_eq!(without_path(&server), without_path(&npm), "{name} as {kind:?}:\n{variant}");
                compared += 1;
            }
        }
        assert!(compared > 10_000, "{compared}");
    }
}
