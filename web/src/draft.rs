//! The campaign being written, turned into the very `sms` request the server takes and read
//! back from one (a draft kept on the server, see [`crate::drafts`]).

use std::borrow::Cow;

use texto_core::{
    PushType, SHORT_MARKER, SmartEncoding, parse_with_default_country,
    wire::{AbDto, GsmDto, ListRefDto, MessageDto, RecipientsDto, SmsRequest},
};

/// Everything the Compose page holds.
#[derive(Debug, Clone, PartialEq)]
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
    /// The id of the draft kept on the server it was opened from or saved as.
    pub saved_as: Option<String>,
    /// The id of the template its message came from.
    pub template: Option<String>,
    /// Its A/B test, when it tries other texts on a sample first.
    pub ab: Option<AbDraft>,
    /// What a draft kept on the server holds that Compose does not edit, sent back as it was.
    pub kept: Kept,
}

/// An A/B test as Compose edits it.
#[derive(Debug, Clone, PartialEq)]
pub struct AbDraft {
    /// The texts beside the draft's own (B, C, D).
    pub variants: Vec<String>,
    /// The sample's percent, as typed.
    pub share: String,
    /// The wait before the winner (`2h`).
    pub wait: String,
    /// `clicks`, `replies` or `delivered`.
    pub criterion: String,
}

impl Default for AbDraft {
    fn default() -> AbDraft {
        AbDraft {
            variants: vec![String::new()],
            share: "20".to_owned(),
            wait: "2h".to_owned(),
            criterion: "clicks".to_owned(),
        }
    }
}

/// The parts of a draft's request Compose shows no field for.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Kept {
    /// `unicode` as the request gave it.
    pub unicode: Option<bool>,
    /// The send's own UTM tags.
    pub utm: Option<texto_core::wire::UtmDto>,
    /// Each number's client id (`gsmsmsid`), by the number in international form (as written
    /// when it is not a valid number).
    pub gsmsmsids: std::collections::HashMap<String, String>,
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
            saved_as: None,
            template: None,
            ab: None,
            kept: Kept::default(),
        }
    }
}

impl Draft {
    /// The draft `request` holds (a draft kept on the server, saved as `saved_as`): its
    /// numbers as typed, its lists and segments, its delay in the date-time field's form.
    pub fn from_request(request: &SmsRequest<'_>, saved_as: String) -> Draft {
        let message = &request.message;
        let numbers =
            request.recipients.as_ref().map_or_else(Vec::new, |r| r.gsm.iter().map(|g| g.value.to_string()).collect());
        let ids = |refs: &Option<Vec<ListRefDto>>| {
            refs.as_ref().map_or_else(Vec::new, |refs| refs.iter().map(|r| r.value.clone()).collect())
        };
        let mut draft = Draft {
            marketing: message.pushtype.as_deref() == Some(PushType::Marketing.as_str()),
            sender: message.sender.clone().unwrap_or_default(),
            send_at: message.delay.as_deref().map_or_else(String::new, field_time),
            to_lists: request.lists.is_some() || request.segments.is_some(),
            pasted: numbers.join("\n"),
            lists: ids(&request.lists),
            segments: ids(&request.segments),
            gsm: message.encoding.as_deref() == Some("gsm"),
            validity: message.validity.map_or_else(String::new, |minutes| minutes.to_string()),
            saved_as: Some(saved_as),
            template: message.template.clone(),
            ab: message.ab.as_ref().map(|ab| AbDraft {
                variants: message.variants.clone().unwrap_or_default(),
                share: ab.share.map_or_else(String::new, |share| share.to_string()),
                wait: ab.wait.clone().unwrap_or_default(),
                criterion: ab.criterion.clone().unwrap_or_default(),
            }),
            kept: Kept {
                unicode: message.unicode,
                utm: message.utm.clone(),
                gsmsmsids: request
                    .recipients
                    .iter()
                    .flat_map(|r| &r.gsm)
                    .filter_map(|g| Some((international(&g.value), g.gsmsmsid.as_ref()?.to_string())))
                    .collect(),
            },
            ..Draft::default()
        };
        draft.set_text(message.text.clone().unwrap_or_default());
        for (field, link) in draft.links.iter_mut().zip(message.links.iter().flatten()) {
            field.clone_from(link);
        }
        draft
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

    /// Inserts a merge field (`[firstname]`) at character `at` (clamped).
    pub fn insert_field(&mut self, at: usize, field: &str) {
        let byte = self.text.char_indices().nth(at).map_or(self.text.len(), |(i, _)| i);
        self.text.insert_str(byte, field);
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
            unicode: self.kept.unicode,
            encoding: self.gsm.then(|| "gsm".to_owned()),
            validity: self.validity_minutes(),
            utm: self.kept.utm.clone(),
            template: self.template.clone(),
            variants: self.ab.as_ref().map(|ab| ab.variants.clone()),
            // A share that is not a whole number goes as 0, which validation refuses with its bounds.
            ab: self.ab.as_ref().map(|ab| AbDto {
                share: Some(ab.share.trim().parse().unwrap_or(0)),
                wait: Some(ab.wait.clone()),
                criterion: Some(ab.criterion.clone()),
            }),
        };
        if self.to_lists {
            let refs = |ids: &[String]| ids.iter().map(|id| ListRefDto { value: id.clone() }).collect();
            let segments = (!self.segments.is_empty()).then(|| refs(&self.segments));
            return SmsRequest { message, recipients: None, lists: Some(refs(&self.lists)), segments };
        }
        let gsm = self
            .numbers()
            .into_iter()
            .map(|value| {
                let gsmsmsid = self.kept.gsmsmsids.get(&value).cloned().map(Cow::Owned);
                GsmDto { value: Cow::Owned(value), gsmsmsid }
            })
            .collect();
        SmsRequest { message, recipients: Some(RecipientsDto { gsm }), lists: None, segments: None }
    }
}

/// A number in international form (digits) when it reads as one in France, else as written:
/// how [`Draft::numbers`] writes the numbers it sends.
fn international(typed: &str) -> String {
    parse_with_default_country(typed, "FR").map_or_else(|_| typed.to_owned(), |n| n.as_u64().to_string())
}

/// A `Y-m-d H:i:s` delay as the date-time field shows it (`YYYY-MM-DDTHH:MM`).
fn field_time(delay: &str) -> String {
    match (delay.get(..10), delay.get(11..16)) {
        (Some(date), Some(time)) => format!("{date}T{time}"),
        _ => delay.to_owned(),
    }
}

/// The numbers of a pasted text: one a line, or separated by `,` `;` or tabs.
pub fn split_numbers(pasted: &str) -> impl Iterator<Item = &str> {
    pasted.split(['\n', '\r', ',', ';', '\t']).map(str::trim).filter(|n| !n.is_empty())
}
