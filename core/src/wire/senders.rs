//! Registered sender IDs (texto's addition): `GET /senders` and `PUT /senders/default`; the
//! operator's `…/operator/account/:id/senders`.

use serde::{Deserialize, Serialize};

use super::lenient;

/// A registered sender ID.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SenderDto {
    /// The sender ID (`Boutique`).
    #[serde(default, deserialize_with = "lenient::string")]
    pub name: String,
    /// `1` for the account's default: sends that name no sender go from it.
    #[serde(default, deserialize_with = "lenient::int")]
    pub default: i64,
}

/// The answer to `GET /senders` and `PUT /senders/default`, by name.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SendersResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The account's registered senders (none: its sends may name any sender).
    #[serde(default, deserialize_with = "lenient::list")]
    pub senders: Vec<SenderDto>,
}
document!(SendersResponse, None, &["response"]);

/// `{"sender": "Boutique"}` (or `null`: no default): the request of `PUT /senders/default`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DefaultSenderRequest {
    /// The registered sender to make the default; `null` or empty: none.
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub sender: Option<String>,
}
document!(DefaultSenderRequest, None, &["default"]);

/// `{"sender": "Boutique"}`: the request of `POST /operator/account/:id/senders`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RegisterSenderRequest {
    /// The sender ID to register (3 to 11 letters or digits with a letter, or up to 15 digits).
    #[serde(default, deserialize_with = "lenient::string")]
    pub sender: String,
}
document!(RegisterSenderRequest, None, &["register"]);
