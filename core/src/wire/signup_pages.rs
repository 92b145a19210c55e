//! Sign-up pages (texto's addition): `GET /signup-pages`, `POST /signup-page`, `GET`, `PUT` and
//! `DELETE /signup-page/:id`. The page itself, `/join/:slug`, is HTML, not a document.

use serde::{Deserialize, Serialize};

use super::lenient;

/// A hosted sign-up page: `{"slug": "club", "title": "Le Club", "text": "…", "fields":
/// ["firstname", "city"], "list": "12", "consent_text": "J'accepte de recevoir…"}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SignupPageDto {
    /// Its id (in answers).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub id: Option<String>,
    /// Its address is `/join/{slug}`: 3 to 40 lower-case letters, digits and `-`.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub slug: Option<String>,
    /// The page's heading.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub title: Option<String>,
    /// What the page says under it.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub text: Option<String>,
    /// The contact's fields the form asks besides the number: `firstname`, `lastname` or a
    /// custom field's name.
    #[serde(default, deserialize_with = "lenient::list")]
    pub fields: Vec<String>,
    /// The list a confirmed number joins.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub list: Option<String>,
    /// The consent the visitor ticks, kept with the opt-in.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub consent_text: Option<String>,
    /// Its path, `/join/{slug}` (in answers).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub address: Option<String>,
    /// Sign-ups confirmed so far (in answers).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_int")]
    pub confirmed: Option<i64>,
    /// Sign-ups never confirmed, waiting or given up (in answers).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_int")]
    pub unconfirmed: Option<i64>,
}

/// `{"signup_page": {...}}`: the request of `POST /signup-page` and `PUT /signup-page/:id`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(transparent)]
pub struct SignupPageRequest {
    /// The page.
    #[serde(deserialize_with = "lenient::object")]
    pub signup_page: SignupPageDto,
}
document!(SignupPageRequest, Some("signup_page"), &["signup_page"]);

/// The answer to `POST /signup-page`, `GET` and `PUT /signup-page/:id`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SignupPageResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The page.
    #[serde(default, deserialize_with = "lenient::object")]
    pub signup_page: SignupPageDto,
}
document!(SignupPageResponse, None, &["response"]);

/// The answer to `GET /signup-pages`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SignupPagesResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The pages, by slug.
    #[serde(default, deserialize_with = "lenient::list")]
    pub signup_pages: Vec<SignupPageDto>,
}
document!(SignupPagesResponse, None, &["response"]);
