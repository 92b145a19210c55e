//! The campaign send request (`sms` root): `/send`, `/send/lists` and their simulations.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use super::{Document, lenient};

/// `{"sms": {...}}` / `<sms>…</sms>`. Every field is optional here; validation says what is missing.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SmsRequest<'a> {
    /// The message and its options.
    #[serde(default, deserialize_with = "lenient::object")]
    pub message: MessageDto,
    /// Individual numbers (`/send`, `/send/simulate`).
    #[serde(default, borrow, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::object_or_null")]
    pub recipients: Option<RecipientsDto<'a>>,
    /// Stored lists (`/send/lists`, `/send/lists/simulate`).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_list")]
    pub lists: Option<Vec<ListRefDto>>,
    /// Saved segments (texto's addition), beside or instead of `lists`, on the same endpoints.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_list")]
    pub segments: Option<Vec<ListRefDto>>,
}

impl Document for SmsRequest<'_> {
    const JSON_ROOT: Option<&'static str> = Some("sms");
    const XML_ROOTS: &'static [&'static str] = &["sms"];
}

/// `sms.message`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MessageDto {
    /// The message text (may hold `<-short->`, `<-stop->`, `[info1]`…`[info4]`).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub text: Option<String>,
    /// `alert` or `marketing`.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub pushtype: Option<String>,
    /// Custom sender.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub sender: Option<String>,
    /// `Y-m-d H:i:s` in Europe/Paris (text only: a number, object or array is -7).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "super::text_only::opt_text")]
    pub delay: Option<String>,
    /// URLs to shorten, one per `<-short->` marker.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_list")]
    pub links: Option<Vec<String>>,
    /// `1` forces UCS-2 (the samples write `0`/`1` as numbers).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt_flag",
        serialize_with = "flag_as_int"
    )]
    pub unicode: Option<bool>,
    /// Smart encoding (texto's addition): `auto` (the text as written) or `gsm` (every
    /// character with a GSM 03.38 twin replaced by it).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub encoding: Option<String>,
    /// Minutes the carrier keeps trying (texto's addition; 5 to 4,320): the SMPP validity period.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_int")]
    pub validity: Option<i64>,
    /// UTM tags for this campaign's short links (texto's addition), instead of the account's;
    /// every value empty: none. Anything but an object is left out.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_object")]
    pub utm: Option<UtmDto>,
    /// The id of the account's template the campaign started from (texto's addition).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub template: Option<String>,
    /// Up to three other texts to test against `text` on a sample (texto's addition; needs
    /// `ab`).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_list")]
    pub variants: Option<Vec<String>>,
    /// How the texts are tested (texto's addition; needs `variants`).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_object")]
    pub ab: Option<AbDto>,
}

/// An A/B test's settings (texto's addition): `share` percent of the recipients (5 to 50)
/// split evenly between the texts, a `wait` (`30m` to `24h`) and the `criterion` that picks the
/// text the rest receive (`clicks`, `replies` or `delivered`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AbDto {
    /// The sample's share of the recipients, in percent.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_int")]
    pub share: Option<i64>,
    /// How long the sample runs before the best text goes to the rest (`2h`).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub wait: Option<String>,
    /// `clicks`, `replies` or `delivered`.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub criterion: Option<String>,
}

/// UTM tags added to short links' targets (texto's addition): `utm_source`, `utm_medium` and
/// `utm_campaign` (the campaign's ticket when empty).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UtmDto {
    /// `utm_source` (`sms`).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub source: Option<String>,
    /// `utm_medium` (`texto`).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub medium: Option<String>,
    /// `utm_campaign`; empty: the campaign's ticket.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub campaign: Option<String>,
    /// The name of a parameter that carries the click's short code to the site (`texto_click`),
    /// for its conversions (`POST /conversion`, the pixel); empty: none.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub click: Option<String>,
}

fn flag_as_int<S: serde::Serializer>(flag: &Option<bool>, s: S) -> Result<S::Ok, S::Error> {
    match flag {
        Some(on) => s.serialize_u8(u8::from(*on)),
        None => s.serialize_none(),
    }
}

/// `sms.recipients`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RecipientsDto<'a> {
    /// One entry per number.
    #[serde(default, borrow, deserialize_with = "lenient::recipients")]
    pub gsm: Vec<GsmDto<'a>>,
}

/// One recipient: JSON `{"value": "336…", "gsmsmsid": "100"}`, XML `<gsm gsmsmsid="100">336…</gsm>`.
///
/// `value` defaults to empty so that the empty `<gsm></gsm>` (the XML form of `gsm: []`) reads.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GsmDto<'a> {
    /// The number as the client wrote it.
    #[serde(default, borrow, alias = "$text")]
    pub value: Cow<'a, str>,
    /// Client id echoed in delivery reports.
    #[serde(default, borrow, alias = "@gsmsmsid", skip_serializing_if = "Option::is_none")]
    pub gsmsmsid: Option<Cow<'a, str>>,
}

/// One of `sms.lists`: `{"value": 45190}` or `{"value": "5a03…"}`.
///
/// `value` defaults to empty so that the empty `<lists></lists>` (the XML form of `lists: []`)
/// reads (an empty id is for validation to refuse).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ListRefDto {
    /// The list id (numbers are read as their digits).
    #[serde(default, deserialize_with = "lenient::string")]
    pub value: String,
}
