//! A campaign that passed validation: the only way to get one is [`validate_send`].

mod ab;
mod merge;
mod merge_parts;
mod message;
mod sender;
mod template;
mod test_send;
mod validate;
mod validity;

use chrono::{DateTime, Utc};

pub use ab::{AbTest, Criterion, MOST_VARIANTS, SHARE_RANGE, VariantCounts, WAIT_RANGE, winner};
pub use merge::{MergeValues, card_fields, card_value, card_values, has_contact_fields, merge, unknown_field};
pub use message::{MAX_PARTS, MessageOptions, SHORT_CODE_LEN, SHORT_MARKER, STOP_MARKER, render, rendered_segments};
pub use sender::Sender;
pub use template::{TEMPLATE_NAME_CHARS, Template, validate_template};
pub use test_send::{MOST_TEST_NUMBERS, test_request};
pub use validate::{Endpoint, validate_send};
pub use validity::Validity;

use crate::{PushType, Segments, SmartEncoding, UtmChoice, gsm_twin, to_gsm, wire::GsmDto};
pub(crate) use merge_parts::PartsPlan;

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
    smart: Option<Smart>,
    validity: Option<Validity>,
    utm: UtmChoice,
    template: Option<i64>,
    ab: Option<AbTest>,
    audience: Audience<'a>,
}

/// What smart encoding did to a campaign's text (`encoding: gsm`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Smart {
    /// Characters replaced by their GSM twin.
    pub replaced: usize,
    /// SMS parts each message saves by it (the text without contact fields).
    pub parts_saved: usize,
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
    /// The alphabet asked for: `Gsm` once smart encoding made the text GSM.
    pub fn encoding(&self) -> SmartEncoding {
        if self.smart.is_some() { SmartEncoding::Gsm } else { SmartEncoding::Auto }
    }
    /// What smart encoding did, when asked for.
    pub fn smart(&self) -> Option<Smart> {
        self.smart
    }
    /// How long the carrier keeps trying, when the send says.
    pub fn validity(&self) -> Option<Validity> {
        self.validity
    }
    /// The campaign from the account's default `sender`, when its send named none.
    pub fn with_sender(self, sender: Sender) -> Campaign<'a> {
        Campaign { sender: Some(sender), ..self }
    }
    /// What its short links are tagged with.
    pub fn utm(&self) -> &UtmChoice {
        &self.utm
    }
    /// The id of the template it started from, when the send named one (the server keeps it
    /// only if it is one of the account's templates).
    pub fn template(&self) -> Option<i64> {
        self.template
    }
    /// The campaign whose A/B test draws its sample from `seed` (nothing without a test).
    pub fn with_ab_seed(self, seed: u64) -> Campaign<'a> {
        Campaign { ab: self.ab.map(|ab| ab.with_seed(seed)), ..self }
    }
    /// Its A/B test, when the send asked for one.
    pub fn ab(&self) -> Option<&AbTest> {
        self.ab.as_ref()
    }
    /// Every text it may send: its own, then its A/B test's variants.
    pub fn texts(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.text.as_str())
            .chain(self.ab.iter().flat_map(|ab| ab.variants().iter().map(String::as_str)))
    }
    /// What counts each recipient's parts of `text` (one of [`Campaign::texts`],
    /// [`Campaign::parts_for`]), made once per campaign.
    pub(crate) fn parts_plan(&self, text: &str, options: &MessageOptions) -> PartsPlan {
        PartsPlan::new(&message::sent_shape(text, self.pushtype, options), self.unicode, self.smart.is_some())
    }

    /// The parts of one recipient's message of `text`: counted in place when it fits one SMS,
    /// else written out and split.
    pub(crate) fn parts_for(
        &self,
        text: &str,
        plan: &PartsPlan,
        options: &MessageOptions,
        values: &MergeValues,
    ) -> usize {
        plan.single_part(values).unwrap_or_else(|| self.segments_of(text, options, Some(values)).parts)
    }

    /// The parts one message takes (for a recipient, when the text has merge fields, whose
    /// values smart encoding makes GSM too).
    pub fn segments(&self, options: &MessageOptions, values: Option<&MergeValues>) -> Segments {
        self.segments_of(&self.text, options, values)
    }

    /// [`Campaign::segments`] of `text`, one of [`Campaign::texts`].
    pub fn segments_of(&self, text: &str, options: &MessageOptions, values: Option<&MergeValues>) -> Segments {
        let has_twin = |field: &str| field.chars().any(|c| gsm_twin(c).is_some());
        match values {
            Some(v)
                if self.smart.is_some()
                    && (v.info.iter().any(|f| has_twin(f)) || v.card.iter().any(|f| has_twin(f))) =>
            {
                let [a, b, c, d] = v.info.map(|field| to_gsm(field).text);
                let card: Vec<String> = v.card.iter().map(|field| to_gsm(field).text).collect();
                let gsm = MergeValues { info: [&a, &b, &c, &d], card: &card };
                rendered_segments(text, self.pushtype, self.unicode, options, Some(&gsm))
            }
            _ => rendered_segments(text, self.pushtype, self.unicode, options, values),
        }
    }
}
