//! What the operator's console writes (texto's addition): accounts, their credits,
//! connectors and routes under `/operator/…`, and the answers that are not a plain status.

use serde::{Deserialize, Serialize};

use super::lenient;

/// `POST /operator/accounts`: a new customer account.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewOperatorAccountRequest {
    /// Its name (unique, 1 to 100 characters).
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub name: Option<String>,
    /// Its opening balance (0 when absent).
    #[serde(default, deserialize_with = "lenient::opt_decimal")]
    pub credits: Option<f64>,
    /// 1: its every campaign is held for moderation.
    #[serde(default, deserialize_with = "lenient::opt_int")]
    pub moderated: Option<i64>,
    /// Its price plan (absent or `shipped`: the shipped prices).
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub plan: Option<String>,
}
document!(NewOperatorAccountRequest, None, &["account", "request"]);

/// `PUT /operator/account/:id`: what changes of an account; absent fields stay as they are.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OperatorAccountChange {
    /// Its price plan (`shipped`: the shipped prices).
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub plan: Option<String>,
    /// 1: its every campaign is held for moderation; 0: not.
    #[serde(default, deserialize_with = "lenient::opt_int")]
    pub moderated: Option<i64>,
    /// Messages a second handed to carriers at most, per node; 0: no limit.
    #[serde(default, deserialize_with = "lenient::opt_int")]
    pub per_second: Option<i64>,
}
document!(OperatorAccountChange, None, &["account", "request"]);

/// `POST /operator/account/:id/credits`: credits added to an account (a top-up in its ledger).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TopUpRequest {
    /// How many (more than 0, at most two decimals).
    #[serde(default, deserialize_with = "lenient::opt_decimal")]
    pub credits: Option<f64>,
}
document!(TopUpRequest, None, &["topup", "request"]);

/// A movement of an account's balance.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LedgerLineDto {
    /// When (`Y-m-d H:i:s`, Paris).
    #[serde(default, deserialize_with = "lenient::string")]
    pub date: String,
    /// `topup`, `debit`, `refund` or `transfer`.
    #[serde(default, deserialize_with = "lenient::string")]
    pub kind: String,
    /// Credits in (positive) or out (negative).
    #[serde(default, deserialize_with = "lenient::decimal")]
    pub amount: f64,
    /// The campaign it is for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub campaign: Option<i64>,
}

/// The answer to `GET /operator/account/:id/ledger`: the balance and its last 100 movements.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LedgerResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The balance now.
    #[serde(default, deserialize_with = "lenient::decimal")]
    pub credits: f64,
    /// The movements, newest first: 100 a page.
    #[serde(default, deserialize_with = "lenient::list")]
    pub ledger: Vec<LedgerLineDto>,
    /// The page (from 1; `?page=`).
    #[serde(default = "first_page", deserialize_with = "lenient::int")]
    pub page: i64,
    /// 1 when older movements are on the next page.
    #[serde(default, deserialize_with = "lenient::int")]
    pub more: i64,
}

/// A ledger without `page` is its first.
fn first_page() -> i64 {
    1
}
document!(LedgerResponse, None, &["response"]);

/// `PUT /operator/connector/:name`: adds or replaces a connector.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ConnectorRequest {
    /// `smpp://ID:PASSWORD@HOST:PORT?binds=&window=&rate=&system_type=`, or `smpps://…` over TLS
    /// (with `ca=NAME`, a PEM file in the server's `--ca-dir`, for a private authority).
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub smsc: Option<String>,
    /// 0: kept but not bound; 1 (the default): bound.
    #[serde(default, deserialize_with = "lenient::opt_int")]
    pub enabled: Option<i64>,
}
document!(ConnectorRequest, None, &["connector", "request"]);

/// `POST /operator/routes`: a new route.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewRouteRequest {
    /// Its connectors in failover order, by name.
    #[serde(default, deserialize_with = "lenient::list")]
    pub connectors: Vec<String>,
    /// A prefix (`33`, `+336`) or a country (`FR`); absent: any destination.
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub destination: Option<String>,
    /// An account's name; absent: any account.
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub account: Option<String>,
    /// `alert` or `marketing`; absent: both.
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub pushtype: Option<String>,
    /// A price plan's name: only its accounts' messages (`shipped`: accounts on none).
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub plan: Option<String>,
    /// Higher is tried first (0 when absent).
    #[serde(default, deserialize_with = "lenient::opt_int")]
    pub priority: Option<i64>,
}
document!(NewRouteRequest, None, &["route", "request"]);

/// The answer to a creation under `/operator/…`: the new thing's id.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CreatedResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The new account's or route's id.
    #[serde(default, deserialize_with = "lenient::int")]
    pub id: i64,
}
document!(CreatedResponse, None, &["response"]);

/// The answer to `GET /operator/plans`: the price plans, `shipped` first.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PlansResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The plans' names.
    #[serde(default, deserialize_with = "lenient::list")]
    pub plans: Vec<String>,
    /// Each plan's prices, in the same order.
    #[serde(default, deserialize_with = "lenient::list")]
    pub prices: Vec<super::PlanPricesDto>,
}
document!(PlansResponse, None, &["response"]);

/// `PUT /operator/plan/:name`: creates the plan or replaces its prices.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PlanRequest {
    /// Credits per part to each country priced on its own.
    #[serde(default, deserialize_with = "lenient::list")]
    pub countries: Vec<super::CountryPriceDto>,
    /// Credits per part to the other countries.
    #[serde(default, deserialize_with = "lenient::opt_decimal")]
    pub other: Option<f64>,
}
document!(PlanRequest, None, &["plan", "request"]);

/// `POST /operator/session`: an operator signs in with their name and password.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OperatorSignInRequest {
    /// Their name, as `texto operator create` gave it.
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub name: Option<String>,
    /// Their password (`texto operator password`).
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub password: Option<String>,
}
document!(OperatorSignInRequest, None, &["session", "request"]);

/// The answer to `POST /operator/session`: the session's bearer token, valid 12 hours or until
/// `DELETE /operator/session`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OperatorSessionResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The session's token (`texto_ops_…`), sent as `Authorization: Bearer`.
    #[serde(default, deserialize_with = "lenient::string")]
    pub token: String,
    /// The operator's name.
    #[serde(default, deserialize_with = "lenient::string")]
    pub operator: String,
}
document!(OperatorSessionResponse, None, &["response"]);
