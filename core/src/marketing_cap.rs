//! The frequency cap (`PUT /settings`, `settings.marketing_cap`): a marketing send skips the
//! numbers that already got that many marketing messages of the account in that many days,
//! counted in `capped`.

use serde::{Deserialize, Serialize};

use crate::{FieldError, wire::MarketingCapDto};

/// The most messages a cap may allow.
pub const MOST_CAP_MESSAGES: u32 = 100;
/// The longest period of a cap, in days.
pub const MOST_CAP_DAYS: u32 = 90;

/// At most `messages` marketing messages per number in `days` days.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MarketingCap {
    messages: u32,
    days: u32,
}

impl MarketingCap {
    /// The cap `dto` asks for, both values within bounds (at `path`).
    pub fn from_dto(dto: &MarketingCapDto, path: &str) -> Result<MarketingCap, Vec<FieldError>> {
        let mut errors = Vec::new();
        let mut bounded = |name: &str, value: Option<i64>, most: u32| match value.and_then(|v| u32::try_from(v).ok()) {
            Some(value @ 1..) if value <= most => value,
            _ => {
                let found = value.map_or_else(|| "nothing".to_owned(), |v| v.to_string());
                errors.push(FieldError::new(format!("{path}.{name}"), format!("1 to {most}, found {found}")));
                0
            }
        };
        let messages = bounded("messages", dto.messages, MOST_CAP_MESSAGES);
        let days = bounded("days", dto.days, MOST_CAP_DAYS);
        match errors.is_empty() {
            true => Ok(MarketingCap { messages, days }),
            false => Err(errors),
        }
    }

    /// Messages allowed in the period.
    pub fn messages(self) -> u32 {
        self.messages
    }

    /// The period, in days.
    pub fn days(self) -> u32 {
        self.days
    }

    /// As the wire shows it.
    pub fn to_dto(self) -> MarketingCapDto {
        MarketingCapDto { messages: Some(i64::from(self.messages)), days: Some(i64::from(self.days)) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_values_are_bounded_and_named_when_wrong() {
        let cap =
            MarketingCap::from_dto(&MarketingCapDto { messages: Some(2), days: Some(7) }, "settings.marketing_cap");
        assert_eq!(cap.map(|c| (c.messages(), c.days())), Ok((2, 7)));
        let refused =
            MarketingCap::from_dto(&MarketingCapDto { messages: Some(0), days: Some(91) }, "settings.marketing_cap")
                .expect_err("out of bounds");
        let paths: Vec<&str> = refused.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(paths, ["settings.marketing_cap.messages", "settings.marketing_cap.days"]);
        assert!(MarketingCap::from_dto(&MarketingCapDto::default(), "x").is_err(), "both are needed");
    }
}
