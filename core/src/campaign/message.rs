//! The text as recipients get it: short links, opt-out text and contact fields (docs/interface.md §4).

use super::merge::{MergeValues, has_contact_fields, merge};
use crate::{PushType, Segments, segments};

/// `<-short->`: where a shortened link goes.
pub const SHORT_MARKER: &str = "<-short->";
/// `<-stop->`: where the opt-out text of a marketing message goes.
pub const STOP_MARKER: &str = "<-stop->";
/// Characters of a short code in `{public_url}/s/{code}`.
pub const SHORT_CODE_LEN: usize = 6;
/// The most parts one message may take.
pub const MAX_PARTS: usize = 10;

/// What the rendered text depends on besides the campaign: the server's settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageOptions {
    /// The public origin short links start with (`https://sms.example.com`).
    pub public_url: String,
    /// Appended to marketing messages (or put at `<-stop->`).
    pub stop_text: String,
}

impl Default for MessageOptions {
    fn default() -> MessageOptions {
        MessageOptions { public_url: "http://127.0.0.1:8080".to_owned(), stop_text: "STOP au 36180".to_owned() }
    }
}

impl MessageOptions {
    /// The short URL for `code`: `{public_url}/s/{code}`.
    pub fn short_url(&self, code: &str) -> String {
        format!("{}/s/{code}", self.public_url.trim_end_matches('/'))
    }
}

/// `text` as sent: each `<-short->` replaced by the next of `short_urls`, the opt-out text
/// added for marketing, and the merge fields replaced by the recipient's values (their
/// fallbacks without a recipient).
pub fn render(
    text: &str,
    pushtype: PushType,
    short_urls: &[String],
    options: &MessageOptions,
    values: Option<&MergeValues>,
) -> String {
    let out = unmerged(text, pushtype, short_urls, options);
    match has_contact_fields(&out) {
        true => merge(&out, values),
        false => out,
    }
}

/// `text` with its short links and opt-out text, its merge fields still to fill.
fn unmerged(text: &str, pushtype: PushType, short_urls: &[String], options: &MessageOptions) -> String {
    let mut out = String::with_capacity(text.len() + 32);
    let mut links = short_urls.iter();
    let mut rest = text;
    while let Some(at) = rest.find(SHORT_MARKER) {
        out.push_str(&rest[..at]);
        out.push_str(links.next().map_or("", String::as_str));
        rest = &rest[at + SHORT_MARKER.len()..];
    }
    out.push_str(rest);
    if pushtype == PushType::Marketing {
        if out.contains(STOP_MARKER) {
            out = out.replace(STOP_MARKER, &options.stop_text);
        } else {
            out.push('\n');
            out.push_str(&options.stop_text);
        }
    }
    out
}

/// The text as sent before its merge fields are filled, each short link at its full length
/// (a code of zeros): what the parts of each recipient's message are counted from.
pub(crate) fn sent_shape(text: &str, pushtype: PushType, options: &MessageOptions) -> String {
    let placeholders: Vec<String> =
        (0..text.matches(SHORT_MARKER).count()).map(|_| options.short_url(&"0".repeat(SHORT_CODE_LEN))).collect();
    unmerged(text, pushtype, &placeholders, options)
}

/// The parts `text` takes once rendered, counting each short link at its full length.
pub fn rendered_segments(
    text: &str,
    pushtype: PushType,
    unicode: bool,
    options: &MessageOptions,
    values: Option<&MergeValues>,
) -> Segments {
    segments(&merge(&sent_shape(text, pushtype, options), values), unicode)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options() -> MessageOptions {
        MessageOptions { public_url: "https://tx.io".into(), stop_text: "STOP au 36180".into() }
    }

    #[test]
    fn marketing_appends_the_stop_text_on_a_new_line() {
        assert_eq!(render("Soldes", PushType::Marketing, &[], &options(), None), "Soldes\nSTOP au 36180");
        assert_eq!(render("Soldes", PushType::Alert, &[], &options(), None), "Soldes");
    }

    #[test]
    fn the_stop_marker_is_replaced_in_place() {
        assert_eq!(render("Soldes <-stop-> !", PushType::Marketing, &[], &options(), None), "Soldes STOP au 36180 !");
    }

    #[test]
    fn short_links_count_at_their_full_length() {
        // "https://tx.io/s/" is 16 characters, plus a 6-character code.
        let split = rendered_segments("Go <-short->", PushType::Alert, false, &options(), None);
        assert_eq!(split.length, 3 + 16 + 6);
        let two = rendered_segments("<-short-><-short->", PushType::Alert, false, &options(), None);
        assert_eq!(two.length, 44);
    }

    #[test]
    fn contact_fields_are_filled_per_contact() {
        let info = MergeValues { info: ["Ada", "Lovelace", "", ""], card: &[] };
        assert_eq!(
            render("Hi [info1] [info2][info3]", PushType::Alert, &[], &options(), Some(&info)),
            "Hi Ada Lovelace"
        );
        assert_eq!(render("Hi [info1]", PushType::Alert, &[], &options(), None), "Hi ");
        assert!(has_contact_fields("x [info4]"));
        assert!(!has_contact_fields("x [info5]"));
    }

    #[test]
    fn the_stop_text_counts_toward_the_length() {
        let text = "a".repeat(146);
        assert_eq!(rendered_segments(&text, PushType::Alert, false, &options(), None).parts, 1);
        // 146 + "\n" + 13 characters = 160: still one SMS; one more character makes two.
        assert_eq!(rendered_segments(&text, PushType::Marketing, false, &options(), None).parts, 1);
        let longer = "a".repeat(147);
        assert_eq!(rendered_segments(&longer, PushType::Marketing, false, &options(), None).parts, 2);
    }
}
