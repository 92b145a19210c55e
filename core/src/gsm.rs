//! The GSM 03.38 default alphabet: which characters an SMS can carry in 7-bit encoding.

/// Characters of the basic table, each costing one septet.
/// (The escape code 0x1B is not a character a user can type, so it is left out.)
const BASIC: &str = "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?\
¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";

/// Characters of the extension table, each sent as an escape pair (two septets).
const EXTENSION: &str = "\u{0C}^{}\\[~]|€";

/// The number of septets `c` takes in GSM 7-bit encoding, or `None` when it has no
/// GSM representation (and so forces the whole message to UCS-2).
pub(crate) fn septets(c: char) -> Option<usize> {
    if BASIC.contains(c) {
        Some(1)
    } else if EXTENSION.contains(c) {
        Some(2)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::septets;

    #[test]
    fn the_tables_are_disjoint_and_complete() {
        // 128 code points minus the escape code, plus the 10 extension characters.
        assert_eq!(super::BASIC.chars().count(), 127);
        assert_eq!(super::EXTENSION.chars().count(), 10);
        assert!(super::BASIC.chars().all(|c| !super::EXTENSION.contains(c)));
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
}
