//! GSM look-alikes for the characters that would switch a message to Unicode: typographic
//! quotes, dashes, the ellipsis and special spaces have a plain GSM twin; `ç` has `c`, but
//! changes the spelling, so it is replaced only when asked.

/// The GSM text that can stand for `c`, if any (`ç` only with `cedilla`).
pub fn lookalike(c: char, cedilla: bool) -> Option<&'static str> {
    Some(match c {
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' | '`' | '\u{B4}' => "'",
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{2033}' | '\u{AB}' | '\u{BB}' => "\"",
        '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2014}' | '\u{2015}' | '\u{2212}' => "-",
        '\u{2026}' => "...",
        '\u{A0}' | '\u{202F}' | '\u{2009}' | '\u{2007}' => " ",
        'ç' if cedilla => "c",
        _ => return None,
    })
}

/// `text` with every look-alike replaced.
pub fn replace_lookalikes(text: &str, cedilla: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match lookalike(c, cedilla) {
            Some(twin) => out.push_str(twin),
            None => out.push(c),
        }
    }
    out
}
