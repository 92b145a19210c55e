//! Smart encoding (`sms.message.encoding`): keeping a text in the GSM 03.38 alphabet, where an
//! SMS holds 160 characters instead of 70, by replacing each character outside it that has a
//! plain twin: typographic quotes and dashes, the ellipsis, special spaces, and accented
//! letters by their nearest (`ô` → `o`, `œ` → `oe`). The letters GSM 03.38 has (`é è ù à ì ò
//! Ç É Ä Ö Ñ Ü ß` …) stay. The one table the server, the web app and the npm package use.

mod utf16;

pub use utf16::to_gsm_units;

/// What a send asks of its text's alphabet.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum SmartEncoding {
    /// The text as written: one character outside GSM 03.38 sends it all in UCS-2.
    #[default]
    Auto,
    /// Every character with a GSM twin replaced by it.
    Gsm,
}

impl SmartEncoding {
    /// From the wire (`auto`, `gsm`; any case).
    pub fn parse(value: &str) -> Option<SmartEncoding> {
        match value.trim().to_ascii_lowercase().as_str() {
            "auto" => Some(SmartEncoding::Auto),
            "gsm" => Some(SmartEncoding::Gsm),
            _ => None,
        }
    }

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            SmartEncoding::Auto => "auto",
            SmartEncoding::Gsm => "gsm",
        }
    }

    /// `text` as this choice sends it (unchanged for `Auto`).
    pub fn apply(self, text: &str) -> String {
        match self {
            SmartEncoding::Auto => text.to_owned(),
            SmartEncoding::Gsm => to_gsm(text).text,
        }
    }
}

/// The GSM text that stands for `c`, when `c` is outside GSM 03.38 and has a twin. The table
/// names no GSM character (a test walks it), so a character is looked up once, not first
/// searched for in the GSM tables.
pub fn gsm_twin(c: char) -> Option<&'static str> {
    Some(match c {
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' | '\u{2039}' | '\u{203A}' | '`' | '\u{B4}' => {
            "'"
        }
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{2033}' | '\u{AB}' | '\u{BB}' => "\"",
        '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2014}' | '\u{2015}' | '\u{2212}' | '\u{2022}' => "-",
        '\u{2026}' => "...",
        '\u{A0}' | '\u{202F}' | '\u{2009}' | '\u{2007}' | '\u{2002}' | '\u{2003}' | '\t' => " ",
        '\u{200B}' | '\u{FEFF}' | '\u{AD}' => "",
        'á' | 'â' | 'ã' | 'ā' | 'ă' | 'ą' => "a",
        'À' | 'Á' | 'Â' | 'Ã' | 'Ā' | 'Ă' | 'Ą' => "A",
        'ç' | 'ć' | 'č' => "c",
        'Ć' | 'Č' => "C",
        'ê' | 'ë' | 'ē' | 'ė' | 'ę' | 'ě' => "e",
        'È' | 'Ê' | 'Ë' | 'Ē' | 'Ė' | 'Ę' | 'Ě' => "E",
        'í' | 'î' | 'ï' | 'ī' | 'į' => "i",
        'Ì' | 'Í' | 'Î' | 'Ï' | 'Ī' | 'Į' => "I",
        'ł' => "l",
        'Ł' => "L",
        'ń' | 'ň' => "n",
        'Ń' | 'Ň' => "N",
        'ó' | 'ô' | 'õ' | 'ō' | 'ő' => "o",
        'Ò' | 'Ó' | 'Ô' | 'Õ' | 'Ō' | 'Ő' => "O",
        'œ' => "oe",
        'Œ' => "OE",
        'ř' => "r",
        'Ř' => "R",
        'ś' | 'š' | 'ş' => "s",
        'Ś' | 'Š' | 'Ş' => "S",
        'ť' | 'ţ' => "t",
        'Ť' | 'Ţ' => "T",
        'ú' | 'û' | 'ū' | 'ů' | 'ű' | 'ų' => "u",
        'Ù' | 'Ú' | 'Û' | 'Ū' | 'Ů' | 'Ű' | 'Ų' => "U",
        'ý' | 'ÿ' => "y",
        'Ý' | 'Ÿ' => "Y",
        'ź' | 'ż' | 'ž' => "z",
        'Ź' | 'Ż' | 'Ž' => "Z",
        _ => return None,
    })
}

/// A text made GSM: what was replaced, in order of first appearance, and how many characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GsmText {
    /// The text with every twin in place.
    pub text: String,
    /// How many characters were replaced.
    pub replaced: usize,
    /// Each distinct character replaced and its twin, in order of first appearance.
    pub twins: Vec<(char, &'static str)>,
}

/// `text` with every character that has a GSM twin replaced by it.
pub fn to_gsm(text: &str) -> GsmText {
    let mut out = String::with_capacity(text.len());
    let mut twins = Vec::new();
    let replaced = to_gsm_into(text, &mut out, Some(&mut twins));
    GsmText { text: out, replaced, twins }
}

/// Appends `text` made GSM to `out`, noting each distinct twin in `twins` when asked; how many
/// characters were replaced.
pub(crate) fn to_gsm_into(text: &str, out: &mut String, mut twins: Option<&mut Vec<(char, &'static str)>>) -> usize {
    let mut replaced = 0;
    let bytes = text.as_bytes();
    // Runs of ASCII without a twin (all of it but the backquote and the tab) are copied whole;
    // only the other characters are looked up.
    let (mut start, mut at) = (0, 0);
    while at < bytes.len() {
        let byte = bytes[at];
        if byte.is_ascii() && byte != b'`' && byte != b'\t' {
            at += 1;
            continue;
        }
        out.push_str(&text[start..at]);
        let Some(c) = text[at..].chars().next() else { break };
        match gsm_twin(c) {
            Some(twin) => {
                out.push_str(twin);
                replaced += 1;
                if let Some(twins) = twins.as_deref_mut()
                    && !twins.iter().any(|(seen, _)| *seen == c)
                {
                    twins.push((c, twin));
                }
            }
            None => out.push(c),
        }
        at += c.len_utf8();
        start = at;
    }
    out.push_str(&text[start..]);
    replaced
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{gsm, segments};

    #[test]
    fn a_french_text_stays_in_one_gsm_part() {
        let text = "Fête de l\u{2019}été : –20 % sur les crêpes… Très «bon» goût, cœur ôté. Venez nombreux !";
        assert_eq!(segments(text, false).parts, 2, "UCS-2 before");
        let gsm = to_gsm(text);
        assert_eq!(gsm.text, "Fete de l'été : -20 % sur les crepes... Très \"bon\" gout, coeur oté. Venez nombreux !");
        assert_eq!(segments(&gsm.text, false).encoding, crate::Encoding::Gsm7);
        assert_eq!(segments(&gsm.text, false).parts, 1);
        // ê ’ – ê … « » û œ ô: ten characters, nine of them distinct.
        assert_eq!(gsm.replaced, 10);
        assert_eq!(gsm.twins.len(), 9);
        assert_eq!(gsm.twins[0], ('ê', "e"));
    }

    #[test]
    fn the_letters_gsm_has_stay() {
        let kept = "éèùàìòÇÉÄÖÑÜßäöñüåÅøØæÆ€[]";
        assert_eq!(to_gsm(kept).text, kept);
        assert_eq!(to_gsm(kept).replaced, 0);
    }

    #[test]
    fn what_has_no_twin_stays_and_keeps_ucs2() {
        let gsm = to_gsm("Merci 🎉 ça");
        assert_eq!(gsm.text, "Merci 🎉 ca");
        assert_eq!(segments(&gsm.text, false).encoding, crate::Encoding::Ucs2);
    }

    #[test]
    fn only_characters_outside_gsm_have_a_twin_and_every_twin_is_gsm() {
        for c in (0..0x3000u32).filter_map(char::from_u32) {
            if let Some(twin) = gsm_twin(c) {
                assert!(gsm::septets(c).is_none(), "{c:?} is GSM: it needs no twin");
                assert!(twin.chars().all(|t| gsm::septets(t).is_some()), "{c:?} → {twin:?}");
            }
        }
    }

    #[test]
    fn the_choice_reads_from_the_wire() {
        assert_eq!(SmartEncoding::parse(" GSM "), Some(SmartEncoding::Gsm));
        assert_eq!(SmartEncoding::parse("auto"), Some(SmartEncoding::Auto));
        assert_eq!(SmartEncoding::parse("ucs2"), None);
        assert_eq!(SmartEncoding::Gsm.apply("cœur"), "coeur");
        assert_eq!(SmartEncoding::Auto.apply("cœur"), "cœur");
    }
}
