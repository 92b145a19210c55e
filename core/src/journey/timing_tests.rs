//! The journeys' clock: waits until a day and time in the contact's own time, schedules in
//! Paris time, date triggers, and how each reads from the wire.

use chrono::{DateTime, NaiveDate, NaiveTime, Utc};
use chrono_tz::{Europe::Paris, Indian::Reunion};
use serde_json::json;

use super::*;
use crate::wire::JourneyDto;

fn utc(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text).expect("an RFC 3339 time").with_timezone(&Utc)
}

fn clock(text: &str) -> NaiveTime {
    NaiveTime::parse_from_str(text, "%H:%M").expect("HH:MM")
}

fn day(text: &str) -> NaiveDate {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").expect("a day")
}

fn parsed(trigger: serde_json::Value, steps: serde_json::Value) -> Result<Journey, Vec<String>> {
    let wire: JourneyDto =
        serde_json::from_value(json!({"name": "x", "trigger": trigger, "steps": steps})).expect("a journey");
    Journey::parse(&wire).map_err(|errors| errors.into_iter().map(|e| e.path).collect())
}

#[test]
fn a_wait_until_a_day_and_time_ends_at_the_next_one_in_the_contacts_own_time() {
    let monday_ten = WaitUntil { days: Weekdays::parse(&["mon".into()], "days", None).unwrap(), at: clock("10:00") };
    // Monday 30 November 2026, 09:00 in Paris (UTC+1): the same morning at 10:00.
    assert_eq!(monday_ten.next(Paris, utc("2026-11-30T08:00:00Z")), utc("2026-11-30T09:00:00Z"));
    // Past 10:00: the next Monday.
    assert_eq!(monday_ten.next(Paris, utc("2026-11-30T09:00:00Z")), utc("2026-12-07T09:00:00Z"));
    // La Réunion (UTC+4): 10:00 there is 06:00 UTC.
    assert_eq!(monday_ten.next(Reunion, utc("2026-11-30T01:00:00Z")), utc("2026-11-30T06:00:00Z"));
    // Any day: tomorrow once today's time has passed.
    let nine = WaitUntil { days: Weekdays::EVERY_DAY, at: clock("09:00") };
    assert_eq!(nine.next(Paris, utc("2026-11-30T12:00:00Z")), utc("2026-12-01T08:00:00Z"));
}

#[test]
fn a_time_summer_time_skips_is_taken_an_hour_later() {
    // 29 March 2026, 02:30 in Paris does not exist: 03:30 CEST (01:30 UTC).
    assert_eq!(local_instant(Paris, day("2026-03-29"), clock("02:30")), utc("2026-03-29T01:30:00Z"));
    // Summer: 09:00 is 07:00 UTC.
    assert_eq!(local_instant(Paris, day("2026-07-01"), clock("09:00")), utc("2026-07-01T07:00:00Z"));
}

#[test]
fn a_schedule_comes_round_once_however_many_times_it_was_missed() {
    let weekly = Schedule {
        repeat: Repeat::Weekly(Weekdays::parse(&["monday".into()], "d", None).unwrap()),
        at: clock("10:00"),
    };
    let monday_ten = utc("2026-11-30T09:00:00Z");
    assert_eq!(weekly.latest(utc("2026-11-24T12:00:00Z"), utc("2026-11-30T09:05:00Z")), Some(monday_ten));
    // Done already: not again until next Monday.
    assert_eq!(weekly.latest(monday_ten, utc("2026-12-06T23:00:00Z")), None);
    // Three weeks missed: the latest only.
    assert_eq!(weekly.latest(utc("2026-11-01T00:00:00Z"), utc("2026-11-30T09:05:00Z")), Some(monday_ten));
    // Not yet 10:00 on Monday: the Monday before.
    assert_eq!(
        weekly.latest(utc("2026-11-01T00:00:00Z"), utc("2026-11-30T08:59:00Z")),
        Some(utc("2026-11-23T09:00:00Z"))
    );
    let monthly = Schedule { repeat: Repeat::Monthly(1), at: clock("08:30") };
    assert_eq!(
        monthly.latest(utc("2026-11-01T00:00:00Z"), utc("2026-11-30T12:00:00Z")),
        Some(utc("2026-11-01T07:30:00Z"))
    );
    let daily = Schedule { repeat: Repeat::Daily, at: clock("00:00") };
    assert_eq!(
        daily.latest(utc("2026-11-01T00:00:00Z"), utc("2026-11-30T12:00:00Z")),
        Some(utc("2026-11-29T23:00:00Z"))
    );
}

#[test]
fn a_date_trigger_finds_its_dates_with_the_offset_and_29_february_on_the_28th() {
    let birthday = DateTrigger { field: "birthday".into(), offset_days: 0, at: clock("09:00"), yearly: true };
    assert_eq!(birthday.field_dates(day("2026-11-30")), ["-11-30"]);
    assert_eq!(birthday.field_dates(day("2027-02-28")), ["-02-28", "-02-29"]);
    assert_eq!(birthday.field_dates(day("2028-02-28")), ["-02-28"]);
    // Three days before the renewal, once: the whole date three days ahead.
    let renewal = DateTrigger { field: "renewal".into(), offset_days: -3, at: clock("09:00"), yearly: false };
    assert_eq!(renewal.field_dates(day("2026-12-29")), ["2027-01-01"]);
    // 09:00 of the contact's own day.
    assert_eq!(birthday.entry_time(Paris, day("2026-11-30")), utc("2026-11-30T08:00:00Z"));
    assert_eq!(birthday.entry_time(Reunion, day("2026-11-30")), utc("2026-11-30T05:00:00Z"));
}

#[test]
fn triggers_and_waits_read_from_the_wire_and_write_back_the_same() {
    let steps = json!([{"type": "wait", "until": "10:00", "days": ["mon", "Friday"]}, {"type": "send", "text": "Hi"}]);
    let birthday = json!({"type": "date", "field": "birthday", "offset": "-3d", "at": "09:00"});
    let journey = parsed(birthday, steps.clone()).expect("a birthday journey");
    assert_eq!(
        journey.trigger,
        Trigger::Date(DateTrigger { field: "birthday".into(), offset_days: -3, at: clock("09:00"), yearly: true })
    );
    assert!(journey.trigger.is_timed());
    let wire = journey.to_wire();
    assert_eq!(
        (wire.steps[0].until.as_deref(), wire.steps[0].days.clone()),
        (Some("10:00"), vec!["mon".to_owned(), "fri".to_owned()])
    );
    assert_eq!(Journey::parse(&wire).expect("reads back"), journey);
    let weekly = json!({"type": "schedule", "every": "week", "days": ["mon"], "at": "10:00", "segment": "5"});
    let journey = parsed(weekly, steps.clone()).expect("a weekly journey");
    assert_eq!(Journey::parse(&journey.to_wire()).expect("reads back"), journey);
    let keyword = parsed(json!({"type": "keyword", "keyword": " Club "}), steps.clone()).expect("a keyword journey");
    assert_eq!(keyword.to_wire().trigger.and_then(|t| t.keyword).as_deref(), Some("CLUB"));
    let newcomers = parsed(json!({"type": "segment", "segment": "5"}), steps.clone()).expect("a segment journey");
    assert_eq!((&newcomers.trigger, newcomers.trigger.is_timed()), (&Trigger::Segment(5), true));
    assert_eq!(Journey::parse(&newcomers.to_wire()).expect("reads back"), newcomers);
    let click = parsed(json!({"type": "click", "campaign": "42"}), steps.clone()).expect("a click journey");
    assert_eq!(click.trigger, Trigger::Click(42));
    assert_eq!(Journey::parse(&click.to_wire()).expect("reads back"), click);
    let monthly = json!({"type": "schedule", "every": "month", "day": "1", "at": "08:30", "segment": "5"});
    assert!(matches!(parsed(monthly, steps).map(|j| j.trigger), Ok(Trigger::Schedule { segment: 5, .. })));
}

#[test]
fn triggers_and_waits_name_what_is_wrong() {
    let send = json!([{"type": "send", "text": "Hi"}]);
    let cases = [
        (json!({"type": "date", "field": "firstname", "at": "09:00"}), "journey.trigger.field"),
        (json!({"type": "date", "field": "birthday", "at": "9h"}), "journey.trigger.at"),
        (json!({"type": "date", "field": "birthday", "at": "09:00", "offset": "-400d"}), "journey.trigger.offset"),
        (json!({"type": "date", "field": "birthday", "at": "09:00", "every": "month"}), "journey.trigger.every"),
        (json!({"type": "schedule", "every": "fortnight", "at": "10:00", "segment": "5"}), "journey.trigger.every"),
        (json!({"type": "schedule", "every": "week", "at": "10:00", "segment": "5"}), "journey.trigger.days"),
        (
            json!({"type": "schedule", "every": "month", "day": "31", "at": "10:00", "segment": "5"}),
            "journey.trigger.day",
        ),
        (json!({"type": "schedule", "every": "day", "at": "10:00"}), "journey.trigger.segment"),
        (json!({"type": "keyword"}), "journey.trigger.keyword"),
        (json!({"type": "keyword", "keyword": "stop"}), "journey.trigger.keyword"),
        (json!({"type": "keyword", "keyword": "two words"}), "journey.trigger.keyword"),
        (json!({"type": "click", "campaign": "abc"}), "journey.trigger.campaign"),
        (json!({"type": "segment"}), "journey.trigger.segment"),
        (json!({"type": "opened"}), "journey.trigger.type"),
    ];
    for (trigger, path) in cases {
        assert_eq!(parsed(trigger.clone(), send.clone()).err(), Some(vec![path.to_owned()]), "{trigger}");
    }
    let api = json!({"type": "api"});
    let waits = [
        (json!({"type": "wait", "until": "10:61"}), "journey.steps[0].until"),
        (json!({"type": "wait", "until": "10:00", "days": ["funday"]}), "journey.steps[0].days"),
        (json!({"type": "wait", "until": "10:00", "duration": "1h"}), "journey.steps[0].duration"),
        (json!({"type": "wait"}), "journey.steps[0].duration"),
    ];
    for (wait, path) in waits {
        assert_eq!(parsed(api.clone(), json!([wait.clone()])).err(), Some(vec![path.to_owned()]), "{wait}");
    }
}
