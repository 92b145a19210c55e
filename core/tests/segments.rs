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
