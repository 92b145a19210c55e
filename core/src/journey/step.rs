//! A journey's steps and the tests its branches make, from the wire and back.

use chrono::Duration;

use super::{
    MOST_BRANCH_DEPTH, parse_id, parse_wait,
    timing::{WaitUntil, Weekdays, format_clock, parse_clock},
};
use crate::{
    ContactField, FieldError, FieldTest, Keyword, MOST_SEGMENT_CHARS, MOST_TAG_CHARS, PushType, format_minutes,
    wire::{JourneyConditionDto, JourneyStepDto},
};

/// The longest address a webhook step posts to, as a webhook's.
pub const MOST_WEBHOOK_URL_CHARS: usize = 2048;

/// The longest text a send step has, in characters (ten concatenated parts).
pub const MOST_JOURNEY_TEXT_CHARS: usize = 1530;

/// A test a branch makes on the contact.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Condition {
    /// It clicked a link of the journey's last send to it.
    Clicked,
    /// It replied since the journey's last send to it.
    Replied,
    /// It replied with the keyword since the journey's last send to it.
    Keyword(Keyword),
    /// The journey's last send to it was delivered.
    Delivered,
    /// Its contact is in one of the account's segments.
    Segment(i64),
    /// Its contact has the tag.
    Tag(String),
    /// It is in the list.
    List(i64),
    /// Its contact's field compares so with the value.
    Field {
        /// The field.
        field: ContactField,
        /// How.
        test: FieldTest,
        /// The value, trimmed.
        value: String,
    },
}

/// How long a `wait` step waits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Wait {
    /// So long.
    For(Duration),
    /// Until the next of some days of the week at a time, in the contact's own time.
    Until(WaitUntil),
}

/// Adding or removing a tag.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TagChange {
    /// Tags the contact.
    Add(String),
    /// Takes the tag off.
    Remove(String),
}

/// Adding to or removing from a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ListChange {
    /// Adds the number to the list.
    Add(i64),
    /// Takes it out.
    Remove(i64),
}

/// One step of a journey.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Sends a message: every rule of a campaign applies (blacklist, consent, the marketing
    /// window, the frequency cap, credits, moderation).
    Send {
        /// The text, with merge fields.
        text: String,
        /// Alert or marketing.
        pushtype: PushType,
        /// The addresses its short-link markers stand for.
        links: Vec<String>,
        /// The sender, else the account's default.
        sender: Option<String>,
    },
    /// Waits so long, or until a day and time.
    Wait(Wait),
    /// Goes one way or the other.
    Branch {
        /// The test.
        condition: Condition,
        /// The steps when it holds.
        then: Vec<Step>,
        /// The steps when it does not.
        otherwise: Vec<Step>,
    },
    /// Tags the contact, or takes a tag off.
    Tag(TagChange),
    /// Adds the number to a list, or takes it out.
    List(ListChange),
    /// Posts the contact's place to an address, signed as texto's webhooks are.
    Webhook(String),
    /// Ends the contact's way through the journey.
    End,
}

impl Step {
    /// Its type on the wire.
    pub fn kind(&self) -> &'static str {
        match self {
            Step::Send { .. } => "send",
            Step::Wait(_) => "wait",
            Step::Branch { .. } => "branch",
            Step::Tag(_) => "tag",
            Step::List(_) => "list",
            Step::Webhook(_) => "webhook",
            Step::End => "end",
        }
    }

    /// The step on the wire.
    pub fn to_wire(&self) -> JourneyStepDto {
        let shown = JourneyStepDto { kind: self.kind().to_owned(), ..JourneyStepDto::default() };
        match self {
            Step::Send { text, pushtype, links, sender } => JourneyStepDto {
                text: Some(text.clone()),
                pushtype: Some(pushtype.as_str().to_owned()),
                links: links.clone(),
                sender: sender.clone(),
                ..shown
            },
            Step::Wait(Wait::For(duration)) => JourneyStepDto { duration: Some(format_wait(*duration)), ..shown },
            Step::Wait(Wait::Until(until)) => {
                JourneyStepDto { until: Some(format_clock(until.at)), days: until.days.to_wire(), ..shown }
            }
            Step::Branch { condition, then, otherwise } => JourneyStepDto {
                condition: Some(Box::new(condition.to_wire())),
                then: then.iter().map(Step::to_wire).collect(),
                otherwise: otherwise.iter().map(Step::to_wire).collect(),
                ..shown
            },
            Step::Tag(TagChange::Add(tag)) => JourneyStepDto { add: Some(tag.clone()), ..shown },
            Step::Tag(TagChange::Remove(tag)) => JourneyStepDto { remove: Some(tag.clone()), ..shown },
            Step::List(ListChange::Add(list)) => JourneyStepDto { add: Some(list.to_string()), ..shown },
            Step::List(ListChange::Remove(list)) => JourneyStepDto { remove: Some(list.to_string()), ..shown },
            Step::Webhook(url) => JourneyStepDto { url: Some(url.clone()), ..shown },
            Step::End => shown,
        }
    }
}

/// A wait as written back: whole days, hours, minutes, else seconds.
fn format_wait(duration: Duration) -> String {
    let seconds = duration.num_seconds();
    match seconds % 60 {
        0 => format_minutes(u32::try_from(seconds / 60).unwrap_or(u32::MAX)),
        _ => format!("{seconds}s"),
    }
}

impl Condition {
    /// The test on the wire.
    pub fn to_wire(&self) -> JourneyConditionDto {
        let shown = |kind: &str| JourneyConditionDto { kind: kind.to_owned(), ..JourneyConditionDto::default() };
        match self {
            Condition::Clicked => shown("clicked"),
            Condition::Replied => shown("replied"),
            Condition::Keyword(keyword) => {
                JourneyConditionDto { value: Some(keyword.as_str().to_owned()), ..shown("keyword") }
            }
            Condition::Delivered => shown("delivered"),
            Condition::Segment(segment) => {
                JourneyConditionDto { segment: Some(segment.to_string()), ..shown("segment") }
            }
            Condition::Tag(tag) => JourneyConditionDto { value: Some(tag.clone()), ..shown("tag") },
            Condition::List(list) => JourneyConditionDto { list: Some(list.to_string()), ..shown("list") },
            Condition::Field { field, test, value } => JourneyConditionDto {
                field: Some(field.name().to_owned()),
                test: Some(test.as_str().to_owned()),
                value: Some(value.clone()),
                ..shown("field")
            },
        }
    }
}

/// How many steps `steps` hold, branches' included.
pub(super) fn count(steps: &[Step]) -> usize {
    steps
        .iter()
        .map(|step| match step {
            Step::Branch { then, otherwise, .. } => 1 + count(then) + count(otherwise),
            _ => 1,
        })
        .sum()
}

/// The steps at `path`, `depth` branches deep; their errors go to `errors`.
pub(super) fn parse_steps(
    steps: &[JourneyStepDto],
    path: &str,
    depth: usize,
    errors: &mut Vec<FieldError>,
) -> Vec<Step> {
    steps.iter().enumerate().filter_map(|(i, step)| parse_step(step, &format!("{path}[{i}]"), depth, errors)).collect()
}

fn parse_step(step: &JourneyStepDto, path: &str, depth: usize, errors: &mut Vec<FieldError>) -> Option<Step> {
    let mut fail = |field: &str, why: String| refuse(errors, path, field, why);
    match step.kind.trim() {
        "send" => {
            let text = step.text.as_deref().unwrap_or("").trim();
            if text.is_empty() || text.chars().count() > MOST_JOURNEY_TEXT_CHARS {
                return fail("text", format!("1 to {MOST_JOURNEY_TEXT_CHARS} characters"));
            }
            let pushtype = match step.pushtype.as_deref().map(str::trim).filter(|p| !p.is_empty()) {
                None => PushType::Alert,
                Some(given) => match PushType::parse(given) {
                    Some(pushtype) => pushtype,
                    None => return fail("pushtype", "alert or marketing".into()),
                },
            };
            let sender = step.sender.as_deref().map(str::trim).filter(|s| !s.is_empty());
            if let Some(sender) = sender
                && let Err(why) = crate::Sender::parse(sender)
            {
                return fail("sender", why);
            }
            let links: Vec<String> = step.links.iter().map(|l| l.trim().to_owned()).collect();
            if links.len() != text.matches(crate::SHORT_MARKER).count()
                || links.iter().any(|l| !(l.starts_with("https://") || l.starts_with("http://")) || l.len() > 2000)
            {
                let why = format!("one http(s) address of at most 2000 characters for each {}", crate::SHORT_MARKER);
                return fail("links", why);
            }
            Some(Step::Send { text: text.to_owned(), pushtype, links, sender: sender.map(str::to_owned) })
        }
        "wait" => {
            let waited = match (step.duration.as_deref(), step.until.as_deref()) {
                (Some(duration), None) => parse_wait(duration, &format!("{path}.duration")).map(Wait::For),
                (None, Some(until)) => parse_clock(Some(until), &format!("{path}.until")).and_then(|at| {
                    let days = Weekdays::parse(&step.days, &format!("{path}.days"), Some(Weekdays::EVERY_DAY))?;
                    Ok(Wait::Until(WaitUntil { days, at }))
                }),
                _ => Err(FieldError::new(
                    format!("{path}.duration"),
                    "how long (30s, 2h, 3d), or until a time of day (until: 10:00, with days: mon …)",
                )),
            };
            waited.map(Step::Wait).map_err(|e| errors.push(e)).ok()
        }
        "branch" => {
            if depth >= MOST_BRANCH_DEPTH {
                return refuse(errors, path, "type", format!("branches nest at most {MOST_BRANCH_DEPTH} deep"));
            }
            let condition = match step.condition.as_deref() {
                Some(condition) => parse_condition(condition, &format!("{path}.if")).map_err(|e| errors.push(e)).ok(),
                None => refuse(errors, path, "if", format!("the test: {TESTS}")),
            };
            let then = parse_steps(&step.then, &format!("{path}.then"), depth + 1, errors);
            let otherwise = parse_steps(&step.otherwise, &format!("{path}.else"), depth + 1, errors);
            Some(Step::Branch { condition: condition?, then, otherwise })
        }
        "tag" => match (tag(step.add.as_deref()), tag(step.remove.as_deref())) {
            (Some(added), None) => Some(Step::Tag(TagChange::Add(added))),
            (None, Some(removed)) => Some(Step::Tag(TagChange::Remove(removed))),
            _ => fail("add", format!("a tag to add or (remove) to take off, 1 to {MOST_TAG_CHARS} characters")),
        },
        "list" => match (step.add.as_deref(), step.remove.as_deref()) {
            (Some(added), None) => Some(Step::List(ListChange::Add(
                parse_id(Some(added), &format!("{path}.add"), "list").map_err(|e| errors.push(e)).ok()?,
            ))),
            (None, Some(removed)) => Some(Step::List(ListChange::Remove(
                parse_id(Some(removed), &format!("{path}.remove"), "list").map_err(|e| errors.push(e)).ok()?,
            ))),
            _ => fail("add", "a list to add the number to, or (remove) to take it out of".into()),
        },
        "webhook" => {
            let url = step.url.as_deref().unwrap_or("").trim();
            if !(url.starts_with("https://") || url.starts_with("http://"))
                || url.chars().count() > MOST_WEBHOOK_URL_CHARS
            {
                let why = format!("the http(s) address to post to, at most {MOST_WEBHOOK_URL_CHARS} characters");
                return fail("url", why);
            }
            Some(Step::Webhook(url.to_owned()))
        }
        "end" => Some(Step::End),
        _ => fail("type", "send, wait, branch, tag, list, webhook or end".into()),
    }
}

/// Notes that `path.field` is wrong, and why; no step.
fn refuse<T>(errors: &mut Vec<FieldError>, path: &str, field: &str, why: impl Into<String>) -> Option<T> {
    errors.push(FieldError::new(format!("{path}.{field}"), why));
    None
}

/// A tag as given, trimmed: 1 to [`MOST_TAG_CHARS`] characters.
fn tag(given: Option<&str>) -> Option<String> {
    let tag = given?.trim();
    (!tag.is_empty() && tag.chars().count() <= MOST_TAG_CHARS).then(|| tag.to_owned())
}

/// What a branch or an exit may test.
const TESTS: &str = "clicked, replied, keyword, delivered, tag, list, segment or field";

/// A branch's or an exit's test at `path`.
pub(super) fn parse_condition(condition: &JourneyConditionDto, path: &str) -> Result<Condition, FieldError> {
    match condition.kind.trim() {
        "clicked" => Ok(Condition::Clicked),
        "replied" => Ok(Condition::Replied),
        "keyword" => {
            Ok(Condition::Keyword(Keyword::parse(condition.value.as_deref().unwrap_or(""), &format!("{path}.value"))?))
        }
        "delivered" => Ok(Condition::Delivered),
        "segment" => {
            Ok(Condition::Segment(parse_id(condition.segment.as_deref(), &format!("{path}.segment"), "segment")?))
        }
        "tag" => tag(condition.value.as_deref())
            .map(Condition::Tag)
            .ok_or_else(|| FieldError::new(format!("{path}.value"), format!("1 to {MOST_TAG_CHARS} characters"))),
        "list" => Ok(Condition::List(parse_id(condition.list.as_deref(), &format!("{path}.list"), "list")?)),
        "field" => {
            let field = ContactField::parse(condition.field.as_deref().unwrap_or(""), &format!("{path}.field"))?;
            let asked = condition.test.as_deref().unwrap_or("").trim();
            let test = FieldTest::ALL
                .into_iter()
                .find(|t| t.as_str() == asked)
                .ok_or_else(|| FieldError::new(format!("{path}.test"), "equals, contains, before or after"))?;
            let value = condition.value.as_deref().unwrap_or("").trim();
            if value.is_empty() || value.chars().count() > MOST_SEGMENT_CHARS {
                return Err(FieldError::new(format!("{path}.value"), format!("1 to {MOST_SEGMENT_CHARS} characters")));
            }
            Ok(Condition::Field { field, test, value: value.to_owned() })
        }
        _ => Err(FieldError::new(format!("{path}.type"), TESTS)),
    }
}

/// What a branch may ask about a contact, read when it walks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ContactFacts {
    /// It clicked a link of the journey's last send to it.
    pub clicked: bool,
    /// It replied since the journey's last send to it.
    pub replied: bool,
    /// The keywords of its replies since then.
    pub keywords: Vec<String>,
    /// The journey's last send to it was delivered.
    pub delivered: bool,
    /// The segments it is in, among those the journey asks about.
    pub segments: Vec<i64>,
    /// Its contact's tags.
    pub tags: Vec<String>,
    /// The lists it is in.
    pub lists: Vec<i64>,
    /// Its first name.
    pub firstname: String,
    /// Its last name.
    pub lastname: String,
    /// Its custom fields.
    pub fields: std::collections::BTreeMap<String, String>,
}

impl Condition {
    /// Whether the test holds for a contact with `facts`. Fields compare as segments compare
    /// them: without regard to case, and `before`/`after` as numbers when the value is one
    /// (a field that is not is not before or after it), else as texts (dates as `Y-m-d`).
    pub fn holds(&self, facts: &ContactFacts) -> bool {
        match self {
            Condition::Clicked => facts.clicked,
            Condition::Replied => facts.replied,
            Condition::Keyword(keyword) => facts.keywords.iter().any(|k| k == keyword.as_str()),
            Condition::Delivered => facts.delivered,
            Condition::Segment(segment) => facts.segments.contains(segment),
            Condition::Tag(tag) => facts.tags.iter().any(|t| t == tag),
            Condition::List(list) => facts.lists.contains(list),
            Condition::Field { field, test, value } => {
                let stored = match field {
                    ContactField::FirstName => facts.firstname.as_str(),
                    ContactField::LastName => facts.lastname.as_str(),
                    ContactField::Custom(name) => facts.fields.get(name).map_or("", String::as_str),
                };
                let ordering = || match value.parse::<f64>().ok().filter(|n| n.is_finite()) {
                    Some(number) => stored.trim().parse::<f64>().ok().and_then(|s| s.partial_cmp(&number)),
                    None => (!stored.is_empty()).then(|| stored.cmp(value.as_str())),
                };
                match test {
                    FieldTest::Equals => stored.to_lowercase() == value.to_lowercase(),
                    FieldTest::Contains => stored.to_lowercase().contains(&value.to_lowercase()),
                    FieldTest::Before => ordering() == Some(std::cmp::Ordering::Less),
                    FieldTest::After => ordering() == Some(std::cmp::Ordering::Greater),
                }
            }
        }
    }
}
