//! UTM tagging: `utm_source`, `utm_medium` and `utm_campaign` added to every short link's
//! target when a recipient follows it, so the site's analytics credit the campaign. Set for
//! the account (`PUT /settings`, `settings.utm`) and overridden per campaign
//! (`sms.message.utm`).

use serde::{Deserialize, Serialize};

use crate::{FieldError, wire::UtmDto};

/// The longest value of a tag, in characters.
pub const MOST_UTM_CHARS: usize = 100;

/// The tags to add; an empty one is left out.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Utm {
    /// `utm_source` (`sms`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub source: String,
    /// `utm_medium` (`texto`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub medium: String,
    /// `utm_campaign`; empty: the campaign's ticket.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub campaign: String,
    /// The parameter that carries the click's short code, for conversions; empty: none.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub click: String,
}

/// The longest name of the click parameter.
const MOST_PARAMETER_CHARS: usize = 40;

impl Utm {
    /// The tags `dto` asks for (at `path`), trimmed; `None` when it asks for none (every value
    /// empty), which turns tagging off.
    pub fn from_dto(dto: &UtmDto, path: &str) -> Result<Option<Utm>, Vec<FieldError>> {
        let mut errors = Vec::new();
        let mut value = |name: &str, given: &Option<String>| {
            let trimmed = given.as_deref().unwrap_or_default().trim().to_owned();
            if trimmed.chars().count() > MOST_UTM_CHARS || trimmed.chars().any(char::is_control) {
                errors.push(FieldError::new(
                    format!("{path}.{name}"),
                    format!("at most {MOST_UTM_CHARS} characters, no control character"),
                ));
            }
            trimmed
        };
        let utm = Utm {
            source: value("source", &dto.source),
            medium: value("medium", &dto.medium),
            campaign: value("campaign", &dto.campaign),
            click: dto.click.as_deref().unwrap_or_default().trim().to_owned(),
        };
        let parameter = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
        if utm.click.len() > MOST_PARAMETER_CHARS || !utm.click.chars().all(parameter) {
            errors.push(FieldError::new(
                format!("{path}.click"),
                format!("a parameter's name: at most {MOST_PARAMETER_CHARS} letters, digits, _ or -"),
            ));
        }
        let none = [&utm.source, &utm.medium, &utm.campaign, &utm.click].iter().all(|v| v.is_empty());
        match errors.is_empty() {
            false => Err(errors),
            true if none => Ok(None),
            true => Ok(Some(utm)),
        }
    }

    /// As the wire shows it.
    pub fn to_dto(&self) -> UtmDto {
        let shown = |value: &str| (!value.is_empty()).then(|| value.to_owned());
        UtmDto {
            source: shown(&self.source),
            medium: shown(&self.medium),
            campaign: shown(&self.campaign),
            click: shown(&self.click),
        }
    }

    /// `url` with the tags added for the campaign `ticket` and the click's short `code` (before
    /// its `#fragment`); a tag the URL already has is left as the marketer wrote it.
    pub fn tag(&self, url: &str, ticket: i64, code: &str) -> String {
        let (address, fragment) = url.split_once('#').map_or((url, None), |(a, f)| (a, Some(f)));
        let ticket = ticket.to_string();
        // The ticket names the campaign when there are UTM tags at all (not for a click
        // parameter alone).
        let tagged = !(self.source.is_empty() && self.medium.is_empty() && self.campaign.is_empty());
        let campaign = match (tagged, self.campaign.is_empty()) {
            (false, _) => "",
            (true, true) => ticket.as_str(),
            (true, false) => self.campaign.as_str(),
        };
        let query = address.split_once('?').map_or("", |(_, q)| q);
        let has = |name: &str| query.split('&').any(|pair| pair.split('=').next() == Some(name));
        let mut out = address.to_owned();
        let tags = [
            ("utm_source", &*self.source),
            ("utm_medium", &*self.medium),
            ("utm_campaign", campaign),
            (&*self.click, code),
        ];
        for (name, value) in tags {
            if name.is_empty() || value.is_empty() || has(name) {
                continue;
            }
            match out.chars().last() {
                Some('?' | '&') => {}
                _ => out.push(if out.contains('?') { '&' } else { '?' }),
            }
            out.push_str(name);
            out.push('=');
            out.extend(form_urlencoded::byte_serialize(value.as_bytes()));
        }
        if let Some(fragment) = fragment {
            out.push('#');
            out.push_str(fragment);
        }
        out
    }
}

/// What a campaign's short links are tagged with.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum UtmChoice {
    /// The account's tags, if it has any (the send said nothing).
    #[default]
    Account,
    /// None (the send gave every value empty).
    Off,
    /// These (the send's).
    Tags(Utm),
}

impl UtmChoice {
    /// The send's choice from its `sms.message.utm`.
    pub fn from_message(dto: Option<&UtmDto>) -> Result<UtmChoice, Vec<FieldError>> {
        match dto {
            None => Ok(UtmChoice::Account),
            Some(dto) => Ok(Utm::from_dto(dto, "sms.message.utm")?.map_or(UtmChoice::Off, UtmChoice::Tags)),
        }
    }

    /// The tags in force given the account's.
    pub fn resolve(self, account: Option<Utm>) -> Option<Utm> {
        match self {
            UtmChoice::Account => account,
            UtmChoice::Off => None,
            UtmChoice::Tags(utm) => Some(utm),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utm(source: &str, medium: &str, campaign: &str) -> Utm {
        Utm { source: source.into(), medium: medium.into(), campaign: campaign.into(), click: String::new() }
    }

    #[test]
    fn the_click_parameter_carries_the_short_code_for_conversions() {
        let click = Utm { click: "texto_click".into(), ..Utm::default() };
        assert_eq!(click.tag("https://s.example/merci", 3, "AbC123"), "https://s.example/merci?texto_click=AbC123");
        let dto = UtmDto { click: Some(" texto_click ".into()), ..UtmDto::default() };
        assert_eq!(Utm::from_dto(&dto, "settings.utm"), Ok(Some(click)));
        let bad = UtmDto { click: Some("a b".into()), ..UtmDto::default() };
        assert_eq!(Utm::from_dto(&bad, "settings.utm").unwrap_err()[0].path, "settings.utm.click");
    }

    #[test]
    fn tags_go_before_the_fragment_and_the_ticket_names_the_campaign() {
        let sms = utm("sms", "texto", "");
        assert_eq!(
            sms.tag("https://shop.example/soldes", 42, "AbC123"),
            "https://shop.example/soldes?utm_source=sms&utm_medium=texto&utm_campaign=42"
        );
        assert_eq!(
            sms.tag("https://shop.example/p?id=7#avis", 42, "AbC123"),
            "https://shop.example/p?id=7&utm_source=sms&utm_medium=texto&utm_campaign=42#avis"
        );
        assert_eq!(
            utm("sms", "", "Soldes d'hiver").tag("https://s.example/", 1, "AbC123"),
            "https://s.example/?utm_source=sms&utm_campaign=Soldes+d%27hiver"
        );
    }

    #[test]
    fn a_link_ending_in_a_separator_gets_no_second_one() {
        let sms = utm("sms", "", "x");
        assert_eq!(sms.tag("https://s.example/?", 1, "AbC123"), "https://s.example/?utm_source=sms&utm_campaign=x");
        assert_eq!(
            sms.tag("https://s.example/?a=1&", 1, "AbC123"),
            "https://s.example/?a=1&utm_source=sms&utm_campaign=x"
        );
    }

    #[test]
    fn a_tag_the_link_has_stays_as_written() {
        let sms = utm("sms", "texto", "");
        assert_eq!(
            sms.tag("https://s.example/?utm_source=newsletter", 5, "AbC123"),
            "https://s.example/?utm_source=newsletter&utm_medium=texto&utm_campaign=5"
        );
    }

    #[test]
    fn empty_values_turn_tagging_off_and_long_ones_are_refused() {
        let off = UtmDto { source: Some(" ".into()), ..UtmDto::default() };
        assert_eq!(Utm::from_dto(&off, "settings.utm"), Ok(None));
        let long = UtmDto { medium: Some("m".repeat(101)), ..UtmDto::default() };
        assert_eq!(Utm::from_dto(&long, "sms.message.utm").unwrap_err()[0].path, "sms.message.utm.medium");
        let set = UtmDto { source: Some(" sms ".into()), ..UtmDto::default() };
        assert_eq!(Utm::from_dto(&set, "x"), Ok(Some(utm("sms", "", ""))));
    }

    #[test]
    fn a_send_keeps_the_account_s_tags_replaces_them_or_turns_them_off() {
        let account = Some(utm("sms", "texto", ""));
        assert_eq!(UtmChoice::from_message(None).unwrap().resolve(account.clone()), account);
        let off = UtmDto::default();
        assert_eq!(UtmChoice::from_message(Some(&off)).unwrap().resolve(account.clone()), None);
        let own = UtmDto { campaign: Some("noel".into()), ..UtmDto::default() };
        assert_eq!(UtmChoice::from_message(Some(&own)).unwrap().resolve(account), Some(utm("", "", "noel")));
    }
}
