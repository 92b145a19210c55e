//! A campaign that passed validation: the only way to get one is [`validate_send`].

mod message;
mod sender;
mod validate;

use std::borrow::Cow;

use chrono::{DateTime, Utc};

pub use message::{
    ContactInfo, MAX_PARTS, MessageOptions, SHORT_CODE_LEN, SHORT_MARKER, STOP_MARKER, has_contact_fields, render,
    rendered_segments,
};
pub use sender::Sender;
pub use validate::{Endpoint, validate_send};

use crate::{PushType, Segments};

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
    Numbers(Vec<Recipient<'a>>),
    /// Stored lists, by id.
    Lists(Vec<String>),
}

/// One number of a request, as written, with the client's id for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recipient<'a> {
    /// The number as written (normalised by the filter).
    pub number: Cow<'a, str>,
    /// The client's `gsmsmsid`.
    pub gsmsmsid: Option<Cow<'a, str>>,
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
