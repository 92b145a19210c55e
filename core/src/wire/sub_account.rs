//! Sub-accounts (SMSFactor's `POST /account` with `isChild`, `GET /sub-accounts`) and texto's
//! addition for moving credits to them.

use serde::{Deserialize, Serialize};

use super::lenient;

/// A sub-account as its parent sees it: the account's fields and its consumption.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SubAccountDto {
    /// Its id.
    #[serde(default, deserialize_with = "lenient::string")]
    pub client_id: String,
    /// The parent's id.
    #[serde(default, deserialize_with = "lenient::string")]
    pub parent_client_id: String,
    /// Its first owner's email.
    #[serde(default, deserialize_with = "lenient::string")]
    pub email: String,
    /// Its first owner's first name.
    #[serde(default, deserialize_with = "lenient::string")]
    pub firstname: String,
    /// Its first owner's last name.
    #[serde(default, deserialize_with = "lenient::string")]
    pub lastname: String,
    /// Its name.
    #[serde(default, deserialize_with = "lenient::string")]
    pub company: String,
    /// Its own balance, as `GET /credits` writes it.
    #[serde(default, deserialize_with = "lenient::string")]
    pub credits: String,
    /// `1`: it draws on the parent's balance; `0`: the parent moves credits to it.
    #[serde(default, deserialize_with = "lenient::int")]
    pub unlimited: i64,
    /// `1`: active.
    #[serde(default, deserialize_with = "lenient::int")]
    pub status: i64,
    /// When it was created (`Y-m-d H:i:s`, Paris).
    #[serde(default, deserialize_with = "lenient::string")]
    pub created_at: String,
    /// Messages handed to the carrier this month.
    #[serde(default, deserialize_with = "lenient::int")]
    pub current_month_consumption: i64,
    /// Messages handed to the carrier last month.
    #[serde(default, deserialize_with = "lenient::int")]
    pub previous_month_consumption: i64,
}

/// The answer to `GET /sub-accounts`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SubAccountsResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The caller's sub-accounts, oldest first.
    #[serde(rename = "sub-accounts", default, deserialize_with = "lenient::list")]
    pub sub_accounts: Vec<SubAccountDto>,
}
document!(SubAccountsResponse, None, &["response"]);

/// The answer to `GET /sub-accounts/:id`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SubAccountResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The sub-account.
    #[serde(rename = "sub-account", default, deserialize_with = "lenient::object")]
    pub sub_account: SubAccountDto,
}
document!(SubAccountResponse, None, &["response"]);

/// The fields of `POST /account` (root `account`), as SMSFactor takes them. texto keeps the
/// email, password, names, company, `isChild` and `unlimited`; the postal fields are accepted
/// and not kept.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewAccountDto {
    /// The first owner's email, which they sign in with.
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub email: Option<String>,
    /// The first owner's password.
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub password: Option<String>,
    /// The first owner's first name.
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub firstname: Option<String>,
    /// The first owner's last name.
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub lastname: Option<String>,
    /// The account's name (the email when left out).
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub company: Option<String>,
    /// `1`: a sub-account of the caller (the only kind a client creates).
    #[serde(rename = "isChild", default, deserialize_with = "lenient::opt_int")]
    pub is_child: Option<i64>,
    /// `1`: it draws on the parent's balance.
    #[serde(default, deserialize_with = "lenient::opt_int")]
    pub unlimited: Option<i64>,
}

/// `{"account": {...}}`: the request of `POST /account`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(transparent)]
pub struct NewAccountRequest {
    /// The account to create.
    #[serde(deserialize_with = "lenient::object")]
    pub account: NewAccountDto,
}
document!(NewAccountRequest, Some("account"), &["account"]);

/// The answer to `POST /account`: the new account's id.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AccountCreatedResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The new account's id.
    #[serde(default, deserialize_with = "lenient::int")]
    pub id: i64,
    /// `1`: it can be used at once.
    #[serde(default, deserialize_with = "lenient::int")]
    pub active: i64,
}
document!(AccountCreatedResponse, None, &["response"]);

/// The answer to `GET /account/:id/unlock`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UnlockResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// `unlocked`.
    #[serde(default, deserialize_with = "lenient::string")]
    pub state: String,
}
document!(UnlockResponse, None, &["response"]);

/// `{"credits": 100}`: credits moved from the caller to a sub-account (`POST
/// /sub-accounts/:id/credits`); a negative amount takes them back.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CreditsTransferRequest {
    /// How many credits (hundredths allowed).
    #[serde(default, deserialize_with = "lenient::opt_decimal")]
    pub credits: Option<f64>,
}
document!(CreditsTransferRequest, None, &["transfer", "request"]);

/// The answer to a transfer: both balances after it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CreditsTransferResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The sub-account's balance after.
    #[serde(default, deserialize_with = "lenient::string")]
    pub credits: String,
    /// The caller's balance after.
    #[serde(default, deserialize_with = "lenient::string")]
    pub parent_credits: String,
}
document!(CreditsTransferResponse, None, &["response"]);
