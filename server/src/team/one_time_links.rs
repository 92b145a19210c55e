//! The one-time links people open: `POST /invitation/:token` (joining with a name and a
//! password), `POST /password-reset` (asking for a link) and `POST /password-reset/:token`.

use axum::{
    Router,
    extract::{Path, State},
    http::request::Parts,
    response::Response,
    routing::post,
};
use chrono::Utc;
use texto_core::{
    FieldError,
    wire::{AcceptRequest, PasswordResetRequest, StatusResponse, UserResponse},
};

use crate::{
    Error,
    http::{Accept, auth::client, body::WireBody},
    state::AppState,
    store::{AuditEntry, LinkKind, OneTimeLink, token_hash},
    team::{
        link_mail::mail_link,
        names::{Email, PersonName},
        passwords::{self, Password},
        session::user_dto,
        token_mint::issue_link,
    },
};

pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .route("/invitation/{token}", post(accept_invitation))
        .route("/password-reset", post(ask_reset))
        .route("/password-reset/{token}", post(reset))
}

/// Stores a one-time link and emails it; whether an email carried it, and its URL (answered
/// to the inviter when none did).
pub(crate) async fn send_link(
    state: &AppState,
    link: OneTimeLink,
    subject: &str,
    intro: &str,
) -> Result<(bool, String), Error> {
    let url = link.url(&state.message.public_url, &issue_link(state.store.as_ref(), &link).await?);
    Ok((mail_link(state.mailer.as_deref(), &link, &url, subject, intro).await, url))
}

fn gone() -> Error {
    Error::NotFound("this link was used, cancelled or has expired: link".into())
}

fn record(state: &AppState, parts: &Parts, link: &OneTimeLink, action: &str, summary: String) {
    state.audit.record(AuditEntry {
        account: link.account,
        at: Utc::now(),
        actor: link.email.clone(),
        address: client(parts, &state.config.trusted_proxies).to_string(),
        action: action.to_owned(),
        object: String::new(),
        summary,
    });
}

/// `POST /invitation/:token`: the invitee chooses a name and a password and joins.
#[utoipa::path(post, path = "/invitation/{token}", tag = "team", request_body = texto_core::wire::AcceptRequest,
    params(("token" = String, Path, description = "The secret at the end of the invitation's link")),
    responses((status = 200, description = "Joined: sign in with the email and password", body = texto_core::wire::UserResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)))]
pub(crate) async fn accept_invitation(
    State(state): State<AppState>,
    accept: Accept,
    Path(token): Path<String>,
    parts: Parts,
    body: WireBody,
) -> Result<Response, Error> {
    let AcceptRequest { invitation } = body.decode()?;
    let name = PersonName::parse(invitation.name.as_deref().unwrap_or_default());
    let password = Password::parse(invitation.password.as_deref().unwrap_or_default());
    let problems: Vec<FieldError> = [
        name.as_ref().err().map(|why| FieldError::new("invitation.name", why.clone())),
        password.as_ref().err().map(|why| FieldError::new("invitation.password", why.clone())),
    ]
    .into_iter()
    .flatten()
    .collect();
    let (Ok(name), Ok(password)) = (name, password) else { return Err(Error::Invalid(problems)) };
    let link = state.store.take_link(&token_hash(&token), Utc::now()).await?.ok_or_else(gone)?;
    let (LinkKind::Invitation, Some(role)) = (link.kind, link.role) else { return Err(gone()) };
    let email = Email::parse(&link.email).map_err(|_| gone())?;
    let hash = passwords::hash(password).await?;
    let user =
        state.store.add_user(link.account, &email, &name, &hash, role, Utc::now()).await?.ok_or_else(|| {
            Error::Invalid(vec![FieldError::new("invitation", "this email already has a texto sign-in")])
        })?;
    record(
        &state,
        &parts,
        &link,
        "user.join",
        format!("{} joined as {role}, invited by {}", user.email, link.created_by),
    );
    Ok(accept.ok(&UserResponse { status: 1, message: "OK".into(), user: user_dto(&user) }))
}

/// `POST /password-reset`: emails a link valid 1 h to the person, if there is one; the answer
/// is the same, and comes after the same work, either way (the link is made and mailed later).
#[utoipa::path(post, path = "/password-reset", tag = "team", request_body = texto_core::wire::PasswordResetRequest,
    responses((status = 200, description = "A link is emailed if the email is known (at most 3 live links per person)", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)))]
pub(crate) async fn ask_reset(
    State(state): State<AppState>,
    accept: Accept,
    parts: Parts,
    body: WireBody,
) -> Result<Response, Error> {
    let PasswordResetRequest { email, .. } = body.decode()?;
    let email = Email::parse(email.as_deref().unwrap_or_default())
        .map_err(|why| Error::Invalid(vec![FieldError::new("email", why)]))?;
    state.resets.ask(email, client(&parts, &state.config.trusted_proxies));
    Ok(accept.ok(&StatusResponse::ok()))
}

/// `POST /password-reset/:token`: sets the new password and ends the person's sessions.
#[utoipa::path(post, path = "/password-reset/{token}", tag = "team", request_body = texto_core::wire::PasswordResetRequest,
    params(("token" = String, Path, description = "The secret at the end of the reset link")),
    responses((status = 200, description = "The password is changed", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)))]
pub(crate) async fn reset(
    State(state): State<AppState>,
    accept: Accept,
    Path(token): Path<String>,
    parts: Parts,
    body: WireBody,
) -> Result<Response, Error> {
    let PasswordResetRequest { password, .. } = body.decode()?;
    let password = Password::parse(password.as_deref().unwrap_or_default())
        .map_err(|why| Error::Invalid(vec![FieldError::new("password", why)]))?;
    let link = state.store.take_link(&token_hash(&token), Utc::now()).await?.ok_or_else(gone)?;
    let email = Email::parse(&link.email).map_err(|_| gone())?;
    let user = match (link.kind, state.store.user_by_email(&email).await?) {
        (LinkKind::Reset, Some(user)) if user.account == link.account => user,
        _ => return Err(gone()),
    };
    state.store.set_password(user.id, &passwords::hash(password).await?, None).await?;
    // Whoever holds a reset link reads the person's mail: their sign-in counts start again, so
    // that guesses spread over many addresses cannot keep them out after one typo of theirs.
    state.sign_ins.unlock(user.email.as_str());
    record(&state, &parts, &link, "user.reset", format!("{} chose a new password (sessions ended)", user.email));
    Ok(accept.ok(&StatusResponse::ok()))
}
