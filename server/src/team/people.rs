//! The team: `GET /users`, `POST /users` (an invitation), `PUT /user/:id` (a role),
//! `DELETE /user/:id`, `GET /invitations` and `DELETE /invitations/:email`.

use axum::{
    Router,
    extract::{Path, State},
    response::Response,
    routing::{delete, get, put},
};
use chrono::Utc;
use texto_core::{
    Action, FieldError, Role, format_paris,
    wire::{
        InvitationDto, InvitationResponse, InvitationsResponse, StatusResponse, UserChangeRequest, UserResponse,
        UsersResponse,
    },
};

use crate::{
    Error,
    http::{Accept, access::noted, auth::Caller, body::WireBody, inputs::path_id},
    state::AppState,
    store::{AccountId, OneTimeLink, UserRecord},
    team::{names::Email, one_time_links::send_link, session::user_dto},
};

pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .route("/users", get(users).post(invite))
        .route("/user/{id}", put(change_role).delete(remove))
        .route("/invitations", get(invitations))
        .route("/invitations/{email}", delete(cancel_invitation))
}

/// `role` read from the wire, or -7 naming `field`.
fn role_of(text: Option<&str>, field: &str) -> Result<Role, Error> {
    text.unwrap_or_default().parse::<Role>().map_err(|why| Error::invalid(field, why))
}

/// `Forbidden` when giving or taking `role` needs more than the caller has: only an owner
/// makes or unmakes owners.
fn may_hand(caller: &Caller, role: Role) -> Result<(), Error> {
    if role == Role::Owner { caller.require(Action::HandOver) } else { Ok(()) }
}

async fn member(state: &AppState, account: AccountId, id: &str) -> Result<UserRecord, Error> {
    let not_found = || Error::NotFound(format!("user {id}"));
    let number = path_id(id).ok_or_else(not_found)?;
    state.store.user(account, number).await?.ok_or_else(not_found)
}

/// Whether the account keeps an owner once `leaving` is no longer one.
async fn keeps_an_owner(state: &AppState, account: AccountId, leaving: i64) -> Result<bool, Error> {
    Ok(state.store.users(account).await?.iter().any(|u| u.role == Role::Owner && u.id != leaving))
}

fn invitation_dto(link: &OneTimeLink) -> InvitationDto {
    InvitationDto {
        email: link.email.clone(),
        role: link.role.map(Role::as_str).unwrap_or_default().to_owned(),
        invited_by: link.created_by.clone(),
        expires_at: format_paris(link.expires_at),
    }
}

/// `GET /users`: the account's people.
#[utoipa::path(get, path = "/users", tag = "team",
    responses((status = 200, description = "The account's people", body = texto_core::wire::UsersResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn users(State(state): State<AppState>, caller: Caller, accept: Accept) -> Result<Response, Error> {
    let users = state.store.users(caller.account).await?;
    Ok(accept.ok(&UsersResponse { status: 1, message: "OK".into(), users: users.iter().map(user_dto).collect() }))
}

/// `POST /users`: invites an email with a role; the link goes by email (`--smtp-url`), and is
/// answered when no email carried it.
#[utoipa::path(post, path = "/users", tag = "team", request_body = texto_core::wire::UserChangeRequest,
    responses((status = 200, description = "The invitation", body = texto_core::wire::InvitationResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn invite(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    body: WireBody,
) -> Result<Response, Error> {
    let UserChangeRequest { user } = body.decode()?;
    let email = Email::parse(user.email.as_deref().unwrap_or_default());
    let role = user.role.as_deref().unwrap_or_default().parse::<Role>();
    let (Ok(email), Ok(role)) = (&email, &role) else {
        let problems = [("user.email", email.err()), ("user.role", role.err())];
        return Err(Error::Invalid(
            problems.into_iter().filter_map(|(field, why)| Some(FieldError::new(field, why?))).collect(),
        ));
    };
    let (email, role) = (email.clone(), *role);
    may_hand(&caller, role)?;
    if state.store.user_by_email(&email).await?.is_some() {
        return Err(Error::invalid("user.email", format!("{} already has a texto sign-in", email.as_str())));
    }
    let link = OneTimeLink::invitation(caller.account, &email, role, &caller.actor, Utc::now());
    let intro = format!(
        "{} invites you to join their team on texto as {role}. Choose your name and password here:",
        caller.actor
    );
    let (emailed, url) = send_link(&state, link.clone(), "Your invitation to texto", &intro).await?;
    let response = accept.ok(&InvitationResponse {
        status: 1,
        message: "OK".into(),
        invitation: invitation_dto(&link),
        emailed: i64::from(emailed),
        invitation_url: (!emailed).then_some(url),
    });
    Ok(noted(response, format!("invitation {}", email.as_str()), format!("{} invited as {role}", email.as_str())))
}

/// `PUT /user/:id`: changes a person's role (only an owner makes or unmakes owners; the last
/// owner stays one).
#[utoipa::path(put, path = "/user/{id}", tag = "team", request_body = texto_core::wire::UserChangeRequest,
    params(("id" = i64, Path, description = "The person's id")),
    responses((status = 200, description = "The person", body = texto_core::wire::UserResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn change_role(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
    body: WireBody,
) -> Result<Response, Error> {
    let UserChangeRequest { user } = body.decode()?;
    let role = role_of(user.role.as_deref(), "user.role")?;
    let target = member(&state, caller.account, &id).await?;
    may_hand(&caller, target.role)?;
    may_hand(&caller, role)?;
    if target.role == Role::Owner && role != Role::Owner && !keeps_an_owner(&state, caller.account, target.id).await? {
        return Err(Error::invalid(
            "user.role",
            "the account's last owner stays an owner: make someone else owner first",
        ));
    }
    state.store.set_role(caller.account, target.id, role).await?;
    let changed = UserRecord { role, ..target };
    let response = accept.ok(&UserResponse { status: 1, message: "OK".into(), user: user_dto(&changed) });
    Ok(noted(response, format!("user {}", changed.id), format!("{} is now {role}", changed.email)))
}

/// `DELETE /user/:id`: removes a person and ends their sessions.
#[utoipa::path(delete, path = "/user/{id}", tag = "team",
    params(("id" = i64, Path, description = "The person's id")),
    responses((status = 200, description = "Removed", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn remove(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
) -> Result<Response, Error> {
    let target = member(&state, caller.account, &id).await?;
    may_hand(&caller, target.role)?;
    if target.role == Role::Owner && !keeps_an_owner(&state, caller.account, target.id).await? {
        return Err(Error::invalid("user", "the account's last owner cannot be removed"));
    }
    state.store.remove_user(caller.account, target.id, Utc::now()).await?;
    Ok(noted(accept.ok(&StatusResponse::ok()), format!("user {}", target.id), format!("{} removed", target.email)))
}

/// `GET /invitations`: the invitations not yet accepted nor expired.
#[utoipa::path(get, path = "/invitations", tag = "team",
    responses((status = 200, description = "Pending invitations", body = texto_core::wire::InvitationsResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn invitations(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
) -> Result<Response, Error> {
    let links = state.store.invitations(caller.account, Utc::now()).await?;
    Ok(accept.ok(&InvitationsResponse {
        status: 1,
        message: "OK".into(),
        invitations: links.iter().map(invitation_dto).collect(),
    }))
}

/// `DELETE /invitations/:email`: cancels an invitation (its link stops working).
#[utoipa::path(delete, path = "/invitations/{email}", tag = "team",
    params(("email" = String, Path, description = "Whom the invitation was sent to")),
    responses((status = 200, description = "Cancelled", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn cancel_invitation(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(email): Path<String>,
) -> Result<Response, Error> {
    let not_found = || Error::NotFound(format!("invitation {email}"));
    let address = Email::parse(&email).map_err(|_| not_found())?;
    if !state.store.cancel_invitation(caller.account, &address).await? {
        return Err(not_found());
    }
    let summary = format!("invitation of {} cancelled", address.as_str());
    Ok(noted(accept.ok(&StatusResponse::ok()), format!("invitation {}", address.as_str()), summary))
}
