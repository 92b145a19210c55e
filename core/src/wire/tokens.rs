//! API tokens (`POST /token`, `GET /token`, `GET /token/:id`, `DELETE /token/:id`), in the
//! shapes the SMSFactor SDKs send and read.

use serde::{Deserialize, Serialize};

use super::{Document, lenient};

/// The fields of `POST /token`; every one is optional here (the server requires `name`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewTokenDto {
    /// What the token is for, as its owner will recognise it (`Shop back-office`).
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub name: Option<String>,
    /// Seconds the token lives; absent: until it is revoked.
    #[serde(default, deserialize_with = "lenient::opt_int")]
    pub ttl: Option<i64>,
    /// The addresses the token answers to (IPv4, IPv6, CIDR); absent or empty: any.
    #[serde(default, deserialize_with = "lenient::opt_list")]
    pub allowed_ips: Option<Vec<String>>,
    /// `0`: every error answer comes as HTTP 200 with its envelope (docs/interface.md §9);
    /// `1` (the default): with its HTTP status.
    #[serde(default, deserialize_with = "lenient::opt_flag")]
    pub http_errors: Option<bool>,
    /// What it may do (`owner`, `admin`, `sender`, `author`, `analyst`); absent: the
    /// creator's own role. texto's addition.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub role: Option<String>,
}

/// `{"token": {...}}`: the request of `POST /token`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(transparent)]
pub struct NewTokenRequest {
    /// The token to create.
    #[serde(deserialize_with = "lenient::object")]
    pub token: NewTokenDto,
}

impl Document for NewTokenRequest {
    const JSON_ROOT: Option<&'static str> = Some("token");
    const XML_ROOTS: &'static [&'static str] = &["token"];
}

/// The answer to `POST /token`: the token itself, shown this once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TokenCreatedResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The bearer token. texto keeps only its hash: it cannot be shown again.
    #[serde(deserialize_with = "lenient::string")]
    pub token: String,
    /// Its id, for `GET` and `DELETE /token/:id`.
    #[serde(deserialize_with = "lenient::int")]
    pub token_id: i64,
    /// The addresses it answers to, as stored (`203.0.113.0/24`); empty: any.
    #[serde(default, deserialize_with = "lenient::list")]
    pub allowed_ips: Vec<String>,
    /// When it expires (`Y-m-d H:i:s`, Paris); absent: never.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub expired_at: Option<String>,
}

impl Document for TokenCreatedResponse {
    const JSON_ROOT: Option<&'static str> = None;
    const XML_ROOTS: &'static [&'static str] = &["response"];
}

/// A token as `GET /token` lists it (never the token itself).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TokenDto {
    /// Its id.
    #[serde(default, deserialize_with = "lenient::int")]
    pub api_token_id: i64,
    /// Its name.
    #[serde(default, deserialize_with = "lenient::string")]
    pub name: String,
    /// Its first characters and an ellipsis (`texto_3fa9…`), to tell it apart.
    #[serde(default, deserialize_with = "lenient::string")]
    pub api_token: String,
    /// When it was created (`Y-m-d H:i:s`, Paris).
    #[serde(default, deserialize_with = "lenient::string")]
    pub created_at: String,
    /// When it expires; null: never (sent as null, as the SDKs' token classes read it).
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub expired_at: Option<String>,
    /// Seconds it lives from its creation; null: until revoked.
    #[serde(default, deserialize_with = "lenient::opt_int")]
    pub ttl: Option<i64>,
    /// `1` while it is accepted, `0` once expired.
    #[serde(default, deserialize_with = "lenient::int")]
    pub is_active: i64,
    /// The addresses it answers to; empty: any.
    #[serde(default, deserialize_with = "lenient::list")]
    pub allowed_ips: Vec<String>,
    /// When a request last used it (to the minute); absent: never.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub last_used_at: Option<String>,
    /// `1`: errors with their HTTP status; `0`: as HTTP 200.
    #[serde(default, deserialize_with = "lenient::int")]
    pub http_errors: i64,
    /// What it may do. texto's addition.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub role: Option<String>,
    /// The email of the person who made it, who answers for it; absent for a token of the
    /// command line. texto's addition.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub made_by: Option<String>,
}

/// The answer to `GET /token`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TokensResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The account's tokens that are not revoked, newest first.
    #[serde(default, deserialize_with = "lenient::list")]
    pub tokens: Vec<TokenDto>,
}

impl Document for TokensResponse {
    const JSON_ROOT: Option<&'static str> = None;
    const XML_ROOTS: &'static [&'static str] = &["response"];
}

/// The answer to `GET /token/:id`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TokenResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The token.
    #[serde(deserialize_with = "lenient::object")]
    pub token: TokenDto,
}

impl Document for TokenResponse {
    const JSON_ROOT: Option<&'static str> = None;
    const XML_ROOTS: &'static [&'static str] = &["response"];
}

/// The answer to `DELETE /token/:id`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TokenDeletedResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The id of the token revoked (the Java SDK reads it).
    #[serde(deserialize_with = "lenient::int")]
    pub deleted_token: i64,
}

impl Document for TokenDeletedResponse {
    const JSON_ROOT: Option<&'static str> = None;
    const XML_ROOTS: &'static [&'static str] = &["response"];
}
