//! Segments: a saved filter over an account's contacts. A contact is in the segment when every
//! rule holds for it, or, for a segment that matches any of its rules, when one does. The rules
//! are parsed here from the wire once; the server turns them into SQL and the web app edits them.

use crate::{FieldError, wire::SegmentRuleDto};

/// The most rules one segment has.
pub const MOST_RULES: usize = 20;

/// The longest segment name, and the longest value a rule compares with, in characters.
pub const MOST_SEGMENT_CHARS: usize = 200;

/// The longest engagement window, in days (about three years).
pub const MOST_DAYS: u32 = 1100;

/// A contact's field a rule reads: a name, or a custom field.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ContactField {
    /// The first name.
    FirstName,
    /// The last name.
    LastName,
    /// A custom field, by its name (lower-case letters, digits and `_`, from a letter).
    Custom(String),
}

impl ContactField {
    /// The field called `name` (`firstname`, `lastname` or a custom field's name).
    pub fn parse(name: &str, path: &str) -> Result<ContactField, FieldError> {
        match name.trim() {
            "firstname" => Ok(ContactField::FirstName),
            "lastname" => Ok(ContactField::LastName),
            custom if is_custom_field_name(custom) => Ok(ContactField::Custom(custom.to_owned())),
            _ => Err(FieldError::new(path, "a field's name is lower-case letters, digits and _, from a letter")),
        }
    }

    /// Its name on the wire.
    pub fn name(&self) -> &str {
        match self {
            ContactField::FirstName => "firstname",
            ContactField::LastName => "lastname",
            ContactField::Custom(name) => name,
        }
    }
}

/// Whether `name` may name a custom field: 1 to 40 lower-case letters, digits and `_`, from a
/// letter.
pub fn is_custom_field_name(name: &str) -> bool {
    name.len() <= 40
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// How a field is compared with a rule's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FieldTest {
    /// The same text, without regard to case.
    Equals,
    /// Holds the text, without regard to case.
    Contains,
    /// Below the value: a smaller number, or an earlier date (`Y-m-d` texts sort by date).
    Before,
    /// Above the value.
    After,
}

impl FieldTest {
    /// Every test, in the order the app offers them.
    pub const ALL: [FieldTest; 4] = [FieldTest::Equals, FieldTest::Contains, FieldTest::Before, FieldTest::After];

    /// Its name on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            FieldTest::Equals => "equals",
            FieldTest::Contains => "contains",
            FieldTest::Before => "before",
            FieldTest::After => "after",
        }
    }
}

/// What a contact did (or was done to it) with the account's messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Engagement {
    /// A message to it was delivered.
    Delivered,
    /// It clicked a link of a message.
    Clicked,
    /// It replied.
    Replied,
}

impl Engagement {
    /// Every kind, in the order the app offers them.
    pub const ALL: [Engagement; 3] = [Engagement::Delivered, Engagement::Clicked, Engagement::Replied];

    /// Its name on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Engagement::Delivered => "delivered",
            Engagement::Clicked => "clicked",
            Engagement::Replied => "replied",
        }
    }
}

/// When an engagement counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EngagementWindow {
    /// At any time.
    Ever,
    /// In the last so many days.
    LastDays(u32),
    /// In answer to one campaign (its ticket).
    Campaign(i64),
}

/// One rule of a segment.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum SegmentRule {
    /// A field compared with a value.
    Field {
        /// The field.
        field: ContactField,
        /// How.
        test: FieldTest,
        /// The value, trimmed.
        value: String,
    },
    /// Has the tag.
    Tag(String),
    /// Is in the list.
    List(i64),
    /// Has an opt-in in force (`true`), or has none (`false`).
    Consent(bool),
    /// Did (or, `negated`, never did) something in a window: "clicked in the last 30 days",
    /// "never clicked", "not delivered in campaign 12".
    Engaged {
        /// What.
        what: Engagement,
        /// When.
        window: EngagementWindow,
        /// The contact did not.
        negated: bool,
    },
}

/// How a segment's rules combine.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum SegmentMatch {
    /// A contact meets every rule (no rule: every contact).
    #[default]
    All,
    /// A contact meets at least one rule (no rule: every contact, as for `All`).
    Any,
}

impl SegmentMatch {
    /// Both, in the order the app offers them.
    pub const ALL: [SegmentMatch; 2] = [SegmentMatch::All, SegmentMatch::Any];

    /// Its name on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            SegmentMatch::All => "all",
            SegmentMatch::Any => "any",
        }
    }

    /// `segment.match` from the wire: `all` (also when it is left out or empty) or `any`, in any
    /// case.
    pub fn parse(given: Option<&str>) -> Result<SegmentMatch, FieldError> {
        match given.map(|m| m.trim().to_ascii_lowercase()).as_deref().unwrap_or("") {
            "" | "all" => Ok(SegmentMatch::All),
            "any" => Ok(SegmentMatch::Any),
            _ => Err(FieldError::new("segment.match", "all (every rule holds) or any (at least one holds)")),
        }
    }
}

/// A segment's rules and how they combine: what its contacts meet.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct SegmentFilter {
    /// Every rule, or any.
    pub matching: SegmentMatch,
    /// The rules.
    pub rules: Vec<SegmentRule>,
}

impl SegmentFilter {
    /// `segment.match` and `segment.rules` from the wire, every error named by its path.
    pub fn parse(matching: Option<&str>, rules: &[SegmentRuleDto]) -> Result<SegmentFilter, Vec<FieldError>> {
        match (SegmentMatch::parse(matching), parse_segment_rules(rules)) {
            (Ok(matching), Ok(rules)) => Ok(SegmentFilter { matching, rules }),
            (matching, rules) => Err(matching.err().into_iter().chain(rules.err().unwrap_or_default()).collect()),
        }
    }
}

/// The rules of a segment from the wire (`segment.rules`): each one checked, its errors named
/// by `segment.rules[i]`.
pub fn parse_segment_rules(rules: &[SegmentRuleDto]) -> Result<Vec<SegmentRule>, Vec<FieldError>> {
    let mut errors = Vec::new();
    if rules.len() > MOST_RULES {
        errors.push(FieldError::new("segment.rules", format!("at most {MOST_RULES} rules")));
    }
    let parsed: Vec<SegmentRule> = rules
        .iter()
        .enumerate()
        .filter_map(|(i, rule)| parse_rule(rule, &format!("segment.rules[{i}]")).map_err(|e| errors.push(e)).ok())
        .collect();
    if errors.is_empty() { Ok(parsed) } else { Err(errors) }
}

fn parse_rule(rule: &SegmentRuleDto, path: &str) -> Result<SegmentRule, FieldError> {
    let value = || -> Result<String, FieldError> {
        let value = rule.value.as_deref().unwrap_or("").trim();
        if value.is_empty() || value.chars().count() > MOST_SEGMENT_CHARS {
            return Err(FieldError::new(format!("{path}.value"), format!("1 to {MOST_SEGMENT_CHARS} characters")));
        }
        Ok(value.to_owned())
    };
    let id = |given: Option<&str>, name: &str| -> Result<i64, FieldError> {
        given
            .and_then(|id| id.trim().parse::<i64>().ok())
            .filter(|id| *id > 0)
            .ok_or_else(|| FieldError::new(format!("{path}.{name}"), format!("the {name}'s id, a positive number")))
    };
    match rule.kind.trim() {
        "field" => {
            let field = ContactField::parse(rule.field.as_deref().unwrap_or(""), &format!("{path}.field"))?;
            let asked = rule.test.as_deref().unwrap_or("").trim();
            let test = FieldTest::ALL
                .into_iter()
                .find(|t| t.as_str() == asked)
                .ok_or_else(|| FieldError::new(format!("{path}.test"), "equals, contains, before or after"))?;
            Ok(SegmentRule::Field { field, test, value: value()? })
        }
        "tag" => Ok(SegmentRule::Tag(value()?)),
        "list" => Ok(SegmentRule::List(id(rule.list.as_deref(), "list")?)),
        "consent" => match rule.value.as_deref().map(str::trim) {
            Some("1" | "yes" | "true") => Ok(SegmentRule::Consent(true)),
            Some("0" | "no" | "false") => Ok(SegmentRule::Consent(false)),
            _ => Err(FieldError::new(format!("{path}.value"), "1 (has an opt-in) or 0 (has none)")),
        },
        kind => {
            let what = Engagement::ALL.into_iter().find(|e| e.as_str() == kind).ok_or_else(|| {
                FieldError::new(format!("{path}.type"), "field, tag, list, consent, delivered, clicked or replied")
            })?;
            let window = match (rule.campaign.as_deref(), rule.days) {
                (Some(_), Some(_)) => {
                    return Err(FieldError::new(format!("{path}.days"), "a campaign or a number of days, not both"));
                }
                (Some(campaign), None) => EngagementWindow::Campaign(id(Some(campaign), "campaign")?),
                (None, Some(days)) => match u32::try_from(days).ok().filter(|d| (1..=MOST_DAYS).contains(d)) {
                    Some(days) => EngagementWindow::LastDays(days),
                    None => return Err(FieldError::new(format!("{path}.days"), format!("1 to {MOST_DAYS} days"))),
                },
                (None, None) => EngagementWindow::Ever,
            };
            Ok(SegmentRule::Engaged { what, window, negated: rule.negate.unwrap_or(false) })
        }
    }
}

impl SegmentRule {
    /// The rule on the wire.
    pub fn to_wire(&self) -> SegmentRuleDto {
        match self {
            SegmentRule::Field { field, test, value } => SegmentRuleDto {
                kind: "field".into(),
                field: Some(field.name().to_owned()),
                test: Some(test.as_str().to_owned()),
                value: Some(value.clone()),
                ..SegmentRuleDto::default()
            },
            SegmentRule::Tag(tag) => {
                SegmentRuleDto { kind: "tag".into(), value: Some(tag.clone()), ..SegmentRuleDto::default() }
            }
            SegmentRule::List(list) => {
                SegmentRuleDto { kind: "list".into(), list: Some(list.to_string()), ..SegmentRuleDto::default() }
            }
            SegmentRule::Consent(given) => SegmentRuleDto {
                kind: "consent".into(),
                value: Some(if *given { "1" } else { "0" }.to_owned()),
                ..SegmentRuleDto::default()
            },
            SegmentRule::Engaged { what, window, negated } => SegmentRuleDto {
                kind: what.as_str().to_owned(),
                campaign: match window {
                    EngagementWindow::Campaign(c) => Some(c.to_string()),
                    _ => None,
                },
                days: match window {
                    EngagementWindow::LastDays(d) => Some(i64::from(*d)),
                    _ => None,
                },
                negate: negated.then_some(true),
                ..SegmentRuleDto::default()
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tag(value: &str) -> SegmentRuleDto {
        SegmentRuleDto { kind: "tag".into(), value: Some(value.into()), ..SegmentRuleDto::default() }
    }

    #[test]
    fn a_segment_matches_every_rule_unless_it_asks_for_any() {
        for given in [None, Some(""), Some("all"), Some(" All ")] {
            assert_eq!(
                SegmentFilter::parse(given, &[tag("vip")]).map(|f| f.matching),
                Ok(SegmentMatch::All),
                "{given:?}"
            );
        }
        let any = SegmentFilter::parse(Some("ANY"), &[tag("vip"), tag("press")]).expect("any");
        assert_eq!(any.matching, SegmentMatch::Any);
        assert_eq!(any.rules, [SegmentRule::Tag("vip".into()), SegmentRule::Tag("press".into())]);
        assert_eq!(
            SegmentMatch::ALL.map(|m| SegmentMatch::parse(Some(m.as_str()))),
            [Ok(SegmentMatch::All), Ok(SegmentMatch::Any)]
        );
    }

    #[test]
    fn a_wrong_match_and_a_wrong_rule_are_both_named() {
        let errors = SegmentFilter::parse(Some("some"), &[tag("vip"), tag(" ")]).expect_err("two errors");
        let paths: Vec<&str> = errors.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(paths, ["segment.match", "segment.rules[1].value"]);
    }
}
