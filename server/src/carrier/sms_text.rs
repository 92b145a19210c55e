//! Concatenated short messages: the user data header that numbers a message's parts. (Their
//! text is GSM 03.38 or UCS-2: `texto_core::encode_gsm` and its kin, beside the table that
//! counts a message's length.)

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

/// One part of a message as it goes on the wire: its data_coding (0 GSM 03.38, 8 UCS-2) and
/// its bytes, which start with the concatenation header when the message has several parts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WirePart {
    /// 0 or 8.
    pub data_coding: u8,
    /// The short message.
    pub bytes: Vec<u8>,
    /// Whether `bytes` starts with a user data header (esm_class 0x40).
    pub with_header: bool,
}

/// The parts of `text` as core splits it (UCS-2 when `unicode` or when GSM 03.38 cannot hold
/// it), each encoded, numbered with `reference` when there are several.
pub fn wire_parts(text: &str, unicode: bool, reference: u8) -> Result<Vec<WirePart>, String> {
    let (encoding, parts) = texto_core::split(text, unicode);
    let total = u8::try_from(parts.len()).map_err(|_| format!("{} parts: too many", parts.len()))?;
    parts
        .iter()
        .enumerate()
        .map(|(index, part)| {
            let (data_coding, mut bytes) = match encoding {
                texto_core::Encoding::Gsm7 => {
                    (0u8, texto_core::encode_gsm(part).ok_or("a character outside GSM 03.38")?)
                }
                texto_core::Encoding::Ucs2 => (8u8, texto_core::encode_ucs2(part)),
            };
            if total > 1 {
                let mut with_header = concat_udh(reference, total, index as u8 + 1).to_vec();
                with_header.append(&mut bytes);
                bytes = with_header;
            }
            Ok(WirePart { data_coding, bytes, with_header: total > 1 })
        })
        .collect()
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
