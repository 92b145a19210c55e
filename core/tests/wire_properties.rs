//! Round-trip properties of the wire codecs: for every DTO exported by `texto_core::wire` and
//! both formats, `decode(encode(v, f), f) == v`.
//!
//! Strings are adversarial: markup (`<`, `&`, `]]>`, `<![CDATA[`, entity-looking text),
//! quotes, accents, emoji, control characters, `\r`, tabs and newlines, leading and trailing
//! spaces, whitespace-only and empty strings, the text `null`, digits-only strings.
//!
//! What XML cannot tell apart, by the public wire format itself, is left out of the XML
//! strategies only (each place says why):
//! - the text `null` in a *nullable* field: the public XML samples write null as the text
//!   `null` (`<batch_id>null</batch_id>`, `<signature>null</signature>`), so in XML `Some("null")`
//!   and `None` are the same document. Non-nullable fields read `null` as the text.
//! - a list holding exactly one all-default item: the public samples write an empty array as one
//!   empty element (`<user_information></user_information>`), which is also how a single item
//!   with every field empty looks, so in XML `[]` and `[T::default()]` are the same document.
//!
//! Numbers: every `i64`, and finite `f64` (JSON has no NaN or infinity, so the cost and credit
//! fields cannot carry them in either format).
#![cfg(not(target_arch = "wasm32"))]

use std::{borrow::Cow, fmt::Debug};

use proptest::{collection::vec, option, prelude::*};
use serde::Deserialize;
use texto_core::wire::*;

// ---------------------------------------------------------------------------------------------
// Strings

/// One piece of an adversarial string.
fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "[a-zA-Z0-9]{1,6}",
        1 => prop::sample::select(vec![
            "<", ">", "&", "]]>", "]]", "]", "<![CDATA[", "<b>x</b>", "&amp;", "&lt;", "&#13;", "&nope;",
            "\"", "'", " ", "  ", "\t", "\n", "\r", "\r\n", "é", "ß", "中文", "😀", "👩‍👩‍👧", "\u{a0}",
            "\u{200b}", "\u{feff}", "\u{1}", "\u{1f}", "\u{7f}", "null", "NULL", "true", "0", "-1", "1e3",
            "<-short->", "<-stop->", "[info1]", "?>", "<?xml", "<!--", "-->", "<!DOCTYPE",
        ])
        .prop_map(str::to_owned),
        1 => any::<char>().prop_map(String::from),
    ]
}

/// Any text a field may hold, `null` included.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        1 => prop::sample::select(vec!["", " ", "   ", "\t\n", "null", " null ", "0", "007", "12345678901234567890"])
            .prop_map(str::to_owned),
        1 => "[0-9]{1,20}",
        6 => vec(piece(), 0..6).prop_map(|pieces| pieces.concat()),
    ]
}

/// The text of a nullable field (`Option<String>` read by `lenient::opt_string`).
///
/// XML: never the text `null`, which is how the public format writes null (see the module doc).
fn nullable_text(xml: bool) -> impl Strategy<Value = String> {
    text().prop_filter("XML writes null as the text `null`", move |s| !(xml && s == "null"))
}

fn opt_text(xml: bool) -> impl Strategy<Value = Option<String>> {
    option::of(nullable_text(xml))
}

/// A list of `item`s. XML: not one lone all-default item, which is how `[]` is written (see the
/// module doc).
fn list<T, S>(item: S, xml: bool) -> impl Strategy<Value = Vec<T>>
where
    T: Default + PartialEq + Debug + Clone,
    S: Strategy<Value = T>,
{
    vec(item, 0..4).prop_filter("XML writes [] as one empty item", move |items| {
        !(xml && items.len() == 1 && items[0] == T::default())
    })
}

/// A cost or a balance: whole, decimal with a few places, or any finite `f64`.
fn amount() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<i32>().prop_map(f64::from),
        (any::<i32>(), 1..4u32).prop_map(|(n, places)| f64::from(n) / 10f64.powi(places as i32)),
        any::<f64>().prop_filter("JSON has no NaN or infinity", |f| f.is_finite()),
        Just(0.0),
        Just(-0.0),
        Just(9.0e15),
        Just(1.0e300),
        Just(f64::MIN_POSITIVE),
    ]
}

fn opt_flag() -> impl Strategy<Value = Option<bool>> {
    option::of(any::<bool>())
}

// ---------------------------------------------------------------------------------------------
// DTOs

fn sms_request(xml: bool) -> impl Strategy<Value = SmsRequest<'static>> {
    let message = (
        opt_text(xml),
        opt_text(xml),
        opt_text(xml),
        opt_text(xml),
        option::of(list(text(), xml)),
        opt_flag(),
        opt_text(xml),
        option::of(any::<i64>()),
        option::of((opt_text(xml), opt_text(xml), opt_text(xml))),
        opt_text(xml),
        (option::of(list(text(), xml)), option::of((option::of(any::<i64>()), opt_text(xml), opt_text(xml)))),
    )
        .prop_map(
            |(text, pushtype, sender, delay, links, unicode, encoding, validity, utm, template, (variants, ab))| {
                MessageDto {
                    text,
                    pushtype,
                    sender,
                    delay,
                    links,
                    unicode,
                    encoding,
                    validity,
                    utm: utm.map(|(source, medium, campaign)| UtmDto { source, medium, campaign, click: None }),
                    template,
                    variants,
                    ab: ab.map(|(share, wait, criterion)| AbDto { share, wait, criterion }),
                }
            },
        );
    let gsm = (text(), option::of(text()))
        .prop_map(|(value, gsmsmsid)| GsmDto { value: Cow::Owned(value), gsmsmsid: gsmsmsid.map(Cow::Owned) });
    let recipients = list(gsm, xml).prop_map(|gsm| RecipientsDto { gsm });
    let lists = list(text().prop_map(|value| ListRefDto { value }), xml);
    let segments = list(text().prop_map(|value| ListRefDto { value }), xml);
    (message, option::of(recipients), option::of(lists), option::of(segments))
        .prop_map(|(message, recipients, lists, segments)| SmsRequest { message, recipients, lists, segments })
}

fn campaign_result(xml: bool) -> impl Strategy<Value = CampaignResultDto> {
    (
        (any::<i64>(), text(), opt_text(xml), amount(), amount()),
        (any::<i64>(), any::<i64>(), any::<i64>(), any::<i64>(), any::<i64>(), any::<i64>()),
        (option::of(any::<i64>()), option::of(any::<i64>()), option::of(any::<i64>()), option::of(any::<i64>())),
        (option::of(any::<i64>()), option::of(any::<i64>()), option::of(any::<i64>())),
        (option::of(any::<i64>()), option::of(any::<i64>())),
        option::of(vec(overseas(), 1..4)),
    )
        .prop_map(
            |(
                (status, message, ticket, cost, credits),
                (total, sent, blacklisted, duplicated, invalid, npai),
                (not_allowed, flood, country_limit, no_consent),
                (capped, replaced, parts_saved),
                (ab_sample, ab_remainder),
                overseas,
            )| CampaignResultDto {
                status,
                message,
                ticket,
                cost,
                credits,
                total,
                sent,
                blacklisted,
                duplicated,
                invalid,
                npai,
                not_allowed,
                flood,
                country_limit,
                no_consent,
                capped,
                replaced,
                parts_saved,
                ab_sample,
                ab_remainder,
                overseas,
            },
        )
}

fn overseas() -> impl Strategy<Value = OverseasDto> {
    (text(), any::<i64>(), text()).prop_map(|(territory, recipients, send_at)| OverseasDto {
        territory,
        recipients,
        send_at,
    })
}

fn webhook(xml: bool) -> impl Strategy<Value = WebhookDto> {
    (
        opt_text(xml),
        opt_text(xml),
        opt_text(xml),
        opt_text(xml),
        option::of(opt_text(xml)),
        option::of(option::of(any::<i64>())),
    )
        .prop_map(|(webhook_id, kind, url, status, signature, last_http_code)| WebhookDto {
            webhook_id,
            kind,
            url,
            status,
            signature,
            last_http_code,
        })
}

fn webhook_request(xml: bool) -> impl Strategy<Value = WebhookRequest> {
    webhook(xml).prop_map(|webhook| WebhookRequest { webhook })
}

fn webhook_response(xml: bool) -> impl Strategy<Value = WebhookResponse> {
    (any::<i64>(), text(), webhook(xml)).prop_map(|(status, message, webhook)| WebhookResponse {
        status,
        message,
        webhook,
    })
}

fn webhook_list_response(xml: bool) -> impl Strategy<Value = WebhookListResponse> {
    (any::<i64>(), text(), list(webhook(xml), xml), any::<i64>(), any::<i64>()).prop_map(
        |(status, message, webhooks, total_records, total_display_records)| WebhookListResponse {
            status,
            message,
            webhook: webhooks.clone(),
            webhooks,
            total_records,
            total_display_records,
        },
    )
}

fn notification(xml: bool) -> impl Strategy<Value = NotificationDto> {
    (opt_text(xml), opt_text(xml), opt_text(xml), opt_text(xml), opt_text(xml), opt_text(xml)).prop_map(
        |(alert_trigger, alert_email, alert_gsm, email, phone_number, gsm)| NotificationDto {
            alert_trigger,
            alert_email,
            alert_gsm,
            email,
            phone_number,
            gsm,
        },
    )
}

fn notification_request(xml: bool) -> impl Strategy<Value = NotificationRequest> {
    notification(xml).prop_map(|notification| NotificationRequest { notification })
}

fn notification_response(xml: bool) -> impl Strategy<Value = NotificationResponse> {
    (any::<i64>(), text(), notification(xml)).prop_map(|(status, message, notification)| NotificationResponse {
        status,
        message,
        notification,
    })
}

fn contacts(xml: bool) -> impl Strategy<Value = ContactsDto> {
    let contact = (text(), opt_text(xml), opt_text(xml), opt_text(xml), opt_text(xml)).prop_map(
        |(value, info1, info2, info3, info4)| ContactDto { value, info1, info2, info3, info4, contact: None },
    );
    list(contact, xml).prop_map(|gsm| ContactsDto { gsm })
}

fn npai_add_request(xml: bool) -> impl Strategy<Value = NpaiAddRequest> {
    contacts(xml).prop_map(|contacts| NpaiAddRequest { contacts })
}

fn blacklist_add_request(xml: bool) -> impl Strategy<Value = BlacklistAddRequest> {
    contacts(xml).prop_map(|contacts| BlacklistAddRequest { contacts })
}

fn added_contacts_response(_xml: bool) -> impl Strategy<Value = AddedContactsResponse> {
    (any::<i64>(), text(), any::<i64>()).prop_map(|(status, message, added_contacts)| AddedContactsResponse {
        status,
        message,
        added_contacts,
    })
}

fn number_list_response(xml: bool) -> impl Strategy<Value = NumberListResponse> {
    let entry = (
        (text(), text(), text()),
        (text(), text(), text(), text()),
        (option::of(any::<i64>()), option::of(any::<i64>())),
    )
        .prop_map(|((id, destination, date), (info1, info2, info3, info4), (campaign_id, batch_id))| {
            NumberEntryDto {
                id,
                destination,
                date,
                info1,
                info2,
                info3,
                info4,
                user_information: UserInformation,
                campaign_id,
                batch_id,
                source: None,
            }
        });
    (any::<i64>(), text(), list(entry, xml), any::<i64>(), any::<i64>()).prop_map(
        |(status, message, list, total_records, total_display_records)| NumberListResponse {
            status,
            message,
            list,
            total_records,
            total_display_records,
        },
    )
}

fn list_request(xml: bool) -> impl Strategy<Value = ListRequest> {
    (opt_text(xml), opt_text(xml), contacts(xml)).prop_map(|(name, list_id, contacts)| ListRequest {
        name,
        list_id,
        contacts,
    })
}

fn list_saved_response(_xml: bool) -> impl Strategy<Value = ListSavedResponse> {
    (any::<i64>(), text(), any::<i64>(), any::<i64>(), any::<i64>(), text()).prop_map(
        |(status, message, contacts, invalid, duplicates, id)| ListSavedResponse {
            status,
            message,
            contacts,
            invalid,
            duplicates,
            id,
        },
    )
}

fn list_response(xml: bool) -> impl Strategy<Value = ListResponse> {
    let contact = (text(), text(), opt_text(xml), opt_text(xml), opt_text(xml), opt_text(xml)).prop_map(
        |(id, destination, info1, info2, info3, info4)| ListContactDto { id, destination, info1, info2, info3, info4 },
    );
    (any::<i64>(), text(), list(contact, xml), text(), any::<i64>(), any::<i64>(), any::<i64>()).prop_map(
        |(status, message, list, name, contacts, total_records, total_display_records)| ListResponse {
            status,
            message,
            list,
            name,
            contacts,
            total_records,
            total_display_records,
        },
    )
}

fn lists_response(xml: bool) -> impl Strategy<Value = ListsResponse> {
    let summary = (text(), text(), any::<i64>(), any::<i64>(), text())
        .prop_map(|(id, name, contacts, count, date)| ListSummaryDto { id, name, contacts, count, date });
    (any::<i64>(), text(), list(summary, xml), any::<i64>(), any::<i64>()).prop_map(
        |(status, message, lists, total_records, total_display_records)| ListsResponse {
            status,
            message,
            lists,
            total_records,
            total_display_records,
        },
    )
}

fn campaigns_response(xml: bool) -> impl Strategy<Value = CampaignsResponse> {
    let summary = (
        (text(), text(), text(), text(), amount(), any::<i64>(), text()),
        (option::of(any::<i64>()), option::of(any::<i64>()), opt_text(xml)),
    )
        .prop_map(|((id, sender, text, date, cost, delivery_rate, status), (total, sent, pushtype))| {
            CampaignSummaryDto {
                id,
                sender,
                text,
                date,
                cost,
                delivery_rate,
                status,
                total,
                sent,
                pushtype,
                ..CampaignSummaryDto::default()
            }
        });
    (any::<i64>(), text(), list(summary, xml), any::<i64>(), any::<i64>()).prop_map(
        |(status, message, campaigns, total_records, total_display_records)| CampaignsResponse {
            status,
            message,
            campaigns,
            total_records,
            total_display_records,
        },
    )
}

fn campaign_detail_response(xml: bool) -> impl Strategy<Value = CampaignDetailResponse> {
    let detail = (
        (text(), text(), text(), text(), text(), amount()),
        (list(text().prop_map(|id| CampaignListDto { id }), xml), opt_text(xml)),
        (any::<i64>(), any::<i64>(), any::<i64>(), any::<i64>()),
        (any::<i64>(), any::<i64>(), any::<i64>(), any::<i64>()),
        (option::of(any::<i64>()), opt_text(xml), option::of(any::<i64>()), opt_text(xml)),
    )
        .prop_map(
            |(
                (id, sender, text, creation_date, date, cost),
                (lists, status),
                (delivery_rate, delivered, error, expired),
                (network_error, stop, npai, total),
                (sent, pushtype, pending, rejection),
            )| CampaignDetailDto {
                id,
                sender,
                text,
                creation_date,
                date,
                cost,
                lists,
                status,
                delivery_rate,
                delivered,
                error,
                expired,
                network_error,
                stop,
                npai,
                total,
                sent,
                pushtype,
                pending,
                short_links: None,
                rejection,
                waiting: None,
                validity: None,
                template: None,
                journey: None,
            },
        );
    (any::<i64>(), text(), list(detail, xml)).prop_map(|(status, message, campaign)| CampaignDetailResponse {
        status,
        message,
        campaign,
    })
}

fn credits_response(_xml: bool) -> impl Strategy<Value = CreditsResponse> {
    (any::<i64>(), text(), text(), text(), opt_flag(), opt_flag()).prop_map(
        |(status, message, credits, postpaid, postpaid_limit, unlimited)| CreditsResponse {
            status,
            message,
            credits,
            postpaid,
            postpaid_limit,
            unlimited,
        },
    )
}

fn error_response(xml: bool) -> impl Strategy<Value = ErrorResponse> {
    let detail = (text(), text()).prop_map(|(path, message)| ErrorDetailDto { path, message });
    (any::<i64>(), text(), opt_text(xml), list(detail, xml))
        .prop_map(|(status, message, details, errors)| ErrorResponse { status, message, details, errors })
}

fn status_response(_xml: bool) -> impl Strategy<Value = StatusResponse> {
    (any::<i64>(), text()).prop_map(|(status, message)| StatusResponse { status, message })
}

fn dlr_event(xml: bool) -> impl Strategy<Value = DlrEvent> {
    (text(), any::<i64>(), text(), opt_text(xml), text(), text()).prop_map(
        |(date, status, destination, message_id, campaign_id, country_code)| DlrEvent {
            date,
            status,
            destination,
            message_id,
            campaign_id,
            country_code,
        },
    )
}

fn reply_event(xml: bool) -> impl Strategy<Value = ReplyEvent> {
    (text(), text(), text(), text(), opt_text(xml)).prop_map(|(date, message, from, account_id, last_message_id)| {
        ReplyEvent { date, message, from, account_id, last_message_id, contact: None }
    })
}

fn clicker_event(xml: bool) -> impl Strategy<Value = ClickerEvent> {
    (
        (text(), opt_text(xml), text(), text(), text()),
        (text(), text(), text()),
        (text(), text(), text(), text(), any::<i64>()),
    )
        .prop_map(
            |(
                (campaign_id, gsmsid, date, long_url, short_url),
                (brand, model, os),
                (info1, info2, info3, info4, clicks_on_link),
            )| ClickerEvent {
                campaign_id,
                gsmsid,
                date,
                long_url,
                short_url,
                brand,
                model,
                os,
                info1,
                info2,
                info3,
                info4,
                clicks_on_link,
            },
        )
}

fn balance_alert_event(_xml: bool) -> impl Strategy<Value = BalanceAlertEvent> {
    (text(), text(), text()).prop_map(|(balance, trigger, date)| BalanceAlertEvent { balance, trigger, date })
}

// ---------------------------------------------------------------------------------------------
// Properties

/// `decode(encode(value, format), format) == value`, with the encoded body in the failure.
fn round_trips<T>(value: &T, format: Format) -> Result<(), TestCaseError>
where
    T: Document + for<'de> Deserialize<'de> + PartialEq + Debug,
{
    let body = encode(value, format);
    match decode::<T>(&body, format) {
        Ok(back) => prop_assert_eq!(&back, value, "{:?} body:\n{}", format, body),
        Err(error) => return Err(TestCaseError::fail(format!("{format:?} decode failed: {error}\nbody:\n{body}"))),
    }
    Ok(())
}

fn config() -> ProptestConfig {
    // Moderate: 24 documents × 2 formats must stay within a few seconds in debug builds.
    // Failures are shown with the body; the bugs found so far have explicit tests below.
    ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() }
}

macro_rules! round_trip_properties {
    ($($test:ident: $strategy:ident),* $(,)?) => {
        proptest! {
            #![proptest_config(config())]
            $(
                #[test]
                fn $test(json in $strategy(false), xml in $strategy(true)) {
                    round_trips(&json, Format::Json)?;
                    round_trips(&xml, Format::Xml)?;
                }
            )*
        }
    };
}

round_trip_properties! {
    campaign_result_round_trips: campaign_result,
    webhook_request_round_trips: webhook_request,
    webhook_response_round_trips: webhook_response,
    webhook_list_response_round_trips: webhook_list_response,
    notification_request_round_trips: notification_request,
    notification_response_round_trips: notification_response,
    npai_add_request_round_trips: npai_add_request,
    blacklist_add_request_round_trips: blacklist_add_request,
    added_contacts_response_round_trips: added_contacts_response,
    number_list_response_round_trips: number_list_response,
    list_request_round_trips: list_request,
    list_saved_response_round_trips: list_saved_response,
    list_response_round_trips: list_response,
    lists_response_round_trips: lists_response,
    campaigns_response_round_trips: campaigns_response,
    campaign_detail_response_round_trips: campaign_detail_response,
    credits_response_round_trips: credits_response,
    error_response_round_trips: error_response,
    status_response_round_trips: status_response,
    dlr_event_round_trips: dlr_event,
    reply_event_round_trips: reply_event,
    clicker_event_round_trips: clicker_event,
    balance_alert_event_round_trips: balance_alert_event,
}

// `SmsRequest` borrows from the body, so it cannot use the `for<'de>` helper.
proptest! {
    #![proptest_config(config())]
    #[test]
    fn sms_request_round_trips(json in sms_request(false), xml in sms_request(true)) {
        for (value, format) in [(&json, Format::Json), (&xml, Format::Xml)] {
            let body = encode(value, format);
            let back: SmsRequest<'_> = decode(&body, format)
                .map_err(|e| TestCaseError::fail(format!("{format:?} decode failed: {e}\nbody:\n{body}")))?;
            prop_assert_eq!(&back, value, "{:?} body:\n{}", format, body);
        }
    }

    /// The fast XML reader of send requests reads exactly what the serde path reads.
    #[test]
    fn the_fast_sms_reader_agrees_with_serde(xml in sms_request(true)) {
        let body = encode(&xml, Format::Xml);
        let fast = texto_core::wire::decode_sms(&body, Format::Xml)
            .map_err(|e| TestCaseError::fail(format!("fast decode failed: {e}\nbody:\n{body}")))?;
        prop_assert_eq!(&fast, &xml, "body:\n{}", body);
    }
}

// ---------------------------------------------------------------------------------------------
// The codec bugs these properties found, pinned down.

fn json_and_xml<T>(value: &T)
where
    T: Document + for<'de> Deserialize<'de> + PartialEq + Debug,
{
    for format in [Format::Json, Format::Xml] {
        let body = encode(value, format);
        assert_eq!(decode::<T>(&body, format).as_ref(), Ok(value), "{format:?} body:\n{body}");
    }
}

fn dlr(text: &str) -> DlrEvent {
    DlrEvent {
        date: text.into(),
        status: 3,
        destination: text.into(),
        message_id: Some(text.into()),
        campaign_id: text.into(),
        country_code: text.into(),
    }
}

#[test]
fn the_json_string_null_is_a_text() {
    // Was: `"null"` read as null, so required fields failed and optional ones became `None`.
    let body = encode(&dlr("null"), Format::Json);
    assert_eq!(decode::<DlrEvent>(&body, Format::Json), Ok(dlr("null")));
    // In XML the text `null` is null where a field can be null, and a text where it cannot.
    let xml: DlrEvent = decode(&encode(&dlr("null"), Format::Xml), Format::Xml).expect("decodes");
    assert_eq!((xml.destination.as_str(), xml.message_id), ("null", None));
}

#[test]
fn whitespace_only_texts_survive_xml() {
    // Was: "   " read back as "" in lenient fields (and in `<gsm>   </gsm>` as no recipient).
    json_and_xml(&dlr("   "));
    json_and_xml(&dlr("\t\n "));
    let contacts = ContactsDto { gsm: vec![ContactDto { value: " ".into(), ..ContactDto::default() }] };
    json_and_xml(&ListRequest { name: Some(" ".into()), list_id: None, contacts });
}

#[test]
fn line_ends_survive_xml() {
    // Was: `\r\n`, `\r`, NEL and LINE SEPARATOR read back as `\n` (XML end-of-line handling),
    // in text, in CDATA and in attributes; tab and newline in attributes are escaped too.
    for text in ["a\r\nb", "a\rb", "a\u{85}b", "a\u{2028}b", "<a>\r\n</a>", "\t\n\r"] {
        json_and_xml(&dlr(text));
        let contact = ContactDto { value: "336".into(), info1: Some(text.into()), ..ContactDto::default() };
        json_and_xml(&NpaiAddRequest { contacts: ContactsDto { gsm: vec![contact] } });
    }
}

#[test]
fn markup_and_cdata_terminators_survive_xml() {
    for text in ["]]>", "<![CDATA[x]]>", "a]]>b<c>&d", "&amp;", "&#13;", "<-short->"] {
        json_and_xml(&dlr(text));
    }
}

#[test]
fn empty_lists_survive_xml() {
    // Was: `[]` read back from XML as one empty item (`webhook`, `errors`, `recipients.gsm`,
    // `message.links`), or failed to decode (`lists`: missing field `value`).
    json_and_xml(&WebhookListResponse {
        status: 1,
        message: "OK".into(),
        webhooks: vec![],
        webhook: vec![],
        total_records: 0,
        total_display_records: 0,
    });
    json_and_xml(&ErrorResponse { status: -7, message: "Invalid data".into(), details: None, errors: vec![] });
    let sms = SmsRequest {
        message: MessageDto { links: Some(vec![]), ..MessageDto::default() },
        recipients: Some(RecipientsDto { gsm: vec![] }),
        lists: Some(vec![]),
        segments: Some(vec![]),
    };
    for format in [Format::Json, Format::Xml] {
        let body = encode(&sms, format);
        assert_eq!(decode::<SmsRequest>(&body, format), Ok(sms.clone()), "{format:?} body:\n{body}");
    }
}

#[test]
fn json_keeps_all_default_list_items() {
    // Was: dropped in JSON too, where `[{}]` is not `[]`.
    let value = ListsResponse {
        status: 1,
        message: "OK".into(),
        lists: vec![ListSummaryDto::default(), ListSummaryDto::default()],
        total_records: 2,
        total_display_records: 2,
    };
    let body = encode(&value, Format::Json);
    assert_eq!(decode::<ListsResponse>(&body, Format::Json), Ok(value));
}

#[test]
fn json_amounts_round_trip_exactly() {
    // Was: serde_json's default float parsing is off by one ulp for some values.
    let result = CampaignResultDto {
        credits: 9.173654367800976e-7,
        cost: -1.4361152948929322e78,
        ..CampaignResultDto::default()
    };
    json_and_xml(&result);
}

#[test]
fn the_webhook_log_survives_both_formats_and_is_detected() {
    let entry = WebhookLogEntryDto {
        delivery_id: "d-1".into(),
        date: "2026-11-21 10:00:00".into(),
        event: "DLR".into(),
        attempt: 2,
        http_code: None,
        latency_ms: Some(10_000),
        error: Some("time-out <after> 10 s & more".into()),
        body: r#"{"status":3,"destination":"33612345678","message_id":null}"#.into(),
        id: Some(41),
        state: Some("pending".into()),
    };
    let answered = WebhookLogEntryDto {
        http_code: Some(200),
        error: None,
        attempt: 3,
        id: Some(42),
        state: Some("delivered".into()),
        ..entry.clone()
    };
    for log in [vec![], vec![entry, answered]] {
        let value = WebhookLogResponse {
            status: 1,
            message: "OK".into(),
            total_records: log.len() as i64,
            total_display_records: log.len() as i64,
            log,
        };
        json_and_xml(&value);
        for format in [Format::Json, Format::Xml] {
            assert_eq!(Kind::detect(&encode(&value, format), format), Some(Kind::WebhookLog), "{format:?}");
        }
    }
}
