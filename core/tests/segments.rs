//! Native run of the SMS length cases.

mod segment_cases;

use texto_core::segments;

#[test]
fn every_case_splits_as_the_reference_says() {
    let cases = segment_cases::cases();
    assert!(cases.len() >= 30);
    for case in cases {
        let got = segments(&case.text, case.unicode);
        let expected_chars: Vec<char> = case.unicode_chars.chars().collect();
        assert_eq!(
            (got.encoding, got.length, got.parts, got.per_part, got.remaining, got.unicode_chars),
            (case.encoding, case.length, case.parts, case.per_part, case.remaining, expected_chars),
            "case {:?}",
            case.name
        );
    }
}

#[test]
fn split_gives_the_parts_that_were_counted() {
    use texto_core::{Encoding, split};
    let long = "a".repeat(200);
    let (encoding, parts) = split(&long, false);
    assert_eq!(encoding, Encoding::Gsm7);
    assert_eq!(parts.iter().map(|p| p.len()).collect::<Vec<_>>(), [153, 47]);
    // An escape pair is never cut: 152 letters then `€` (2 septets) does not fit in part one.
    let euro = format!("{}€{}", "a".repeat(152), "b".repeat(10));
    let (_, parts) = split(&euro, false);
    assert_eq!(parts[0], "a".repeat(152));
    assert!(parts[1].starts_with('€'));
    assert_eq!(split("", false).1.len(), 0);
    assert_eq!(split("Salut", false).1, ["Salut"]);
    let ucs2 = "ç".repeat(71);
    let (encoding, parts) = split(&ucs2, false);
    assert_eq!(encoding, Encoding::Ucs2);
    assert_eq!(parts.iter().map(|p| p.chars().count()).collect::<Vec<_>>(), [67, 4]);
}

/// proptest is a native-only dev-dependency (this file also runs in the browser).
#[cfg(not(target_arch = "wasm32"))]
mod split_properties {
    proptest::proptest! {
        #[test]
        fn split_parts_join_back_and_match_the_count(text in "[a-zé€çœ😀 ]{0,700}", unicode: bool) {
            let (encoding, parts) = texto_core::split(&text, unicode);
            let counted = texto_core::segments(&text, unicode);
            proptest::prop_assert_eq!(encoding, counted.encoding);
            proptest::prop_assert_eq!(parts.len(), counted.parts);
            proptest::prop_assert_eq!(parts.concat(), text);
        }
    }
}
