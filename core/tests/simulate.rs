//! The recipient filter: order of the rules, counters, cost and scheduling (docs/interface.md §3–§5).

use std::collections::HashSet;

use chrono::{DateTime, TimeZone, Utc};
use texto_core::{
    Campaign, Contact, Country, Credits, Endpoint, Error, FilterContext, MessageOptions, Outcome, PriceTable,
    RecentSends, parse_international, simulate, validate_send,
    wire::{Format, SmsRequest, decode},
};

fn now() -> DateTime<Utc> {
    // Saturday 21 November 2026, 11:00 in Paris.
    Utc.with_ymd_and_hms(2026, 11, 21, 10, 0, 0).unwrap()
}

fn campaign<'a>(body: &'a str, endpoint: Endpoint) -> Campaign<'a> {
    let request: SmsRequest = decode(body, Format::Json).expect("decodes");
    validate_send(request, endpoint, &MessageOptions::default(), now()).expect("valid")
}

fn to_numbers(numbers: &[&str], text: &str, pushtype: &str) -> String {
    let gsm: Vec<String> = numbers.iter().map(|n| format!(r#"{{"value":"{n}"}}"#)).collect();
    format!(
        r#"{{"sms":{{"message":{{"text":"{text}","pushtype":"{pushtype}"}},"recipients":{{"gsm":[{}]}}}}}}"#,
        gsm.join(",")
    )
}

fn n(number: &str) -> u64 {
    parse_international(number).expect("valid").as_u64()
}

fn context() -> FilterContext {
    FilterContext { balance: Credits::whole(1000), ..FilterContext::default() }
}

#[test]
fn each_recipient_is_counted_by_the_first_rule_that_filters_it() {
    let body = to_numbers(
        &[
            "33612345678",
            "0612345678",
            "33612345678",
            "33611111111",
            "33622222222",
            "4915112345678",
            "33633333333",
            "33644444444",
            "33655555555",
        ],
        "Hello",
        "alert",
    );
    let campaign = campaign(&body, Endpoint::Send);
    let mut context = context();
    // Blacklisted and NPAI at once: blacklisted wins.
    context.blacklist.insert(n("33611111111"));
    context.npai.insert(n("33611111111"));
    context.npai.insert(n("33622222222"));
    context.allowed_countries = Some(HashSet::from([Country::from_iso2("FR").unwrap()]));
    context.recent.insert(n("33633333333"), RecentSends { identical: 6, any: 6 });
    context.recent.insert(n("33644444444"), RecentSends { identical: 0, any: 19 });
    let france = Country::from_iso2("FR").unwrap();
    context.monthly_caps.insert(france, 3);
    context.monthly_usage.insert(france, 1);

    let result = simulate(&campaign, &context, now()).expect("simulates");
    let outcomes: Vec<Outcome> = result.outcomes.iter().map(|o| o.outcome).collect();
    assert_eq!(
        outcomes,
        [
            Outcome::Sent,    // usage 1 → 2
            Outcome::Invalid, // national format
            Outcome::Duplicated,
            Outcome::Blacklisted,
            Outcome::Npai,
            Outcome::NotAllowed,   // Germany
            Outcome::Flood,        // 6 identical texts in the hour
            Outcome::Sent,         // 19 texts: one more is allowed; usage 2 → 3
            Outcome::CountryLimit, // cap of 3 reached
        ]
    );
    let c = result.counters;
    assert_eq!(
        (c.total, c.sent, c.invalid, c.duplicated, c.blacklisted, c.npai, c.not_allowed, c.flood, c.country_limit),
        (9, 2, 1, 1, 1, 1, 1, 1, 1)
    );
    assert_eq!(result.cost, Credits::whole(2));
    assert_eq!(result.credits_after(), Credits::whole(998));
}

#[test]
fn cost_is_parts_times_the_country_price() {
    let text = "a".repeat(161); // two parts
    let body = to_numbers(&["33612345678", "4915112345678"], &text, "alert");
    let campaign = campaign(&body, Endpoint::Send);
    let mut context = context();
    context.prices = PriceTable::flat(Credits::from_hundredths(250));
    context.prices.set(Country::from_iso2("FR").unwrap(), Credits::whole(1));
    let result = simulate(&campaign, &context, now()).expect("simulates");
    assert_eq!(result.outcomes[0].parts, 2);
    assert_eq!(result.cost, Credits::from_hundredths(2 * 100 + 2 * 250));
    let wire = result.to_wire(None);
    assert_eq!((wire.cost, wire.credits, wire.sent), (7.0, 993.0, 2));
}

#[test]
fn the_shipped_price_of_metropolitan_france_is_one_credit_per_part() {
    assert_eq!(PriceTable::default().part_price(Country::from_iso2("FR").unwrap()), Credits::whole(1));
}

#[test]
fn marketing_adds_the_stop_text_to_the_length_and_waits_for_the_window() {
    // 150 characters + "\nSTOP au 36180" = 164: two parts for marketing, one for an alert.
    let text = "a".repeat(150);
    let (alert_body, marketing_body) =
        (to_numbers(&["33612345678"], &text, "alert"), to_numbers(&["33612345678"], &text, "marketing"));
    let alert = campaign(&alert_body, Endpoint::Send);
    let marketing = campaign(&marketing_body, Endpoint::Send);
    assert_eq!(simulate(&alert, &context(), now()).unwrap().cost, Credits::whole(1));
    let sunday_night = Utc.with_ymd_and_hms(2026, 11, 22, 21, 0, 0).unwrap();
    let result = simulate(&marketing, &context(), sunday_night).unwrap();
    assert_eq!(result.cost, Credits::whole(2));
    // Monday 23 November 08:00 Paris = 07:00 UTC.
    assert_eq!(result.send_at, Utc.with_ymd_and_hms(2026, 11, 23, 7, 0, 0).unwrap());
    assert_eq!(simulate(&alert, &context(), sunday_night).unwrap().send_at, sunday_night);
}

#[test]
fn overseas_recipients_get_marketing_when_their_own_window_opens() {
    // Sunday 22 November 2026, 21:00 Paris (20:00 UTC): Monday 00:00 in La Réunion, Monday
    // 07:00 in Nouméa, Sunday 16:00 in Martinique.
    let sunday_night = Utc.with_ymd_and_hms(2026, 11, 22, 20, 0, 0).unwrap();
    let numbers = ["33612345678", "262692123456", "262692123457", "687751234", "596696123456"];
    let bodies = [
        to_numbers(&numbers, "Soldes", "marketing"),
        to_numbers(&numbers, "Code 1234", "alert"),
        to_numbers(&numbers[..1], "Soldes", "marketing"),
    ];
    let marketing = campaign(&bodies[0], Endpoint::Send);
    let result = simulate(&marketing, &context(), sunday_night).unwrap();
    let utc = |d, h| Utc.with_ymd_and_hms(2026, 11, d, h, 0, 0).unwrap();
    // Monday 08:00 in Nouméa (UTC+11) is Sunday 21:00 UTC, the first window to open.
    assert_eq!(result.send_at, utc(22, 21));
    let parts: Vec<(&str, u64, DateTime<Utc>)> =
        result.overseas.iter().map(|p| (p.territory.iso2(), p.recipients, p.send_at)).collect();
    assert_eq!(parts, [("RE", 2, utc(23, 4)), ("MQ", 1, utc(23, 12)), ("NC", 1, utc(22, 21))]);
    let wire = result.to_wire(None).overseas.expect("the overseas parts");
    assert_eq!((wire[0].territory.as_str(), wire[0].recipients), ("RE", 2));
    assert_eq!(wire[0].send_at, "2026-11-23 05:00:00", "in Paris time, as delay");
    // Alerts and campaigns without overseas numbers say nothing of it.
    let alert = campaign(&bodies[1], Endpoint::Send);
    assert_eq!(simulate(&alert, &context(), sunday_night).unwrap().to_wire(None).overseas, None);
    let paris = campaign(&bodies[2], Endpoint::Send);
    let result = simulate(&paris, &context(), sunday_night).unwrap();
    assert_eq!((result.send_at, result.to_wire(None).overseas), (utc(23, 7), None));
}

#[test]
fn list_sends_count_contacts_and_fill_their_fields() {
    let body = r#"{"sms":{"message":{"text":"Bonjour [info1], -20% aujourd'hui","pushtype":"alert"},"lists":[{"value":"a"},{"value":"b"}]}}"#;
    let campaign = campaign(body, Endpoint::SendLists);
    let mut context = context();
    let contact = |number: &str, name: &str| Contact {
        number: number.into(),
        info: [name.into(), String::new(), String::new(), String::new()],
    };
    context.lists.insert("a".into(), vec![contact("33612345678", "Ada"), contact("33612345677", &"x".repeat(140))]);
    context.lists.insert("b".into(), vec![contact("33612345678", "Ada again")]);
    let result = simulate(&campaign, &context, now()).expect("simulates");
    assert_eq!((result.counters.total, result.counters.sent, result.counters.duplicated), (3, 2, 1));
    // The long name pushes the second contact's message to two parts.
    assert_eq!(result.outcomes.iter().map(|o| o.parts).collect::<Vec<_>>(), [1, 2, 0]);
    assert_eq!(result.cost, Credits::whole(3));
}

#[test]
fn an_unknown_list_is_not_found() {
    let body = r#"{"sms":{"message":{"text":"Hi","pushtype":"alert"},"lists":[{"value":"nope"}]}}"#;
    let campaign = campaign(body, Endpoint::SendLists);
    let error = simulate(&campaign, &context(), now()).expect_err("unknown list");
    assert!(matches!(error, Error::NotFound(_)));
    assert_eq!(error.status(), -5);
}

#[test]
fn an_unaffordable_campaign_says_so() {
    let body = to_numbers(&["33612345678", "33612345677"], "Hi", "alert");
    let campaign = campaign(&body, Endpoint::Send);
    let mut context = context();
    context.balance = Credits::whole(1);
    let result = simulate(&campaign, &context, now()).unwrap();
    assert!(!result.affordable());
    assert_eq!(result.credits_after(), Credits::whole(-1));
}
