//! Looks at an XML document's prolog before it is parsed: refuses DOCTYPE (and so any entity
//! declaration) and names the root element. (A DOCTYPE met later is refused by the reader.)

/// The root element's name, or why the document is refused.
pub(crate) fn root_element(xml: &str) -> Result<&str, String> {
    let mut rest = xml.trim_start_matches('\u{feff}');
    loop {
        rest = rest.trim_start();
        if let Some(after) = rest.strip_prefix("<?") {
            rest = skip_past(after, "?>")?;
        } else if let Some(after) = rest.strip_prefix("<!--") {
            rest = skip_past(after, "-->")?;
        } else if rest.starts_with("<!") {
            return Err("DOCTYPE and entity declarations are not accepted".to_owned());
        } else if let Some(after) = rest.strip_prefix('<') {
            let end = after.find(|c: char| c.is_whitespace() || c == '>' || c == '/').unwrap_or(after.len());
            return Ok(&after[..end]);
        } else if rest.is_empty() {
            return Err("the document is empty".to_owned());
        } else {
            return Err("text before the root element".to_owned());
        }
    }
}

fn skip_past<'a>(text: &'a str, end: &str) -> Result<&'a str, String> {
    text.find(end).map(|at| &text[at + end.len()..]).ok_or_else(|| format!("unterminated markup: missing {end}"))
}

#[cfg(test)]
mod tests {
    use super::root_element;

    #[test]
    fn finds_the_root_after_declaration_and_comments() {
        assert_eq!(root_element("<?xml version=\"1.0\"?>\n<!-- hi --><sms><a/></sms>"), Ok("sms"));
        assert_eq!(root_element("  <response>"), Ok("response"));
        assert_eq!(root_element("<list/>"), Ok("list"));
    }

    #[test]
    fn refuses_doctype_and_garbage() {
        assert!(root_element("<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY a \"b\">]><x/>").is_err());
        assert!(root_element("hello").is_err());
        assert!(root_element("").is_err());
        assert!(root_element("<?xml ").is_err());
    }
}
