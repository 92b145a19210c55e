//! What puts a contact in a journey, from the wire and back.

use super::{
    parse_id,
    timing::{DateTrigger, Repeat, Schedule, Weekdays, format_clock, parse_clock},
};
use crate::{BuiltinKeyword, FieldError, Keyword, wire::JourneyTriggerDto};

/// What puts a contact in a journey.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Trigger {
    /// Joining one of the account's lists (an import, a form, a keyword, by hand).
    List(i64),
    /// An application's call to `POST /journey/:id/enter`.
    Api,
    /// A reply starting with one of the account's own keywords (not STOP, START or HELP).
    Keyword(Keyword),
    /// A click on a link of one of the account's campaigns.
    Click(i64),
    /// A date field of the contact: a birthday, a renewal.
    Date(DateTrigger),
    /// Starting to match one of the account's segments, whatever made the contact match.
    Segment(i64),
    /// A schedule: each time it comes round, the contacts of one of the account's segments.
    Schedule {
        /// When.
        schedule: Schedule,
        /// The segment.
        segment: i64,
    },
}

const KINDS: &str = "list, segment, keyword, click, date, schedule or api";

impl Trigger {
    /// Its type on the wire.
    pub fn kind(&self) -> &'static str {
        match self {
            Trigger::List(_) => "list",
            Trigger::Api => "api",
            Trigger::Keyword(_) => "keyword",
            Trigger::Click(_) => "click",
            Trigger::Segment(_) => "segment",
            Trigger::Date(_) => "date",
            Trigger::Schedule { .. } => "schedule",
        }
    }

    /// Whether the runner's planner puts contacts in it (a date, a schedule, a segment's
    /// newcomers), rather than the event that enters them.
    pub fn is_timed(&self) -> bool {
        matches!(self, Trigger::Date(_) | Trigger::Schedule { .. } | Trigger::Segment(_))
    }

    /// The trigger on the wire.
    pub fn to_wire(&self) -> JourneyTriggerDto {
        let shown = JourneyTriggerDto { kind: self.kind().to_owned(), ..JourneyTriggerDto::default() };
        match self {
            Trigger::List(list) => JourneyTriggerDto { list: Some(list.to_string()), ..shown },
            Trigger::Api => shown,
            Trigger::Keyword(keyword) => JourneyTriggerDto { keyword: Some(keyword.as_str().to_owned()), ..shown },
            Trigger::Click(campaign) => JourneyTriggerDto { campaign: Some(campaign.to_string()), ..shown },
            Trigger::Segment(segment) => JourneyTriggerDto { segment: Some(segment.to_string()), ..shown },
            Trigger::Date(date) => JourneyTriggerDto {
                field: Some(date.field.clone()),
                every: Some(if date.yearly { "year" } else { "once" }.to_owned()),
                offset: Some(date.offset_text()),
                at: Some(format_clock(date.at)),
                ..shown
            },
            Trigger::Schedule { schedule, segment } => {
                let (every, days, day) = match schedule.repeat {
                    Repeat::Daily => ("day", Vec::new(), None),
                    Repeat::Weekly(days) => ("week", days.to_wire(), None),
                    Repeat::Monthly(day) => ("month", Vec::new(), Some(day.to_string())),
                };
                JourneyTriggerDto {
                    segment: Some(segment.to_string()),
                    every: Some(every.to_owned()),
                    days,
                    day,
                    at: Some(format_clock(schedule.at)),
                    ..shown
                }
            }
        }
    }

    /// `journey.trigger` from the wire, its first error named by its path.
    pub fn parse(trigger: Option<&JourneyTriggerDto>) -> Result<Trigger, FieldError> {
        let Some(trigger) = trigger else {
            return Err(FieldError::new("journey.trigger", format!("what puts a contact in the journey: {KINDS}")));
        };
        let path = |field: &str| format!("journey.trigger.{field}");
        let every = trigger.every.as_deref().map(str::trim).unwrap_or("");
        match trigger.kind.trim() {
            "list" => Ok(Trigger::List(parse_id(trigger.list.as_deref(), &path("list"), "list")?)),
            "api" => Ok(Trigger::Api),
            "keyword" => {
                let keyword = Keyword::parse(trigger.keyword.as_deref().unwrap_or(""), &path("keyword"))?;
                match BuiltinKeyword::answering(&keyword) {
                    Some(_) => {
                        Err(FieldError::new(path("keyword"), "one of your own: STOP, START and HELP are texto's"))
                    }
                    None => Ok(Trigger::Keyword(keyword)),
                }
            }
            "click" => Ok(Trigger::Click(parse_id(trigger.campaign.as_deref(), &path("campaign"), "campaign")?)),
            "segment" => Ok(Trigger::Segment(parse_id(trigger.segment.as_deref(), &path("segment"), "segment")?)),
            "date" => Ok(Trigger::Date(DateTrigger {
                field: DateTrigger::parse_field(trigger.field.as_deref(), &path("field"))?,
                yearly: match every {
                    "" | "year" => true,
                    "once" => false,
                    _ => return Err(FieldError::new(path("every"), "year (each year on the date) or once")),
                },
                offset_days: DateTrigger::parse_offset(trigger.offset.as_deref(), &path("offset"))?,
                at: parse_clock(trigger.at.as_deref(), &path("at"))?,
            })),
            "schedule" => {
                let repeat = match every {
                    "day" => Repeat::Daily,
                    "week" => Repeat::Weekly(Weekdays::parse(&trigger.days, &path("days"), None)?),
                    "month" => Repeat::Monthly(
                        trigger
                            .day
                            .as_deref()
                            .and_then(|d| d.trim().parse::<u32>().ok())
                            .filter(|d| (1..=28).contains(d))
                            .ok_or_else(|| FieldError::new(path("day"), "the day of the month, 1 to 28"))?,
                    ),
                    _ => return Err(FieldError::new(path("every"), "day, week or month")),
                };
                let at = parse_clock(trigger.at.as_deref(), &path("at"))?;
                let segment = parse_id(trigger.segment.as_deref(), &path("segment"), "segment")?;
                Ok(Trigger::Schedule { schedule: Schedule { repeat, at }, segment })
            }
            _ => Err(FieldError::new(path("type"), KINDS)),
        }
    }
}
