//! A hand-written XML reader for the send request, the one document that can hold a million
//! recipients: it borrows every text it can from the body and allocates nothing per `<gsm>`
//! that has no entity in it. It reads exactly what the serde path reads (a property test
//! checks that they agree), in a fraction of its time.

use std::{borrow::Cow, fmt};

use quick_xml::{
    Reader,
    events::{BytesStart, Event},
};

use super::{AbDto, GsmDto, ListRefDto, MessageDto, RecipientsDto, SmsRequest, UtmDto};
use crate::Error;

/// Reads an `<sms>` document.
pub(crate) fn decode(body: &str) -> Result<SmsRequest<'_>, Error> {
    let mut parser = Parser { reader: Reader::from_str(body), body };
    parser.document()
}

struct Parser<'a> {
    reader: Reader<&'a [u8]>,
    body: &'a str,
}

impl<'a> Parser<'a> {
    fn error(&self, path: impl fmt::Display, message: impl Into<String>) -> Error {
        self.error_at(path.to_string(), message.into())
    }

    /// [`Parser::error`] without its generic parameters: one copy of the position's reckoning.
    fn error_at(&self, path: String, message: String) -> Error {
        let at = usize::try_from(self.reader.buffer_position()).unwrap_or(0).min(self.body.len());
        let before = &self.body.as_bytes()[..at];
        let line = before.iter().filter(|b| **b == b'\n').count() + 1;
        let column = at - before.iter().rposition(|b| *b == b'\n').map_or(0, |p| p + 1) + 1;
        Error::Xml { message: format!("{message} (line {line}, column {column})"), path: Some(path) }
    }

    fn next(&mut self, path: impl fmt::Display + Copy) -> Result<Event<'a>, Error> {
        match self.reader.read_event() {
            Ok(Event::DocType(_)) => Err(self.error(path, "DOCTYPE and entity declarations are not accepted")),
            Ok(event) => Ok(event),
            Err(e) => Err(self.error(path, e.to_string())),
        }
    }

    fn document(&mut self) -> Result<SmsRequest<'a>, Error> {
        loop {
            match self.next("")? {
                Event::Start(e) if e.name().as_ref() == b"sms" => {
                    let request = self.sms()?;
                    return self.end().map(|()| request);
                }
                Event::Empty(e) if e.name().as_ref() == b"sms" => return self.end().map(|()| SmsRequest::default()),
                Event::Start(e) | Event::Empty(e) => {
                    let name = String::from_utf8_lossy(e.name().as_ref()).into_owned();
                    return Err(self.error("", format!("the root element must be <sms>, found <{name}>")));
                }
                Event::Text(t) if t.iter().all(u8::is_ascii_whitespace) => {}
                Event::Decl(_) | Event::PI(_) | Event::Comment(_) => {}
                Event::Eof => return Err(self.error("", "the document is empty")),
                _ => return Err(self.error("", "text before the root element")),
            }
        }
    }

    /// After the root element: only blanks, comments and processing instructions.
    fn end(&mut self) -> Result<(), Error> {
        loop {
            match self.next("")? {
                Event::Eof => return Ok(()),
                Event::Text(t) if t.iter().all(u8::is_ascii_whitespace) => {}
                Event::Comment(_) | Event::PI(_) => {}
                _ => return Err(self.error("", "content after the root element")),
            }
        }
    }

    fn sms(&mut self) -> Result<SmsRequest<'a>, Error> {
        let mut request = SmsRequest::default();
        loop {
            match self.next("sms")? {
                Event::Start(e) => match e.name().as_ref() {
                    b"message" => request.message = self.message()?,
                    b"recipients" => request.recipients = Some(self.recipients()?),
                    b"lists" => {
                        let list = self.list_ref(ListAt("lists", request.lists.as_ref().map_or(0, Vec::len)))?;
                        request.lists.get_or_insert_with(Vec::new).extend(list);
                    }
                    b"segments" => {
                        let at = ListAt("segments", request.segments.as_ref().map_or(0, Vec::len));
                        let segment = self.list_ref(at)?;
                        request.segments.get_or_insert_with(Vec::new).extend(segment);
                    }
                    _ => self.skip(&e)?,
                },
                Event::Empty(e) => match e.name().as_ref() {
                    b"message" => request.message = MessageDto::default(),
                    b"recipients" => request.recipients = Some(RecipientsDto::default()),
                    b"lists" => request.lists = Some(request.lists.take().unwrap_or_default()),
                    b"segments" => request.segments = Some(request.segments.take().unwrap_or_default()),
                    _ => {}
                },
                Event::End(_) => {
                    // One empty item is how `[]` is written.
                    for refs in [&mut request.lists, &mut request.segments] {
                        if let Some(refs) = refs.as_mut().filter(|l| l.len() == 1 && l[0] == ListRefDto::default()) {
                            refs.clear();
                        }
                    }
                    return Ok(request);
                }
                Event::Eof => return Err(self.error("sms", "the document ends inside <sms>")),
                _ => {}
            }
        }
    }

    fn message(&mut self) -> Result<MessageDto, Error> {
        let mut message = MessageDto::default();
        loop {
            let (name, text) = match self.next("sms.message")? {
                Event::Start(e) if e.name().as_ref() == b"utm" => {
                    message.utm = Some(self.utm()?);
                    continue;
                }
                Event::Start(e) if e.name().as_ref() == b"ab" => {
                    message.ab = Some(self.ab()?);
                    continue;
                }
                Event::Empty(e) if e.name().as_ref() == b"ab" => {
                    message.ab = Some(AbDto::default());
                    continue;
                }
                // `<utm/>` as `<utm></utm>`: no tags.
                Event::Empty(e) if e.name().as_ref() == b"utm" => {
                    message.utm = Some(UtmDto::default());
                    continue;
                }
                Event::Start(e) => {
                    let name = e.name().as_ref().to_vec();
                    match self.text(Child("sms.message", &name))? {
                        Some(text) => (name, text),
                        None => continue,
                    }
                }
                Event::Empty(e) => (e.name().as_ref().to_vec(), Cow::Borrowed("")),
                Event::End(_) => {
                    // One empty item is how `[]` is written.
                    for list in [&mut message.links, &mut message.variants] {
                        if let Some(items) = list.as_mut().filter(|l| l.len() == 1 && l[0].is_empty()) {
                            items.clear();
                        }
                    }
                    return Ok(message);
                }
                Event::Eof => return Err(self.error("sms.message", "the document ends inside <message>")),
                _ => continue,
            };
            // The XML readings of the lenient fields: the text `null` is null.
            let value = (text != "null").then(|| text.into_owned());
            match name.as_slice() {
                b"text" => message.text = value,
                b"pushtype" => message.pushtype = value,
                b"sender" => message.sender = value,
                b"delay" => message.delay = value,
                b"links" => message.links.get_or_insert_with(Vec::new).push(value.unwrap_or_else(|| "null".into())),
                b"variants" => {
                    message.variants.get_or_insert_with(Vec::new).push(value.unwrap_or_else(|| "null".into()))
                }
                b"encoding" => message.encoding = value,
                b"template" => message.template = value,
                b"validity" => {
                    message.validity = match value.as_deref().map(str::trim) {
                        None | Some("") => None,
                        Some(minutes) => Some(minutes.parse().map_err(|_| {
                            self.error(
                                "sms.message.validity",
                                format!("expected a whole number of minutes, found {}", crate::excerpt(minutes)),
                            )
                        })?),
                    }
                }
                b"unicode" => {
                    message.unicode = match value.as_deref().map(str::trim) {
                        None | Some("") => None,
                        Some("1" | "true") => Some(true),
                        Some("0" | "false") => Some(false),
                        Some(other) => {
                            return Err(self.error(
                                "sms.message.unicode",
                                format!("expected 0 or 1, found {}", crate::excerpt(other)),
                            ));
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// `<utm><source>…</source><medium>…</medium><campaign>…</campaign></utm>`.
    fn utm(&mut self) -> Result<UtmDto, Error> {
        let mut utm = UtmDto::default();
        loop {
            match self.next("sms.message.utm")? {
                Event::Start(e) => {
                    let name = e.name().as_ref().to_vec();
                    // As elsewhere in the message, the text `null` is null.
                    let value =
                        self.text(Child("sms.message.utm", &name))?.filter(|t| t != "null").map(Cow::into_owned);
                    match name.as_slice() {
                        b"source" => utm.source = value,
                        b"medium" => utm.medium = value,
                        b"campaign" => utm.campaign = value,
                        b"click" => utm.click = value,
                        _ => {}
                    }
                }
                Event::End(_) => return Ok(utm),
                Event::Eof => return Err(self.error("sms.message.utm", "the document ends inside <utm>")),
                _ => {}
            }
        }
    }

    /// `<ab><share>20</share><wait>2h</wait><criterion>clicks</criterion></ab>`.
    fn ab(&mut self) -> Result<AbDto, Error> {
        let mut ab = AbDto::default();
        loop {
            match self.next("sms.message.ab")? {
                Event::Start(e) => {
                    let name = e.name().as_ref().to_vec();
                    let value = self.text(Child("sms.message.ab", &name))?.filter(|t| t != "null").map(Cow::into_owned);
                    match name.as_slice() {
                        b"share" => {
                            ab.share = match value.as_deref().map(str::trim) {
                                None | Some("") => None,
                                Some(share) => Some(share.parse().map_err(|_| {
                                    self.error(
                                        "sms.message.ab.share",
                                        format!("expected a whole percent, found {}", crate::excerpt(share)),
                                    )
                                })?),
                            }
                        }
                        b"wait" => ab.wait = value,
                        b"criterion" => ab.criterion = value,
                        _ => {}
                    }
                }
                Event::End(_) => return Ok(ab),
                Event::Eof => return Err(self.error("sms.message.ab", "the document ends inside <ab>")),
                _ => {}
            }
        }
    }

    fn recipients(&mut self) -> Result<RecipientsDto<'a>, Error> {
        // Sized once: growing a million-entry vector by doubling copies it twenty times.
        let rest =
            &self.body.as_bytes()[usize::try_from(self.reader.buffer_position()).unwrap_or(0).min(self.body.len())..];
        // Each <gsm> takes two of the '<' left (a few other tags only make the room larger).
        // Never more than the item limit + 1: the reading stops there.
        let mut gsm = Vec::with_capacity(super::limits::room(super::occurrences(rest, b'<') / 2));
        loop {
            match self.next("sms.recipients")? {
                Event::Start(e) if e.name().as_ref() == b"gsm" => {
                    let path = GsmAt(gsm.len());
                    let gsmsmsid = self.attribute(&e, b"gsmsmsid", path)?;
                    let item = self.gsm(gsmsmsid, path)?;
                    self.counted(&mut gsm, item)?;
                }
                Event::Empty(e) if e.name().as_ref() == b"gsm" => {
                    let path = GsmAt(gsm.len());
                    let gsmsmsid = self.attribute(&e, b"gsmsmsid", path)?;
                    self.counted(&mut gsm, GsmDto { value: Cow::Borrowed(""), gsmsmsid })?;
                }
                Event::Start(e) => self.skip(&e)?,
                Event::End(_) => break,
                Event::Eof => return Err(self.error("sms.recipients", "the document ends inside <recipients>")),
                _ => {}
            }
        }
        // `<recipients><gsm></gsm></recipients>` is how `gsm: []` is written.
        if gsm.len() == 1 && gsm[0] == GsmDto::default() {
            gsm.clear();
        }
        Ok(RecipientsDto { gsm })
    }

    /// Adds a recipient, or refuses the one past the item limit (-7).
    fn counted(&self, gsm: &mut Vec<GsmDto<'a>>, item: GsmDto<'a>) -> Result<(), Error> {
        super::limits::push_counted(gsm, item).map_err(|e: serde_json::Error| {
            Error::Invalid(vec![crate::FieldError::new("sms.recipients.gsm", e.to_string())])
        })
    }

    /// `<gsm gsmsmsid="…">336…</gsm>`, or with `<value>` and `<gsmsmsid>` children.
    fn gsm(&mut self, mut gsmsmsid: Option<Cow<'a, str>>, path: GsmAt) -> Result<GsmDto<'a>, Error> {
        let mut value: Option<Cow<'a, str>> = None;
        let mut text: Option<Cow<'a, str>> = None;
        loop {
            match self.next(path)? {
                event @ (Event::Text(_) | Event::CData(_) | Event::GeneralRef(_)) => {
                    append(&mut text, self.content(event, path)?)
                }
                Event::Start(e) => {
                    let name = e.name().as_ref().to_vec();
                    let child = self.text(Child(path, &name))?;
                    match name.as_slice() {
                        b"value" => value = child,
                        b"gsmsmsid" => gsmsmsid = child,
                        _ => {}
                    }
                }
                Event::Empty(e) if e.name().as_ref() == b"value" => value = Some(Cow::Borrowed("")),
                Event::End(_) => break,
                Event::Eof => return Err(self.error(path, "the document ends inside <gsm>")),
                _ => {}
            }
        }
        let value = match (value, text) {
            (Some(value), _) => value,
            (None, Some(text)) => text,
            (None, None) => Cow::Borrowed(""),
        };
        Ok(GsmDto { value, gsmsmsid })
    }

    fn list_ref(&mut self, path: ListAt) -> Result<Option<ListRefDto>, Error> {
        let mut value = None;
        loop {
            match self.next(path)? {
                Event::Start(e) if e.name().as_ref() == b"value" => {
                    value = self.text(Child(path, b"value"))?.map(Cow::into_owned);
                }
                Event::Empty(e) if e.name().as_ref() == b"value" => value = Some(String::new()),
                Event::Start(e) => self.skip(&e)?,
                Event::End(_) => break,
                Event::Eof => return Err(self.error(path, format!("the document ends inside <{}>", path.0))),
                _ => {}
            }
        }
        Ok(value.map(|value| ListRefDto { value }))
    }

    /// The text of the element just opened, up to its end; `None` when it holds elements
    /// (they are skipped, as serde skips what a field does not take).
    fn text(&mut self, path: impl fmt::Display + Copy) -> Result<Option<Cow<'a, str>>, Error> {
        let mut text: Option<Cow<'a, str>> = None;
        let mut nested = false;
        loop {
            match self.next(path)? {
                event @ (Event::Text(_) | Event::CData(_) | Event::GeneralRef(_)) => {
                    append(&mut text, self.content(event, path)?)
                }
                Event::Start(e) => {
                    nested = true;
                    self.skip(&e)?;
                }
                Event::Empty(_) => nested = true,
                Event::End(_) => break,
                Event::Eof => return Err(self.error(path, "the document ends inside an element")),
                _ => {}
            }
        }
        match nested {
            true => Err(self.error(path, "expected text, found elements")),
            false => Ok(Some(text.unwrap_or(Cow::Borrowed("")))),
        }
    }

    /// What a text, CDATA or entity event adds to an element's text (borrowed when it can be).
    fn content(&self, event: Event<'a>, path: impl fmt::Display + Copy) -> Result<Cow<'a, str>, Error> {
        match event {
            Event::Text(t) => self.utf8(t.into_inner(), path),
            Event::CData(c) => self.utf8(c.into_inner(), path),
            Event::GeneralRef(r) => self.entity(&r, path).map(Cow::Owned),
            _ => Ok(Cow::Borrowed("")),
        }
    }

    /// An attribute's value (copied: attributes are short, and rare in large requests).
    fn attribute(
        &self,
        element: &BytesStart<'_>,
        name: &[u8],
        path: impl fmt::Display + Copy,
    ) -> Result<Option<Cow<'a, str>>, Error> {
        for attribute in element.attributes() {
            let attribute = attribute.map_err(|e| self.error(path, e.to_string()))?;
            if attribute.key.as_ref() == name {
                let value = attribute.unescape_value().map_err(|e| self.error(path, e.to_string()))?;
                return Ok(Some(Cow::Owned(value.into_owned())));
            }
        }
        Ok(None)
    }

    fn utf8(&self, bytes: Cow<'a, [u8]>, path: impl fmt::Display + Copy) -> Result<Cow<'a, str>, Error> {
        match bytes {
            Cow::Borrowed(b) => std::str::from_utf8(b).map(Cow::Borrowed).map_err(|e| self.error(path, e.to_string())),
            Cow::Owned(b) => String::from_utf8(b).map(Cow::Owned).map_err(|e| self.error(path, e.to_string())),
        }
    }

    fn entity(
        &self,
        reference: &quick_xml::events::BytesRef<'_>,
        path: impl fmt::Display + Copy,
    ) -> Result<String, Error> {
        if let Some(c) = reference.resolve_char_ref().map_err(|e| self.error(path, e.to_string()))? {
            return Ok(c.to_string());
        }
        let name = reference.decode().map_err(|e| self.error(path, e.to_string()))?;
        match quick_xml::escape::resolve_predefined_entity(&name) {
            Some(text) => Ok(text.to_owned()),
            None => Err(self.error(path, format!("unknown entity &{name};"))),
        }
    }

    fn skip(&mut self, element: &BytesStart<'a>) -> Result<(), Error> {
        let end = element.to_end().into_owned();
        self.reader.read_to_end(end.name()).map(drop).map_err(|e| self.error("", e.to_string()))
    }
}

fn append<'a>(text: &mut Option<Cow<'a, str>>, more: Cow<'a, str>) {
    match text {
        None => *text = Some(more),
        Some(existing) => existing.to_mut().push_str(&more),
    }
}

/// Paths are only written out for an error: a million recipients format none.
#[derive(Clone, Copy)]
struct GsmAt(usize);

impl fmt::Display for GsmAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "sms.recipients.gsm[{}]", self.0)
    }
}

/// `sms.lists[i]` or `sms.segments[i]`.
#[derive(Clone, Copy)]
struct ListAt(&'static str, usize);

impl fmt::Display for ListAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "sms.{}[{}]", self.0, self.1)
    }
}

/// `parent.child`.
#[derive(Clone, Copy)]
struct Child<'n, P>(P, &'n [u8]);

impl<P: fmt::Display> fmt::Display for Child<'_, P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.0, String::from_utf8_lossy(self.1))
    }
}
