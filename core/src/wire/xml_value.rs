//! Reads an XML document into its JSON form, so that every DTO is deserialized one way
//! (from a `serde_json::Value`) whatever the format. The mapping follows the public samples:
//! an element with only text is a string; attributes are `@name` keys and an element's own
//! text beside them is `$text`; a repeated child becomes an array. Which fields are lists is
//! the DTO's business ([`super::lenient::list`] takes one item or many).
//!
//! No recursion: a stack of open elements, bounded in depth, so hostile nesting is an error
//! and never a stack overflow. DOCTYPE is refused wherever it appears; only the predefined
//! entities and character references resolve.

use quick_xml::{
    Reader,
    events::{BytesStart, Event},
};
use serde_json::{Map, Value};

/// Deepest nesting accepted (the interface's documents are 4 levels deep).
const MAX_DEPTH: usize = 32;

/// Most distinct attributes and children of one element (the interface's have fewer than 20):
/// millions of differently named children would each cost far more than their bytes.
const MAX_FIELDS: usize = 256;

/// One open element.
struct Open {
    name: String,
    fields: Map<String, Value>,
    text: String,
    children: bool,
}

/// `(root element name, its content as JSON)`, or the message and the element path of the failure.
pub(crate) fn parse(body: &str) -> Result<(String, Value), (String, String)> {
    let mut reader = Reader::from_str(body);
    let mut stack: Vec<Open> = Vec::new();
    let path = |stack: &[Open]| stack.iter().map(|o| o.name.as_str()).collect::<Vec<_>>().join(".");
    loop {
        let event = reader.read_event().map_err(|e| (e.to_string(), path(&stack)))?;
        match event {
            Event::Start(start) => {
                if stack.len() >= MAX_DEPTH {
                    return Err((format!("elements are nested more than {MAX_DEPTH} deep"), path(&stack)));
                }
                let open = open(&start).map_err(|e| (e, path(&stack)))?;
                stack.push(open);
            }
            Event::Empty(start) => {
                let element = open(&start).map_err(|e| (e, path(&stack)))?;
                let name = element.name.clone();
                let value = close(element);
                match stack.last_mut() {
                    Some(parent) => add(parent, name, value)
                        .map_err(|(message, name)| (message, format!("{}.{name}", path(&stack))))?,
                    None => return end(&mut reader).map(|()| (name, value)),
                }
            }
            Event::End(_) => {
                let element = stack.pop().ok_or_else(|| ("unexpected closing tag".to_owned(), String::new()))?;
                let name = element.name.clone();
                let value = close(element);
                match stack.last_mut() {
                    Some(parent) => add(parent, name, value)
                        .map_err(|(message, name)| (message, format!("{}.{name}", path(&stack))))?,
                    None => return end(&mut reader).map(|()| (name, value)),
                }
            }
            Event::Text(text) => {
                let text = text.decode().map_err(|e| (e.to_string(), path(&stack)))?;
                match stack.last_mut() {
                    Some(open) => open.text.push_str(&text),
                    None if text.trim().is_empty() => {}
                    None => return Err(("text outside the root element".to_owned(), String::new())),
                }
            }
            Event::CData(data) => {
                let text =
                    String::from_utf8(data.into_inner().into_owned()).map_err(|e| (e.to_string(), path(&stack)))?;
                if let Some(open) = stack.last_mut() {
                    open.text.push_str(&text);
                }
            }
            Event::GeneralRef(reference) => {
                let resolved = match reference.resolve_char_ref().map_err(|e| (e.to_string(), path(&stack)))? {
                    Some(c) => c.to_string(),
                    None => {
                        let name = reference.decode().map_err(|e| (e.to_string(), path(&stack)))?;
                        quick_xml::escape::resolve_predefined_entity(&name)
                            .ok_or_else(|| (format!("unknown entity &{name};"), path(&stack)))?
                            .to_owned()
                    }
                };
                if let Some(open) = stack.last_mut() {
                    open.text.push_str(&resolved);
                }
            }
            Event::DocType(_) => {
                return Err(("DOCTYPE and entity declarations are not accepted".to_owned(), path(&stack)));
            }
            Event::Eof => return Err(("the document ends before its root element is closed".to_owned(), path(&stack))),
            Event::Decl(_) | Event::PI(_) | Event::Comment(_) => {}
        }
    }
}

/// After the root element: only blanks, comments and processing instructions.
fn end(reader: &mut Reader<&[u8]>) -> Result<(), (String, String)> {
    loop {
        match reader.read_event().map_err(|e| (e.to_string(), String::new()))? {
            Event::Eof => return Ok(()),
            Event::Text(text) if text.iter().all(u8::is_ascii_whitespace) => {}
            Event::Comment(_) | Event::PI(_) => {}
            _ => return Err(("content after the root element".to_owned(), String::new())),
        }
    }
}

fn open(start: &BytesStart<'_>) -> Result<Open, String> {
    let name = String::from_utf8(start.name().as_ref().to_vec()).map_err(|e| e.to_string())?;
    let mut fields = Map::new();
    for attribute in start.attributes() {
        let attribute = attribute.map_err(|e| e.to_string())?;
        let key = String::from_utf8_lossy(attribute.key.as_ref()).into_owned();
        if fields.len() >= MAX_FIELDS {
            return Err(format!("an element has more than {MAX_FIELDS} attributes"));
        }
        let value = attribute.unescape_value().map_err(|e| e.to_string())?.into_owned();
        fields.insert(format!("@{key}"), Value::String(value));
    }
    Ok(Open { name, fields, text: String::new(), children: false })
}

/// An element's value: its text, or an object of its attributes and children (with its own
/// text as `$text` when it has some besides indentation). An empty element is an empty
/// object. `<gsm>` is always an object, as
/// the writer treats it: a recipient or contact whose number is the element's text.
fn close(element: Open) -> Value {
    if element.fields.is_empty() && element.text.is_empty() {
        // Empty: an empty text, or a struct or list with nothing in it. An empty object reads
        // as all three (the text readers take an object's `$text`, here none).
        return Value::Object(Map::new());
    }
    if element.fields.is_empty() && element.name != "gsm" {
        return Value::String(element.text);
    }
    let mut fields = element.fields;
    let indentation_only = element.children && element.text.trim().is_empty();
    if !element.text.is_empty() && !indentation_only {
        fields.insert("$text".to_owned(), Value::String(element.text));
    }
    Value::Object(fields)
}

/// Adds a child to its parent: a second child of the same name makes an array (an element's
/// value is never an array itself, so an array here is always one this function built). An
/// array stops at the decoding's item limit + 1 (a data error, see [`super::limits`]).
fn add(parent: &mut Open, name: String, value: Value) -> Result<(), (String, String)> {
    parent.children = true;
    let full = parent.fields.len() >= MAX_FIELDS;
    match parent.fields.get_mut(&name) {
        None if full => {
            return Err((
                format!("an element has more than {MAX_FIELDS} differently named children or attributes"),
                name,
            ));
        }
        None => {
            parent.fields.insert(name, value);
        }
        Some(Value::Array(items)) => {
            super::limits::push_counted(items, value).map_err(|e: serde_json::Error| (e.to_string(), name))?;
        }
        Some(_) if super::limits::max_items() < 2 => {
            return Err((super::limits::too_many::<serde_json::Error>().to_string(), name));
        }
        Some(existing) => {
            let first = existing.take();
            *existing = Value::Array(vec![first, value]);
        }
    }
    Ok(())
}
