//! The GSM 03.38 default alphabet, the one table that counts, encodes and decodes 7-bit text:
//! [`septets`] for the length and cost of a message, [`encode_gsm`] and [`decode_gsm`] for
//! what goes over SMPP (one septet per octet, unpacked, as data_coding 0 carries it).

/// The basic table: the character of each septet. 0x1B is the escape to the extension table,
/// not a character a user can type: it encodes nothing and decodes to nothing.
const BASIC: [char; 128] = [
    '@', '£', '$', '¥', 'è', 'é', 'ù', 'ì', 'ò', 'Ç', '\n', 'Ø', 'ø', '\r', 'Å', 'å', //
    'Δ', '_', 'Φ', 'Γ', 'Λ', 'Ω', 'Π', 'Ψ', 'Σ', 'Θ', 'Ξ', '\u{1b}', 'Æ', 'æ', 'ß', 'É', //
    ' ', '!', '"', '#', '¤', '%', '&', '\'', '(', ')', '*', '+', ',', '-', '.', '/', //
    '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', ':', ';', '<', '=', '>', '?', //
    '¡', 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L', 'M', 'N', 'O', //
    'P', 'Q', 'R', 'S', 'T', 'U', 'V', 'W', 'X', 'Y', 'Z', 'Ä', 'Ö', 'Ñ', 'Ü', '§', //
    '¿', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', //
    'p', 'q', 'r', 's', 't', 'u', 'v', 'w', 'x', 'y', 'z', 'ä', 'ö', 'ñ', 'ü', 'à', //
];

/// The escape septet: the next one is read in [`EXTENSION`].
const ESCAPE: u8 = 0x1B;

/// The extension table: the septet after an escape, and its character (two septets each).
const EXTENSION: [(u8, char); 10] = [
    (0x0A, '\u{0c}'),
    (0x14, '^'),
    (0x28, '{'),
    (0x29, '}'),
    (0x2F, '\\'),
    (0x3C, '['),
    (0x3D, '~'),
    (0x3E, ']'),
    (0x40, '|'),
    (0x65, '€'),
];

/// The code of each character below U+0100 (most of a Latin text), found in one step rather
/// than by searching both tables: 0 for none, `BASIC_CODE` or `EXTENDED_CODE` plus the septet.
const LATIN1_CODES: [u16; 256] = {
    let mut codes = [0; 256];
    let mut septet = 0;
    while septet < BASIC.len() {
        let c = BASIC[septet] as usize;
        if c < 256 && septet != ESCAPE as usize {
            codes[c] = BASIC_CODE | septet as u16;
        }
        septet += 1;
    }
    let mut at = 0;
    while at < EXTENSION.len() {
        let (septet, c) = EXTENSION[at];
        if (c as usize) < 256 {
            codes[c as usize] = EXTENDED_CODE | septet as u16;
        }
        at += 1;
    }
    codes
};
const BASIC_CODE: u16 = 0x100;
const EXTENDED_CODE: u16 = 0x200;

/// How `c` is written in GSM 7-bit: one septet, or an escape pair; `None` outside both tables.
fn code(c: char) -> Option<Code> {
    match LATIN1_CODES.get(c as usize) {
        Some(&code) => match code & !0xFF {
            BASIC_CODE => Some(Code::Basic(code as u8)),
            EXTENDED_CODE => Some(Code::Extended(code as u8)),
            _ => None,
        },
        None => searched_code(c),
    }
}

/// [`code`], searched for in both tables.
fn searched_code(c: char) -> Option<Code> {
    if c != '\u{1b}'
        && let Some(septet) = BASIC.iter().position(|b| *b == c)
    {
        return Some(Code::Basic(septet as u8));
    }
    EXTENSION.iter().find(|(_, e)| *e == c).map(|(septet, _)| Code::Extended(*septet))
}

/// A character's GSM 7-bit code.
#[derive(Debug, PartialEq, Eq)]
enum Code {
    /// One septet of the basic table.
    Basic(u8),
    /// The escape, then this septet of the extension table.
    Extended(u8),
}

/// The number of septets `c` takes in GSM 7-bit encoding, or `None` when it has no GSM
/// representation (and so forces the whole message to UCS-2).
pub(crate) fn septets(c: char) -> Option<usize> {
    code(c).map(|code| match code {
        Code::Basic(_) => 1,
        Code::Extended(_) => 2,
    })
}

/// Encodes `text` as unpacked GSM 03.38 septets (one per octet), or `None` when a character
/// is outside both tables.
pub fn encode_gsm(text: &str) -> Option<Vec<u8>> {
    let mut bytes = Vec::with_capacity(text.len());
    for c in text.chars() {
        match code(c)? {
            Code::Basic(septet) => bytes.push(septet),
            Code::Extended(septet) => bytes.extend([ESCAPE, septet]),
        }
    }
    Some(bytes)
}

/// Decodes unpacked GSM 03.38 septets (one per octet, the high bit ignored), extension table
/// included; an escape before a septet the extension table lacks reads that septet as basic.
pub fn decode_gsm(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(bytes.len());
    let mut escaped = false;
    for &byte in bytes {
        let septet = byte & 0x7F;
        if escaped {
            escaped = false;
            match EXTENSION.iter().find(|(code, _)| *code == septet) {
                Some((_, c)) => text.push(*c),
                None => text.push(BASIC[usize::from(septet)]),
            }
        } else if septet == ESCAPE {
            escaped = true;
        } else {
            text.push(BASIC[usize::from(septet)]);
        }
    }
    text
}

/// Decodes UCS-2 big-endian (surrogate pairs as UTF-16; an odd last octet is dropped).
pub fn decode_ucs2(bytes: &[u8]) -> String {
    let units = bytes.chunks_exact(2).map(|pair| u16::from_be_bytes([pair[0], pair[1]]));
    char::decode_utf16(units).map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER)).collect()
}

/// Encodes `text` as UTF-16 big-endian (what data_coding 8 carries).
pub fn encode_ucs2(text: &str) -> Vec<u8> {
    text.encode_utf16().flat_map(u16::to_be_bytes).collect()
}

/// Decodes a short message by its data_coding: 8 is UCS-2, anything else is read as GSM 03.38.
pub fn decode_short_message(data_coding: u8, bytes: &[u8]) -> String {
    if data_coding == 8 { decode_ucs2(bytes) } else { decode_gsm(bytes) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_are_disjoint_and_complete() {
        assert_eq!(BASIC.len(), 128);
        assert_eq!(EXTENSION.len(), 10);
        assert!(EXTENSION.iter().all(|(_, c)| !BASIC.contains(c)));
    }

    #[test]
    fn the_latin1_table_codes_as_the_search_does() {
        for c in (0..256).filter_map(char::from_u32) {
            assert_eq!(code(c), searched_code(c), "{c:?}");
        }
    }

    #[test]
    fn counting_and_encoding_agree_on_every_character() {
        let mut gsm = 0;
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            let encoded = encode_gsm(c.encode_utf8(&mut [0; 4]));
            assert_eq!(septets(c), encoded.as_ref().map(Vec::len), "{c:?} is counted as it is encoded");
            if let Some(bytes) = encoded {
                assert_eq!(decode_gsm(&bytes), c.to_string(), "{c:?} decodes back");
                gsm += 1;
            }
        }
        assert_eq!(gsm, 127 + 10, "the basic table but the escape, and the extension table");
    }

    #[test]
    fn french_accents_follow_the_reference() {
        for c in ['é', 'è', 'ù', 'ì', 'ò', 'à', 'Ç'] {
            assert_eq!(septets(c), Some(1), "{c} is in the basic table");
        }
        for c in ['ç', 'â', 'ê', 'î', 'ô', 'û', 'ë', 'ï', 'œ'] {
            assert_eq!(septets(c), None, "{c} is not GSM");
        }
    }

    #[test]
    fn gsm_round_trips_basic_and_extension() {
        let text = "Hello @£ {€} [x] é STOP";
        let bytes = encode_gsm(text).unwrap_or_default();
        assert_eq!(bytes[0], b'H');
        assert_eq!(decode_gsm(&bytes), text);
        assert_eq!(encode_gsm("€"), Some(vec![0x1B, 0x65]));
        assert_eq!(encode_gsm("日本"), None);
        assert_eq!(encode_gsm("\u{1b}"), None, "the escape is not a character");
    }

    #[test]
    fn ucs2_round_trips() {
        let text = "Привет 😀";
        assert_eq!(decode_ucs2(&encode_ucs2(text)), text);
        assert_eq!(decode_short_message(8, &[0x00, 0x41]), "A");
        assert_eq!(decode_short_message(0, &[0x41]), "A");
    }
}
