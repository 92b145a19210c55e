//! Phone numbers: normalisation to international digits and mobile validity (docs/interface.md §3.1).
//!
//! Validity comes from Google libphonenumber's numbering plans (via the npm package
//! `libphonenumber-js`, see `core/data/generate_numbering.mjs`): a number is valid when it
//! falls in a mobile range of its country (or a fixed-line-or-mobile range where a plan does not
//! tell them apart, as on +1) with one of the lengths the plan allows for it.

mod data;
mod numbering_data;

use std::fmt;
use std::num::NonZeroU64;
use std::str::FromStr;

use data::{MAX_DIGITS, NO_COUNTRY, table};

/// The libphonenumber-js version the numbering-plan data was generated from.
pub const NUMBERING_DATA_VERSION: &str = numbering_data::SOURCE_VERSION;

/// Bits of the packed [`Msisdn`] that hold the country index (below the digits).
const COUNTRY_BITS: u32 = 14;
/// Digits kept from an input before stripping `00`: 15 (E.164) + 2.
const MAX_INPUT_DIGITS: usize = MAX_DIGITS + 2;

/// A validated international mobile number (MSISDN), e.g. `33612345678`.
///
/// Eight bytes: the number and its country, packed. Ordering is numeric; `Display` writes the
/// international digits without `+`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Msisdn(NonZeroU64);

impl Msisdn {
    /// The international digits as an integer (`33612345678`).
    #[inline]
    pub fn as_u64(self) -> u64 {
        self.0.get() >> COUNTRY_BITS
    }

    /// Whether `other` is a number of the same country (cheaper than comparing [`Msisdn::country`]).
    #[inline]
    pub fn same_country(self, other: Msisdn) -> bool {
        let mask = (1 << COUNTRY_BITS) - 1;
        self.0.get() & mask == other.0.get() & mask
    }

    /// The country whose mobile ranges hold this number (for a shared calling code such as
    /// +1 or +44, the one that owns the range: `CA`, `GG`…).
    pub fn country(self) -> Country {
        let index = (self.0.get() & ((1 << COUNTRY_BITS) - 1)) as usize;
        Country::from_info(&table().countries[index])
    }

    /// Validates an international number given as an integer (`33612345678`), e.g. one read
    /// back from storage.
    pub fn from_u64(number: u64) -> Result<Msisdn, NumberError> {
        let mut buf = [0u8; 20];
        let mut n = number;
        let mut len = 0;
        while n > 0 {
            buf[len] = b'0' + (n % 10) as u8;
            n /= 10;
            len += 1;
        }
        if len == 0 {
            return Err(NumberError::Empty);
        }
        buf[..len].reverse();
        validate(&buf[..len])
    }
}

impl fmt::Display for Msisdn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.as_u64(), f)
    }
}

impl fmt::Debug for Msisdn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Msisdn({})", self.as_u64())
    }
}

impl FromStr for Msisdn {
    type Err = NumberError;

    /// Same as [`parse_international`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_international(s)
    }
}

/// A country (or territory) of the numbering-plan data.
#[derive(Clone, Copy, Debug)]
pub struct Country {
    iso2: &'static str,
    calling_code: u16,
    national_prefix: &'static str,
}

/// A country is told by its ISO code, compared as two bytes (the filter compares each
/// recipient's country with the last one's; a string comparison calls `memcmp`).
impl PartialEq for Country {
    fn eq(&self, other: &Country) -> bool {
        self.iso2.as_bytes().first_chunk::<2>() == other.iso2.as_bytes().first_chunk::<2>()
    }
}

impl Eq for Country {}

impl std::hash::Hash for Country {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.iso2.hash(state);
    }
}

impl Country {
    fn from_info(info: &data::CountryInfo) -> Country {
        Country { iso2: info.iso2, calling_code: info.calling_code, national_prefix: info.national_prefix }
    }

    /// ISO 3166-1 alpha-2 code in capitals (`FR`, `RE`, `GB`).
    pub fn iso2(self) -> &'static str {
        self.iso2
    }

    /// International calling code (`33` for France).
    pub fn calling_code(self) -> u16 {
        self.calling_code
    }

    /// National (trunk) prefix dialled before national numbers (`0` in France, `1` on +1,
    /// empty in Italy).
    pub fn national_prefix(self) -> &'static str {
        self.national_prefix
    }

    /// Looks up a country by ISO alpha-2 code, in any case.
    pub fn from_iso2(code: &str) -> Option<Country> {
        let t = table();
        t.country_index(code).map(|i| Country::from_info(&t.countries[i]))
    }

    /// Every country of the data, by calling code.
    pub fn all() -> impl Iterator<Item = Country> {
        table().countries.iter().map(Country::from_info)
    }
}

impl fmt::Display for Country {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.iso2)
    }
}

/// Why a phone number was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NumberError {
    /// There are no digits at all.
    Empty,
    /// A character other than digits, spaces, dots, dashes, brackets and a leading `+`.
    InvalidCharacter,
    /// A national number (leading `0`) where an international one is required.
    NationalFormat,
    /// The number starts with no known country calling code.
    UnknownCallingCode,
    /// The number is too short or too long for its country.
    InvalidLength,
    /// The number is not in a mobile range of its country.
    NotMobile,
    /// The default country given for national numbers is not a known ISO code.
    UnknownCountry,
}

impl fmt::Display for NumberError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NumberError::Empty => "the phone number is empty",
            NumberError::InvalidCharacter => {
                "the phone number may only hold digits, spaces, dots, dashes, brackets and a leading +"
            }
            NumberError::NationalFormat => {
                "the phone number is in national format: write it with its country code, e.g. 33612345678"
            }
            NumberError::UnknownCallingCode => "the phone number does not start with a known country calling code",
            NumberError::InvalidLength => "the phone number is too short or too long for its country",
            NumberError::NotMobile => "the phone number is not a mobile number of its country",
            NumberError::UnknownCountry => "unknown country code",
        })
    }
}

impl std::error::Error for NumberError {}

/// Parses an international number (docs/interface.md §3.1): spaces, dots, dashes, brackets and a
/// leading `+` or `00` are stripped, then the digits must be a mobile number of a known country
/// with an allowed length. National numbers (`0612345678`) are refused.
///
/// `"+33 6 12 34 56 78"`, `"0033612345678"` and `"33612345678"` all give `33612345678`, as
/// does `"+33 (0)6 12 34 56 78"` (a bracketed trunk prefix after the calling code is dropped).
#[inline]
pub fn parse_international(input: &str) -> Result<Msisdn, NumberError> {
    // Bare digits, as most inputs are, are the number as they stand unless a `00` leads them
    // or they are too many to collect.
    let bytes = input.as_bytes();
    if bytes.len() <= MAX_INPUT_DIGITS && bytes.iter().all(u8::is_ascii_digit) && !matches!(bytes, [b'0', b'0', ..]) {
        return validate(bytes);
    }
    let mut buf = [0; MAX_INPUT_DIGITS];
    let (digits, _) = collect(input, &mut buf)?;
    validate(digits)
}

/// Parses a number of an import where national numbers belong to `default_iso2` (`"FR"`).
///
/// - With `+` or `00` the number is international.
/// - Starting with the country's national prefix (`0` in France), the prefix is replaced by the
///   calling code: `06 12 34 56 78` → `33612345678`.
/// - Otherwise the digits are tried as an international number (`33612345678`), then as a
///   national number whose prefix was dropped (`612345678`, as spreadsheets do).
pub fn parse_with_default_country(input: &str, default_iso2: &str) -> Result<Msisdn, NumberError> {
    let t = table();
    let country = &t.countries[t.country_index(default_iso2).ok_or(NumberError::UnknownCountry)?];
    let mut buf = [0; MAX_INPUT_DIGITS];
    let (digits, international) = collect(input, &mut buf)?;
    if international {
        return validate(digits);
    }
    let prefix = country.national_prefix.as_bytes();
    let has_prefix =
        !prefix.is_empty() && digits.len() >= prefix.len() && digits.iter().zip(prefix).all(|(&d, &p)| d == p);
    if has_prefix {
        return validate_national(country.calling_code, &digits[prefix.len()..]);
    }
    validate(digits).or_else(|_| validate_national(country.calling_code, digits))
}

/// Validates calling code + national significant number.
fn validate_national(calling_code: u16, national: &[u8]) -> Result<Msisdn, NumberError> {
    if national.is_empty() {
        return Err(NumberError::Empty);
    }
    let mut buf = [0u8; MAX_DIGITS + 1];
    let cc = calling_code.to_string();
    let len = cc.len() + national.len();
    if len > buf.len() {
        return Err(NumberError::InvalidLength);
    }
    buf[..cc.len()].copy_from_slice(cc.as_bytes());
    buf[cc.len()..len].copy_from_slice(national);
    validate(&buf[..len])
}

/// Digits of an input (ASCII `0`–`9`), before stripping a leading `00`.
type DigitBuf = [u8; MAX_INPUT_DIGITS];

/// Collects the digits of `input` into `buf`; returns the digits with `+` and `00` stripped
/// and whether the input was written internationally (with one of them).
///
/// A bracketed national (trunk) prefix right after the calling code is dropped, as
/// libphonenumber does: `+33 (0)6 12 34 56 78`, `0033 (0)6…` and `33(0)612…` give
/// `33612345678`. Only a `(0)` (or `[0]`) after a whole calling code whose country dials `0`
/// as its trunk prefix counts; anywhere else the `0` stays a digit of the number.
#[inline(always)]
fn collect<'a>(input: &str, buf: &'a mut DigitBuf) -> Result<(&'a [u8], bool), NumberError> {
    let mut len = 0;
    let mut plus = false;
    // Digits before the open bracket, and where the first bracketed lone `0` is.
    let (mut open, mut trunk) = (None, None);
    for &b in input.as_bytes() {
        match b {
            b'0'..=b'9' => {
                let Some(slot) = buf.get_mut(len) else {
                    return Err(NumberError::InvalidLength);
                };
                *slot = b;
                len += 1;
            }
            b' ' | b'\t' | b'.' | b'-' => {}
            b'(' | b'[' => open = Some(len),
            b')' | b']' => {
                if trunk.is_none() && open.is_some_and(|at| len == at + 1 && buf[at] == b'0') {
                    trunk = open;
                }
                open = None;
            }
            b'+' if len == 0 && !plus => plus = true,
            0x80.. => return collect_unicode(input, buf),
            _ => return Err(NumberError::InvalidCharacter),
        }
    }
    let (skip, international) = match buf[..len] {
        [b'0', b'0', ..] => (2, true),
        _ => (0, plus),
    };
    if let Some(at) = trunk.filter(|&at| at > skip && zero_trunk_prefix(&buf[skip..at])) {
        buf.copy_within(at + 1..len, at);
        len -= 1;
    }
    Ok((&buf[skip..len], international))
}

/// Whether `calling_code` is a whole calling code whose main country dials `0` as its national
/// (trunk) prefix (`33`, `44`; not `39`, which keeps its `0`, nor `1`).
#[cold]
fn zero_trunk_prefix(calling_code: &[u8]) -> bool {
    if !(1..=3).contains(&calling_code.len()) || calling_code[0] == b'0' {
        return false;
    }
    let code = calling_code.iter().fold(0u16, |v, &d| v * 10 + u16::from(d - b'0'));
    // Each calling code's main country comes first in the table.
    table().countries.iter().find(|c| c.calling_code == code).is_some_and(|c| c.national_prefix == "0")
}

/// The slow path for inputs with non-ASCII characters: any Unicode space (no-break spaces
/// from spreadsheets) and dash also separate digits.
#[cold]
fn collect_unicode<'a>(input: &str, buf: &'a mut DigitBuf) -> Result<(&'a [u8], bool), NumberError> {
    let mut ascii = String::with_capacity(input.len());
    for ch in input.chars() {
        match ch {
            _ if ch.is_ascii() => ascii.push(ch),
            _ if ch.is_whitespace() || ch == '\u{202F}' || ch == '\u{2060}' => {}
            '\u{2010}'..='\u{2015}' | '\u{2212}' => {}
            _ => return Err(NumberError::InvalidCharacter),
        }
    }
    if !ascii.is_ascii() {
        return Err(NumberError::InvalidCharacter);
    }
    collect(&ascii, buf)
}

/// Looks international digits (ASCII `0`–`9`) up in the numbering plans.
#[inline]
fn validate(digits: &[u8]) -> Result<Msisdn, NumberError> {
    let Some(&first) = digits.first() else {
        return Err(NumberError::Empty);
    };
    if first == b'0' {
        return Err(NumberError::NationalFormat);
    }
    if digits.len() > MAX_DIGITS {
        return Err(NumberError::InvalidLength);
    }
    let t = table();
    let Some(mut node) = t.nodes.first() else {
        return Err(NumberError::UnknownCallingCode);
    };
    let bit = 1u32 << digits.len();
    let (mut found, mut cc_seen, mut range_seen, mut ended) = (NO_COUNTRY, false, false, false);
    for &d in digits {
        let Some(next) = t.child(node, d - b'0') else {
            ended = true;
            break;
        };
        node = next;
        cc_seen |= node.is_calling_code();
        let country = node.country();
        if country != NO_COUNTRY {
            range_seen = true;
            // The deepest matching range wins: a territory's block inside a shared plan.
            if node.mask & bit != 0 {
                found = country;
            }
        }
    }
    if found != NO_COUNTRY {
        let value = digits.iter().fold(0u64, |v, &d| v * 10 + u64::from(d - b'0'));
        return NonZeroU64::new((value << COUNTRY_BITS) | u64::from(found)).map(Msisdn).ok_or(NumberError::Empty);
    }
    Err(if !cc_seen {
        if ended { NumberError::UnknownCallingCode } else { NumberError::InvalidLength }
    } else if range_seen || !ended {
        // A range of the wrong length, or digits that stop before any range is told apart.
        NumberError::InvalidLength
    } else {
        NumberError::NotMobile
    })
}

#[cfg(test)]
mod tests;
