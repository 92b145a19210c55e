//! Templates (texto's additions): `GET /templates`, `POST /template`, `GET`, `PUT` and
//! `DELETE /template/:id`. A template is a campaign's message, checked by the rules of a send,
//! that anyone of the team starts a campaign from; it says who last changed it.

use axum::{
    Router,
    extract::{Path, State},
    response::Response,
    routing::{get, post},
};
use chrono::Utc;
use texto_core::{
    format_paris, validate_template,
    wire::{StatusResponse, TemplateDto, TemplateRequest, TemplateResponse, TemplatesResponse},
};

use crate::{
    Error,
    http::{Accept, access::noted, auth::Caller, body::WireBody, inputs::path_id},
    state::AppState,
    store::SavedTemplate,
};

pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .route("/templates", get(all))
        .route("/template", post(create))
        .route("/template/{id}", get(show).put(update).delete(remove))
}

/// A template as the wire shows it.
fn dto(saved: &SavedTemplate) -> TemplateDto {
    let template = &saved.template;
    TemplateDto {
        id: Some(saved.id.to_string()),
        name: Some(template.name.clone()),
        text: Some(template.text.clone()),
        pushtype: Some(template.pushtype.as_str().to_owned()),
        sender: template.sender.clone(),
        links: template.links.clone(),
        author: saved.author.clone(),
        updated_at: Some(format_paris(saved.updated_at)),
    }
}

/// The answer to a saved template, noted in the audit log.
fn saved(accept: Accept, saved: &SavedTemplate, verb: &str) -> Response {
    let answer = accept.ok(&TemplateResponse { status: 1, message: "OK".into(), template: dto(saved) });
    noted(answer, format!("template {}", saved.id), format!("template {} {verb}", saved.template.name))
}

/// `GET /templates`: the account's templates by name.
#[utoipa::path(get, path = "/templates", tag = "templates",
    responses((status = 200, description = "The templates", body = texto_core::wire::TemplatesResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn all(State(state): State<AppState>, caller: Caller, accept: Accept) -> Result<Response, Error> {
    let templates = state.store.templates(caller.account).await?.iter().map(dto).collect();
    Ok(accept.ok(&TemplatesResponse { status: 1, message: "OK".into(), templates }))
}

/// `GET /template/:id`.
#[utoipa::path(get, path = "/template/{id}", tag = "templates",
    params(("id" = String, Path, description = "The template's id")),
    responses((status = 200, description = "The template", body = texto_core::wire::TemplateResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn show(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
) -> Result<Response, Error> {
    let unknown = || Error::NotFound(format!("template {id}"));
    let number = path_id(&id).ok_or_else(unknown)?;
    let template = state.store.template(caller.account, number).await?.ok_or_else(unknown)?;
    Ok(accept.ok(&TemplateResponse { status: 1, message: "OK".into(), template: dto(&template) }))
}

/// `POST /template` (`{"template": {"name", "text", "pushtype", "sender", "links"}}`).
#[utoipa::path(post, path = "/template", tag = "templates", request_body = texto_core::wire::TemplateRequest,
    responses((status = 200, description = "The template as saved", body = texto_core::wire::TemplateResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn create(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    body: WireBody,
) -> Result<Response, Error> {
    let TemplateRequest { template } = body.decode()?;
    let template = validate_template(template, &state.message, Utc::now())?;
    let template = state.store.save_template(caller.account, None, template, caller.actor.clone()).await?;
    let template = template.ok_or(Error::Unavailable("a template just created cannot be read"))?;
    Ok(saved(accept, &template, "created"))
}

/// `PUT /template/:id`: replaces the template.
#[utoipa::path(put, path = "/template/{id}", tag = "templates", request_body = texto_core::wire::TemplateRequest,
    params(("id" = String, Path, description = "The template's id")),
    responses((status = 200, description = "The template as saved", body = texto_core::wire::TemplateResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn update(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
    body: WireBody,
) -> Result<Response, Error> {
    let unknown = || Error::NotFound(format!("template {id}"));
    let number = path_id(&id).ok_or_else(unknown)?;
    let TemplateRequest { template } = body.decode()?;
    let template = validate_template(template, &state.message, Utc::now())?;
    let template = state.store.save_template(caller.account, Some(number), template, caller.actor.clone()).await?;
    Ok(saved(accept, &template.ok_or_else(unknown)?, "changed"))
}

/// `DELETE /template/:id`.
#[utoipa::path(delete, path = "/template/{id}", tag = "templates",
    params(("id" = String, Path, description = "The template's id")),
    responses((status = 200, description = "Deleted", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn remove(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
) -> Result<Response, Error> {
    let unknown = || Error::NotFound(format!("template {id}"));
    let number = path_id(&id).ok_or_else(unknown)?;
    if !state.store.delete_template(caller.account, number).await? {
        return Err(unknown());
    }
    Ok(noted(accept.ok(&StatusResponse::ok()), format!("template {number}"), format!("template {number} deleted")))
}
