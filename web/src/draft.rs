//! The campaign being written: kept in the browser so it survives a reload, and turned into
//! the very `sms` request the server takes.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use texto_core::{
    PushType, SHORT_MARKER, SmartEncoding, parse_with_default_country,
    wire::{GsmDto, ListRefDto, MessageDto, RecipientsDto, SmsRequest},
};

use crate::storage;

const STORAGE_KEY: &str = "texto.draft";

/// Everything the Compose page holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Draft {
    /// The message, with `<-short->` markers and `[info1]`… fields.
    pub text: String,
    /// Marketing (STOP text, time window) rather than alert.
    pub marketing: bool,
    /// The sender, empty for the default.
    pub sender: String,
    /// `YYYY-MM-DDTHH:MM` in Paris time, as the date-time field gives it; empty for now.
    pub send_at: String,
    /// One URL per `<-short->`, in order.
    pub links: Vec<String>,
    /// Sent to stored lists rather than to numbers.
    pub to_lists: bool,
    /// Numbers pasted by the user, as typed.
    pub pasted: String,
    /// Numbers imported from a CSV file (international digits).
    pub imported: Vec<String>,
    /// Ids of the stored lists chosen.
    pub lists: Vec<String>,
    /// Ids of the saved segments chosen.
    pub segments: Vec<String>,
    /// ISO code of the country of national numbers.
    pub country: String,
    /// Smart encoding: every character with a GSM twin replaced by it, on the server.
    pub gsm: bool,
    /// Minutes the carrier keeps trying, as typed; empty for its default.
    pub validity: String,
}

impl Default for Draft {
    fn default() -> Draft {
        Draft {
            text: String::new(),
            marketing: false,
            sender: String::new(),
            send_at: String::new(),
            links: Vec::new(),
            to_lists: false,
            pasted: String::new(),
            imported: Vec::new(),
            lists: Vec::new(),
            segments: Vec::new(),
            country: "FR".to_owned(),
            gsm: false,
            validity: String::new(),
        }
    }
}

impl Draft {
    /// The draft kept in this browser, or an empty one.
    pub fn load() -> Draft {
        storage::get(STORAGE_KEY).and_then(|saved| serde_json::from_str(&saved).ok()).unwrap_or_default()
    }

    /// Keeps the draft in this browser.
    pub fn save(&self) {
        if let Ok(json) = serde_json::to_string(self) {
            storage::set(STORAGE_KEY, &json);
        }
    }

    /// Forgets the kept draft (after a send).
    pub fn forget() {
        storage::remove(STORAGE_KEY);
    }

    /// The push type.
    pub fn pushtype(&self) -> PushType {
        if self.marketing { PushType::Marketing } else { PushType::Alert }
    }

    /// Sets the text and keeps one link per `<-short->` marker (new markers get an empty URL).
    pub fn set_text(&mut self, text: String) {
        let markers = text.matches(SHORT_MARKER).count();
        self.links.resize(markers, String::new());
        self.text = text;
    }

    /// Inserts a `<-short->` marker at character `at` (clamped) and a URL field for it.
    pub fn insert_link(&mut self, at: usize) {
        let byte = self.text.char_indices().nth(at).map_or(self.text.len(), |(i, _)| i);
        let before = self.text[..byte].matches(SHORT_MARKER).count();
        let mut text = self.text.clone();
        text.insert_str(byte, SHORT_MARKER);
        self.text = text;
        self.links.insert(before, String::new());
    }

    /// The recipients given as numbers: pasted then imported. Valid numbers are written in
    /// international form; the others stay as typed, so the filter counts them as invalid.
    pub fn numbers(&self) -> Vec<String> {
        let pasted = split_numbers(&self.pasted).map(|typed| {
            parse_with_default_country(typed, &self.country)
                .map_or_else(|_| typed.to_owned(), |n| n.as_u64().to_string())
        });
        pasted.chain(self.imported.iter().cloned()).collect()
    }

    /// True when the draft names someone to send to: a typed or imported number, or a list.
    pub fn has_recipients(&self) -> bool {
        if self.to_lists {
            !self.lists.is_empty() || !self.segments.is_empty()
        } else {
            !self.imported.is_empty() || split_numbers(&self.pasted).next().is_some()
        }
    }

    /// The `delay` of the request: `Y-m-d H:i:s`, or empty for now.
    pub fn delay(&self) -> String {
        let value = self.send_at.trim();
        match (value.get(..10), value.get(11..)) {
            _ if value.is_empty() => String::new(),
            (Some(date), Some(time)) if value.len() == 16 => format!("{date} {time}:00"),
            _ => value.replacen('T', " ", 1),
        }
    }

    /// The validity typed, in minutes; a value that is not a whole number goes as `0`, which
    /// validation refuses with its bounds.
    pub fn validity_minutes(&self) -> Option<i64> {
        let typed = self.validity.trim();
        (!typed.is_empty()).then(|| typed.parse().unwrap_or(0))
    }

    /// The text as it is sent: made GSM when smart encoding is on.
    pub fn sent_text(&self) -> String {
        let encoding = if self.gsm { SmartEncoding::Gsm } else { SmartEncoding::Auto };
        encoding.apply(&self.text)
    }

    /// The `sms` request of this draft: to the chosen lists and segments, or to
    /// [`Draft::numbers`].
    pub fn request(&self) -> SmsRequest<'static> {
        let optional = |value: &str| (!value.trim().is_empty()).then(|| value.trim().to_owned());
        let message = MessageDto {
            text: Some(self.text.clone()),
            pushtype: Some(self.pushtype().as_str().to_owned()),
            sender: optional(&self.sender),
            delay: optional(&self.delay()),
            links: (!self.links.is_empty()).then(|| self.links.iter().map(|l| l.trim().to_owned()).collect()),
            unicode: None,
            encoding: self.gsm.then(|| "gsm".to_owned()),
            validity: self.validity_minutes(),
        };
        if self.to_lists {
            let refs = |ids: &[String]| ids.iter().map(|id| ListRefDto { value: id.clone() }).collect();
            let segments = (!self.segments.is_empty()).then(|| refs(&self.segments));
            return SmsRequest { message, recipients: None, lists: Some(refs(&self.lists)), segments };
        }
        let gsm = self.numbers().into_iter().map(|value| GsmDto { value: Cow::Owned(value), gsmsmsid: None }).collect();
        SmsRequest { message, recipients: Some(RecipientsDto { gsm }), lists: None, segments: None }
    }
}

/// The numbers of a pasted text: one a line, or separated by `,` `;` or tabs.
pub fn split_numbers(pasted: &str) -> impl Iterator<Item = &str> {
    pasted.split(['\n', '\r', ',', ';', '\t']).map(str::trim).filter(|n| !n.is_empty())
}
