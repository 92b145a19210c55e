//! Templates (texto's addition): `GET /templates`, `POST /template`, `GET`, `PUT` and
//! `DELETE /template/:id`. A template is a message to start a campaign from.

use serde::{Deserialize, Serialize};

use super::lenient;

/// A template: the message of a campaign, without its recipients.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TemplateDto {
    /// Its id (in answers).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub id: Option<String>,
    /// Its name, as the team finds it.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub name: Option<String>,
    /// The message (may hold `<-short->`, `<-stop->`, `[info1]`…).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub text: Option<String>,
    /// `alert` or `marketing`.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub pushtype: Option<String>,
    /// A custom sender.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub sender: Option<String>,
    /// One URL per `<-short->`.
    #[serde(default, deserialize_with = "lenient::list")]
    pub links: Vec<String>,
    /// Who last changed it (in answers).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub author: Option<String>,
    /// When it was last changed, Paris time (in answers).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub updated_at: Option<String>,
}

/// `{"template": {...}}`: the request of `POST /template` and `PUT /template/:id`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(transparent)]
pub struct TemplateRequest {
    /// The template.
    #[serde(deserialize_with = "lenient::object")]
    pub template: TemplateDto,
}
document!(TemplateRequest, Some("template"), &["template"]);

/// The answer to `POST /template`, `GET` and `PUT /template/:id`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TemplateResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The template.
    #[serde(default, deserialize_with = "lenient::object")]
    pub template: TemplateDto,
}
document!(TemplateResponse, None, &["response"]);

/// The answer to `GET /templates`, by name.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TemplatesResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The templates.
    #[serde(default, deserialize_with = "lenient::list")]
    pub templates: Vec<TemplateDto>,
}
document!(TemplatesResponse, None, &["response"]);
