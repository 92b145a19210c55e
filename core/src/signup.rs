//! Sign-up pages (texto's addition): a hosted form at `/join/{slug}` where a visitor leaves a
//! number to join a list, with double opt-in. Here are the rules, pure: what a page may say and
//! ask, what a filled form holds, the confirmation text in the visitor's language, and which
//! replies confirm. The server keeps the pages and the pending sign-ups, sends the SMS, and
//! serves the HTML.

use std::collections::BTreeMap;

use crate::{ContactField, FieldError, Msisdn, parse_with_default_country, wire::SignupPageDto};

/// The most fields a page asks besides the number.
pub const MOST_SIGNUP_FIELDS: usize = 8;
/// The longest heading of a page, in characters.
pub const MOST_SIGNUP_TITLE_CHARS: usize = 100;
/// The longest text under the heading, in characters.
pub const MOST_SIGNUP_TEXT_CHARS: usize = 1000;
/// The longest consent text, in characters.
pub const MOST_CONSENT_TEXT_CHARS: usize = 600;
/// The longest value a visitor types in a field, in characters.
pub const MOST_SIGNUP_VALUE_CHARS: usize = 200;
/// How many figures a confirmation code has.
pub const CODE_DIGITS: usize = 6;

/// A page's address part: 3 to 40 lower-case letters, digits and `-`, neither first nor last.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Slug(String);

impl Slug {
    /// `given`, trimmed and lower-cased, if it may be a slug.
    pub fn parse(given: &str) -> Option<Slug> {
        let slug = given.trim().to_ascii_lowercase();
        let fits = (3..=40).contains(&slug.len())
            && slug.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            && !slug.starts_with('-')
            && !slug.ends_with('-');
        fits.then_some(Slug(slug))
    }

    /// As written in the address.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A sign-up page as an account sets it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignupPage {
    /// Its address part.
    pub slug: Slug,
    /// Its heading.
    pub title: String,
    /// What it says under the heading (may be empty).
    pub text: String,
    /// What it asks besides the number, in order.
    pub fields: Vec<ContactField>,
    /// The list a confirmed number joins.
    pub list: i64,
    /// The consent the visitor ticks.
    pub consent_text: String,
}

impl SignupPage {
    /// `page` from the wire, every error named by its path (`signup_page.slug`).
    pub fn parse(page: &SignupPageDto) -> Result<SignupPage, Vec<FieldError>> {
        let mut errors = Vec::new();
        let mut text = |given: &Option<String>, name: &str, least: usize, most: usize| {
            let value = given.as_deref().unwrap_or("").trim();
            let count = value.chars().count();
            if count < least || count > most {
                errors.push(FieldError::new(format!("signup_page.{name}"), format!("{least} to {most} characters")));
            }
            value.to_owned()
        };
        let title = text(&page.title, "title", 1, MOST_SIGNUP_TITLE_CHARS);
        let body = text(&page.text, "text", 0, MOST_SIGNUP_TEXT_CHARS);
        let consent_text = text(&page.consent_text, "consent_text", 1, MOST_CONSENT_TEXT_CHARS);
        let slug = Slug::parse(page.slug.as_deref().unwrap_or(""));
        if slug.is_none() {
            let why = "3 to 40 lower-case letters, digits and -, not first or last";
            errors.push(FieldError::new("signup_page.slug", why));
        }
        let mut fields: Vec<ContactField> = Vec::new();
        for (i, name) in page.fields.iter().enumerate() {
            match ContactField::parse(name, &format!("signup_page.fields[{i}]")) {
                Ok(field) if !fields.contains(&field) => fields.push(field),
                Ok(_) => errors.push(FieldError::new(format!("signup_page.fields[{i}]"), "asked twice")),
                Err(error) => errors.push(error),
            }
        }
        if page.fields.len() > MOST_SIGNUP_FIELDS {
            errors.push(FieldError::new("signup_page.fields", format!("at most {MOST_SIGNUP_FIELDS} fields")));
        }
        let list = page.list.as_deref().and_then(|l| l.trim().parse::<i64>().ok()).filter(|l| *l > 0);
        if list.is_none() {
            errors.push(FieldError::new("signup_page.list", "the list's id, a positive number"));
        }
        match (slug, list, errors.is_empty()) {
            (Some(slug), Some(list), true) => Ok(SignupPage { slug, title, text: body, fields, list, consent_text }),
            _ => Err(errors),
        }
    }

    /// The page on the wire (without its id and counts, which the server adds).
    pub fn to_wire(&self) -> SignupPageDto {
        SignupPageDto {
            slug: Some(self.slug.as_str().to_owned()),
            title: Some(self.title.clone()),
            text: Some(self.text.clone()),
            fields: self.fields.iter().map(|f| f.name().to_owned()).collect(),
            list: Some(self.list.to_string()),
            consent_text: Some(self.consent_text.clone()),
            address: Some(format!("/join/{}", self.slug.as_str())),
            ..SignupPageDto::default()
        }
    }

    /// What a filled form holds, from its pairs as posted: the number (`number`, French
    /// numbers may be written `06…`), the fields the page asks (trimmed; empty ones left out)
    /// and the ticked consent (`consent`). The errors name the form's inputs.
    pub fn read_form<'a>(
        &self,
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<FilledForm, Vec<FieldError>> {
        let mut errors = Vec::new();
        let (mut number, mut consented, mut fields) = (None, false, BTreeMap::new());
        for (name, value) in pairs {
            match name {
                "number" => number = Some(value),
                "consent" => consented = !value.is_empty(),
                _ => {
                    if let Some(field) = self.fields.iter().find(|f| f.name() == name) {
                        let value = value.trim();
                        if value.chars().count() > MOST_SIGNUP_VALUE_CHARS {
                            let why = format!("at most {MOST_SIGNUP_VALUE_CHARS} characters");
                            errors.push(FieldError::new(name, why));
                        } else if !value.is_empty() {
                            fields.insert(field.name().to_owned(), value.to_owned());
                        }
                    }
                }
            }
        }
        let number = match parse_with_default_country(number.unwrap_or(""), "FR") {
            Ok(number) => Some(number),
            Err(why) => {
                errors.push(FieldError::new("number", why.to_string()));
                None
            }
        };
        if !consented {
            errors.push(FieldError::new("consent", "tick the box to agree"));
        }
        match (number, errors.is_empty()) {
            (Some(number), true) => Ok(FilledForm { number, fields }),
            _ => Err(errors),
        }
    }
}

/// A sign-up form as a visitor filled it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilledForm {
    /// The number.
    pub number: Msisdn,
    /// The fields given, by name.
    pub fields: BTreeMap<String, String>,
}

/// The language a sign-up page speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PageLanguage {
    /// English.
    English,
    /// French.
    French,
}

impl PageLanguage {
    /// The language asked by `?lang=` if any, else the first of `Accept-Language` texto speaks,
    /// else French (texto's visitors are French first).
    pub fn chosen(asked: Option<&str>, accept_language: Option<&str>) -> PageLanguage {
        let named = |tag: &str| match tag.trim().get(..2).map(str::to_ascii_lowercase).as_deref() {
            Some("fr") => Some(PageLanguage::French),
            Some("en") => Some(PageLanguage::English),
            _ => None,
        };
        asked
            .and_then(named)
            .or_else(|| accept_language.and_then(|header| header.split(',').find_map(named)))
            .unwrap_or(PageLanguage::French)
    }

    /// Its code, as `lang=` and `<html lang>` write it.
    pub fn code(self) -> &'static str {
        match self {
            PageLanguage::English => "en",
            PageLanguage::French => "fr",
        }
    }

    /// The confirmation SMS for a sign-up to the page titled `title`, with its code.
    pub fn confirmation_text(self, title: &str, code: &str) -> String {
        match self {
            PageLanguage::English => format!("{title}: your code is {code}. Or reply YES to confirm."),
            PageLanguage::French => format!("{title} : votre code est {code}. Ou répondez OUI pour confirmer."),
        }
    }
}

/// Whether a reply's keyword confirms a pending sign-up: `OUI` or `YES` (folded as replies'
/// keywords are).
pub fn confirms(keyword: &str) -> bool {
    matches!(keyword, "OUI" | "YES")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn page() -> SignupPage {
        let dto: SignupPageDto = serde_json::from_value(json!({
            "slug": " Club-2026 ", "title": "Le Club", "text": "Nos offres, deux fois par mois.",
            "fields": ["firstname", "city"], "list": "12", "consent_text": "J'accepte de recevoir les offres du Club par SMS."
        }))
        .expect("a page on the wire");
        SignupPage::parse(&dto).expect("a valid page")
    }

    #[test]
    fn a_page_is_read_from_the_wire_and_written_back_the_same() {
        let page = page();
        assert_eq!(page.slug.as_str(), "club-2026");
        assert_eq!(page.fields, [ContactField::FirstName, ContactField::Custom("city".into())]);
        assert_eq!(SignupPage::parse(&page.to_wire()).expect("reads back"), page);
        assert_eq!(page.to_wire().address.as_deref(), Some("/join/club-2026"));
    }

    #[test]
    fn every_error_of_a_page_is_named_by_its_path() {
        let dto: SignupPageDto = serde_json::from_value(json!({
            "slug": "-x", "title": "", "fields": ["firstname", "First Name", "firstname"], "consent_text": " "
        }))
        .expect("a page on the wire");
        let errors = SignupPage::parse(&dto).expect_err("errors");
        let paths: Vec<&str> = errors.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "signup_page.title",
                "signup_page.consent_text",
                "signup_page.slug",
                "signup_page.fields[1]",
                "signup_page.fields[2]",
                "signup_page.list"
            ]
        );
        for slug in ["ab", "a_b", "é-club", &"a".repeat(41)] {
            assert_eq!(Slug::parse(slug), None, "{slug}");
        }
    }

    #[test]
    fn a_form_gives_the_number_the_asked_fields_and_the_consent() {
        let page = page();
        let filled = page
            .read_form([
                ("number", "06 12 34 56 78"),
                ("firstname", " Ana "),
                ("city", ""),
                ("admin", "1"),
                ("consent", "on"),
            ])
            .expect("a valid form");
        assert_eq!(filled.number.as_u64(), 33612345678);
        assert_eq!(filled.fields, BTreeMap::from([("firstname".to_owned(), "Ana".to_owned())]));
        let errors = page.read_form([("number", "12"), ("firstname", &"a".repeat(201))]).expect_err("errors");
        let names: Vec<&str> = errors.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(names, ["firstname", "number", "consent"]);
    }

    #[test]
    fn the_language_is_asked_then_accepted_then_french() {
        assert_eq!(PageLanguage::chosen(Some("en"), Some("fr-FR")), PageLanguage::English);
        assert_eq!(PageLanguage::chosen(None, Some("de-DE, en-GB;q=0.8, fr;q=0.5")), PageLanguage::English);
        assert_eq!(PageLanguage::chosen(Some("xx"), None), PageLanguage::French);
        assert!(PageLanguage::French.confirmation_text("Le Club", "123456").contains("123456"));
        assert!(confirms("OUI") && confirms("YES") && !confirms("NON"));
    }
}
