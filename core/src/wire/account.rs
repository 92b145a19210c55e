//! `GET /account`: the caller's account, in the shape the SMSFactor SDKs read.

use serde::{Deserialize, Serialize};

use super::{Document, lenient};

/// The account's fields. A sub-account also names its parent and the owner it was created
/// with; the fields texto has no data for are empty, so a client reading them finds them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AccountDto {
    /// The account's id.
    #[serde(default, deserialize_with = "lenient::string")]
    pub client_id: String,
    /// The parent account's id; empty for an account that is no sub-account.
    #[serde(default, deserialize_with = "lenient::string")]
    pub parent_client_id: String,
    /// A sub-account's first owner's e-mail address; empty for an account that is no sub-account.
    #[serde(default, deserialize_with = "lenient::string")]
    pub email: String,
    /// A sub-account's first owner's first name (up to the first space of the name); empty otherwise.
    #[serde(default, deserialize_with = "lenient::string")]
    pub firstname: String,
    /// A sub-account's first owner's last name (after that space); empty otherwise.
    #[serde(default, deserialize_with = "lenient::string")]
    pub lastname: String,
    /// The account's name.
    #[serde(default, deserialize_with = "lenient::string")]
    pub company: String,
    /// The balance, as `GET /credits` writes it.
    #[serde(default, deserialize_with = "lenient::string")]
    pub credits: String,
    /// `1`: a sub-account that draws on its parent's balance; `0`: prepaid.
    #[serde(default, deserialize_with = "lenient::int")]
    pub unlimited: i64,
    /// Default sender; empty: each send names its own.
    #[serde(default, deserialize_with = "lenient::string")]
    pub senderid: String,
    /// `1`: active.
    #[serde(default, deserialize_with = "lenient::int")]
    pub status: i64,
    /// `Europe/Paris`, the zone of every time texto writes.
    #[serde(default, deserialize_with = "lenient::string")]
    pub time_zone: String,
}

/// The answer to `GET /account`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AccountResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The account.
    #[serde(deserialize_with = "lenient::object")]
    pub account: AccountDto,
}

impl Document for AccountResponse {
    const JSON_ROOT: Option<&'static str> = None;
    const XML_ROOTS: &'static [&'static str] = &["response"];
}
