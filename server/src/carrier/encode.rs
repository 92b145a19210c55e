//! What goes on the wire for one message: the parts of core's split, each a submit_sm
//! (GSM 03.38 with data_coding 0 or UCS-2 with data_coding 8; a UDH and esm_class 0x40 when
//! there are several), asking for a delivery receipt.

use std::str::FromStr;

use rusmpp::{
    pdus::SubmitSm,
    types::{COctetString, EmptyOrFullCOctetString, OctetString},
    values::{DataCoding, EsmClass, Npi, RegisteredDelivery, Ton},
};

use super::Outgoing;
use crate::carrier::sms_text;

/// esm_class: the short message starts with a user data header.
const UDHI: u8 = 0x40;

/// The submit_sm of each part of `sms`, in order; an error when the text or an address cannot
/// be put in a PDU (core refuses such campaigns before they get here).
pub(super) fn submits(sms: &Outgoing) -> Result<Vec<SubmitSm>, String> {
    let (source_ton, source_npi) = if sms.source.bytes().all(|b| b.is_ascii_digit()) {
        (Ton::International, Npi::Isdn)
    } else {
        (Ton::Alphanumeric, Npi::Unknown)
    };
    let source = COctetString::from_str(&sms.source).map_err(|e| format!("sender {:?}: {e}", sms.source))?;
    let destination =
        COctetString::from_str(&sms.destination).map_err(|e| format!("destination {:?}: {e}", sms.destination))?;
    let validity_period = match sms.validity {
        Some(validity) => EmptyOrFullCOctetString::from_str(&validity.smpp_relative())
            .map_err(|e| format!("validity {validity:?}: {e}"))?,
        None => EmptyOrFullCOctetString::default(),
    };
    sms_text::wire_parts(&sms.text, sms.unicode, sms.reference)?
        .into_iter()
        .enumerate()
        .map(|(index, part)| {
            let esm_class = if part.with_header { UDHI } else { 0 };
            let short_message = OctetString::from_vec(part.bytes).map_err(|e| format!("part {}: {e}", index + 1))?;
            Ok(SubmitSm::builder()
                .source_addr_ton(source_ton)
                .source_addr_npi(source_npi)
                .source_addr(source.clone())
                .dest_addr_ton(Ton::International)
                .dest_addr_npi(Npi::Isdn)
                .destination_addr(destination.clone())
                .esm_class(EsmClass::from(esm_class))
                .registered_delivery(RegisteredDelivery::from(1))
                .validity_period(validity_period.clone())
                .data_coding(DataCoding::from(part.data_coding))
                .short_message(short_message)
                .build())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sms(source: &str, text: &str) -> Outgoing {
        Outgoing {
            source: source.into(),
            destination: "33612345678".into(),
            text: text.into(),
            unicode: false,
            validity: None,
            reference: 7,
        }
    }

    #[test]
    fn a_short_gsm_text_is_one_plain_part() {
        let parts = submits(&sms("Shop", "Soldes €")).expect("parts");
        assert_eq!(parts.len(), 1);
        let part = &parts[0];
        assert_eq!((part.source_addr_ton, part.source_addr_npi), (Ton::Alphanumeric, Npi::Unknown));
        assert_eq!(u8::from(part.data_coding), 0);
        assert_eq!(u8::from(part.esm_class), 0);
        assert_eq!(u8::from(part.registered_delivery), 1);
        assert_eq!(texto_core::decode_gsm(part.short_message().as_ref()), "Soldes €");
        assert!(part.validity_period.as_ref().iter().all(|b| *b == 0), "the SMSC's default validity");
    }

    #[test]
    fn a_validity_goes_as_a_relative_time() {
        let validity = texto_core::Validity::from_minutes(90).expect("in bounds");
        let parts = submits(&Outgoing { validity: Some(validity), ..sms("Shop", "Soldes") }).expect("parts");
        assert_eq!(parts[0].validity_period.as_ref(), b"000000013000000R\0");
    }

    #[test]
    fn a_long_ucs2_text_is_concatenated_with_a_udh() {
        let text = "ç".repeat(100);
        let parts = submits(&sms("36180", &text)).expect("parts");
        assert_eq!(parts.len(), 2);
        assert_eq!((parts[0].source_addr_ton, parts[0].source_addr_npi), (Ton::International, Npi::Isdn));
        let mut joined = String::new();
        for (n, part) in parts.iter().enumerate() {
            assert_eq!(u8::from(part.data_coding), 8);
            assert_eq!(u8::from(part.esm_class), UDHI);
            let (concat, payload) = sms_text::split_udh(part.short_message().as_ref());
            let concat = concat.expect("a concatenation header");
            assert_eq!((concat.reference, concat.total, concat.seq), (7, 2, n as u8 + 1));
            joined.push_str(&texto_core::decode_ucs2(payload));
        }
        assert_eq!(joined, text);
    }
}
