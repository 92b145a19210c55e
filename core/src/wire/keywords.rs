//! Keywords and the account's settings (texto's additions): `GET /keywords`,
//! `POST /keyword`, `PUT` and `DELETE /keyword/:id`, `GET` and `PUT /settings`.

use serde::{Deserialize, Serialize};

use super::lenient;

/// Something a keyword does: `{"type": "add_to_list", "list": "12"}`, `{"type": "join_list",
/// "list": "12"}`, `{"type": "blacklist"}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct KeywordActionDto {
    /// `add_to_list`, `join_list` (the same, with the number's opt-in), `remove_from_list`, `tag`,
    /// `blacklist` or `unblacklist`.
    #[serde(rename = "type", default, deserialize_with = "lenient::string")]
    pub kind: String,
    /// The list, for `add_to_list`, `join_list` and `remove_from_list`.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub list: Option<String>,
    /// The tag, for `tag`.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub value: Option<String>,
}

/// A keyword and what it does.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct KeywordDto {
    /// Its id (in answers).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub id: Option<String>,
    /// The word: the first word of a reply, matched without regard to case or accents.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub word: Option<String>,
    /// The automatic reply, sent back once a day at most per number (empty: none).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub reply: Option<String>,
    /// What else it does, in order.
    #[serde(default, deserialize_with = "lenient::list")]
    pub actions: Vec<KeywordActionDto>,
    /// `stop`, `start` or `help` for a built-in keyword (in answers).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub builtin: Option<String>,
    /// The other words it answers to (in answers, for a built-in keyword).
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "lenient::list")]
    pub synonyms: Vec<String>,
}

/// `{"keyword": {...}}`: the request of `POST /keyword` and `PUT /keyword/:id`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(transparent)]
pub struct KeywordRequest {
    /// The keyword.
    #[serde(deserialize_with = "lenient::object")]
    pub keyword: KeywordDto,
}
document!(KeywordRequest, Some("keyword"), &["keyword"]);

/// The answer to `POST /keyword`, `PUT /keyword/:id`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct KeywordResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The keyword as saved.
    #[serde(default, deserialize_with = "lenient::object")]
    pub keyword: KeywordDto,
}
document!(KeywordResponse, None, &["response"]);

/// The answer to `GET /keywords`: the built-in keywords first, then the account's by word.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct KeywordsResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The keywords.
    #[serde(default, deserialize_with = "lenient::list")]
    pub keywords: Vec<KeywordDto>,
}
document!(KeywordsResponse, None, &["response"]);

/// The account's settings. In a `PUT`, a field left out keeps its value.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SettingsDto {
    /// What HELP and AIDE are answered (empty: they are not answered).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub help_text: Option<String>,
    /// `1`: a number that sends STOP is told it will get nothing more (the STOP keyword's reply).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_int")]
    pub stop_confirmation: Option<i64>,
    /// `1`: marketing sends skip contacts without an opt-in in force (counted as `no_consent`).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_int")]
    pub marketing_needs_consent: Option<i64>,
    /// UTM tags added to every short link's target (`null`: none). In answers, present only
    /// while set.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "super::lenient::present")]
    pub utm: Option<Option<super::UtmDto>>,
    /// The frequency cap of marketing sends (`null`: none). In answers, present only while set.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "super::lenient::present")]
    pub marketing_cap: Option<Option<MarketingCapDto>>,
}

/// At most `messages` marketing messages per number in `days` days.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MarketingCapDto {
    /// Messages allowed in the period (1 to 100).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_int")]
    pub messages: Option<i64>,
    /// The period in days (1 to 90).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_int")]
    pub days: Option<i64>,
}

/// `{"settings": {...}}`: the request of `PUT /settings`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(transparent)]
pub struct SettingsRequest {
    /// The settings to change.
    #[serde(deserialize_with = "lenient::object")]
    pub settings: SettingsDto,
}
document!(SettingsRequest, Some("settings"), &["settings"]);

/// The answer to `GET` and `PUT /settings`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SettingsResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The settings in force.
    #[serde(default, deserialize_with = "lenient::object")]
    pub settings: SettingsDto,
}
document!(SettingsResponse, None, &["response"]);
