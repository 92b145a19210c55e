//! Journeys: messages that send themselves. A journey has one trigger (what puts a contact in
//! it) and steps done in order, with branches; a contact goes through the version of the
//! journey it entered. The steps are parsed here from the wire once, every error named by its
//! path (`journey.steps[2].then[0].text`); [`Program`] lays them out as numbered nodes for the
//! server's runner, which keeps each contact's place as a node's number.

mod program;
mod step;
mod timing;
mod trigger;

pub use program::{Effect, Node, NodeKind, Program, Rest, Walk};
pub use step::{
    Condition, ContactFacts, ListChange, MOST_JOURNEY_TEXT_CHARS, MOST_WEBHOOK_URL_CHARS, Step, TagChange, Wait,
};
pub use timing::{DateTrigger, MOST_DATE_OFFSET_DAYS, Repeat, Schedule, WaitUntil, Weekdays, local_instant};
pub use trigger::Trigger;

use chrono::Duration;

use crate::{FieldError, MOST_SEGMENT_CHARS, parse_duration, wire::JourneyDto};

/// The most steps a journey has, branches' included.
pub const MOST_JOURNEY_STEPS: usize = 100;

/// The highest cap on how many contacts may be in a journey at once.
pub const MOST_AT_ONCE: u32 = 10_000_000;

/// How deep branches may be nested in one another.
pub const MOST_BRANCH_DEPTH: usize = 5;

/// The longest a journey waits in one step, and the longest re-entry delay (about a year).
pub const MOST_JOURNEY_WAIT_DAYS: i64 = 366;

/// A journey's definition: what a version holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Journey {
    /// Its name, trimmed.
    pub name: String,
    /// What puts a contact in it.
    pub trigger: Trigger,
    /// Its steps.
    pub steps: Vec<Step>,
    /// After how long a contact that went through may enter again; `None`: never.
    pub reentry: Option<Duration>,
    /// A test that takes a contact out as soon as it holds at one of its steps.
    pub exit: Option<Condition>,
    /// How many contacts may be in it at once; `None`: any number.
    pub most_at_once: Option<u32>,
}

impl Journey {
    /// `journey` from the wire, every error named by its path.
    pub fn parse(journey: &JourneyDto) -> Result<Journey, Vec<FieldError>> {
        let mut errors = Vec::new();
        let name = journey.name.as_deref().unwrap_or("").trim();
        if name.is_empty() || name.chars().count() > MOST_SEGMENT_CHARS {
            errors.push(FieldError::new("journey.name", format!("1 to {MOST_SEGMENT_CHARS} characters")));
        }
        let trigger = Trigger::parse(journey.trigger.as_ref()).map_err(|e| errors.push(e)).ok();
        let steps = step::parse_steps(&journey.steps, "journey.steps", 0, &mut errors);
        if journey.steps.is_empty() {
            errors.push(FieldError::new("journey.steps", "at least one step"));
        }
        let counted = step::count(&steps);
        if counted > MOST_JOURNEY_STEPS {
            errors.push(FieldError::new("journey.steps", format!("{counted} steps: at most {MOST_JOURNEY_STEPS}")));
        }
        let reentry = match journey.reentry.as_deref().map(str::trim).filter(|r| !r.is_empty()) {
            None | Some("never") => None,
            Some(given) => parse_wait(given, "journey.reentry").map_err(|e| errors.push(e)).ok(),
        };
        let exit = journey
            .exit
            .as_ref()
            .filter(|exit| !exit.kind.trim().is_empty())
            .and_then(|exit| step::parse_condition(exit, "journey.exit").map_err(|e| errors.push(e)).ok());
        let most_at_once = match journey.most_at_once {
            None => None,
            Some(most) => match u32::try_from(most).ok().filter(|m| (1..=MOST_AT_ONCE).contains(m)) {
                Some(most) => Some(most),
                None => {
                    errors.push(FieldError::new("journey.most_at_once", format!("from 1 to {MOST_AT_ONCE}")));
                    None
                }
            },
        };
        match (trigger, errors.is_empty()) {
            (Some(trigger), true) => Ok(Journey { name: name.to_owned(), trigger, steps, reentry, exit, most_at_once }),
            _ => Err(errors),
        }
    }

    /// The journey on the wire (without its id, status and dates, which the server adds).
    pub fn to_wire(&self) -> JourneyDto {
        JourneyDto {
            name: Some(self.name.clone()),
            trigger: Some(self.trigger.to_wire()),
            steps: self.steps.iter().map(Step::to_wire).collect(),
            reentry: self.reentry.map(|d| crate::format_minutes(d.num_minutes().max(0) as u32)),
            exit: self.exit.as_ref().map(Condition::to_wire),
            most_at_once: self.most_at_once.map(i64::from),
            ..JourneyDto::default()
        }
    }
}

/// A wait or a re-entry delay: a duration from a second to [`MOST_JOURNEY_WAIT_DAYS`].
fn parse_wait(given: &str, path: &str) -> Result<Duration, FieldError> {
    let duration = parse_duration(given).map_err(|why| FieldError::new(path, why))?;
    if duration < Duration::seconds(1) || duration > Duration::days(MOST_JOURNEY_WAIT_DAYS) {
        return Err(FieldError::new(path, format!("from 1s to {MOST_JOURNEY_WAIT_DAYS}d")));
    }
    Ok(duration)
}

/// A positive id named `name` at `path`.
fn parse_id(given: Option<&str>, path: &str, name: &str) -> Result<i64, FieldError> {
    given
        .and_then(|id| id.trim().parse::<i64>().ok())
        .filter(|id| *id > 0)
        .ok_or_else(|| FieldError::new(path, format!("the {name}'s id, a positive number")))
}

/// What state a journey is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum JourneyStatus {
    /// Being written: nobody enters it.
    Draft,
    /// Running: contacts enter it and go through it.
    Live,
    /// Stopped for a while: nobody enters, contacts wait where they are.
    Paused,
    /// Over: nobody enters, and the contacts in it leave.
    Archived,
}

impl JourneyStatus {
    /// Every state, in the order the app shows them.
    pub const ALL: [JourneyStatus; 4] =
        [JourneyStatus::Draft, JourneyStatus::Live, JourneyStatus::Paused, JourneyStatus::Archived];

    /// Its name on the wire and in the store.
    pub fn as_str(self) -> &'static str {
        match self {
            JourneyStatus::Draft => "draft",
            JourneyStatus::Live => "live",
            JourneyStatus::Paused => "paused",
            JourneyStatus::Archived => "archived",
        }
    }

    /// A state by its name.
    pub fn parse(name: &str) -> Option<JourneyStatus> {
        JourneyStatus::ALL.into_iter().find(|s| s.as_str() == name.trim().to_ascii_lowercase())
    }

    /// Whether a journey in this state may be put in `next` (`PUT /journey/:id/status`): a
    /// draft or a paused journey goes live, a live one pauses, any but an archived one is
    /// archived, and an archived one stays so.
    pub fn may_become(self, next: JourneyStatus) -> bool {
        use JourneyStatus::*;
        matches!((self, next), (Draft | Paused, Live) | (Live, Paused) | (Draft | Live | Paused, Archived))
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod timing_tests;
