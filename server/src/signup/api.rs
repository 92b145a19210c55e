//! `GET /signup-pages`, `POST /signup-page`, `GET`, `PUT` and `DELETE /signup-page/:id`: an
//! account's hosted sign-up pages. Anyone who may edit lists sets them (a page adds numbers to
//! one of the account's lists); any role reads them. The slug is unique across texto.

use axum::{
    Router,
    extract::{Path, State},
    response::Response,
    routing::{get, post},
};
use texto_core::{
    FieldError, SignupPage,
    wire::{SignupPageRequest, SignupPageResponse, SignupPagesResponse, StatusResponse},
};

use crate::{
    Error,
    http::{Accept, access::noted, auth::Caller, body::WireBody, inputs::path_id},
    state::AppState,
    store::{
        AccountId, Page,
        signups::{PageSaved, SavedSignupPage},
    },
};

pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .route("/signup-pages", get(all))
        .route("/signup-page", post(create))
        .route("/signup-page/{id}", get(show).put(update).delete(remove))
}

/// One of the caller's pages, or 404.
async fn owned(state: &AppState, account: AccountId, id: &str) -> Result<SavedSignupPage, Error> {
    let unknown = || Error::NotFound(format!("sign-up page {id}"));
    let number = path_id(id).ok_or_else(unknown)?;
    state.store.signup_page(account, number).await?.ok_or_else(unknown)
}

/// The page a request gives, checked: its list must be the account's.
async fn page_of(state: &AppState, account: AccountId, body: WireBody) -> Result<SignupPage, Error> {
    let SignupPageRequest { signup_page } = body.decode()?;
    let page = SignupPage::parse(&signup_page).map_err(Error::Invalid)?;
    if state.store.list(account, page.list, None, Page { start: 0, length: 0 }).await?.is_none() {
        let why = format!("the account has no list {}", page.list);
        return Err(Error::Invalid(vec![FieldError::new("signup_page.list", why)]));
    }
    Ok(page)
}

/// What a save came to, as an answer.
fn saved(accept: Accept, saved: PageSaved, id: &str, verb: &str) -> Result<Response, Error> {
    match saved {
        PageSaved::Saved(saved) => {
            let answer =
                accept.ok(&SignupPageResponse { status: 1, message: "OK".into(), signup_page: saved.to_wire() });
            let summary = format!("sign-up page /join/{} {verb}", saved.page.slug.as_str());
            Ok(noted(answer, format!("sign-up page {}", saved.id), summary))
        }
        PageSaved::SlugTaken => Err(Error::Invalid(vec![FieldError::new(
            "signup_page.slug",
            "another page has this address: choose another slug",
        )])),
        PageSaved::NotFound => Err(Error::NotFound(format!("sign-up page {id}"))),
    }
}

/// `GET /signup-pages`: the account's pages, by slug, with their counts.
#[utoipa::path(get, path = "/signup-pages", tag = "signup pages",
    responses((status = 200, description = "The pages", body = texto_core::wire::SignupPagesResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn all(State(state): State<AppState>, caller: Caller, accept: Accept) -> Result<Response, Error> {
    let pages = state.store.signup_pages(caller.account).await?.iter().map(SavedSignupPage::to_wire).collect();
    Ok(accept.ok(&SignupPagesResponse { status: 1, message: "OK".into(), signup_pages: pages }))
}

/// `GET /signup-page/:id`.
#[utoipa::path(get, path = "/signup-page/{id}", tag = "signup pages",
    params(("id" = String, Path, description = "The page's id")),
    responses((status = 200, description = "The page", body = texto_core::wire::SignupPageResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn show(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
) -> Result<Response, Error> {
    let page = owned(&state, caller.account, &id).await?;
    Ok(accept.ok(&SignupPageResponse { status: 1, message: "OK".into(), signup_page: page.to_wire() }))
}

/// `POST /signup-page` (`{"signup_page": {"slug", "title", "text", "fields", "list",
/// "consent_text"}}`): a new page, served at once at `/join/{slug}`.
#[utoipa::path(post, path = "/signup-page", tag = "signup pages", request_body = texto_core::wire::SignupPageRequest,
    responses((status = 200, description = "The page as saved", body = texto_core::wire::SignupPageResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn create(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    body: WireBody,
) -> Result<Response, Error> {
    let page = page_of(&state, caller.account, body).await?;
    saved(accept, state.store.save_signup_page(caller.account, None, page).await?, "new", "created")
}

/// `PUT /signup-page/:id`: replaces a page (its sign-ups stay).
#[utoipa::path(put, path = "/signup-page/{id}", tag = "signup pages", request_body = texto_core::wire::SignupPageRequest,
    params(("id" = String, Path, description = "The page's id")),
    responses((status = 200, description = "The page as saved", body = texto_core::wire::SignupPageResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn update(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
    body: WireBody,
) -> Result<Response, Error> {
    let before = owned(&state, caller.account, &id).await?;
    let page = page_of(&state, caller.account, body).await?;
    saved(accept, state.store.save_signup_page(caller.account, Some(before.id), page).await?, &id, "changed")
}

/// `DELETE /signup-page/:id`: the page and its pending sign-ups (confirmed numbers stay in
/// the list, with their consent).
#[utoipa::path(delete, path = "/signup-page/{id}", tag = "signup pages",
    params(("id" = String, Path, description = "The page's id")),
    responses((status = 200, description = "Deleted", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn remove(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
) -> Result<Response, Error> {
    let page = owned(&state, caller.account, &id).await?;
    if !state.store.delete_signup_page(caller.account, page.id).await? {
        return Err(Error::NotFound(format!("sign-up page {id}")));
    }
    let summary = format!("sign-up page /join/{} deleted", page.page.slug.as_str());
    Ok(noted(accept.ok(&StatusResponse::ok()), format!("sign-up page {}", page.id), summary))
}
