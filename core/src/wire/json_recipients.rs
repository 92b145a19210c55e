//! A large JSON send request read the fast way, as XML has its own reader (`sms_xml`): its
//! recipient list, which can hold a million numbers, is read straight from the text, and
//! serde reads the rest.
//!
//! serde_json spends about as long checking a million `{"value": "336…"}` objects as reading
//! them through each item's visitor (the npm package's filter spent 42% of its time there).
//! [`decode`] finds `sms.recipients.gsm`, reads it with [`Reader::recipients`], which takes
//! only the shape every client writes and checks it as strictly as serde_json would, then
//! hands serde_json the document with an empty list in its place. Anything else (an escape in
//! a string, another key, a number where a string goes, more items than the limit, a document
//! serde refuses) makes it give up, and the request is read again the general way, which says
//! exactly what is wrong or reads what only it understands. So the fast way decides nothing:
//! it reads a request as the general way does, or not at all.

use std::borrow::Cow;

use super::{
    GsmDto, RecipientsDto, SmsRequest, hint,
    json_path::{Token, Tokens},
    json_read::{read_json, without_bom},
    limits::{self, max_items, take_data_error},
};

/// Bodies shorter than this are read the general way only: finding the list first would cost
/// more than it saves (a one-recipient send).
pub(super) const FAST_FROM: usize = 16 * 1024;

/// The JSON `body` of a send request read with its recipients scanned (room reserved for the
/// `room` expected, up to the item limit), or `None` when that fails, for the general reading
/// to decode it (and say why it fails, if it does).
pub(super) fn decode(body: &str, room: usize) -> Option<SmsRequest<'_>> {
    let body = without_bom(body);
    let mut reader = Reader { text: body, at: 0 };
    for key in ["sms", "recipients", "gsm"] {
        reader.expect(b'{')?;
        reader.key(key)?;
    }
    reader.blanks();
    let start = reader.at;
    let gsm = reader.recipients(limits::room(room))?;
    // The rest is copied: only when it is small or the list is most of the body, so that a
    // body of some other large value (a 60 MB text) is not held twice.
    if body.len() - (reader.at - start) > FAST_FROM.max(body.len() / 2) {
        return None;
    }
    let rest = format!("{}[]{}", &body[..start], &body[reader.at..]);
    let read = read_json::<SmsRequest>(&rest);
    // What a failed reading recorded is not the general reading's to report.
    take_data_error();
    hint::take_hint();
    let SmsRequest { message, recipients, lists, segments } = read.ok()?;
    let RecipientsDto { gsm: empty } = recipients?;
    empty.is_empty().then_some(SmsRequest { message, recipients: Some(RecipientsDto { gsm }), lists, segments })
}

/// A position in JSON text.
struct Reader<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Reader<'a> {
    /// Moves past the members of the object just opened up to `name`'s colon, skipping the
    /// values of the others; `None` if the object ends first or is not plain.
    fn key(&mut self, name: &str) -> Option<()> {
        loop {
            let key = self.string()?;
            self.expect(b':')?;
            if key == name {
                return Some(());
            }
            self.skip_value()?;
            self.expect(b',')?;
        }
    }

    /// Skips one value, by `json_path`'s tokens as far as finding its end takes: serde reads it
    /// (and refuses it if it is not JSON) afterwards.
    fn skip_value(&mut self) -> Option<()> {
        let mut depth = 0usize;
        for (_, end, token) in Tokens::starting_at(self.text, self.at) {
            match token {
                Token::Open(_) => depth += 1,
                Token::Close => depth = depth.checked_sub(1)?,
                Token::Colon | Token::Comma if depth == 0 => return None,
                _ => {}
            }
            if depth == 0 {
                self.at = end;
                return Some(());
            }
        }
        None
    }

    /// The recipient list here, when it is `[{"value": "…", "gsmsmsid": "…"}, …]` (`gsmsmsid`
    /// optional, either order), no string holds an escape, and it has no more items than the
    /// decoding's limit.
    fn recipients(&mut self, room: usize) -> Option<Vec<GsmDto<'a>>> {
        let limit = max_items();
        let mut items = Vec::with_capacity(room);
        self.expect(b'[')?;
        if self.eat(b']') {
            return Some(items);
        }
        loop {
            if items.len() >= limit {
                return None;
            }
            let item = match self.plain_recipient() {
                Some(item) => item,
                None => self.recipient()?,
            };
            items.push(item);
            if !self.eat(b',') {
                self.expect(b']')?;
                return Some(items);
            }
        }
    }

    /// The usual recipient, `{"value":"…"}` without blanks, checked a word at a time: `None`
    /// where the text is anything else, which [`Reader::recipient`] then reads.
    #[inline(always)]
    fn plain_recipient(&mut self) -> Option<GsmDto<'a>> {
        const OPEN: u64 = u64::from_le_bytes(*b"{\"value\"");
        const COLON: u16 = u16::from_le_bytes(*b":\"");
        let bytes = self.text.as_bytes();
        let &[a, b, c, d, e, f, g, h, i, j] = bytes.get(self.at..)?.first_chunk::<10>()?;
        if u64::from_le_bytes([a, b, c, d, e, f, g, h]) != OPEN || u16::from_le_bytes([i, j]) != COLON {
            return None;
        }
        let start = self.at + 10;
        let end = start + string_length(bytes.get(start..)?)?;
        if bytes.get(end + 1) != Some(&b'}') {
            return None;
        }
        let value = self.text.get(start..end)?;
        self.at = end + 2;
        Some(GsmDto { value: Cow::Borrowed(value), gsmsmsid: None })
    }

    /// One recipient object.
    fn recipient(&mut self) -> Option<GsmDto<'a>> {
        self.expect(b'{')?;
        let (mut value, mut gsmsmsid) = (None, None);
        loop {
            let slot = match self.string()? {
                "value" => &mut value,
                "gsmsmsid" => &mut gsmsmsid,
                _ => return None,
            };
            self.expect(b':')?;
            let text = self.string()?;
            if slot.replace(Cow::Borrowed(text)).is_some() {
                return None;
            }
            if !self.eat(b',') {
                self.expect(b'}')?;
                return Some(GsmDto { value: value?, gsmsmsid });
            }
        }
    }

    /// A string after any blanks, without escapes or the control characters JSON refuses.
    fn string(&mut self) -> Option<&'a str> {
        self.expect(b'"')?;
        let start = self.at;
        let end = start + string_length(self.text.as_bytes().get(start..)?)?;
        self.at = end + 1;
        // Stops only at ASCII: a character boundary.
        self.text.get(start..end)
    }

    /// Moves past JSON's blanks.
    fn blanks(&mut self) {
        let bytes = self.text.as_bytes();
        while bytes.get(self.at).is_some_and(|b| matches!(b, b' ' | b'\n' | b'\r' | b'\t')) {
            self.at += 1;
        }
    }

    /// Takes `byte` after any blanks, if it comes next.
    fn eat(&mut self, byte: u8) -> bool {
        // Most bodies have no blanks between tokens (`JSON.stringify`, serde_json).
        if self.text.as_bytes().get(self.at) == Some(&byte) {
            self.at += 1;
            return true;
        }
        self.blanks();
        let next = self.text.as_bytes().get(self.at) == Some(&byte);
        self.at += usize::from(next);
        next
    }

    /// Takes `byte` after any blanks, or `None`.
    fn expect(&mut self, byte: u8) -> Option<()> {
        self.eat(byte).then_some(())
    }
}

/// The length of the string `text` starts inside, up to its closing quote, or `None` when it
/// holds an escape or a control character JSON refuses, or does not end.
#[inline(always)]
fn string_length(text: &[u8]) -> Option<usize> {
    let mut length = 0;
    loop {
        match *text.get(length)? {
            b'"' => return Some(length),
            b'\\' | ..0x20 => return None,
            _ => length += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::decode;
    use crate::wire::{self, Format, Limits, SmsRequest};

    fn request(gsm: &str) -> String {
        format!(r#"{{"sms":{{"message":{{"text":"Bonjour"}},"recipients":{{"gsm":{gsm}}}}}}}"#)
    }

    /// The general reading (`decode`, which never scans).
    fn general(body: &str) -> Result<SmsRequest<'_>, crate::Error> {
        wire::decode::<SmsRequest>(body, Format::Json)
    }

    #[test]
    fn the_usual_shapes_read_as_the_general_reading_reads_them() {
        let bodies = [
            request("[]"),
            request(r#"[{"value":"33612345678"}]"#),
            request(r#" [ { "value" : "33612345678" , "gsmsmsid" : "7" } ,{"gsmsmsid":"8","value":"0612"} ] "#),
            request(r#"[{"value":""},{"value":"+33 6 12 34 56 78"},{"value":"é"}]"#),
            request(r#"[{"value":"1"},{"value":"2","gsmsmsid":"x"},{"value":"3"} ,{ "value":"4"},{"value" :"5"}]"#),
            concat!(
                "\u{feff}{\"other\": [1, {\"a\": \"}\\\"]\"}], \"sms\": {\"lists\": [], \"message\": ",
                "{\"text\": \"a \\\"quoted\\\" {text}\", \"links\": [\"x\"]}, \"recipients\":\n",
                "{\"x\": null, \"gsm\": [{\"value\": \"33612345678\"}], \"y\": 1.5e3}}, \"z\": true}"
            )
            .to_owned(),
        ];
        for body in bodies {
            let fast = decode(&body, 2);
            assert!(fast.is_some(), "{body}");
            assert_eq!(fast.as_ref(), general(&body).as_ref().ok(), "{body}");
        }
    }

    #[test]
    fn other_shapes_are_left_to_the_general_reading() {
        for gsm in [
            r#"[{"value":"336\u0031"}]"#,
            r#"[{"value":33612345678}]"#,
            r#"[{"value":"1","value":"2"}]"#,
            r#"[{"value":"1","other":2}]"#,
            r#"[{"$text":"1"}]"#,
            r#"[{"gsmsmsid":"1"}]"#,
            r#"[{"value":"1","gsmsmsid":null}]"#,
            "[{\"value\":\"1\t2\"}]",
            r#"[{}]"#,
            r#"[{"value":"1"}"#,
            r#"[{"value":"1"},]"#,
            r#"{"value":"1"}"#,
        ] {
            assert_eq!(decode(&request(gsm), 0), None, "{gsm}");
        }
        let twice = r#"{"sms":{"recipients":{"gsm":[{"value":"1"}],"gsm":[]}}}"#;
        assert_eq!(decode(twice, 0), None);
        let malformed = r#"{"sms":{"message":{"text":"x"},,"recipients":{"gsm":[]}}}"#;
        assert_eq!(decode(malformed, 0), None);
        // A large text beside a short list: the general reading, without a copy of the text.
        let text = "x".repeat(40_000);
        let long = format!(r#"{{"sms":{{"message":{{"text":"{text}"}},"recipients":{{"gsm":[{{"value":"1"}}]}}}}}}"#);
        assert_eq!(decode(&long, 1), None);
        let read = wire::decode_sms_with(&long, Format::Json, Limits::UNBOUNDED);
        assert_eq!(read, general(&long));
        assert!(read.is_ok());
    }

    #[test]
    fn the_room_reserved_never_passes_the_item_limit() {
        let body = request(r#"[{"value":"1"},{"value":"2"}]"#);
        let _limits = crate::wire::limits::LimitScope::enter(Limits::items(5));
        let read = decode(&body, 1_000_000).and_then(|r| r.recipients).expect("read");
        assert_eq!(read.gsm.len(), 2);
        assert!(read.gsm.capacity() <= 6, "{}", read.gsm.capacity());
    }

    #[test]
    fn decode_sms_reads_and_refuses_large_bodies_as_the_general_reading_does() {
        let many: Vec<String> = (0..2_000).map(|i| format!(r#"{{"value":"336{i:08}"}}"#)).collect();
        let usual = request(&format!("[{}]", many.join(",")));
        let escaped = request(&format!(r#"[{},{{"value":"336\u0031"}}]"#, many.join(",")));
        let wrong = request(&format!(r#"[{},{{"value":336}}]"#, many.join(",")));
        for body in [&usual, &escaped, &wrong] {
            assert!(body.len() > super::FAST_FROM);
            let read = wire::decode_sms_with(body, Format::Json, Limits::UNBOUNDED);
            assert_eq!(read, general(body));
        }
        assert!(general(&escaped).is_ok() && general(&wrong).is_err());
        let limited = wire::decode_sms_with(&usual, Format::Json, Limits::items(1_999));
        assert_eq!(limited, wire::decode_with::<SmsRequest>(&usual, Format::Json, Limits::items(1_999)));
        assert!(limited.is_err());
    }
}
