//! Segments (texto's addition): `GET /segments`, `POST /segment`, `GET`, `PUT` and
//! `DELETE /segment/:id`, and `POST /segment/count` (the size of rules being edited).

use serde::{Deserialize, Serialize};

use super::lenient;

/// One rule: `{"type": "field", "field": "city", "test": "equals", "value": "Paris"}`,
/// `{"type": "tag", "value": "vip"}`, `{"type": "list", "list": "12"}`,
/// `{"type": "consent", "value": "1"}`, `{"type": "clicked", "days": 30}`,
/// `{"type": "delivered", "campaign": "812", "negate": true}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SegmentRuleDto {
    /// `field`, `tag`, `list`, `consent`, `delivered`, `clicked` or `replied`.
    #[serde(rename = "type", default, deserialize_with = "lenient::string")]
    pub kind: String,
    /// The field, for `field`: `firstname`, `lastname` or a custom field's name.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub field: Option<String>,
    /// For `field`: `equals`, `contains`, `before` or `after`.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub test: Option<String>,
    /// The value: the field's, the tag, or `1`/`0` for `consent`.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub value: Option<String>,
    /// The list, for `list`.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub list: Option<String>,
    /// For an engagement: in answer to this campaign (its ticket).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub campaign: Option<String>,
    /// For an engagement: in the last so many days (neither this nor `campaign`: ever).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_int")]
    pub days: Option<i64>,
    /// For an engagement: the contact did not (`never clicked`, `not delivered`).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_flag")]
    pub negate: Option<bool>,
}

/// A segment: a name and rules that must all hold, or, with `match` `any`, at least one.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SegmentDto {
    /// Its id (in answers).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub id: Option<String>,
    /// Its name.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub name: Option<String>,
    /// How its rules combine: `all` (every rule holds; the default) or `any` (at least one).
    #[serde(
        rename = "match",
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt_string"
    )]
    pub matching: Option<String>,
    /// Its rules.
    #[serde(default, deserialize_with = "lenient::list")]
    pub rules: Vec<SegmentRuleDto>,
    /// How many contacts it holds now (in answers).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_int")]
    pub count: Option<i64>,
    /// When it was last changed, Paris time (in answers).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub updated_at: Option<String>,
}

/// `{"segment": {...}}`: the request of `POST /segment`, `PUT /segment/:id` and
/// `POST /segment/count`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(transparent)]
pub struct SegmentRequest {
    /// The segment.
    #[serde(deserialize_with = "lenient::object")]
    pub segment: SegmentDto,
}
document!(SegmentRequest, Some("segment"), &["segment"]);

/// The answer to `POST /segment`, `GET` and `PUT /segment/:id`, `POST /segment/count`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SegmentResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The segment, with its count.
    #[serde(default, deserialize_with = "lenient::object")]
    pub segment: SegmentDto,
}
document!(SegmentResponse, None, &["response"]);

/// The answer to `GET /segments`, by name (counts are left out: `GET /segment/:id` has it).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SegmentsResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The segments.
    #[serde(default, deserialize_with = "lenient::list")]
    pub segments: Vec<SegmentDto>,
}
document!(SegmentsResponse, None, &["response"]);
