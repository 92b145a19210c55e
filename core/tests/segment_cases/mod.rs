//! The SMS length cases of docs/interface.md §4.1, shared by the native and the in-browser test runs.

use texto_core::Encoding::{self, Gsm7, Ucs2};

/// One text and the split it must get.
pub struct Case {
    pub name: &'static str,
    pub text: String,
    pub unicode: bool,
    pub encoding: Encoding,
    pub length: usize,
    pub parts: usize,
    pub per_part: usize,
    pub remaining: usize,
    pub unicode_chars: &'static str,
}

fn a(n: usize) -> String {
    "a".repeat(n)
}

#[rustfmt::skip]
pub fn cases() -> Vec<Case> {
    let case = |name, text: String, unicode, encoding, length, parts, per_part, remaining, unicode_chars| Case {
        name, text, unicode, encoding, length, parts, per_part, remaining, unicode_chars,
    };
    vec![
        case("empty", String::new(), false, Gsm7, 0, 0, 160, 160, ""),
        case("short ascii", "Hello".into(), false, Gsm7, 5, 1, 160, 155, ""),
        case("exactly 160", a(160), false, Gsm7, 160, 1, 160, 0, ""),
        case("161 splits in two", a(161), false, Gsm7, 161, 2, 153, 145, ""),
        case("153x2 fills two parts", a(306), false, Gsm7, 306, 2, 153, 0, ""),
        case("153x2+1 needs three", a(307), false, Gsm7, 307, 3, 153, 152, ""),
        case("ten full parts", a(1530), false, Gsm7, 1530, 10, 153, 0, ""),
        case("one more than ten parts", a(1531), false, Gsm7, 1531, 11, 153, 152, ""),
        case("euro counts two", "€".into(), false, Gsm7, 2, 1, 160, 158, ""),
        case("80 euros fill one SMS", "€".repeat(80), false, Gsm7, 160, 1, 160, 0, ""),
        case("81 euros never split a pair", "€".repeat(81), false, Gsm7, 162, 2, 153, 143, ""),
        case("euro straddling the boundary moves", format!("{}€{}", a(152), a(8)), false, Gsm7, 162, 2, 153, 143, ""),
        case("euro ending part one exactly", format!("{}€{}", a(151), a(8)), false, Gsm7, 161, 2, 153, 145, ""),
        case("euro at the end of 161", format!("{}€", a(159)), false, Gsm7, 161, 2, 153, 145, ""),
        case("euro making exactly 160", format!("{}€", a(158)), false, Gsm7, 160, 1, 160, 0, ""),
        case("euro after two full parts", format!("{}€", a(305)), false, Gsm7, 307, 3, 153, 151, ""),
        case("lower c cedilla is unicode", "ç".into(), false, Ucs2, 1, 1, 70, 69, "ç"),
        case("capital C cedilla is GSM", "Ç".into(), false, Gsm7, 1, 1, 160, 159, ""),
        case("unicode flag forces UCS-2 at 70", a(70), true, Ucs2, 70, 1, 70, 0, ""),
        case("unicode flag 71 splits", a(71), true, Ucs2, 71, 2, 67, 63, ""),
        case("67x2 fills two parts", a(134), true, Ucs2, 134, 2, 67, 0, ""),
        case("67x2+1 needs three", a(135), true, Ucs2, 135, 3, 67, 66, ""),
        case("unicode flag on a euro", "€".into(), true, Ucs2, 1, 1, 70, 69, ""),
        case("emoji is two UTF-16 units", "😀".into(), false, Ucs2, 2, 1, 70, 68, "😀"),
        case("emoji never split across parts", format!("{}😀{}", a(66), a(3)), false, Ucs2, 71, 2, 67, 62, "😀"),
        case("emoji ending part one exactly", format!("{}😀{}", a(65), a(4)), false, Ucs2, 71, 2, 67, 63, "😀"),
        case("french sentence in GSM", "Bonjour, vos soldes d'été commencent demain à 9h !".into(), false, Gsm7, 50, 1, 160, 110, ""),
        case("french sentence with c cedilla and e circumflex", "Merci de votre façon d'être fidèle".into(), false, Ucs2, 34, 1, 70, 36, "çê"),
        case("euro and c cedilla", "Soldes d'été : -20€ chez François !".into(), false, Ucs2, 35, 1, 70, 35, "ç"),
        case("each unicode char listed once", "ççç".into(), false, Ucs2, 3, 1, 70, 67, "ç"),
        case("circumflexes and diaereses in order", "â ê î ô û ë ï".into(), false, Ucs2, 13, 1, 70, 57, "âêîôûëï"),
        case("oe ligature", "œuvre".into(), false, Ucs2, 5, 1, 70, 65, "œ"),
        case("extension brackets count two each", "{}[]".into(), false, Gsm7, 8, 1, 160, 152, ""),
        case("caret tilde pipe backslash", "^~|\\".into(), false, Gsm7, 8, 1, 160, 152, ""),
        case("form feed is an extension character", "\u{0C}".into(), false, Gsm7, 2, 1, 160, 158, ""),
        case("line breaks are basic", "a\r\nb".into(), false, Gsm7, 4, 1, 160, 156, ""),
        case("tab is not GSM", "a\tb".into(), false, Ucs2, 3, 1, 70, 67, "\t"),
        case("backtick is not GSM", "`".into(), false, Ucs2, 1, 1, 70, 69, "`"),
        case("greek capitals of the basic table", "ΔΦΓΛΩΠΨΣΘΞ".into(), false, Gsm7, 10, 1, 160, 150, ""),
        case("greek lower case is not GSM", "λ".into(), false, Ucs2, 1, 1, 70, 69, "λ"),
        case("currency and punctuation of the basic table", "£$¥¤§¡¿@_".into(), false, Gsm7, 9, 1, 160, 151, ""),
    ]
}
