//! Bounded quotes of client values in error messages: an answer never echoes more than a short
//! excerpt of what it refuses, however long the value (a 60 MB value once came back twice in an error).

/// Characters of a value an error quotes; the rest is counted, not shown.
pub const EXCERPT_CHARS: usize = 64;

/// `value` quoted for an error message, as `{:?}` would, but at most [`EXCERPT_CHARS`]
/// characters of it: a longer value is cut, marked with `…` and followed by its length.
///
/// ```
/// assert_eq!(texto_core::excerpt("abc"), r#""abc""#);
/// let long = "x".repeat(1000);
/// assert_eq!(texto_core::excerpt(&long), format!("\"{}…\" (1000 characters)", "x".repeat(64)));
/// ```
pub fn excerpt(value: &str) -> String {
    match value.char_indices().nth(EXCERPT_CHARS) {
        None => format!("{value:?}"),
        Some((cut, _)) => {
            let quoted = format!("{:?}", &value[..cut]);
            format!("{}…\" ({} characters)", &quoted[..quoted.len() - 1], value.chars().count())
        }
    }
}

/// `text` cut to at most `max` characters, marked with `…` when cut: bounds a whole message
/// (which may quote values through a parser's own wording) or a field path.
pub(crate) fn clip(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_owned(),
        Some((cut, _)) => format!("{}…", &text[..cut]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_values_are_quoted_whole() {
        assert_eq!(excerpt(""), r#""""#);
        assert_eq!(excerpt("a\"b"), r#""a\"b""#);
        let exactly = "é".repeat(EXCERPT_CHARS);
        assert_eq!(excerpt(&exactly), format!("{exactly:?}"));
    }

    #[test]
    fn long_values_are_cut_and_counted_in_characters() {
        let long = "é".repeat(60_000);
        let quoted = excerpt(&long);
        assert_eq!(quoted, format!("\"{}…\" (60000 characters)", "é".repeat(EXCERPT_CHARS)));
        let control = "\u{1}".repeat(1_000_000);
        let quoted = excerpt(&control);
        assert!(quoted.len() < 64 * 8 + 40, "{}", quoted.len());
        assert!(quoted.starts_with("\"\\u{1}") && quoted.ends_with("…\" (1000000 characters)"), "{quoted}");
    }

    #[test]
    fn clip_cuts_on_characters() {
        assert_eq!(clip("abc", 3), "abc");
        assert_eq!(clip("abcd", 3), "abc…");
        assert_eq!(clip("ééé", 2), "éé…");
    }
}
