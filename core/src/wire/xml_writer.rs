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
    write_text(out, &fields.get("value").map(scalar_text).unwrap_or_default());
    close(out, "gsm");
}

fn scalar_text(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn write_text(out: &mut String, text: &str) {
    if text.contains(['<', '>', '&']) && !text.contains("]]>") {
        out.push_str("<![CDATA[");
        out.push_str(text);
        out.push_str("]]>");
    } else {
        escape_into(out, text, false);
    }
}

fn escape_into(out: &mut String, text: &str, attribute: bool) {
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' if attribute => out.push_str("&quot;"),
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
