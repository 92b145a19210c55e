//! Text fields where a control character does harm (a name shown in a page or a log, an info
//! field merged into messages, a URL written into a request line): parsed once, so that what
//! is stored holds none.

/// Text without NUL or any control character other than tab (names, info fields, an email).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlainText<'a>(&'a str);

impl<'a> PlainText<'a> {
    /// `value`, or why not: the first control character other than tab, and where it is.
    pub fn parse(value: &'a str) -> Result<PlainText<'a>, String> {
        refuse_controls(value, |c| c == '\t').map(|()| PlainText(value))
    }

    /// The text.
    pub fn as_str(self) -> &'a str {
        self.0
    }
}

/// Text without any control character, tab included (a URL: CR and LF in it would split an
/// HTTP request line or header).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineText<'a>(&'a str);

impl<'a> LineText<'a> {
    /// `value`, or why not: its first control character, and where it is.
    pub fn parse(value: &'a str) -> Result<LineText<'a>, String> {
        refuse_controls(value, |_| false).map(|()| LineText(value))
    }

    /// The text.
    pub fn as_str(self) -> &'a str {
        self.0
    }
}

/// Refuses the first control character of `value` that `allowed` does not let through.
fn refuse_controls(value: &str, allowed: impl Fn(char) -> bool) -> Result<(), String> {
    match value.chars().enumerate().find(|&(_, c)| c.is_control() && !allowed(c)) {
        None => Ok(()),
        Some((at, c)) => {
            Err(format!("holds the control character U+{:04X} (character {}): not allowed here", u32::from(c), at + 1))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_allows_tab_and_refuses_other_controls() {
        assert_eq!(PlainText::parse("a\tb é").map(PlainText::as_str), Ok("a\tb é"));
        for bad in ["a\0b", "line\nbreak", "cr\r", "\u{1b}[31m", "del\u{7f}", "c1\u{85}"] {
            assert!(PlainText::parse(bad).is_err(), "{bad:?}");
        }
        assert_eq!(
            PlainText::parse("ab\0").unwrap_err(),
            "holds the control character U+0000 (character 3): not allowed here"
        );
    }

    #[test]
    fn line_text_refuses_every_control_including_tab() {
        assert!(LineText::parse("https://e.com/a?b=c").is_ok());
        for bad in ["https://e.com/\r\nX-Injected: 1", "https://e.com/\t", "https://e.com/\0"] {
            assert!(LineText::parse(bad).is_err(), "{bad:?}");
        }
    }
}
