//! A campaign that passed validation: the only way to get one is [`validate_send`].

mod message;
mod sender;
mod validate;

use chrono::{DateTime, Utc};

pub use message::{
    ContactInfo, MAX_PARTS, MessageOptions, SHORT_CODE_LEN, SHORT_MARKER, STOP_MARKER, has_contact_fields, render,
    rendered_segments,
};
pub use sender::Sender;
pub use validate::{Endpoint, validate_send};

use crate::{PushType, Segments, wire::GsmDto};

/// A valid campaign: text present and short enough, known push type, valid sender, one link
/// per `<-short->`, a usable delay, and recipients or lists.
#[derive(Debug, Clone, PartialEq)]
pub struct Campaign<'a> {
    text: String,
    pushtype: PushType,
    sender: Option<Sender>,
    delay: Option<DateTime<Utc>>,
    links: Vec<String>,
    unicode: bool,
    audience: Audience<'a>,
}

/// Who a campaign goes to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Audience<'a> {
    /// Numbers given in the request (validity is checked by the filter, not here).
    Numbers(Recipients<'a>),
    /// Stored lists and saved segments (texto's addition), by id: their contacts in order,
    /// the lists' first.
    Lists {
        /// The lists' ids (`sms.lists`).
        lists: Vec<String>,
        /// The segments' ids (`sms.segments`).
        segments: Vec<String>,
    },
}

/// The numbers of a request, kept as decoded (a million of them are not copied again).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recipients<'a>(Vec<GsmDto<'a>>);

impl Recipients<'_> {
    /// How many numbers the request holds.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when the request holds none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The numbers, in request order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Recipient<'_>> + Clone {
        self.0.iter().map(|gsm| Recipient { number: &gsm.value, gsmsmsid: gsm.gsmsmsid.as_deref() })
    }
}

/// One number of a request, as written, with the client's id for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Recipient<'r> {
    /// The number as written (normalised by the filter).
    pub number: &'r str,
    /// The client's `gsmsmsid`.
    pub gsmsmsid: Option<&'r str>,
}

impl<'a> Campaign<'a> {
    /// The text as the client wrote it (markers not replaced).
    pub fn text(&self) -> &str {
        &self.text
    }
    /// `alert` or `marketing`.
    pub fn pushtype(&self) -> PushType {
        self.pushtype
    }
    /// The custom sender, if any.
    pub fn sender(&self) -> Option<&Sender> {
        self.sender.as_ref()
    }
    /// When the client asked for it to go out (`None`: now). The marketing window may push it later.
    pub fn delay(&self) -> Option<DateTime<Utc>> {
        self.delay
    }
    /// URLs to shorten, in marker order.
    pub fn links(&self) -> &[String] {
        &self.links
    }
    /// UCS-2 forced.
    pub fn unicode(&self) -> bool {
        self.unicode
    }
    /// Numbers or lists.
    pub fn audience(&self) -> &Audience<'a> {
        &self.audience
    }
    /// The parts one message takes (for a contact, when the text has `[infoN]` fields).
    pub fn segments(&self, options: &MessageOptions, info: Option<&ContactInfo>) -> Segments {
        rendered_segments(&self.text, self.pushtype, self.unicode, options, info)
    }
}
