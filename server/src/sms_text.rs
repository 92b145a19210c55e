//! Short-message text: GSM 03.38 (data_coding 0, one septet per octet) and UCS-2 big-endian
//! (data_coding 8), and the user data header of concatenated parts.

/// The GSM 03.38 default alphabet; 0x1B (the escape to the extension table) decodes to nothing.
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

/// The extension table: the septet after an escape, and its character.
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

const ESCAPE: u8 = 0x1B;

/// Decodes unpacked GSM 03.38 septets (one per octet), extension table included.
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

/// Encodes `text` as unpacked GSM 03.38 septets, or `None` when a character is outside both tables.
pub fn encode_gsm(text: &str) -> Option<Vec<u8>> {
    let mut bytes = Vec::with_capacity(text.len());
    for c in text.chars() {
        if let Some(septet) = BASIC.iter().position(|b| *b == c && c != '\u{1b}') {
            bytes.push(septet as u8);
        } else {
            let (code, _) = EXTENSION.iter().find(|(_, e)| *e == c)?;
            bytes.extend([ESCAPE, *code]);
        }
    }
    Some(bytes)
}

/// Decodes UCS-2 big-endian (surrogate pairs as UTF-16; an odd last octet is dropped).
pub fn decode_ucs2(bytes: &[u8]) -> String {
    let units = bytes.chunks_exact(2).map(|pair| u16::from_be_bytes([pair[0], pair[1]]));
    char::decode_utf16(units).map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER)).collect()
}

/// Encodes `text` as UTF-16 big-endian.
pub fn encode_ucs2(text: &str) -> Vec<u8> {
    text.encode_utf16().flat_map(u16::to_be_bytes).collect()
}

/// Decodes a short message by its data_coding: 8 is UCS-2, anything else is read as GSM 03.38.
pub fn decode(data_coding: u8, bytes: &[u8]) -> String {
    if data_coding == 8 { decode_ucs2(bytes) } else { decode_gsm(bytes) }
}

/// The place of one part in a concatenated message (from its UDH).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Concat {
    /// The reference shared by the parts of one message.
    pub reference: u16,
    /// How many parts the message has.
    pub total: u8,
    /// This part's number, from 1.
    pub seq: u8,
}

/// The user data header of part `seq` (from 1) of `total`: the 8-bit-reference concatenation
/// element (IEI 0x00), to put before the part's text with esm_class 0x40.
pub fn concat_udh(reference: u8, total: u8, seq: u8) -> [u8; 6] {
    [5, 0x00, 3, reference, total, seq]
}

/// Splits a user data header off `bytes`: the concatenation element if there is one (8- or
/// 16-bit reference) and the payload after the header.
pub fn split_udh(bytes: &[u8]) -> (Option<Concat>, &[u8]) {
    let Some((&length, rest)) = bytes.split_first() else {
        return (None, bytes);
    };
    let length = usize::from(length);
    if rest.len() < length {
        return (None, bytes);
    }
    let (mut header, payload) = rest.split_at(length);
    let mut concat = None;
    while let [id, len, tail @ ..] = header {
        let len = usize::from(*len);
        if tail.len() < len {
            break;
        }
        let (value, next) = tail.split_at(len);
        concat = match (id, value) {
            (0x00, [reference, total, seq]) => {
                Some(Concat { reference: u16::from(*reference), total: *total, seq: *seq })
            }
            (0x08, [hi, lo, total, seq]) => {
                Some(Concat { reference: u16::from_be_bytes([*hi, *lo]), total: *total, seq: *seq })
            }
            _ => concat,
        };
        header = next;
    }
    (concat, payload)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gsm_round_trips_basic_and_extension() {
        let text = "Hello @£ {€} [x] é STOP";
        let bytes = encode_gsm(text).unwrap();
        assert_eq!(bytes[0], b'H');
        assert_eq!(decode_gsm(&bytes), text);
        assert_eq!(encode_gsm("€"), Some(vec![0x1B, 0x65]));
        assert_eq!(encode_gsm("日本"), None);
    }

    #[test]
    fn ucs2_round_trips() {
        let text = "Привет 😀";
        assert_eq!(decode_ucs2(&encode_ucs2(text)), text);
        assert_eq!(decode(8, &[0x00, 0x41]), "A");
        assert_eq!(decode(0, &[0x41]), "A");
    }

    #[test]
    fn a_built_udh_splits_back() {
        let mut bytes = concat_udh(9, 3, 2).to_vec();
        bytes.extend(b"hi");
        assert_eq!(split_udh(&bytes), (Some(Concat { reference: 9, total: 3, seq: 2 }), &b"hi"[..]));
    }

    #[test]
    fn udh_is_split() {
        let (concat, payload) = split_udh(&[5, 0, 3, 7, 2, 1, b'a']);
        assert_eq!(concat, Some(Concat { reference: 7, total: 2, seq: 1 }));
        assert_eq!(payload, b"a");
        let (concat, payload) = split_udh(&[6, 8, 4, 1, 2, 3, 1, b'b']);
        assert_eq!(concat, Some(Concat { reference: 0x0102, total: 3, seq: 1 }));
        assert_eq!(payload, b"b");
        assert_eq!(split_udh(&[9, 1]), (None, &[9u8, 1][..]));
    }
}
