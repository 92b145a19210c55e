//! Two-factor sign-in: RFC 6238 codes (6 digits, 30 s, one step of skew, SHA-1 as every
//! authenticator app reads) and the time step each is of, the `otpauth://` URL and its QR code
//! as SVG, and ten one-time recovery codes kept by their hashes.

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

/// Seconds a code lasts.
const STEP: i64 = 30;
/// [`STEP`] as totp-rs takes it.
const STEP_SECS: u64 = STEP.unsigned_abs();

/// The codes of `secret`, each checked against one time step (the skew is [`code_step`]'s).
fn totp(secret: &str, email: &str) -> Option<TOTP> {
    let bytes = Secret::Encoded(secret.to_owned()).to_bytes().ok()?;
    TOTP::new(Algorithm::SHA1, 6, 0, STEP_SECS, bytes, Some("texto".to_owned()), email.to_owned()).ok()
}

/// The time step (Unix time / 30 s) whose code of `secret` `code` is, at `unix_seconds`: the
/// current step, or the one just before or after (for clocks a little off); the latest if
/// several match. A sign-in records it, so that a code signs in once.
pub(crate) fn code_step(secret: &str, code: &str, unix_seconds: i64) -> Option<i64> {
    let code: String = code.chars().filter(|c| !c.is_whitespace()).collect();
    let totp = totp(secret, "")?;
    let now = unix_seconds.div_euclid(STEP);
    (now - 1..=now + 1).rev().find(|step| u64::try_from(step * STEP).is_ok_and(|at| totp.check(&code, at)))
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
    fn a_code_is_of_its_own_step_a_step_early_or_late_and_no_other() {
        let secret = new_secret().unwrap();
        let now = 1_800_000_010;
        let step = now / 30;
        let current = totp(&secret, "a@example.com").unwrap().generate(now as u64);
        assert_eq!(code_step(&secret, &current, now), Some(step));
        assert_eq!(code_step(&secret, &format!("{} {}", &current[..3], &current[3..]), now + 30), Some(step), "late");
        assert_eq!(code_step(&secret, &current, now - 30), Some(step), "a step early");
        assert_eq!(code_step(&secret, &current, now + 120), None);
        assert_eq!(code_step("not base32!", &current, now), None);
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
