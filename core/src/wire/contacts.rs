//! Contacts: NPAI and blacklist entries and additions, stored recipient lists.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Document, lenient};

/// A number with its four information fields. JSON `{"value": "336…", "info1": "…"}`; XML
/// `<gsm info1="…">336…</gsm>` (NPAI/blacklist samples) or `<gsm><value>…</value>…</gsm>` (lists).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ContactDto {
    /// The number as written.
    #[serde(default, alias = "$text", deserialize_with = "lenient::string")]
    pub value: String,
    /// Free information field 1 (`[info1]` in texts).
    #[serde(
        default,
        alias = "@info1",
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt_string"
    )]
    pub info1: Option<String>,
    /// Free information field 2.
    #[serde(
        default,
        alias = "@info2",
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt_string"
    )]
    pub info2: Option<String>,
    /// Free information field 3.
    #[serde(
        default,
        alias = "@info3",
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt_string"
    )]
    pub info3: Option<String>,
    /// Free information field 4.
    #[serde(
        default,
        alias = "@info4",
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt_string"
    )]
    pub info4: Option<String>,
    /// For a list: what to record on the number's contact (names, fields, tags, consent), as
    /// `PUT /contact/:number` takes it (texto's addition; the NPAI list and blacklist ignore it).
    /// Boxed: a request holds a million entries, most without one.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::object_or_null")]
    pub contact: Option<Box<super::ContactCardDto>>,
}

/// `contacts: {gsm: [...]}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ContactsDto {
    /// One per number.
    #[serde(default, deserialize_with = "lenient::list")]
    pub gsm: Vec<ContactDto>,
}

/// `{"npai": {"contacts": …}}` (XML root `<list>` as in the samples, or `<npai>`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NpaiAddRequest {
    /// The numbers to add.
    #[serde(default, deserialize_with = "lenient::object")]
    pub contacts: ContactsDto,
}

impl Document for NpaiAddRequest {
    const JSON_ROOT: Option<&'static str> = Some("npai");
    const XML_ROOTS: &'static [&'static str] = &["list", "npai"];
}

/// `{"blacklist": {"contacts": …}}` (XML root `<list>` as in the samples, or `<blacklist>`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BlacklistAddRequest {
    /// The numbers to add.
    #[serde(default, deserialize_with = "lenient::object")]
    pub contacts: ContactsDto,
}

impl Document for BlacklistAddRequest {
    const JSON_ROOT: Option<&'static str> = Some("blacklist");
    const XML_ROOTS: &'static [&'static str] = &["list", "blacklist"];
}

/// `{status, message, added_contacts}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AddedContactsResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// Numbers added (already present ones are not counted).
    #[serde(deserialize_with = "lenient::int")]
    pub added_contacts: i64,
}

impl Document for AddedContactsResponse {
    const JSON_ROOT: Option<&'static str> = None;
    const XML_ROOTS: &'static [&'static str] = &["response"];
}

/// One NPAI or blacklist entry.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NumberEntryDto {
    /// Entry id.
    #[serde(default, deserialize_with = "lenient::string")]
    pub id: String,
    /// The number, international digits.
    #[serde(default, deserialize_with = "lenient::string")]
    pub destination: String,
    /// `Y-m-d H:i:s`.
    #[serde(default, deserialize_with = "lenient::string")]
    pub date: String,
    /// Information field 1.
    #[serde(default, deserialize_with = "lenient::string")]
    pub info1: String,
    /// Information field 2.
    #[serde(default, deserialize_with = "lenient::string")]
    pub info2: String,
    /// Information field 3.
    #[serde(default, deserialize_with = "lenient::string")]
    pub info3: String,
    /// Information field 4.
    #[serde(default, deserialize_with = "lenient::string")]
    pub info4: String,
    /// Always empty: `[]` in JSON, an empty element in XML.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<String>))]
    pub user_information: UserInformation,
    /// The campaign in which the number was found (null for manual additions).
    #[serde(default, deserialize_with = "lenient::opt_int")]
    pub campaign_id: Option<i64>,
    /// Batch id; null.
    #[serde(default, deserialize_with = "lenient::opt_int")]
    pub batch_id: Option<i64>,
    /// texto's addition: who added the number — `api` (the customer), `stop` (a STOP reply),
    /// `receipt` (the carrier found the number unknown). Absent from other services.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub source: Option<String>,
}

/// `user_information`, whose content the interface does not show: always written empty.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct UserInformation;

impl Serialize for UserInformation {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_seq(Some(0)).and_then(serde::ser::SerializeSeq::end)
    }
}

impl<'de> Deserialize<'de> for UserInformation {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        serde::de::IgnoredAny::deserialize(d).map(|_| UserInformation)
    }
}

/// `GET /npai` and `GET /blacklist`: `list` entries, paged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NumberListResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// One `list` element per entry.
    #[serde(default, deserialize_with = "lenient::list")]
    pub list: Vec<NumberEntryDto>,
    /// Entries in all.
    #[serde(rename = "totalRecords", deserialize_with = "lenient::int")]
    pub total_records: i64,
    /// Entries matching the filter.
    #[serde(rename = "totalDisplayRecords", deserialize_with = "lenient::int")]
    pub total_display_records: i64,
}

impl Document for NumberListResponse {
    const JSON_ROOT: Option<&'static str> = None;
    const XML_ROOTS: &'static [&'static str] = &["response"];
}

/// `{"list": {...}}`: create a stored list (`name`), or add contacts to one (`listId`, or
/// `list_id` as the PHP SDK's example writes it).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ListRequest {
    /// Name of a new list.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub name: Option<String>,
    /// Id of the list to add contacts to.
    #[serde(
        default,
        rename = "listId",
        alias = "list_id",
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt_string"
    )]
    pub list_id: Option<String>,
    /// The contacts.
    #[serde(default, deserialize_with = "lenient::object")]
    pub contacts: ContactsDto,
}

impl Document for ListRequest {
    const JSON_ROOT: Option<&'static str> = Some("list");
    const XML_ROOTS: &'static [&'static str] = &["list"];
}

/// The answer to a list creation or addition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ListSavedResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// Contacts added.
    #[serde(deserialize_with = "lenient::int")]
    pub contacts: i64,
    /// Contacts refused (invalid number).
    #[serde(deserialize_with = "lenient::int")]
    pub invalid: i64,
    /// Contacts already in the list.
    #[serde(deserialize_with = "lenient::int")]
    pub duplicates: i64,
    /// The list id.
    #[serde(deserialize_with = "lenient::string")]
    pub id: String,
}

impl Document for ListSavedResponse {
    const JSON_ROOT: Option<&'static str> = None;
    const XML_ROOTS: &'static [&'static str] = &["response"];
}

/// One contact of a stored list.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ListContactDto {
    /// Contact id.
    #[serde(default, deserialize_with = "lenient::string")]
    pub id: String,
    /// The number.
    #[serde(default, deserialize_with = "lenient::string")]
    pub destination: String,
    /// Information field 1.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub info1: Option<String>,
    /// Information field 2.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub info2: Option<String>,
    /// Information field 3.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub info3: Option<String>,
    /// Information field 4.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub info4: Option<String>,
}

/// `GET /list/:id`: the list's contacts, paged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ListResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// One `list` element per contact.
    #[serde(default, deserialize_with = "lenient::list")]
    pub list: Vec<ListContactDto>,
    /// The list's name.
    #[serde(deserialize_with = "lenient::string")]
    pub name: String,
    /// Contacts in the list.
    #[serde(deserialize_with = "lenient::int")]
    pub contacts: i64,
    /// Contacts in all.
    #[serde(rename = "totalRecords", deserialize_with = "lenient::int")]
    pub total_records: i64,
    /// Contacts matching the filter.
    #[serde(rename = "totalDisplayRecords", deserialize_with = "lenient::int")]
    pub total_display_records: i64,
}

impl Document for ListResponse {
    const JSON_ROOT: Option<&'static str> = None;
    const XML_ROOTS: &'static [&'static str] = &["response"];
}

/// One stored list in `GET /lists`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ListSummaryDto {
    /// List id.
    #[serde(default, deserialize_with = "lenient::string")]
    pub id: String,
    /// Its name.
    #[serde(default, deserialize_with = "lenient::string")]
    pub name: String,
    /// Contacts in it.
    #[serde(default, deserialize_with = "lenient::int")]
    pub contacts: i64,
    /// Contacts in it, under the key the SMSFactor SDKs read.
    #[serde(default, deserialize_with = "lenient::int")]
    pub count: i64,
    /// When it was created, `Y-m-d H:i:s` Europe/Paris.
    #[serde(default, deserialize_with = "lenient::string")]
    pub date: String,
}

/// `GET /lists`: the account's stored lists, paged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ListsResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// One `lists` element per list.
    #[serde(default, deserialize_with = "lenient::list")]
    pub lists: Vec<ListSummaryDto>,
    /// Lists in all.
    #[serde(rename = "totalRecords", deserialize_with = "lenient::int")]
    pub total_records: i64,
    /// Lists matching the filter.
    #[serde(rename = "totalDisplayRecords", deserialize_with = "lenient::int")]
    pub total_display_records: i64,
}

impl Document for ListsResponse {
    const JSON_ROOT: Option<&'static str> = None;
    const XML_ROOTS: &'static [&'static str] = &["response"];
}
