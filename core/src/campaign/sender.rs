//! The sender a campaign shows (docs/interface.md §6.4).

use std::fmt;

/// A valid sender: 3–11 characters `[A-Za-z0-9]` with at least one letter, or 1–15 digits.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Sender(String);

impl Sender {
    /// Checks `value` against the sender rules; the error says which rule failed.
    pub fn parse(value: &str) -> Result<Sender, String> {
        let all_alphanumeric = value.chars().all(|c| c.is_ascii_alphanumeric());
        let has_letter = value.chars().any(|c| c.is_ascii_alphabetic());
        let length = value.chars().count();
        match (all_alphanumeric, has_letter) {
            (false, _) => Err("a sender holds only letters A-Z, a-z and digits 0-9".to_owned()),
            (true, true) if (3..=11).contains(&length) => Ok(Sender(value.to_owned())),
            (true, true) => Err(format!("an alphanumeric sender has 3 to 11 characters, not {length}")),
            (true, false) if (1..=15).contains(&length) => Ok(Sender(value.to_owned())),
            (true, false) => Err(format!("a numeric sender has at most 15 digits, not {length}")),
        }
    }

    /// The sender as given.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Sender {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::Sender;

    #[test]
    fn follows_the_reference_rules() {
        for ok in ["Illidan", "BESTSHOES", "abc", "Shop2026", "A1234567890", "33612345678", "1", "123456789012345"] {
            assert!(Sender::parse(ok).is_ok(), "{ok}");
        }
        for bad in ["ab", "ABCDEFGHIJKL", "Best Shoes", "Café", "1234567890123456", "", "Shop-2"] {
            assert!(Sender::parse(bad).is_err(), "{bad}");
        }
    }
}
