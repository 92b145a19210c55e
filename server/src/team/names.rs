//! The team's names, parsed once: a person's email and name, an API token's name and lifetime.
//! A value of these types is valid by construction; the store keeps and returns them as they are.

/// An email address: trimmed, lowercased, one `@` between a local part and a dotted domain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Email(String);

impl Email {
    /// `text` as an address, or why it is not one.
    pub(crate) fn parse(text: &str) -> Result<Email, String> {
        let email = text.trim().to_lowercase();
        let (local, domain) = email.split_once('@').ok_or_else(|| format!("{email:?} is not an email address"))?;
        let well_formed = !local.is_empty()
            && domain.contains('.')
            && !domain.starts_with('.')
            && !domain.ends_with('.')
            && !domain.contains('@')
            && email.len() <= 254
            && !email.chars().any(|c| c.is_whitespace() || c.is_control());
        if well_formed { Ok(Email(email)) } else { Err(format!("{email:?} is not an email address")) }
    }

    /// The address.
    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }
}

/// A person's name: 1 to 100 characters on one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PersonName(String);

impl PersonName {
    /// `text` trimmed, if it is 1 to 100 characters on one line.
    pub(crate) fn parse(text: &str) -> Result<PersonName, String> {
        let name = text.trim();
        texto_core::LineText::parse(name)?;
        match name.chars().count() {
            0 => Err("a name is needed".to_owned()),
            1..=100 => Ok(PersonName(name.to_owned())),
            _ => Err("at most 100 characters".to_owned()),
        }
    }

    /// The name.
    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }
}

/// A token's name: 1 to 100 characters on one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TokenName(String);

impl TokenName {
    /// `name` trimmed, if it is 1 to 100 characters without control characters.
    pub(crate) fn parse(name: &str) -> Result<TokenName, String> {
        let name = name.trim();
        texto_core::LineText::parse(name)?;
        match name.chars().count() {
            0 => Err("a token needs a name".to_owned()),
            1..=100 => Ok(TokenName(name.to_owned())),
            _ => Err("at most 100 characters".to_owned()),
        }
    }

    /// The name.
    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }
}

/// How long a token lives: 1 second to 10 years.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TokenLifetime(i64);

impl TokenLifetime {
    /// Ten years, in seconds.
    const MOST: i64 = 10 * 366 * 86_400;

    /// `seconds` if it is from 1 to ten years.
    pub(crate) fn from_seconds(seconds: i64) -> Result<TokenLifetime, String> {
        if (1..=Self::MOST).contains(&seconds) {
            Ok(TokenLifetime(seconds))
        } else {
            Err(format!("{seconds}: seconds from 1 to {}", Self::MOST))
        }
    }

    /// The seconds.
    pub(crate) fn seconds(self) -> i64 {
        self.0
    }
}
