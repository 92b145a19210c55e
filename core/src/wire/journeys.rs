//! Journeys (texto's addition): `GET /journeys`, `POST /journey`, `GET`, `PUT` and
//! `DELETE /journey/:id`, `PUT /journey/:id/status`, `POST /journey/:id/enter`,
//! `GET /journey/:id/contacts` and `GET /journey/:id/report`.

use serde::{Deserialize, Serialize};

use super::lenient;

/// A test a branch (or a journey's exit) makes: `{"type": "clicked"}`, `{"type": "replied"}`,
/// `{"type": "keyword", "value": "OUI"}`, `{"type": "delivered"}`, `{"type": "tag", "value":
/// "vip"}`, `{"type": "list", "list": "12"}`, `{"type": "segment", "segment": "5"}`,
/// `{"type": "field", "field": "city", "test": "equals", "value": "Paris"}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct JourneyConditionDto {
    /// `clicked`, `replied`, `keyword` (since the journey's last send to the contact),
    /// `delivered` (that send), `tag`, `list`, `segment` or `field`.
    #[serde(rename = "type", default, deserialize_with = "lenient::string")]
    pub kind: String,
    /// The field, for `field`.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub field: Option<String>,
    /// For `field`: `equals`, `contains`, `before` or `after`.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub test: Option<String>,
    /// The field's value, the tag, or the keyword.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub value: Option<String>,
    /// The list, for `list`.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub list: Option<String>,
    /// The segment, for `segment`.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub segment: Option<String>,
}

/// One step: `send`, `wait`, `branch`, `tag`, `list` or `end`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct JourneyStepDto {
    /// What the step does.
    #[serde(rename = "type", default, deserialize_with = "lenient::string")]
    pub kind: String,
    /// For `send`: the text, with merge fields (`[firstname|]`).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub text: Option<String>,
    /// For `send`: `alert` (the default) or `marketing`.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub pushtype: Option<String>,
    /// For `send`: the addresses its `<-short->` markers stand for, in order (short links
    /// whose clicks a `clicked` branch sees).
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "lenient::list")]
    pub links: Vec<String>,
    /// For `send`: the sender, else the account's default.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub sender: Option<String>,
    /// For `wait`: how long (`30s`, `45m`, `2h`, `3d`).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub duration: Option<String>,
    /// For `wait`, instead of a duration: until this time of the contact's day (`HH:MM`).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub until: Option<String>,
    /// For `wait` `until`: only on these days of the week (`mon` … `sun`); left out, any day.
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "lenient::list")]
    pub days: Vec<String>,
    /// For `branch`: the test.
    #[serde(rename = "if", default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_object")]
    #[cfg_attr(feature = "openapi", schema(no_recursion))]
    pub condition: Option<Box<JourneyConditionDto>>,
    /// For `branch`: the steps when the test holds.
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "lenient::list")]
    #[cfg_attr(feature = "openapi", schema(no_recursion))]
    pub then: Vec<JourneyStepDto>,
    /// For `branch`: the steps when it does not.
    #[serde(rename = "else", default, skip_serializing_if = "Vec::is_empty", deserialize_with = "lenient::list")]
    #[cfg_attr(feature = "openapi", schema(no_recursion))]
    pub otherwise: Vec<JourneyStepDto>,
    /// For `tag` (the tag) and `list` (the list's id): add the contact.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub add: Option<String>,
    /// For `tag` and `list`: take the contact out.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub remove: Option<String>,
    /// For `webhook`: the address posted to (one of the account's `JOURNEY` webhooks, whose
    /// secret signs the post).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub url: Option<String>,
}

/// What puts a contact in a journey: `{"type": "list", "list": "12"}` (joining the list),
/// `{"type": "segment", "segment": "5"}` (starting to match the segment),
/// `{"type": "keyword", "keyword": "CLUB"}` (a reply starting with it), `{"type": "click",
/// "campaign": "123"}` (a click on one of the campaign's links),
/// `{"type": "date", "field": "birthday", "every": "year", "offset": "0d", "at": "09:00"}` (a
/// date field, in the contact's own time), `{"type": "schedule", "every": "week", "days":
/// ["mon"], "at": "10:00", "segment": "5"}` (a segment, Paris time) or `{"type": "api"}`
/// (`POST /journey/:id/enter`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct JourneyTriggerDto {
    /// `list`, `segment`, `keyword`, `click`, `date`, `schedule` or `api`.
    #[serde(rename = "type", default, deserialize_with = "lenient::string")]
    pub kind: String,
    /// The list, for `list`.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub list: Option<String>,
    /// The keyword a reply starts with, for `keyword` (`CLUB`).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub keyword: Option<String>,
    /// The campaign (its ticket) whose links a click on enters, for `click`.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub campaign: Option<String>,
    /// The segment, for `segment` (who starts matching it) and `schedule`.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub segment: Option<String>,
    /// For `date`: the custom field holding the date (`YYYY-MM-DD`).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub field: Option<String>,
    /// For `date`: `year` (each year on the date, the default) or `once`; for `schedule`:
    /// `day`, `week` or `month`.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub every: Option<String>,
    /// For `date`: days before (`-3d`) or after (`3d`) the date; `0d` by default.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub offset: Option<String>,
    /// The time of day, `HH:MM`: the contact's own for `date`, Paris time for `schedule`.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub at: Option<String>,
    /// For `schedule` every `week`: the days (`mon` … `sun`).
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "lenient::list")]
    pub days: Vec<String>,
    /// For `schedule` every `month`: the day of the month, 1 to 28.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub day: Option<String>,
}

/// A journey.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct JourneyDto {
    /// Its id (in answers).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub id: Option<String>,
    /// Its name.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub name: Option<String>,
    /// `draft`, `live`, `paused` or `archived` (in answers).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub status: Option<String>,
    /// Its version: each change to a journey that has been live makes a new one (in answers).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_int")]
    pub version: Option<i64>,
    /// What puts a contact in it.
    #[serde(default, deserialize_with = "lenient::opt_object")]
    pub trigger: Option<JourneyTriggerDto>,
    /// Its steps, in order.
    #[serde(default, deserialize_with = "lenient::list")]
    pub steps: Vec<JourneyStepDto>,
    /// A test that takes a contact out of the journey as soon as it holds at one of its steps
    /// (`{"type": "replied"}`); left out, none.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_object")]
    pub exit: Option<JourneyConditionDto>,
    /// After how long a contact that went through may enter again (`30d`); left out, never.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub reentry: Option<String>,
    /// How many contacts may be in it at once (`500`); left out, any number. A contact that
    /// would enter when that many are in it is turned away.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_int")]
    pub most_at_once: Option<i64>,
    /// When it was last changed, Paris time (in answers).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub updated_at: Option<String>,
}

/// `{"journey": {...}}`: the request of `POST /journey`, `PUT /journey/:id` and
/// `PUT /journey/:id/status` (`{"journey": {"status": "live"}}`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(transparent)]
pub struct JourneyRequest {
    /// The journey.
    #[serde(deserialize_with = "lenient::object")]
    pub journey: JourneyDto,
}
document!(JourneyRequest, Some("journey"), &["journey"]);

/// The answer to `POST /journey`, `GET`, `PUT /journey/:id` and `PUT /journey/:id/status`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct JourneyResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The journey.
    #[serde(default, deserialize_with = "lenient::object")]
    pub journey: JourneyDto,
}
document!(JourneyResponse, None, &["response"]);

/// The answer to `GET /journeys`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct JourneysResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The journeys, by name.
    #[serde(default, deserialize_with = "lenient::list")]
    pub journeys: Vec<JourneyDto>,
}
document!(JourneysResponse, None, &["response"]);

/// `POST /journey/:id/enter`: `{"number": "33612345678", "fields": {"firstname": "Ana"}}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct JourneyEnterRequest {
    /// The number, international.
    #[serde(default, deserialize_with = "lenient::string")]
    pub number: String,
    /// Fields written on the number's contact first (`firstname`, `lastname`, custom fields).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub fields: std::collections::BTreeMap<String, String>,
}
document!(JourneyEnterRequest, None, &["request", "enter"]);

/// Where one contact is in a journey.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct JourneyContactDto {
    /// The number.
    #[serde(default, deserialize_with = "lenient::string")]
    pub number: String,
    /// The version it entered.
    #[serde(default, deserialize_with = "lenient::int")]
    pub version: i64,
    /// The step it is at (`2`, `2.then.0`), or after its last one.
    #[serde(default, deserialize_with = "lenient::string")]
    pub step: String,
    /// `waiting` (for the step's time), `done`, `stopped` (STOP, blacklisted) or `exited`
    /// (the journey was archived).
    #[serde(default, deserialize_with = "lenient::string")]
    pub state: String,
    /// When the step is due, Paris time.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub due_at: Option<String>,
    /// Why the step waits longer than asked (`not enough credits`).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub note: Option<String>,
    /// When it entered, Paris time.
    #[serde(default, deserialize_with = "lenient::string")]
    pub entered_at: String,
}

/// The answer to `GET /journey/:id/contacts` and `POST /journey/:id/enter`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct JourneyContactsResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The contacts, the latest entered first.
    #[serde(default, deserialize_with = "lenient::list")]
    pub contacts: Vec<JourneyContactDto>,
}
document!(JourneyContactsResponse, None, &["response"]);

/// One step's figures.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct JourneyStepReportDto {
    /// The step (`0`, `2.then.1`).
    #[serde(default, deserialize_with = "lenient::string")]
    pub step: String,
    /// Its type.
    #[serde(rename = "type", default, deserialize_with = "lenient::string")]
    pub kind: String,
    /// Contacts that reached it.
    #[serde(default, deserialize_with = "lenient::int")]
    pub entered: i64,
    /// Contacts there now.
    #[serde(default, deserialize_with = "lenient::int")]
    pub waiting: i64,
    /// Contacts that went past it.
    #[serde(default, deserialize_with = "lenient::int")]
    pub done: i64,
}

/// The answer to `GET /journey/:id/report`: the current version's steps, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct JourneyReportResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The version reported.
    #[serde(default, deserialize_with = "lenient::int")]
    pub version: i64,
    /// Contacts that entered this version.
    #[serde(default, deserialize_with = "lenient::int")]
    pub entered: i64,
    /// Each step.
    #[serde(default, deserialize_with = "lenient::list")]
    pub steps: Vec<JourneyStepReportDto>,
}
document!(JourneyReportResponse, None, &["response"]);

/// `{"number": "33612345678"}`: the request of `POST /journey/:id/trial`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct JourneyTrialRequest {
    /// The number to try, international.
    #[serde(default, deserialize_with = "lenient::string")]
    pub number: String,
}
document!(JourneyTrialRequest, None, &["request"]);

/// One step of a trial run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct JourneyTrialStepDto {
    /// The step (`0`, `2.then.1`).
    #[serde(default, deserialize_with = "lenient::string")]
    pub step: String,
    /// Its type.
    #[serde(rename = "type", default, deserialize_with = "lenient::string")]
    pub kind: String,
    /// For a branch: whether its test holds for the number now.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_flag")]
    pub holds: Option<bool>,
}

/// The answer to `POST /journey/:id/trial`: the steps the number would go through, in order, as
/// its contact is now (nothing is sent or written).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct JourneyTrialResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The steps, in order.
    #[serde(default, deserialize_with = "lenient::list")]
    pub steps: Vec<JourneyTrialStepDto>,
}
document!(JourneyTrialResponse, None, &["response"]);
