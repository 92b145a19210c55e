use serde_json::json;

use super::*;
use crate::{
    PushType,
    journey::program::{Effect, Rest},
    wire::JourneyDto,
};

fn dto(value: serde_json::Value) -> JourneyDto {
    serde_json::from_value(value).expect("a journey on the wire")
}

fn welcome() -> JourneyDto {
    dto(json!({
        "name": " Bienvenue ",
        "trigger": {"type": "list", "list": "12"},
        "steps": [
            {"type": "send", "text": "Bienvenue [firstname|] ! <-short->", "links": ["https://club.example/bienvenue"]},
            {"type": "wait", "duration": "2h"},
            {"type": "branch", "if": {"type": "clicked"},
             "then": [{"type": "tag", "add": "client"}],
             "else": [{"type": "send", "text": "Vu notre offre ?", "pushtype": "marketing"}, {"type": "end"}]},
            {"type": "list", "add": "14"}
        ],
        "reentry": "30d"
    }))
}

#[test]
fn a_journey_is_read_from_the_wire_and_written_back_the_same() {
    let journey = Journey::parse(&welcome()).expect("a valid journey");
    assert_eq!(journey.name, "Bienvenue");
    assert_eq!(journey.trigger, Trigger::List(12));
    assert_eq!(journey.reentry, Some(Duration::days(30)));
    assert_eq!(
        journey.steps[0],
        Step::Send {
            text: "Bienvenue [firstname|] ! <-short->".into(),
            pushtype: PushType::Alert,
            links: vec!["https://club.example/bienvenue".into()],
            sender: None
        }
    );
    assert_eq!(journey.steps[1], Step::Wait(Wait::For(Duration::hours(2))));
    let again = Journey::parse(&journey.to_wire()).expect("its own wire form reads back");
    assert_eq!(again, journey);
    assert_eq!(journey.to_wire().steps[1].duration.as_deref(), Some("2h"));
}

#[test]
fn every_error_is_named_by_its_path_inside_branches() {
    let bad = dto(json!({
        "name": "",
        "trigger": {"type": "list"},
        "steps": [
            {"type": "send", "text": " "},
            {"type": "wait", "duration": "2w"},
            {"type": "branch", "if": {"type": "opened"},
             "then": [{"type": "tag"}],
             "else": [{"type": "list", "add": "x"}, {"type": "jump"}]},
            {"type": "send", "text": "ok", "pushtype": "promo"},
            {"type": "send", "text": "<-short->", "links": ["ftp://x"]}
        ],
        "reentry": "0s"
    }));
    let errors = Journey::parse(&bad).expect_err("errors");
    let paths: Vec<&str> = errors.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "journey.name",
            "journey.trigger.list",
            "journey.steps[0].text",
            "journey.steps[1].duration",
            "journey.steps[2].if.type",
            "journey.steps[2].then[0].add",
            "journey.steps[2].else[0].add",
            "journey.steps[2].else[1].type",
            "journey.steps[3].pushtype",
            "journey.steps[4].links",
            "journey.reentry",
        ]
    );
}

#[test]
fn a_journey_needs_a_trigger_and_steps_and_bounds_its_size_and_depth() {
    let errors = Journey::parse(&dto(json!({"name": "x"}))).expect_err("errors");
    let paths: Vec<&str> = errors.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(paths, ["journey.trigger", "journey.steps"]);
    let many = dto(json!({"name": "x", "trigger": {"type": "api"},
        "steps": vec![json!({"type": "wait", "duration": "1m"}); MOST_JOURNEY_STEPS + 1]}));
    assert_eq!(Journey::parse(&many).expect_err("too many")[0].path, "journey.steps");
    let mut deep = json!({"type": "end"});
    for _ in 0..=MOST_BRANCH_DEPTH {
        deep = json!({"type": "branch", "if": {"type": "replied"}, "then": [deep]});
    }
    let deep = dto(json!({"name": "x", "trigger": {"type": "api"}, "steps": [deep]}));
    let errors = Journey::parse(&deep).expect_err("too deep");
    assert_eq!(errors[0].path, format!("journey.steps[0]{}.type", ".then[0]".repeat(MOST_BRANCH_DEPTH)));
}

#[test]
fn steps_are_laid_out_in_written_order_and_each_knows_its_next() {
    let program = Program::of(&Journey::parse(&welcome()).expect("valid"));
    let paths: Vec<&str> = program.nodes.iter().map(|n| n.path.as_str()).collect();
    assert_eq!(paths, ["0", "1", "2", "2.then.0", "2.else.0", "2.else.1", "3"]);
    let nexts: Vec<Option<usize>> = program.nodes.iter().map(|n| n.next).collect();
    assert_eq!(nexts, [Some(1), Some(2), Some(6), Some(6), Some(5), None, None]);
    assert!(matches!(program.nodes[2].kind, NodeKind::Branch { then: Some(3), otherwise: Some(4), .. }));
}

#[test]
fn a_walk_follows_the_branch_the_test_picks_and_stops_where_a_contact_waits() {
    let program = Program::of(&Journey::parse(&welcome()).expect("valid"));
    // Arriving at the first step: the send holds the contact.
    assert_eq!(program.walk(Some(0), |_| true).rest, Rest::At(0));
    // After the wait, a contact that clicked is tagged, joins list 14 and is done.
    let clicked = program.walk(program.after(1), |c| *c == Condition::Clicked);
    assert_eq!(clicked.passed, [2, 3, 6]);
    assert_eq!(clicked.effects, [Effect::Tag(TagChange::Add("client".into())), Effect::List(ListChange::Add(14))]);
    assert_eq!(clicked.rest, Rest::Done);
    // One that did not gets the reminder, and then ends without joining the list.
    let not = program.walk(program.after(1), |_| false);
    assert_eq!((not.passed.as_slice(), not.rest), ([2].as_slice(), Rest::At(4)));
    let ended = program.walk(program.after(4), |_| false);
    assert_eq!((ended.passed.as_slice(), ended.effects.len(), ended.rest), ([5].as_slice(), 0, Rest::Done));
}

#[test]
fn an_empty_branch_side_goes_on_after_the_branch() {
    let journey = dto(json!({"name": "x", "trigger": {"type": "api"}, "steps": [
        {"type": "branch", "if": {"type": "tag", "value": "vip"}, "then": [{"type": "tag", "add": "seen"}]},
        {"type": "send", "text": "hi"}
    ]}));
    let program = Program::of(&Journey::parse(&journey).expect("valid"));
    let vip = program.walk(Some(0), |_| true);
    assert_eq!((vip.passed.as_slice(), vip.rest), ([0, 1].as_slice(), Rest::At(2)));
    let other = program.walk(Some(0), |_| false);
    assert_eq!((other.passed.as_slice(), other.rest), ([0].as_slice(), Rest::At(2)));
}

#[test]
fn a_status_changes_only_along_the_allowed_ways() {
    use JourneyStatus::*;
    assert!(Draft.may_become(Live) && Live.may_become(Paused) && Paused.may_become(Live));
    assert!(Live.may_become(Archived) && Draft.may_become(Archived));
    assert!(!Archived.may_become(Live) && !Live.may_become(Live) && !Live.may_become(Draft));
    assert_eq!(JourneyStatus::parse(" LIVE "), Some(Live));
    assert_eq!(JourneyStatus::parse("running"), None);
}

#[test]
fn a_branch_test_reads_the_contact_as_segments_do() {
    let facts = ContactFacts {
        clicked: true,
        tags: vec!["vip".into()],
        lists: vec![12],
        firstname: "Ana".into(),
        fields: [("age".to_owned(), "42".to_owned()), ("city".to_owned(), "Paris".to_owned())].into(),
        ..ContactFacts::default()
    };
    let field = |name: &str, test, value: &str| Condition::Field {
        field: crate::ContactField::parse(name, "f").expect("a field"),
        test,
        value: value.into(),
    };
    use crate::FieldTest::*;
    assert!(Condition::Clicked.holds(&facts) && !Condition::Replied.holds(&facts));
    assert!(Condition::Tag("vip".into()).holds(&facts) && !Condition::Tag("VIP".into()).holds(&facts));
    assert!(Condition::List(12).holds(&facts) && !Condition::List(13).holds(&facts));
    assert!(field("firstname", Equals, "ANA").holds(&facts) && field("city", Contains, "ari").holds(&facts));
    assert!(field("age", After, "9").holds(&facts), "42 > 9 as numbers, not as texts");
    assert!(!field("age", Before, "9").holds(&facts) && !field("missing", Before, "9").holds(&facts));
    assert!(field("city", Before, "Rome").holds(&facts) && !field("lastname", After, "A").holds(&facts));
}

#[test]
fn branches_and_the_exit_test_keywords_delivery_and_segments() {
    let wire = dto(json!({
        "name": "Relance", "trigger": {"type": "api"}, "exit": {"type": "keyword", "value": "fini"},
        "steps": [
            {"type": "branch", "if": {"type": "delivered"},
             "then": [{"type": "branch", "if": {"type": "segment", "segment": "5"}, "then": [{"type": "end"}]}]},
            {"type": "branch", "if": {"type": "keyword", "value": "Oui"}, "then": [{"type": "tag", "add": "oui"}]}
        ]
    }));
    let journey = Journey::parse(&wire).expect("a valid journey");
    assert_eq!(journey.exit, Some(Condition::Keyword(crate::Keyword::parse("FINI", "k").expect("a keyword"))));
    assert_eq!(Journey::parse(&journey.to_wire()).expect("reads back"), journey);
    let program = Program::of(&journey);
    assert_eq!((program.segments(), program.tests().count()), (vec![5], 4));
    let facts =
        ContactFacts { keywords: vec!["OUI".into()], delivered: true, segments: vec![5], ..ContactFacts::default() };
    let tests: Vec<bool> = program.tests().map(|test| test.holds(&facts)).collect();
    assert_eq!(tests, [true, true, true, false], "delivered, in segment 5, replied OUI, not FINI");
    assert!(!Condition::Delivered.holds(&ContactFacts::default()));

    let wrong = dto(json!({
        "name": "x", "trigger": {"type": "api"}, "exit": {"type": "opened"},
        "steps": [
            {"type": "branch", "if": {"type": "segment"}},
            {"type": "branch", "if": {"type": "keyword", "value": "deux mots"}}
        ]
    }));
    let paths: Vec<String> = Journey::parse(&wrong).expect_err("three errors").into_iter().map(|e| e.path).collect();
    assert_eq!(paths, ["journey.steps[0].if.segment", "journey.steps[1].if.value", "journey.exit.type"]);
}

#[test]
fn a_trial_goes_through_every_step_and_the_branch_its_test_picks() {
    let journey = Journey::parse(&welcome()).expect("a valid journey");
    let program = Program::of(&journey);
    let paths = |way: Vec<(usize, Option<bool>)>| -> Vec<(String, Option<bool>)> {
        way.into_iter().map(|(i, held)| (program.nodes[i].path.clone(), held)).collect()
    };
    let clicked = paths(program.trial(|_| true));
    let expected = [("0", None), ("1", None), ("2", Some(true)), ("2.then.0", None), ("3", None)];
    assert_eq!(clicked, expected.map(|(p, h)| (p.to_owned(), h)));
    // Not clicked: the reminder, then the end (the list step after the branch is never reached).
    let not = paths(program.trial(|_| false));
    let expected = [("0", None), ("1", None), ("2", Some(false)), ("2.else.0", None), ("2.else.1", None)];
    assert_eq!(not, expected.map(|(p, h)| (p.to_owned(), h)));
}

#[test]
fn a_webhook_step_posts_on_the_way_and_a_journey_may_hold_so_many_at_once() {
    let journey = Journey::parse(&dto(json!({
        "name": "CRM", "trigger": {"type": "api"}, "most_at_once": 500,
        "steps": [{"type": "branch", "if": {"type": "replied"},
                   "then": [{"type": "webhook", "url": " https://crm.example/texto "}]},
                  {"type": "wait", "duration": "1d"}]
    })))
    .expect("a valid journey");
    assert_eq!(journey.most_at_once, Some(500));
    assert_eq!(Journey::parse(&journey.to_wire()).expect("reads back"), journey);
    let program = Program::of(&journey);
    let walk = program.walk(Some(0), |_| true);
    let posted = Effect::Webhook { url: "https://crm.example/texto".into(), path: "0.then.0".into() };
    assert_eq!((walk.effects, walk.rest), (vec![posted], Rest::At(2)));
    assert_eq!(program.walk(Some(0), |_| false).effects, []);

    let bad = dto(json!({"name": "x", "trigger": {"type": "api"}, "most_at_once": 0,
        "steps": [{"type": "webhook", "url": "ftp://crm.example"}, {"type": "webhook"},
                  {"type": "webhook", "url": format!("https://{}", "a".repeat(MOST_WEBHOOK_URL_CHARS))}]}));
    let errors = Journey::parse(&bad).expect_err("errors");
    let paths: Vec<&str> = errors.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(paths, ["journey.steps[0].url", "journey.steps[1].url", "journey.steps[2].url", "journey.most_at_once"]);
}
