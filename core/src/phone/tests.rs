use super::*;

fn ok(input: &str) -> (u64, &'static str) {
    let m = parse_international(input).unwrap_or_else(|e| panic!("{input}: {e}"));
    (m.as_u64(), m.country().iso2())
}

fn err(input: &str) -> NumberError {
    match parse_international(input) {
        Ok(m) => panic!("{input} accepted as {m} ({})", m.country()),
        Err(e) => e,
    }
}

#[test]
fn reference_examples_valid() {
    for input in [
        "33612345678",
        "+33 6 12 34 56 78",
        "0033612345678",
        "(+33) 6.12.34.56.78",
        "+33-6-12-34-56-78",
        "[+33] 612 345 678",
        "+33\u{a0}6\u{a0}12\u{202f}34 56 78",
    ] {
        assert_eq!(ok(input), (33612345678, "FR"), "{input}");
    }
    assert_eq!(ok("447400123456"), (447400123456, "GB"));
    assert_eq!(ok("4915112345678"), (4915112345678, "DE"));
}

#[test]
fn reference_examples_invalid() {
    assert_eq!(err("0612345678"), NumberError::NationalFormat);
    assert_eq!(err("33123456789"), NumberError::NotMobile);
    assert_eq!(err("3361234567"), NumberError::InvalidLength);
    assert_eq!(err("336123456789"), NumberError::InvalidLength);
    assert_eq!(err("abc"), NumberError::InvalidCharacter);
    assert_eq!(err(""), NumberError::Empty);
    assert_eq!(err("  "), NumberError::Empty);
    assert_eq!(err("999612345678"), NumberError::UnknownCallingCode);
    assert_eq!(err("33"), NumberError::InvalidLength);
    assert_eq!(err("3"), NumberError::InvalidLength);
    assert_eq!(err("+"), NumberError::Empty);
    assert_eq!(err("33 6 12 34 56 78+"), NumberError::InvalidCharacter);
    assert_eq!(err("++33612345678"), NumberError::InvalidCharacter);
    assert_eq!(err("33612345678x"), NumberError::InvalidCharacter);
    assert_eq!(err("33 6 12 34 56 78 €"), NumberError::InvalidCharacter);
    assert_eq!(err("1234567890123456789012345"), NumberError::InvalidLength);
    assert_eq!(err("18446744073709551615"), NumberError::InvalidLength);
}

#[test]
fn france_mobile_ranges_only() {
    assert_eq!(ok("33753123456").1, "FR"); // 7[3-9]
    assert_eq!(ok("33799123456").1, "FR");
    assert_eq!(err("33712345678"), NumberError::NotMobile); // 71x not yet allocated
    assert_eq!(ok("33699123456").1, "FR"); // 69[589]
    assert_eq!(err("33700123456"), NumberError::NotMobile); // 70x is not allocated to mobiles
    for fixed in ["33123456789", "33212345678", "33412345678", "33512345678", "33912345678"] {
        assert_eq!(err(fixed), NumberError::NotMobile, "{fixed}");
    }
    assert_eq!(err("33812345678"), NumberError::NotMobile);
}

#[test]
fn countries() {
    let cases = [
        ("32470123456", "BE"),
        ("41781234567", "CH"),
        ("4915112345678", "DE"),
        ("491701234567", "DE"),
        ("34612345678", "ES"),
        ("34712345678", "ES"),
        ("393123456789", "IT"),
        ("447912345678", "GB"),
        ("447911123456", "GG"),
        ("447924123456", "IM"), // a Manx block inside a range libphonenumber also gives GB,
        ("12015550123", "US"),
        ("14165550123", "CA"),
        ("16042345678", "CA"),
        ("212612345678", "MA"),
        ("212712345678", "MA"),
        ("262692123456", "RE"),
        ("262639012345", "YT"),
        ("590690123456", "GP"),
        ("596696123456", "MQ"),
        ("594694123456", "GF"),
        ("687751234", "NC"),
        ("352621123456", "LU"),
        ("31612345678", "NL"),
        ("351912345678", "PT"),
        ("436641234567", "AT"),
        ("79123456789", "RU"),
        ("77012345678", "KZ"),
        ("447781123456", "GG"),
        ("447400123456", "GB"),
        ("61412345678", "AU"),
        ("213551234567", "DZ"),
        ("21620123456", "TN"),
        ("221771234567", "SN"),
        ("8613812345678", "CN"),
    ];
    for (input, iso2) in cases {
        let (n, c) = ok(input);
        assert_eq!(n.to_string(), input);
        assert_eq!(c, iso2, "{input}");
    }
    // Fixed lines and wrong lengths of the same countries.
    for bad in ["3221234567", "41212345678", "49301234567", "34912345678", "390612345678", "441632960000"] {
        assert!(parse_international(bad).is_err(), "{bad}");
    }
    assert_eq!(err("3247012345"), NumberError::InvalidLength);
    assert_eq!(err("1201555012"), NumberError::InvalidLength);
}

#[test]
fn country_metadata() {
    let fr = parse_international("33612345678").map(Msisdn::country);
    assert_eq!(fr.map(|c| (c.iso2(), c.calling_code(), c.national_prefix())), Ok(("FR", 33, "0")));
    let re = Country::from_iso2("re").map(|c| (c.iso2(), c.calling_code()));
    assert_eq!(re, Some(("RE", 262)));
    assert_eq!(Country::from_iso2("US").map(Country::national_prefix), Some("1"));
    assert_eq!(Country::from_iso2("IT").map(Country::national_prefix), Some(""));
    assert_eq!(Country::from_iso2("ZZ"), None);
    assert_eq!(Country::from_iso2("FRA"), None);
    assert_eq!(Country::from_iso2("é"), None);
    assert!(Country::all().count() > 200);
    assert!(Country::all().all(|c| Country::from_iso2(c.iso2()) == Some(c)));
    assert!(!NUMBERING_DATA_VERSION.is_empty());
}

#[test]
fn default_country_national_prefix() {
    let fr = |s| parse_with_default_country(s, "FR").map(Msisdn::as_u64);
    assert_eq!(fr("06 12 34 56 78"), Ok(33612345678));
    assert_eq!(fr("07.53.12.34.56"), Ok(33753123456));
    assert_eq!(fr("612345678"), Ok(33612345678)); // leading 0 lost in a spreadsheet
    assert_eq!(fr("+33 6 12 34 56 78"), Ok(33612345678));
    assert_eq!(fr("0033612345678"), Ok(33612345678));
    assert_eq!(fr("33612345678"), Ok(33612345678));
    assert_eq!(fr("447400123456"), Ok(447400123456));
    assert_eq!(fr("+32 470 12 34 56"), Ok(32470123456));
    assert_eq!(fr("01 23 45 67 89"), Err(NumberError::NotMobile));
    assert_eq!(fr("06 12 34 56 7"), Err(NumberError::InvalidLength));
    assert_eq!(fr("0"), Err(NumberError::Empty));
    assert_eq!(fr(""), Err(NumberError::Empty));
    assert_eq!(fr("+0612345678"), Err(NumberError::NationalFormat));

    let d = parse_with_default_country;
    assert_eq!(d("0692 12 34 56", "RE").map(Msisdn::as_u64), Ok(262692123456));
    assert_eq!(d("0639 01 23 45", "re").map(|m| m.country().iso2()), Ok("YT"));
    assert_eq!(d("07400 123456", "GB").map(Msisdn::as_u64), Ok(447400123456));
    assert_eq!(d("0151 12345678", "DE").map(Msisdn::as_u64), Ok(4915112345678));
    assert_eq!(d("0470 12 34 56", "BE").map(Msisdn::as_u64), Ok(32470123456));
    assert_eq!(d("078 123 45 67", "CH").map(Msisdn::as_u64), Ok(41781234567));
    assert_eq!(d("0612-345678", "MA").map(Msisdn::as_u64), Ok(212612345678));
    assert_eq!(d("612 34 56 78", "ES").map(Msisdn::as_u64), Ok(34612345678));
    assert_eq!(d("312 345 6789", "IT").map(Msisdn::as_u64), Ok(393123456789));
    assert_eq!(d("(201) 555-0123", "US").map(Msisdn::as_u64), Ok(12015550123));
    assert_eq!(d("1 (416) 555-0123", "CA").map(|m| m.country().iso2()), Ok("CA"));
    assert_eq!(d("0612345678", "XX"), Err(NumberError::UnknownCountry));
}

#[test]
fn msisdn_value_semantics() {
    let a = parse_international("33612345678").expect("valid");
    let b = parse_international("+33 6 12 34 56 78").expect("valid");
    let c = parse_international("447400123456").expect("valid");
    assert_eq!(a, b);
    assert!(a < c);
    assert_eq!(a.to_string(), "33612345678");
    assert_eq!(format!("{a:?}"), "Msisdn(33612345678)");
    assert_eq!(Msisdn::from_u64(33612345678), Ok(a));
    assert_eq!(Msisdn::from_u64(0), Err(NumberError::Empty));
    assert_eq!(Msisdn::from_u64(u64::MAX), Err(NumberError::InvalidLength));
    assert_eq!("33612345678".parse::<Msisdn>(), Ok(a));
    assert_eq!(std::mem::size_of::<Option<Msisdn>>(), 8);
    let e: Box<dyn std::error::Error> = Box::new(NumberError::NotMobile);
    assert_eq!(e.to_string(), "the phone number is not a mobile number of its country");
}

#[test]
fn does_not_panic_on_odd_input() {
    for input in ["+", "00", "000", "(", "+()", "0033", "++", "\u{0}", "١٢٣", "+33 6 12 34 56 78 9 0 1 2 3"] {
        let _ = parse_international(input);
        let _ = parse_with_default_country(input, "FR");
    }
}

#[test]
fn bracketed_trunk_prefix_after_calling_code() {
    for input in [
        "+33 (0)6.12.34.56.78",
        "+33 (0)6 12 34 56 78",
        "+33(0)612345678",
        "0033 (0)6 12 34 56 78",
        "00 33 [0] 6 12 34 56 78",
        "33(0)612345678",
        "33 ( 0 ) 6 12 34 56 78",
        "+33\u{a0}(0)6\u{a0}12 34 56 78",
    ] {
        assert_eq!(ok(input), (33612345678, "FR"), "{input}");
    }
    // Another country whose trunk prefix is 0.
    assert_eq!(ok("+44 (0)7400 123456"), (447400123456, "GB"));
    assert_eq!(ok("0044 (0)7911 123456"), (447911123456, "GG"));
    assert_eq!(ok("49 (0)151 12345678"), (4915112345678, "DE"));
    // Italy has no trunk prefix and +7 dials 8: their bracketed 0 stays a digit.
    assert_eq!(ok("+39 312 345 6789"), (393123456789, "IT"));
    assert_eq!(err("+39 (0)312 345 6789"), NumberError::NotMobile);
    assert_eq!(ok("+7 912 345 6789"), (79123456789, "RU"));
    assert_eq!(err("+7 (0)912 345 6789"), NumberError::NotMobile);
    // A bare national number is still not international, bracketed or not.
    assert_eq!(err("(0)6 12 34 56 78"), NumberError::NationalFormat);
    assert_eq!(err("00 (0)6 12 34 56 78"), NumberError::NationalFormat);
    assert_eq!(err("+(0)6 12 34 56 78"), NumberError::NationalFormat);
    // Only a lone 0 right after the calling code: elsewhere it is a digit.
    assert_eq!(err("+33 6 (0)12 34 56 78"), NumberError::InvalidLength);
    assert_eq!(err("+33 (06) 12 34 56 78"), NumberError::NotMobile);
    assert_eq!(err("+33 (00)6 12 34 56 78"), NumberError::NotMobile);
    assert_eq!(err("+336 (0)12 34 56 78"), NumberError::InvalidLength);
}

#[test]
fn bracketed_trunk_prefix_with_default_country() {
    let fr = |s| parse_with_default_country(s, "FR").map(Msisdn::as_u64);
    assert_eq!(fr("+33 (0)6.12.34.56.78"), Ok(33612345678));
    assert_eq!(fr("0033 (0)6 12 34 56 78"), Ok(33612345678));
    assert_eq!(fr("33(0)612345678"), Ok(33612345678));
    assert_eq!(fr("+44 (0)7400 123456"), Ok(447400123456));
    assert_eq!(fr("44 (0)7400 123456"), Ok(447400123456));
    // A national number with its prefix in brackets is still national.
    assert_eq!(fr("(0)6 12 34 56 78"), Ok(33612345678));
    assert_eq!(fr("(0)1 23 45 67 89"), Err(NumberError::NotMobile));
    let gb = |s| parse_with_default_country(s, "GB").map(Msisdn::as_u64);
    assert_eq!(gb("+44 (0)7400 123456"), Ok(447400123456));
    assert_eq!(gb("(0)7400 123456"), Ok(447400123456));
    assert_eq!(gb("+33 (0)6 12 34 56 78"), Ok(33612345678));
}

#[test]
fn bare_digits_read_as_the_same_digits_written_with_separators() {
    // Bare digits are validated as they stand; with a separator they go through the general
    // reading. Every length up to past the longest input, every leading digit (`0`, `00`),
    // and digits that walk deep into several countries' plans.
    let mut state = 0x5eed_u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let prefixes = ["", "0", "00", "33", "336", "337", "1", "44", "447", "49", "262", "590", "7", "86"];
    for round in 0..20_000 {
        let prefix = prefixes[round % prefixes.len()];
        let length = (next() % 20) as usize;
        let digits: String =
            prefix.chars().chain((0..length).map(|_| char::from(b'0' + (next() % 10) as u8))).collect();
        let spaced = format!("{digits} ");
        assert_eq!(parse_international(&digits), parse_international(&spaced), "{digits:?}");
        assert_eq!(parse_international(&digits), parse_international(&format!("+{digits}")), "+{digits}");
    }
}
