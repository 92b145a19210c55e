//! Writes a document's JSON form as the public service's XML: one element per key, arrays as
//! repeated elements with no wrapper, an empty array as an empty element, `null` as the text
//! `null`, texts holding markup as CDATA, and a `gsm` object as `<gsm attr="…">value</gsm>`.

use serde_json::{Map, Value};

/// The XML document with root element `root` for the JSON object `fields`.
pub(crate) fn write_document(root: &str, fields: &Map<String, Value>) -> String {
    let mut out = String::with_capacity(256);
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    write_object(&mut out, root, fields);
    out.push('\n');
    out
}

fn write_object(out: &mut String, name: &str, fields: &Map<String, Value>) {
    if name == "gsm" && fields.contains_key("value") {
        return write_gsm(out, fields);
    }
    open(out, name);
    for (key, value) in fields {
        write_field(out, key, value);
    }
    close(out, name);
}

fn write_field(out: &mut String, name: &str, value: &Value) {
    match value {
        Value::Array(items) if items.is_empty() => {
            open(out, name);
            close(out, name);
        }
        Value::Array(items) => items.iter().for_each(|item| write_field(out, name, item)),
        Value::Object(fields) => write_object(out, name, fields),
        scalar => {
            open(out, name);
            write_text(out, &scalar_text(scalar));
            close(out, name);
        }
    }
}

/// `<gsm a="…" b="…">value</gsm>`: how recipients and contacts appear in the public samples.
///
/// A whitespace-only value is written as a `<value>` child instead: quick-xml skips
/// whitespace-only text content of an element read as a struct, but not a child's text.
fn write_gsm(out: &mut String, fields: &Map<String, Value>) {
    out.push_str("<gsm");
    for (key, value) in fields.iter().filter(|(k, v)| *k != "value" && !v.is_null()) {
        out.push(' ');
        out.push_str(key);
        out.push_str("=\"");
        escape_into(out, &scalar_text(value), true);
        out.push('"');
    }
    out.push('>');
    let value = fields.get("value").map(scalar_text).unwrap_or_default();
    if !value.is_empty() && value.trim_matches([' ', '\t', '\r', '\n']).is_empty() {
        open(out, "value");
        write_text(out, &value);
        close(out, "value");
    } else {
        write_text(out, &value);
    }
    close(out, "gsm");
}

fn scalar_text(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Characters a parser turns into `\n` (end-of-line handling; quick-xml applies the XML 1.1
/// rules, which add NEL and LINE SEPARATOR to XML 1.0's `\r`), even inside CDATA.
const LINE_ENDS: [char; 3] = ['\r', '\u{85}', '\u{2028}'];

/// Character data. CDATA when it holds markup, unless it holds `]]>` (which would end the
/// section) or a [`LINE_ENDS`] character; then escaped, with those as character references,
/// which survive.
fn write_text(out: &mut String, text: &str) {
    if text.contains(['<', '>', '&']) && !text.contains("]]>") && !text.contains(LINE_ENDS) {
        out.push_str("<![CDATA[");
        out.push_str(text);
        out.push_str("]]>");
    } else {
        escape_into(out, text, false);
    }
}

/// Escapes markup, and what an XML parser would not give back as written: [`LINE_ENDS`]
/// everywhere and, in attributes, tab and newline (attribute-value normalization turns them
/// into spaces). Character references survive both.
fn escape_into(out: &mut String, text: &str, attribute: bool) {
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\r' | '\u{85}' | '\u{2028}' => {
                out.push_str("&#");
                out.push_str(&u32::from(c).to_string());
                out.push(';');
            }
            '"' if attribute => out.push_str("&quot;"),
            '\n' if attribute => out.push_str("&#10;"),
            '\t' if attribute => out.push_str("&#9;"),
            c => out.push(c),
        }
    }
}

fn open(out: &mut String, name: &str) {
    out.push('<');
    out.push_str(name);
    out.push('>');
}

fn close(out: &mut String, name: &str) {
    out.push_str("</");
    out.push_str(name);
    out.push('>');
}
