//! Drafts and test sends (texto's additions): `GET /drafts`, `POST /campaign/draft`, a
//! draft's `GET`, `PUT` and `DELETE /campaign/:id`, `POST /campaign/:id/send`,
//! `POST /campaign/:id/clone` and `POST /campaign/:id/test`. A draft is the `sms` request of
//! `POST /send` or `POST /send/lists`, kept on the server until it is sent.

use serde::{Deserialize, Serialize};

use super::{SmsRequest, lenient};

/// A draft: the request, who wrote it and who last changed it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DraftDto<'a> {
    /// Its id, a campaign number: `PUT /campaign/:id` changes it, `POST /campaign/:id/send`
    /// sends it.
    #[serde(default, deserialize_with = "lenient::string")]
    pub id: String,
    /// The `sms` request as it stands, as `POST /send` (numbers) or `POST /send/lists` (lists
    /// or segments) take it.
    #[serde(default, borrow, deserialize_with = "lenient::object")]
    pub sms: SmsRequest<'a>,
    /// Who wrote it, as the audit log names them.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub author: Option<String>,
    /// When it was written, Paris time.
    #[serde(default, deserialize_with = "lenient::string")]
    pub created_at: String,
    /// Who last changed it.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub updated_by: Option<String>,
    /// When it was last changed, Paris time.
    #[serde(default, deserialize_with = "lenient::string")]
    pub updated_at: String,
    /// 1, then one more at each change: `POST /campaign/:id/send?revision=N` sends it only if
    /// it is still the one seen.
    #[serde(default, deserialize_with = "lenient::int")]
    pub revision: i64,
}

/// The answer to `POST /campaign/draft`, `POST /campaign/:id/clone`, and a draft's `GET` and
/// `PUT /campaign/:id`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DraftResponse<'a> {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The draft.
    #[serde(default, borrow, deserialize_with = "lenient::object")]
    pub draft: DraftDto<'a>,
}

impl super::Document for DraftResponse<'_> {
    const JSON_ROOT: Option<&'static str> = None;
    const XML_ROOTS: &'static [&'static str] = &["response"];
}

/// The answer to `GET /drafts`, the last changed first.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DraftsResponse<'a> {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The drafts.
    #[serde(default, borrow, deserialize_with = "lenient::objects")]
    pub drafts: Vec<DraftDto<'a>>,
}

impl super::Document for DraftsResponse<'_> {
    const JSON_ROOT: Option<&'static str> = None;
    const XML_ROOTS: &'static [&'static str] = &["response"];
}

/// `{"numbers": ["336…"]}`: the request of `POST /campaign/:id/test`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TestSendRequest {
    /// The numbers the test goes to: 1 to 10; none: the person's own (their profile's).
    #[serde(default, deserialize_with = "lenient::list")]
    pub numbers: Vec<String>,
}
document!(TestSendRequest, None, &["test"]);
