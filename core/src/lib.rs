//! `texto-core`: the pure heart of texto.
//!
//! Everything here is deterministic and free of I/O so that one implementation serves the
//! server (native), the web app (WebAssembly) and JavaScript projects (the npm package).

mod app_area;
mod calendar;
mod campaign;
mod conversion;
mod credits;
mod delivery_code;
mod duration;
mod error;
mod excerpt;
mod gsm;
mod journey;
mod keywords;
mod marketing_cap;
mod overseas;
mod period;
mod phone;
mod plain;
mod pricing;
mod pushtype;
mod report;
mod retention;
mod role;
mod segment_rules;
mod segments;
mod senders;
mod signature;
mod signup;
mod simulate;
mod smart_encoding;
mod spreadsheet;
mod stop_words;
mod utm;
pub mod wire;

#[cfg(all(target_arch = "wasm32", feature = "js"))]
pub mod js;

pub use app_area::{ACCOUNT_AREA, AUDIENCE_AREA, AUTOMATION_AREA, AppArea, app_area};
pub use calendar::{
    DelayError, format_paris, french_public_holidays, is_french_public_holiday, next_allowed_send, parse_day,
    parse_delay, parse_paris,
};
pub use campaign::{
    AbTest, Audience, Campaign, Criterion, Endpoint, MAX_PARTS, MOST_TEST_NUMBERS, MOST_VARIANTS, MergeValues,
    MessageOptions, Recipient, Recipients, SHARE_RANGE, SHORT_CODE_LEN, SHORT_MARKER, STOP_MARKER, Sender, Smart,
    TEMPLATE_NAME_CHARS, Template, Validity, VariantCounts, WAIT_RANGE, card_fields, card_value, card_values,
    has_contact_fields, merge, render, rendered_segments, test_request, unknown_field, validate_send,
    validate_template, winner,
};
pub use conversion::{MOST_CONVERSION_HUNDREDTHS, NewConversion};
pub use credits::Credits;
pub use delivery_code::{DeliveryCode, ESME_RINVDSTADR, ESME_RINVSRCADR};
pub use duration::{format_minutes, parse_duration};
pub use error::{Error, FieldError};
pub use excerpt::{EXCERPT_CHARS, excerpt};
pub use gsm::{decode_gsm, decode_short_message, decode_ucs2, encode_gsm, encode_ucs2};
pub use journey::{
    Condition, ContactFacts, DateTrigger, Effect, Journey, JourneyStatus, ListChange, MOST_BRANCH_DEPTH,
    MOST_DATE_OFFSET_DAYS, MOST_JOURNEY_STEPS, MOST_JOURNEY_TEXT_CHARS, MOST_JOURNEY_WAIT_DAYS, MOST_WEBHOOK_URL_CHARS,
    Node, NodeKind, Program, Repeat, Rest, Schedule, Step, TagChange, Trigger, Wait, WaitUntil, Walk, Weekdays,
    local_instant,
};
pub use keywords::{
    BuiltinKeyword, Keyword, KeywordAction, MOST_ACTIONS, MOST_KEYWORD_CHARS, MOST_REPLY_CHARS, MOST_TAG_CHARS,
    keyword_of_reply,
};
pub use marketing_cap::{MOST_CAP_DAYS, MOST_CAP_MESSAGES, MarketingCap};
pub use overseas::{OpenWindows, OverseasPart, Territory, Zone, next_allowed_send_in};
pub use period::{PeriodBound, parse_period_bound};
pub use phone::{
    Country, Msisdn, NUMBERING_DATA_VERSION, NumberError, parse_international, parse_with_default_country,
};
pub use plain::{LineText, PlainText};
pub use pricing::{PriceTable, country_price, country_prices, part_price, part_price_text};
pub use pushtype::PushType;
pub use report::{REPORT_HOURS, ReportCounts, SampleHours, ab_report, campaign_report};
pub use retention::{RetentionPeriod, RetentionUnit};
pub use role::{Action, Role};
pub use segment_rules::{
    ContactField, Engagement, EngagementWindow, FieldTest, MOST_DAYS, MOST_RULES, MOST_SEGMENT_CHARS, SegmentFilter,
    SegmentMatch, SegmentRule, is_custom_field_name, parse_segment_rules,
};
pub use segments::{Encoding, Segments, segments, split};
pub use senders::registered_sender;
pub use signature::{DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, SignatureError, TIMESTAMP_HEADER, sign, verify};
pub use signup::{
    CODE_DIGITS, FilledForm, MOST_CONSENT_TEXT_CHARS, MOST_SIGNUP_FIELDS, MOST_SIGNUP_TEXT_CHARS,
    MOST_SIGNUP_TITLE_CHARS, MOST_SIGNUP_VALUE_CHARS, PageLanguage, SignupPage, Slug, confirms,
};
pub use simulate::{
    CardValues, CardsBuilder, Contact, Counters, FilterContext, FloodLimits, Outcome, RecentSends, RecipientOutcome,
    Simulation, simulate,
};
pub use smart_encoding::{GsmText, SmartEncoding, gsm_twin, to_gsm, to_gsm_units};
pub use spreadsheet::{CSV_BOM, spreadsheet_cell};
pub use stop_words::is_stop_word;
pub use utm::{MOST_UTM_CHARS, Utm, UtmChoice};
