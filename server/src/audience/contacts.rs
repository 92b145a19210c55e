//! Contacts (texto's additions): `GET /contacts`, `GET /contact/:number` (the export
//! of everything held, GDPR article 20), `PUT /contact/:number` and `DELETE /contact/:number`
//! (the erasure, article 17). Both are recorded in the audit log.

use std::collections::BTreeMap;

use axum::{
    Router,
    extract::{Path, Query, State, rejection::QueryRejection},
    response::Response,
    routing::get,
};
use chrono::{DateTime, Utc};
use texto_core::{
    FieldError, PeriodBound, SegmentFilter, SegmentRule, format_paris, parse_period_bound, parse_segment_rules,
    wire::{
        ContactCardDto, ContactCardRequest, ContactCardsResponse, ContactClickDto, ContactExportResponse,
        ContactMembershipDto, SegmentRuleDto, StatusResponse,
    },
};

use crate::{
    Error,
    http::{
        Accept,
        access::noted,
        auth::Caller,
        body::WireBody,
        inputs::{optional_id, path_number, query},
    },
    sending::messages::{message_dto, reply_dto},
    state::AppState,
    store::{
        AccountId, MessageFilter, NumberFilter, NumberList, Page, ReplyFilter, SortOrder,
        account_contacts::{ConsentRecord, ContactCard, ContactChange, ContactFilter},
    },
};

/// The most custom fields and tags a contact has.
const MOST_ITEMS: usize = 50;
/// The longest name, tag, field value or proof kept, in characters.
const MOST_CHARS: usize = 500;

pub(crate) fn router() -> Router<AppState> {
    Router::new().route("/contacts", get(list)).route("/contact/{number}", get(export).put(save).delete(erase))
}

/// A text of at most [`MOST_CHARS`], trimmed; `path` names it in the error.
fn text(value: String, path: &str, errors: &mut Vec<FieldError>) -> String {
    if value.chars().count() > MOST_CHARS {
        errors.push(FieldError::new(path, format!("at most {MOST_CHARS} characters")));
    }
    value.trim().to_owned()
}

/// The change a `PUT` (or a list entry's `contact`) asks for, checked.
pub(crate) fn change_of(asked: ContactCardDto, now: DateTime<Utc>) -> Result<ContactChange, Error> {
    let mut errors = Vec::new();
    let firstname = asked.firstname.map(|v| text(v, "contact.firstname", &mut errors));
    let lastname = asked.lastname.map(|v| text(v, "contact.lastname", &mut errors));
    let fields = asked.fields.map(|fields| {
        let mut kept = BTreeMap::new();
        for (name, value) in fields {
            let path = format!("contact.fields.{name}");
            if !texto_core::is_custom_field_name(&name) {
                errors
                    .push(FieldError::new(&path, "a field's name is lower-case letters, digits and _, from a letter"));
            }
            let value = text(value, &path, &mut errors);
            if !value.is_empty() {
                kept.insert(name, value);
            }
        }
        if kept.len() > MOST_ITEMS {
            errors.push(FieldError::new("contact.fields", format!("at most {MOST_ITEMS} fields")));
        }
        serde_json::to_string(&kept).unwrap_or_else(|_| "{}".to_owned())
    });
    let tags = asked.tags.map(|tags| {
        let mut kept: Vec<String> = Vec::new();
        for tag in tags {
            let tag = text(tag, "contact.tags", &mut errors);
            if !tag.is_empty() && !kept.contains(&tag) {
                kept.push(tag);
            }
        }
        if kept.len() > MOST_ITEMS {
            errors.push(FieldError::new("contact.tags", format!("at most {MOST_ITEMS} tags")));
        }
        serde_json::to_string(&kept).unwrap_or_else(|_| "[]".to_owned())
    });
    let opt_in = asked.consent.filter(|c| c.opt_in_date.is_some() || c.source.is_some()).map(|consent| {
        let at = match consent.opt_in_date.as_deref().map(str::trim).filter(|d| !d.is_empty()) {
            None => now,
            // A day alone is its midnight, Paris time, as in the listings' periods.
            Some(date) => parse_period_bound(date, PeriodBound::Start).unwrap_or_else(|_| {
                errors.push(FieldError::new("contact.consent.opt_in_date", "a date: Y-m-d H:i:s or Y-m-d (Paris)"));
                now
            }),
        };
        let source = consent.source.unwrap_or_else(|| "api".to_owned());
        if !["import", "api", "keyword", "form"].contains(&source.as_str()) {
            errors.push(FieldError::new("contact.consent.source", "import, api, keyword or form"));
        }
        ConsentRecord {
            at: at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            source,
            proof: text(consent.proof.unwrap_or_default(), "contact.consent.proof", &mut errors),
            address: text(consent.address.unwrap_or_default(), "contact.consent.address", &mut errors),
        }
    });
    if !errors.is_empty() {
        return Err(Error::Invalid(errors));
    }
    Ok(ContactChange { firstname, lastname, fields, tags, opt_in })
}

/// The query of `GET /contacts` (and `GET /contacts/numbers`).
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub(crate) struct ContactsQuery {
    start: Option<i64>,
    length: Option<i64>,
    search: Option<String>,
    tag: Option<String>,
    list: Option<String>,
    consent: Option<String>,
    segment: Option<String>,
    field: Option<String>,
    value: Option<String>,
    engagement: Option<String>,
    days: Option<String>,
}

impl ContactsQuery {
    /// The filter the query asks for, checked.
    pub(crate) async fn filter(self, state: &AppState, account: AccountId) -> Result<ContactFilter, Error> {
        let list = optional_id("list", self.list.as_deref(), "a list's id")?;
        let consent = match self.consent.as_deref().map(str::trim) {
            None | Some("") => None,
            Some("1") => Some(true),
            Some("0") => Some(false),
            Some(_) => return Err(Error::Invalid(vec![FieldError::new("consent", "1 or 0")])),
        };
        let segment = self.segment(state, account).await?;
        let rules = self.rules()?;
        Ok(ContactFilter {
            page: Page { start: self.start.unwrap_or(0), length: self.length.unwrap_or(100) },
            search: self.search,
            tag: self.tag.map(|t| t.trim().to_owned()).filter(|t| !t.is_empty()),
            list,
            consent,
            segment,
            rules,
        })
    }

    /// The filter of the saved segment the query's `segment` names.
    async fn segment(&self, state: &AppState, account: AccountId) -> Result<Option<SegmentFilter>, Error> {
        let Some(segment) = self.segment.as_deref().map(str::trim).filter(|s| !s.is_empty()) else {
            return Ok(None);
        };
        let unknown = || Error::NotFound(format!("segment {segment}"));
        let id = crate::http::inputs::path_id(segment).ok_or_else(unknown)?;
        Ok(Some(state.store.segment(account, id).await?.ok_or_else(unknown)?.filter))
    }

    /// The rules the query's `field` and `engagement` ask for (as a segment's).
    fn rules(&self) -> Result<Vec<SegmentRule>, Error> {
        let mut rules = Vec::new();
        let mut asked = Vec::new();
        if let Some(field) = self.field.as_deref().filter(|f| !f.trim().is_empty()) {
            let (field, value) = (Some(field.to_owned()), self.value.clone());
            asked.push((
                "field",
                SegmentRuleDto {
                    kind: "field".into(),
                    field,
                    test: Some("equals".into()),
                    value,
                    ..Default::default()
                },
            ));
        }
        if let Some(engagement) = self.engagement.as_deref().map(str::trim).filter(|e| !e.is_empty()) {
            let days = match self.days.as_deref().map(str::trim).filter(|d| !d.is_empty()) {
                None => None,
                Some(days) => {
                    Some(days.parse().map_err(|_| Error::Invalid(vec![FieldError::new("days", "a number of days")]))?)
                }
            };
            let (negate, kind) = match engagement.strip_prefix("not_") {
                Some(kind) => (Some(true), kind),
                None => (None, engagement),
            };
            asked.push(("engagement", SegmentRuleDto { kind: kind.to_owned(), days, negate, ..Default::default() }));
        }
        for (name, rule) in asked {
            let parsed = parse_segment_rules(std::slice::from_ref(&rule)).map_err(|errors| {
                Error::Invalid(errors.into_iter().map(|e| FieldError::new(name, e.message)).collect())
            })?;
            rules.extend(parsed);
        }
        Ok(rules)
    }
}

/// `GET /contacts`: the account's contacts (its numbers with a card, and those of its lists).
#[utoipa::path(get, path = "/contacts", tag = "contacts",
    params(
        ("start" = Option<i64>, Query, description = "First record (default 0)"),
        ("length" = Option<i64>, Query, description = "Records per page (default 100, at most 1000)"),
        ("search" = Option<String>, Query, description = "Digits of the number, or a name"),
        ("tag" = Option<String>, Query, description = "Only those with this tag"),
        ("list" = Option<String>, Query, description = "Only those in this list"),
        ("consent" = Option<String>, Query, description = "1: only those with an opt-in in force; 0: only those without"),
        ("segment" = Option<String>, Query, description = "Only those in this saved segment"),
        ("field" = Option<String>, Query, description = "With `value`: only those whose field (firstname, lastname or a custom field) is the value"),
        ("value" = Option<String>, Query, description = "The value of `field`"),
        ("engagement" = Option<String>, Query, description = "delivered, clicked, replied, or not_delivered, not_clicked, not_replied"),
        ("days" = Option<String>, Query, description = "With `engagement`: in the last so many days (default: ever)")
    ),
    responses((status = 200, description = "Contacts", body = texto_core::wire::ContactCardsResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn list(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    asked: Result<Query<ContactsQuery>, QueryRejection>,
) -> Result<Response, Error> {
    let filter = query(asked)?.filter(&state, caller.account).await?;
    let (cards, total) = state.store.contacts(caller.account, filter).await?;
    Ok(accept.ok(&ContactCardsResponse {
        status: 1,
        message: "OK".into(),
        contacts: cards.iter().map(ContactCard::to_wire).collect(),
        total_records: total,
    }))
}

/// `GET /contact/:number`: everything texto holds about the number.
#[utoipa::path(get, path = "/contact/{number}", tag = "contacts",
    params(("number" = String, Path, description = "The number, international digits")),
    responses((status = 200, description = "The contact, its lists, messages, replies and clicks", body = texto_core::wire::ContactExportResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn export(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(number): Path<String>,
) -> Result<Response, Error> {
    let number = path_number(&number, "contact")?;
    let account = caller.account;
    let mut messages = Vec::new();
    loop {
        let filter = MessageFilter {
            page: Page { start: messages.len() as i64, length: 1000 },
            destination: Some(number as u64),
            order: SortOrder::Desc,
            ..MessageFilter::default()
        };
        let (page, _, _) = state.store.messages(account, filter).await?;
        let full = page.len() == 1000;
        messages.extend(page.iter().map(|record| message_dto(&state, record)));
        if !full {
            break;
        }
    }
    let received = ReplyFilter {
        page: Page { start: 0, length: 1000 },
        from: DateTime::UNIX_EPOCH,
        until: Utc::now() + chrono::Duration::days(1),
        order: SortOrder::Desc,
        number: Some(number),
    };
    let (replies, _) = state.store.replies(account, received).await?;
    let card = state.store.contact(account, number).await?;
    if card.is_none() && messages.is_empty() && replies.is_empty() {
        return Err(Error::NotFound(format!("contact {number}")));
    }
    let card = card.unwrap_or(ContactCard { number, fields: "{}".into(), tags: "[]".into(), ..ContactCard::default() });
    let lists = state.store.memberships(account, number).await?;
    let clicks = state.store.contact_clicks(account, number).await?;
    let only = NumberFilter { destination: Some(number as u64), digits: None };
    let one = Page { start: 0, length: 1 };
    let blacklisted = state.store.number_entries(account, NumberList::Blacklist, &only, one).await?.matching > 0;
    let npai = state.store.number_entries(account, NumberList::Npai, &only, one).await?.matching > 0;
    let answer = accept.ok(&ContactExportResponse {
        status: 1,
        message: "OK".into(),
        contact: card.to_wire(),
        lists: lists
            .into_iter()
            .map(|m| ContactMembershipDto { list_id: m.list.to_string(), name: m.name, info: m.info.to_vec() })
            .collect(),
        blacklisted: i64::from(blacklisted),
        npai: i64::from(npai),
        messages,
        replies: replies.iter().map(reply_dto).collect(),
        clicks: clicks
            .into_iter()
            .map(|c| ContactClickDto { campaign_id: c.campaign.to_string(), date: format_paris(c.at) })
            .collect(),
    });
    Ok(noted(answer, format!("contact {number}"), format!("contact {number} exported")))
}

/// `PUT /contact/:number` (`{"contact": {"firstname", "lastname", "fields", "tags", "consent"}}`):
/// creates or changes the contact; a field left out keeps its value.
#[utoipa::path(put, path = "/contact/{number}", tag = "contacts", request_body = texto_core::wire::ContactCardRequest,
    params(("number" = String, Path, description = "The number, international digits")),
    responses((status = 200, description = "The contact as saved", body = texto_core::wire::ContactCardsResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn save(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(number): Path<String>,
    body: WireBody,
) -> Result<Response, Error> {
    let number = texto_core::parse_international(number.trim())
        .map_err(|_| Error::Invalid(vec![FieldError::new("number", "an international number, such as 33612345678")]))?
        .as_u64() as i64;
    let ContactCardRequest { contact } = body.decode()?;
    let change = change_of(contact, Utc::now())?;
    let consent = change.opt_in.is_some();
    let card = state.store.save_contact(caller.account, number, change).await?;
    let summary = format!("contact {number} saved{}", if consent { " with an opt-in" } else { "" });
    let answer = accept.ok(&ContactCardsResponse {
        status: 1,
        message: "OK".into(),
        contacts: vec![card.to_wire()],
        total_records: 1,
    });
    Ok(noted(answer, format!("contact {number}"), summary))
}

/// `DELETE /contact/:number`: erases the number from the account.
#[utoipa::path(delete, path = "/contact/{number}", tag = "contacts",
    params(("number" = String, Path, description = "The number, international digits")),
    responses((status = 200, description = "Erased", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn erase(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(number): Path<String>,
) -> Result<Response, Error> {
    let number = path_number(&number, "contact")?;
    if !state.store.erase_contact(caller.account, number).await? {
        return Err(Error::NotFound(format!("contact {number}")));
    }
    let summary =
        format!("contact {number} erased: its lists, replies and clicks deleted, the number masked in messages");
    Ok(noted(accept.ok(&StatusResponse::ok()), format!("contact {number}"), summary))
}
