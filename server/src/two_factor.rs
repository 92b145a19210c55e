//! Two-factor sign-in: RFC 6238 codes (6 digits, 30 s, one step of skew, SHA-1 as every
//! authenticator app reads), the `otpauth://` URL and its QR code as SVG, and ten one-time
//! recovery codes kept by their hashes.

use qrcode::{QrCode, render::svg};
use totp_rs::{Algorithm, Secret, TOTP};

use crate::{Error, store::token_hash};

/// Recovery codes given when two-factor is turned on.
const RECOVERY_CODES: usize = 10;

/// A new secret: 20 random bytes (160 bits, as RFC 4226 recommends), base32.
pub(crate) fn new_secret() -> Result<String, Error> {
    let mut bytes = [0u8; 20];
    getrandom::fill(&mut bytes).map_err(|e| Error::Command(format!("no randomness for a secret: {e}")))?;
    Ok(Secret::Raw(bytes.to_vec()).to_encoded().to_string())
}

fn totp(secret: &str, email: &str) -> Option<TOTP> {
    let bytes = Secret::Encoded(secret.to_owned()).to_bytes().ok()?;
    TOTP::new(Algorithm::SHA1, 6, 1, 30, bytes, Some("texto".to_owned()), email.to_owned()).ok()
}

/// Whether `code` is the current code of `secret` (or the one just before or after), at
/// `unix_seconds`.
pub(crate) fn code_matches(secret: &str, code: &str, unix_seconds: u64) -> bool {
    let code: String = code.chars().filter(|c| !c.is_whitespace()).collect();
    totp(secret, "").is_some_and(|totp| totp.check(&code, unix_seconds))
}

/// The `otpauth://` URL an authenticator app reads, and its QR code as an SVG document.
pub(crate) fn enrolment(secret: &str, email: &str) -> Result<(String, String), Error> {
    let url = totp(secret, email).ok_or(Error::Unavailable("a two-factor secret could not be read"))?.get_url();
    let code = QrCode::new(url.as_bytes()).map_err(|e| Error::Command(format!("the QR code: {e}")))?;
    let svg = code.render::<svg::Color<'_>>().min_dimensions(200, 200).build();
    Ok((url, svg))
}

/// Ten recovery codes (`1a2b-3c4d`) and their stored form (hashes, comma-separated).
pub(crate) fn recovery_codes() -> Result<(Vec<String>, String), Error> {
    let mut codes = Vec::with_capacity(RECOVERY_CODES);
    for _ in 0..RECOVERY_CODES {
        let mut bytes = [0u8; 4];
        getrandom::fill(&mut bytes).map_err(|e| Error::Command(format!("no randomness for a code: {e}")))?;
        let hex = hex::encode(bytes);
        codes.push(format!("{}-{}", &hex[..4], &hex[4..]));
    }
    let stored = codes.iter().map(|c| recovery_hash(c)).collect::<Vec<_>>().join(",");
    Ok((codes, stored))
}

/// The stored form of a recovery code as typed (any case, with or without its dash).
pub(crate) fn recovery_hash(code: &str) -> String {
    let plain: String = code.trim().to_lowercase().chars().filter(char::is_ascii_hexdigit).collect();
    let canonical = if plain.len() == 8 { format!("{}-{}", &plain[..4], &plain[4..]) } else { plain };
    hex::encode(token_hash(&canonical))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_current_code_matches_and_a_stale_one_does_not() {
        let secret = new_secret().unwrap();
        let now = 1_800_000_000;
        let current = totp(&secret, "a@example.com").unwrap().generate(now);
        assert!(code_matches(&secret, &current, now));
        assert!(code_matches(&secret, &format!("{} {}", &current[..3], &current[3..]), now + 30), "a step late");
        assert!(!code_matches(&secret, &current, now + 120));
        assert!(!code_matches("not base32!", &current, now));
    }

    #[test]
    fn the_qr_code_is_an_svg_of_the_otpauth_url() {
        let (url, svg) = enrolment(&new_secret().unwrap(), "a@example.com").unwrap();
        assert!(url.starts_with("otpauth://totp/texto:a%40example.com?"), "{url}");
        assert!(svg.contains("<svg") && svg.contains("</svg>"));
    }

    #[test]
    fn recovery_codes_are_ten_and_read_back_however_typed() {
        let (codes, stored) = recovery_codes().unwrap();
        assert_eq!(codes.len(), 10);
        assert!(stored.split(',').any(|h| h == recovery_hash(&codes[3].to_uppercase().replace('-', ""))));
    }
}
