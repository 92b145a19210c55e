//! The team's rules (texto's `GET` and `PUT /team-rules`): campaigns over a number of
//! recipients wait for approval, and people must sign in with two factors.

use serde::{Deserialize, Serialize};

use super::lenient;

/// The rules. In a `PUT`, a field left out keeps its value.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TeamRulesDto {
    /// Campaigns to more recipients than this wait for approval, whoever sends them; `0`: none do.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_int")]
    pub approval_over: Option<i64>,
    /// `1`: everyone signs in with an authentication code as well (only an owner changes it).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_int")]
    pub require_two_factor: Option<i64>,
}

/// `{"team_rules": {...}}`: the request of `PUT /team-rules`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(transparent)]
pub struct TeamRulesRequest {
    /// The rules to change.
    #[serde(deserialize_with = "lenient::object")]
    pub team_rules: TeamRulesDto,
}
document!(TeamRulesRequest, Some("team_rules"), &["team_rules"]);

/// The answer to `GET` and `PUT /team-rules`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TeamRulesResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The rules in force.
    #[serde(default, deserialize_with = "lenient::object")]
    pub team_rules: TeamRulesDto,
}
document!(TeamRulesResponse, None, &["response"]);
