//! Webhook signatures (docs/interface.md §7.6): how texto signs each event it POSTs to a webhook that has a
//! secret, and the verifier a receiver runs on what it gets.
//!
//! Every signed request carries [`TIMESTAMP_HEADER`] (unix seconds) and [`SIGNATURE_HEADER`]
//! (`v1=<lowercase hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>`). While a secret is being
//! rotated the signature header may hold several comma-separated `v1=` entries; one matching entry
//! is enough. [`EVENT_HEADER`] names the event type and [`DELIVERY_HEADER`] is a unique id per
//! delivery so receivers can drop duplicates (a retry keeps its delivery id).
//!
//! Verify the **raw** body bytes, before any JSON parsing or re-encoding, and pass the current
//! time yourself (this crate has no clock):
//!
//! ```
//! use texto_core::{SignatureError, sign, verify};
//!
//! let secret = "whsec_from_the_webhook_settings";
//! // What arrived: the raw body and the two headers (normally taken from the HTTP request;
//! // `sign` stands in for texto here).
//! let body = br#"{"status":"delivered","destination":"+33612345678"}"#;
//! let timestamp_header = "1700000000";
//! let signature_header = sign(secret, 1_700_000_000, body);
//!
//! // The receiver's clock, e.g. SystemTime::now() since UNIX_EPOCH, in seconds.
//! let now = 1_700_000_042;
//! // Accept requests signed at most five minutes away from `now`.
//! verify(secret, timestamp_header, &signature_header, body, now, 300)?;
//!
//! // A modified body, or a request replayed an hour later, is refused.
//! let tampered = br#"{"status":"delivered","destination":"+33600000000"}"#;
//! assert_eq!(
//!     verify(secret, timestamp_header, &signature_header, tampered, now, 300),
//!     Err(SignatureError::Mismatch)
//! );
//! assert_eq!(
//!     verify(secret, timestamp_header, &signature_header, body, now + 3600, 300),
//!     Err(SignatureError::Expired)
//! );
//! # Ok::<(), SignatureError>(())
//! ```

use std::fmt;

use hmac::{Hmac, Mac};
use sha2::Sha256;
use subtle::{Choice, ConstantTimeEq};

/// Header holding the unix time (seconds) at which the request was signed.
pub const TIMESTAMP_HEADER: &str = "X-Service-Timestamp";
/// Header holding the signature: one or more comma-separated `v1=<hex>` entries.
pub const SIGNATURE_HEADER: &str = "X-Service-Signature";
/// Header holding the event type (`DLR`, `MO`, `STOP`, `CLICKER`, `BALANCE_ALERT`, `JOURNEY`).
pub const EVENT_HEADER: &str = "X-Service-Event";
/// Header holding a unique id per delivery, for receivers to drop duplicates.
pub const DELIVERY_HEADER: &str = "X-Service-Delivery";

/// The only signature scheme this version produces and checks.
const SCHEME_V1: &str = "v1";
/// Length in bytes of an HMAC-SHA256 tag.
const TAG_LEN: usize = 32;

/// Why [`verify`] refused a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum SignatureError {
    /// The timestamp header is not a unix time in seconds (ASCII digits only).
    MalformedTimestamp,
    /// The timestamp is further from `now` than the tolerance allows: a replayed request, or a
    /// clock that is off.
    Expired,
    /// The signature header holds no `v1=` entry, or one that is not 64 hex digits, or an entry
    /// that is not `scheme=value`.
    MalformedSignature,
    /// No `v1=` entry matches the secret, timestamp and body.
    Mismatch,
}

impl fmt::Display for SignatureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SignatureError::MalformedTimestamp => {
                "malformed X-Service-Timestamp header: expected unix time in seconds (digits only)"
            }
            SignatureError::Expired => {
                "X-Service-Timestamp is outside the allowed tolerance of the current time: \
                 the request may be a replay, or the receiver's clock is wrong"
            }
            SignatureError::MalformedSignature => {
                "malformed X-Service-Signature header: expected one or more comma-separated \
                 `v1=<64 hex digits>` entries"
            }
            SignatureError::Mismatch => {
                "X-Service-Signature does not match: check the webhook secret, and verify the raw \
                 request body exactly as received (before any parsing or re-encoding)"
            }
        })
    }
}

impl std::error::Error for SignatureError {}

/// HMAC-SHA256 of `"<timestamp>.<body>"` under `secret`, `timestamp` as the exact header text.
fn tag(secret: &str, timestamp: &str, body: &[u8]) -> [u8; TAG_LEN] {
    // HMAC takes keys of any length (long ones are hashed first); `new_from_slice` cannot fail.
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(secret.as_bytes()).expect("HMAC accepts keys of any length");
    mac.update(timestamp.as_bytes());
    mac.update(b".");
    mac.update(body);
    mac.finalize().into_bytes().into()
}

/// The [`SIGNATURE_HEADER`] value for `body` sent at `timestamp` (unix seconds):
/// `v1=<lowercase hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>`.
///
/// `timestamp` goes in [`TIMESTAMP_HEADER`] as its plain decimal form; [`verify`] only accepts
/// non-negative timestamps, which any real clock gives.
pub fn sign(secret: &str, timestamp: i64, body: &[u8]) -> String {
    let tag = tag(secret, &timestamp.to_string(), body);
    format!("{SCHEME_V1}={}", hex::encode(tag))
}

/// Checks a signed webhook request: `timestamp_header` and `signature_header` are the values of
/// [`TIMESTAMP_HEADER`] and [`SIGNATURE_HEADER`], `body` the raw request body, `now` the
/// receiver's current unix time in seconds.
///
/// In order, it refuses:
/// - a timestamp that is not ASCII digits (surrounding spaces allowed) or does not fit an `i64`
///   ([`SignatureError::MalformedTimestamp`]);
/// - a signature header with no `v1=` entry, a `v1=` value that is not 64 hex digits, or an entry
///   that is not `scheme=value` ([`SignatureError::MalformedSignature`]); entries of other schemes
///   (`v0=…`) and empty entries are ignored;
/// - a timestamp more than `tolerance_secs` away from `now`, in either direction
///   ([`SignatureError::Expired`]); exactly `tolerance_secs` away is accepted, and a negative
///   tolerance refuses everything;
/// - a header where no `v1=` entry matches ([`SignatureError::Mismatch`]).
///
/// The signed text uses the timestamp header exactly as received, and the comparison runs in
/// constant time. Several `v1=` entries are allowed so that a secret can be rotated.
///
/// ```
/// use texto_core::{SignatureError, verify};
///
/// let header = "v0=ignored,v1=ea5d37773d3472a9d5e3c7045a04ad907bc200d4138da92feea0917367670540";
/// let body = br#"{"event":"DLR","status":"delivered"}"#;
/// assert_eq!(verify("whsec_test_secret", "1700000000", header, body, 1_700_000_100, 300), Ok(()));
/// assert_eq!(
///     verify("another secret", "1700000000", header, body, 1_700_000_100, 300),
///     Err(SignatureError::Mismatch)
/// );
/// ```
pub fn verify(
    secret: &str,
    timestamp_header: &str,
    signature_header: &str,
    body: &[u8],
    now: i64,
    tolerance_secs: i64,
) -> Result<(), SignatureError> {
    let timestamp_text = timestamp_header.trim_ascii();
    let timestamp = parse_timestamp(timestamp_text)?;
    let candidates = parse_signature_header(signature_header)?;

    // `abs_diff` cannot overflow, whatever `now` is.
    let distance = now.abs_diff(timestamp);
    let within = u64::try_from(tolerance_secs).is_ok_and(|tolerance| distance <= tolerance);
    if !within {
        return Err(SignatureError::Expired);
    }

    let expected = tag(secret, timestamp_text, body);
    // Check every entry without stopping early, so timing reveals nothing about which matched.
    let matched = candidates.iter().fold(Choice::from(0), |acc, candidate| acc | expected.ct_eq(candidate));
    if bool::from(matched) { Ok(()) } else { Err(SignatureError::Mismatch) }
}

/// Unix seconds from the (trimmed) timestamp header: ASCII digits only, fitting an `i64`.
fn parse_timestamp(text: &str) -> Result<i64, SignatureError> {
    // `i64::from_str` alone would also take a leading `+` or `-`.
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(SignatureError::MalformedTimestamp);
    }
    text.parse().map_err(|_| SignatureError::MalformedTimestamp)
}

/// The decoded `v1=` tags of a signature header; at least one.
fn parse_signature_header(header: &str) -> Result<Vec<[u8; TAG_LEN]>, SignatureError> {
    let mut tags = Vec::new();
    for entry in header.split(',').map(str::trim_ascii).filter(|e| !e.is_empty()) {
        let (scheme, value) = entry.split_once('=').ok_or(SignatureError::MalformedSignature)?;
        let scheme = scheme.trim_ascii();
        if scheme.is_empty() {
            return Err(SignatureError::MalformedSignature);
        }
        if scheme != SCHEME_V1 {
            continue;
        }
        let mut tag = [0u8; TAG_LEN];
        hex::decode_to_slice(value.trim_ascii(), &mut tag).map_err(|_| SignatureError::MalformedSignature)?;
        tags.push(tag);
    }
    if tags.is_empty() { Err(SignatureError::MalformedSignature) } else { Ok(tags) }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "whsec_test_secret";
    const TS: i64 = 1_700_000_000;
    const TS_HEADER: &str = "1700000000";
    const BODY: &[u8] = br#"{"event":"DLR","status":"delivered"}"#;
    const TOLERANCE: i64 = 300;

    /// Computed independently with Python 3:
    /// `hmac.new(b"whsec_test_secret", b'1700000000.{"event":"DLR","status":"delivered"}',
    /// hashlib.sha256).hexdigest()`
    const KNOWN_HEX: &str = "ea5d37773d3472a9d5e3c7045a04ad907bc200d4138da92feea0917367670540";

    fn check(signature_header: &str, now: i64) -> Result<(), SignatureError> {
        verify(SECRET, TS_HEADER, signature_header, BODY, now, TOLERANCE)
    }

    #[test]
    fn known_answer() {
        assert_eq!(sign(SECRET, TS, BODY), format!("v1={KNOWN_HEX}"));
        assert_eq!(check(&format!("v1={KNOWN_HEX}"), TS), Ok(()));
    }

    #[test]
    fn known_answer_unicode_body_and_secret() {
        // Python 3: body = '{"message":"Arrêt — merci 📱"}'.encode();
        // hmac.new("clé-secrète".encode(), b"1700000000." + body, hashlib.sha256).hexdigest()
        let body = "{\"message\":\"Arrêt — merci 📱\"}".as_bytes();
        let expected = "v1=1acb80dc16e427fba7f7e8ba2873f609699d0f51e186adb327a8382fd155d076";
        assert_eq!(sign("clé-secrète", TS, body), expected);
        assert_eq!(verify("clé-secrète", TS_HEADER, expected, body, TS, TOLERANCE), Ok(()));
    }

    #[test]
    fn round_trip() {
        for body in [&b""[..], BODY, &[0u8, 0xff, 0xfe, b'.', b',', b'='][..]] {
            let header = sign(SECRET, TS, body);
            assert_eq!(verify(SECRET, TS_HEADER, &header, body, TS + 5, TOLERANCE), Ok(()));
        }
    }

    #[test]
    fn signature_is_lowercase_hex_of_32_bytes() {
        let header = sign(SECRET, TS, BODY);
        let hex = header.strip_prefix("v1=").unwrap();
        assert_eq!(hex.len(), 64);
        assert!(hex.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)));
    }

    #[test]
    fn tampered_body_is_refused() {
        let header = sign(SECRET, TS, BODY);
        let tampered = br#"{"event":"DLR","status":"failed"}"#;
        assert_eq!(verify(SECRET, TS_HEADER, &header, tampered, TS, TOLERANCE), Err(SignatureError::Mismatch));
        // A trailing newline is a different body too.
        let mut longer = BODY.to_vec();
        longer.push(b'\n');
        assert_eq!(verify(SECRET, TS_HEADER, &header, &longer, TS, TOLERANCE), Err(SignatureError::Mismatch));
    }

    #[test]
    fn tampered_timestamp_is_refused() {
        let header = sign(SECRET, TS, BODY);
        assert_eq!(verify(SECRET, "1700000001", &header, BODY, TS, TOLERANCE), Err(SignatureError::Mismatch));
    }

    #[test]
    fn wrong_secret_is_refused() {
        let header = sign("another secret", TS, BODY);
        assert_eq!(check(&header, TS), Err(SignatureError::Mismatch));
        assert_eq!(verify("", TS_HEADER, &sign(SECRET, TS, BODY), BODY, TS, TOLERANCE), Err(SignatureError::Mismatch));
    }

    #[test]
    fn outside_tolerance_is_expired_both_ways() {
        let header = sign(SECRET, TS, BODY);
        // Replayed later.
        assert_eq!(check(&header, TS + TOLERANCE + 1), Err(SignatureError::Expired));
        // Signed "in the future" (sender or receiver clock off).
        assert_eq!(check(&header, TS - TOLERANCE - 1), Err(SignatureError::Expired));
        assert_eq!(check(&header, i64::MAX), Err(SignatureError::Expired));
        assert_eq!(check(&header, i64::MIN), Err(SignatureError::Expired));
    }

    #[test]
    fn exactly_at_tolerance_is_accepted() {
        let header = sign(SECRET, TS, BODY);
        assert_eq!(check(&header, TS + TOLERANCE), Ok(()));
        assert_eq!(check(&header, TS - TOLERANCE), Ok(()));
        assert_eq!(verify(SECRET, TS_HEADER, &header, BODY, TS, 0), Ok(()));
        assert_eq!(verify(SECRET, TS_HEADER, &header, BODY, TS + 1, 0), Err(SignatureError::Expired));
    }

    #[test]
    fn negative_tolerance_refuses_everything() {
        let header = sign(SECRET, TS, BODY);
        assert_eq!(verify(SECRET, TS_HEADER, &header, BODY, TS, -1), Err(SignatureError::Expired));
        assert_eq!(verify(SECRET, TS_HEADER, &header, BODY, TS, i64::MIN), Err(SignatureError::Expired));
    }

    #[test]
    fn expired_is_checked_even_when_signature_is_wrong() {
        // A stale request is reported as stale, whatever its signature.
        let wrong = format!("v1={}", "0".repeat(64));
        assert_eq!(check(&wrong, TS + 10_000), Err(SignatureError::Expired));
    }

    #[test]
    fn multiple_v1_entries_with_one_good() {
        let good = sign(SECRET, TS, BODY);
        let old = sign("old secret", TS, BODY);
        assert_eq!(check(&format!("{old},{good}"), TS), Ok(()));
        assert_eq!(check(&format!("{good},{old}"), TS), Ok(()));
        assert_eq!(check(&format!("{old}, {good} "), TS), Ok(()));
        assert_eq!(check(&format!("{old},{old}"), TS), Err(SignatureError::Mismatch));
    }

    #[test]
    fn unknown_schemes_and_empty_entries_are_ignored() {
        let good = sign(SECRET, TS, BODY);
        assert_eq!(check(&format!("v0=deadbeef,{good}"), TS), Ok(()));
        assert_eq!(check(&format!("v2=not-even-hex,{good},"), TS), Ok(()));
        assert_eq!(check(&format!(",,{good}"), TS), Ok(()));
        // The v0 entry holds the right v1 hex but must not count.
        let hex = good.strip_prefix("v1=").unwrap();
        assert_eq!(check(&format!("v0={hex}"), TS), Err(SignatureError::MalformedSignature));
    }

    #[test]
    fn uppercase_hex_is_accepted() {
        let good = sign(SECRET, TS, BODY);
        assert_eq!(check(&format!("v1={}", good[3..].to_ascii_uppercase()), TS), Ok(()));
    }

    #[test]
    fn malformed_signature_headers() {
        let good = sign(SECRET, TS, BODY);
        let hex = &good[3..];
        for header in [
            "",
            "   ",
            ",",
            "v1=",
            "v1=zz",
            &format!("v1={}", &hex[..63]),
            &format!("v1={}", &hex[..62]),
            &format!("v1={hex}00"),
            hex,
            &format!("v1:{hex}"),
            &format!("V1={hex}"),
            &format!("={hex}"),
            "garbage",
            // A malformed v1 entry spoils the header even next to a good one.
            &format!("v1=zz,{good}"),
            &format!("{good},garbage"),
        ] {
            assert_eq!(check(header, TS), Err(SignatureError::MalformedSignature), "{header:?}");
        }
    }

    #[test]
    fn malformed_timestamp_headers() {
        let good = sign(SECRET, TS, BODY);
        for ts in ["", " ", "12a", "-1700000000", "+1700000000", "1700000000.5", "1e9", "١٢٣", "99999999999999999999"]
        {
            assert_eq!(
                verify(SECRET, ts, &good, BODY, TS, TOLERANCE),
                Err(SignatureError::MalformedTimestamp),
                "{ts:?}"
            );
        }
    }

    #[test]
    fn malformed_timestamp_wins_over_malformed_signature() {
        assert_eq!(verify(SECRET, "12a", "", BODY, TS, TOLERANCE), Err(SignatureError::MalformedTimestamp));
    }

    #[test]
    fn timestamp_header_is_signed_as_received() {
        // Surrounding whitespace is tolerated, but leading zeros change the signed text.
        let good = sign(SECRET, TS, BODY);
        assert_eq!(verify(SECRET, " 1700000000 ", &good, BODY, TS, TOLERANCE), Ok(()));
        assert_eq!(verify(SECRET, "01700000000", &good, BODY, TS, TOLERANCE), Err(SignatureError::Mismatch));
    }

    #[test]
    fn errors_display_and_are_std_errors() {
        let all = [
            SignatureError::MalformedTimestamp,
            SignatureError::Expired,
            SignatureError::MalformedSignature,
            SignatureError::Mismatch,
        ];
        for error in all {
            let boxed: Box<dyn std::error::Error> = Box::new(error);
            assert!(!boxed.to_string().is_empty());
        }
        assert!(SignatureError::MalformedTimestamp.to_string().contains(TIMESTAMP_HEADER));
        assert!(SignatureError::Expired.to_string().contains(TIMESTAMP_HEADER));
        assert!(SignatureError::MalformedSignature.to_string().contains(SIGNATURE_HEADER));
        assert!(SignatureError::Mismatch.to_string().contains(SIGNATURE_HEADER));
    }

    #[test]
    fn header_names() {
        assert_eq!(TIMESTAMP_HEADER, "X-Service-Timestamp");
        assert_eq!(SIGNATURE_HEADER, "X-Service-Signature");
        assert_eq!(EVENT_HEADER, "X-Service-Event");
        assert_eq!(DELIVERY_HEADER, "X-Service-Delivery");
    }
}
