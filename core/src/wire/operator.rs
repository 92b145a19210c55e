//! The operator's API (texto's addition): `/operator/…`, for the people who run
//! texto for every account. JSON or XML like the rest.

use serde::{Deserialize, Serialize};

use super::lenient;

/// What one node sees of a connector.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ConnectorStatusDto {
    /// The node (`local` on SQLite, `node N` on PostgreSQL).
    #[serde(default, deserialize_with = "lenient::string")]
    pub node: String,
    /// Binds up.
    #[serde(default, deserialize_with = "lenient::int")]
    pub binds_up: i64,
    /// Binds it keeps.
    #[serde(default, deserialize_with = "lenient::int")]
    pub binds: i64,
    /// Submits waiting for their answer.
    #[serde(default, deserialize_with = "lenient::int")]
    pub in_flight: i64,
    /// Messages the SMSC took per second, lately.
    #[serde(default, deserialize_with = "lenient::decimal")]
    pub per_second: f64,
    /// Messages the SMSC took since the node started.
    #[serde(default, deserialize_with = "lenient::int")]
    pub handed: i64,
    /// Refusals and cut submits since the node started.
    #[serde(default, deserialize_with = "lenient::int")]
    pub errors: i64,
    /// The last thing that went wrong.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_error: Option<String>,
    /// Messages taken since the node started without their final receipt.
    #[serde(default, deserialize_with = "lenient::int")]
    pub receipts_outstanding: i64,
}

/// A connector, with what each running node sees of it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ConnectorDto {
    /// Its name (`default`: the `--smsc` one).
    #[serde(default, deserialize_with = "lenient::string")]
    pub name: String,
    /// The SMSC's URL without its password (`--smsc` for `default`).
    #[serde(default, deserialize_with = "lenient::string")]
    pub smsc: String,
    /// 1 when texto binds to it.
    #[serde(default, deserialize_with = "lenient::int")]
    pub enabled: i64,
    /// One entry per node running it (none: no node does).
    #[serde(default, deserialize_with = "lenient::list")]
    pub nodes: Vec<ConnectorStatusDto>,
}

/// The answer to `GET /operator/connectors`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OperatorConnectorsResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The connectors, by name.
    #[serde(default, deserialize_with = "lenient::list")]
    pub connectors: Vec<ConnectorDto>,
}
document!(OperatorConnectorsResponse, None, &["response"]);

/// A route.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RouteDto {
    /// Its id.
    #[serde(default, deserialize_with = "lenient::int")]
    pub id: i64,
    /// Higher first.
    #[serde(default, deserialize_with = "lenient::int")]
    pub priority: i64,
    /// `+33` (a prefix) or `FR` (a country); absent: any destination.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destination: Option<String>,
    /// The account's name; absent: any account.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account: Option<String>,
    /// `alert` or `marketing`; absent: both.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pushtype: Option<String>,
    /// The price plan whose accounts it is for (`shipped`: on none); absent: any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plan: Option<String>,
    /// Its connectors in failover order.
    #[serde(default, deserialize_with = "lenient::list")]
    pub connectors: Vec<String>,
}

/// The answer to `GET /operator/routes`: in the order they are tried.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OperatorRoutesResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The routes.
    #[serde(default, deserialize_with = "lenient::list")]
    pub routes: Vec<RouteDto>,
}
document!(OperatorRoutesResponse, None, &["response"]);

/// An account as the operator sees it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OperatorAccountDto {
    /// Its id.
    #[serde(default, deserialize_with = "lenient::int")]
    pub id: i64,
    /// Its name.
    #[serde(default, deserialize_with = "lenient::string")]
    pub name: String,
    /// Its balance.
    #[serde(default, deserialize_with = "lenient::decimal")]
    pub credits: f64,
    /// Its price plan (`shipped`: the shipped prices).
    #[serde(default, deserialize_with = "lenient::string")]
    pub plan: String,
    /// The account it is a sub-account of.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<i64>,
    /// Its webhook events waiting to be delivered (or retried).
    #[serde(default, deserialize_with = "lenient::int")]
    pub webhook_backlog: i64,
    /// 1: its every campaign is held for moderation.
    #[serde(default, deserialize_with = "lenient::int")]
    pub moderated: i64,
    /// Its throughput limit in messages a second, per node; absent: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_second: Option<i64>,
    /// 1: suspended by an operator (its calls are refused and its messages wait).
    #[serde(default, deserialize_with = "lenient::int")]
    pub suspended: i64,
}

/// The answer to `GET /operator/accounts`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OperatorAccountsResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// Every account, by id.
    #[serde(default, deserialize_with = "lenient::list")]
    pub accounts: Vec<OperatorAccountDto>,
}
document!(OperatorAccountsResponse, None, &["response"]);

/// A campaign held for moderation.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HeldCampaignDto {
    /// Its ticket.
    #[serde(default, deserialize_with = "lenient::string")]
    pub ticket: String,
    /// The account's name.
    #[serde(default, deserialize_with = "lenient::string")]
    pub account: String,
    /// Its text.
    #[serde(default, deserialize_with = "lenient::string")]
    pub text: String,
    /// Its recipients.
    #[serde(default, deserialize_with = "lenient::int")]
    pub recipients: i64,
    /// Why it is held.
    #[serde(default, deserialize_with = "lenient::string")]
    pub reason: String,
    /// When it was sent, Paris time (`Y-m-d H:i:s`).
    #[serde(default, deserialize_with = "lenient::string")]
    pub date: String,
}

/// The answer to `GET /operator/moderation`: the held campaigns, oldest first.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ModerationResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The held campaigns.
    #[serde(default, deserialize_with = "lenient::list")]
    pub campaigns: Vec<HeldCampaignDto>,
    /// 1 when an account created without saying otherwise is moderated
    /// (`texto moderation new-accounts on|off`).
    #[serde(default, deserialize_with = "lenient::int")]
    pub new_accounts_moderated: i64,
    /// The rules that hold a campaign by its text or its links, oldest first.
    #[serde(default, deserialize_with = "lenient::list")]
    pub rules: Vec<ModerationRuleDto>,
}
document!(ModerationResponse, None, &["response"]);

/// A rule that holds campaigns for moderation.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ModerationRuleDto {
    /// Its id.
    #[serde(default, deserialize_with = "lenient::int")]
    pub id: i64,
    /// `pattern` (a regular expression over the text, case ignored) or `domain` (a link to it
    /// or to one of its subdomains).
    #[serde(default, deserialize_with = "lenient::string")]
    pub kind: String,
    /// The pattern or the domain.
    #[serde(default, deserialize_with = "lenient::string")]
    pub value: String,
}

/// `POST /operator/moderation/rules`: a new rule.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ModerationRuleRequest {
    /// `pattern` or `domain`.
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub kind: Option<String>,
    /// The regular expression, or the domain (`example.com`).
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub value: Option<String>,
}
document!(ModerationRuleRequest, None, &["rule", "request"]);

/// `PUT /operator/moderation/new-accounts`: whether an account created without saying otherwise
/// is moderated.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewAccountsModerationRequest {
    /// 1: moderated; 0: not.
    #[serde(default, deserialize_with = "lenient::opt_int")]
    pub moderated: Option<i64>,
}
document!(NewAccountsModerationRequest, None, &["moderation", "request"]);

/// One connector's traffic in one minute.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TrafficDto {
    /// The minute (UTC, `Y-m-dTH:i:00Z`).
    #[serde(default, deserialize_with = "lenient::string")]
    pub minute: String,
    /// The connector.
    #[serde(default, deserialize_with = "lenient::string")]
    pub connector: String,
    /// Messages it took that minute, every node together.
    #[serde(default, deserialize_with = "lenient::int")]
    pub handed: i64,
    /// The same per second.
    #[serde(default, deserialize_with = "lenient::decimal")]
    pub per_second: f64,
}

/// The answer to `GET /operator/traffic`: the last hour, by minute then connector (minutes
/// without traffic are left out).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TrafficResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The minutes.
    #[serde(default, deserialize_with = "lenient::list")]
    pub traffic: Vec<TrafficDto>,
}
document!(TrafficResponse, None, &["response"]);
