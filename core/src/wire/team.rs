//! The team workspace (texto's additions): sessions, people, invitations, password resets,
//! the audit log and campaign approval.

use serde::{Deserialize, Serialize};

use super::lenient;

/// The fields of `POST /session` (root `session`); without a body, a bearer token is
/// exchanged for a session.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SignInDto {
    /// The person's email.
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub email: Option<String>,
    /// Their password.
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub password: Option<String>,
    /// The authentication code (or a recovery code), when two-factor sign-in is on.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub code: Option<String>,
}

/// `{"session": {...}}`: the request of `POST /session`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(transparent)]
pub struct SignInRequest {
    /// Who signs in.
    #[serde(deserialize_with = "lenient::object")]
    pub session: SignInDto,
}
document!(SignInRequest, Some("session"), &["session"]);

/// A person of the account.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UserDto {
    /// Their id.
    #[serde(default, deserialize_with = "lenient::int")]
    pub id: i64,
    /// Their email, which they sign in with.
    #[serde(default, deserialize_with = "lenient::string")]
    pub email: String,
    /// Their name.
    #[serde(default, deserialize_with = "lenient::string")]
    pub name: String,
    /// `owner`, `admin`, `sender`, `author` or `analyst`.
    #[serde(default, deserialize_with = "lenient::string")]
    pub role: String,
    /// Their account.
    #[serde(default, deserialize_with = "lenient::int")]
    pub account_id: i64,
    /// When they joined (`Y-m-d H:i:s`, Paris).
    #[serde(default, deserialize_with = "lenient::string")]
    pub created_at: String,
    /// `1`: they sign in with an authentication code as well; `0`: with their password only.
    #[serde(default, deserialize_with = "lenient::int")]
    pub two_factor: i64,
    /// Their own mobile number (international digits), where their test sends go when they
    /// name none; only in `GET /me` and `PUT /me`, once set.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub phone: Option<String>,
}

/// The answer to `POST /session` and `GET /me`: who is signed in, and the value to send in
/// `X-CSRF-Token` with every state-changing request made with the cookie.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SessionResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The person; absent when an API token is signed in.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::object_or_null")]
    pub user: Option<UserDto>,
    /// The person's email or the token's name.
    #[serde(default, deserialize_with = "lenient::string")]
    pub actor: String,
    /// The role in force.
    #[serde(default, deserialize_with = "lenient::string")]
    pub role: String,
    /// The account.
    #[serde(default, deserialize_with = "lenient::int")]
    pub account_id: i64,
    /// The session's CSRF value; absent when the request came with a bearer token.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub csrf_token: Option<String>,
    /// `1`: the account requires two-factor sign-in and this person has not set it up; until
    /// they do, nothing else is allowed.
    #[serde(default, deserialize_with = "lenient::int")]
    pub two_factor_required: i64,
}
document!(SessionResponse, None, &["response"]);

/// The answer to `DELETE /sessions`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SessionsEndedResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// How many sessions ended.
    #[serde(default, deserialize_with = "lenient::int")]
    pub ended: i64,
}
document!(SessionsEndedResponse, None, &["response"]);

/// The fields of `PUT /me` (root `me`): a field left out is kept.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ProfileDto {
    /// A new name.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub name: Option<String>,
    /// A new password (it ends the person's other sessions).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub password: Option<String>,
    /// The password in use, required with `password`.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub current_password: Option<String>,
    /// Their own mobile number, in international form; empty clears it.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub phone: Option<String>,
}

/// `{"me": {...}}`: the request of `PUT /me`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(transparent)]
pub struct ProfileRequest {
    /// What changes.
    #[serde(deserialize_with = "lenient::object")]
    pub me: ProfileDto,
}
document!(ProfileRequest, Some("me"), &["me"]);

/// The fields of `POST /users` (an invitation) and `PUT /user/:id` (a role change), root `user`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UserChangeDto {
    /// Whom to invite (`POST /users`).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub email: Option<String>,
    /// Their role.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub role: Option<String>,
}

/// `{"user": {...}}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(transparent)]
pub struct UserChangeRequest {
    /// The change.
    #[serde(deserialize_with = "lenient::object")]
    pub user: UserChangeDto,
}
document!(UserChangeRequest, Some("user"), &["user"]);

/// The answer to `GET /users`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UsersResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The account's people, in the order they joined.
    #[serde(default, deserialize_with = "lenient::list")]
    pub users: Vec<UserDto>,
}
document!(UsersResponse, None, &["response"]);

/// The answer to `PUT /user/:id`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UserResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The person as they are now.
    #[serde(deserialize_with = "lenient::object")]
    pub user: UserDto,
}
document!(UserResponse, None, &["response"]);

/// An invitation not yet accepted.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InvitationDto {
    /// Whom it was sent to.
    #[serde(default, deserialize_with = "lenient::string")]
    pub email: String,
    /// The role it gives.
    #[serde(default, deserialize_with = "lenient::string")]
    pub role: String,
    /// Who sent it.
    #[serde(default, deserialize_with = "lenient::string")]
    pub invited_by: String,
    /// When it stops working (`Y-m-d H:i:s`, Paris).
    #[serde(default, deserialize_with = "lenient::string")]
    pub expires_at: String,
}

/// The answer to `POST /users`: the invitation, and its link when no email could carry it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InvitationResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The invitation.
    #[serde(deserialize_with = "lenient::object")]
    pub invitation: InvitationDto,
    /// `1` when an email carried the link.
    #[serde(default, deserialize_with = "lenient::int")]
    pub emailed: i64,
    /// The one-time link, answered when no email carried it (no `--smtp-url`, or it failed).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub invitation_url: Option<String>,
}
document!(InvitationResponse, None, &["response"]);

/// The answer to `GET /invitations`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InvitationsResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The pending invitations, newest first.
    #[serde(default, deserialize_with = "lenient::list")]
    pub invitations: Vec<InvitationDto>,
}
document!(InvitationsResponse, None, &["response"]);

/// The fields of `POST /invitation/:token` (root `invitation`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AcceptDto {
    /// The name the invitee chooses.
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub name: Option<String>,
    /// Their password.
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub password: Option<String>,
}

/// `{"invitation": {...}}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(transparent)]
pub struct AcceptRequest {
    /// The invitee's choices.
    #[serde(deserialize_with = "lenient::object")]
    pub invitation: AcceptDto,
}
document!(AcceptRequest, Some("invitation"), &["invitation"]);

/// `{"email": …}` (`POST /password-reset`) or `{"password": …}` (`POST /password-reset/:token`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PasswordResetRequest {
    /// Whose password to reset.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub email: Option<String>,
    /// The new password.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub password: Option<String>,
}
document!(PasswordResetRequest, None, &["reset", "request"]);

/// `{"reason": …}`: why a campaign is rejected (`POST /campaign/:id/reject`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RejectRequest {
    /// The reason, told to the author.
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub reason: Option<String>,
}
document!(RejectRequest, None, &["reject", "request"]);

/// A line of the audit log.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AuditEntryDto {
    /// When (`Y-m-d H:i:s`, Paris).
    #[serde(default, deserialize_with = "lenient::string")]
    pub date: String,
    /// Who: an email or a token's name.
    #[serde(default, deserialize_with = "lenient::string")]
    pub actor: String,
    /// From which address.
    #[serde(default, deserialize_with = "lenient::string")]
    pub address: String,
    /// What (`campaign.send`).
    #[serde(default, deserialize_with = "lenient::string")]
    pub action: String,
    /// On what (`campaign 42`).
    #[serde(default, deserialize_with = "lenient::string")]
    pub object: String,
    /// One line.
    #[serde(default, deserialize_with = "lenient::string")]
    pub summary: String,
}

/// The answer to `GET /audit`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AuditResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The lines, newest first.
    #[serde(default, deserialize_with = "lenient::list")]
    pub audit: Vec<AuditEntryDto>,
    /// Lines in the account.
    #[serde(default, rename = "totalRecords", deserialize_with = "lenient::int")]
    pub total_records: i64,
    /// Lines the filters keep.
    #[serde(default, rename = "totalDisplayRecords", deserialize_with = "lenient::int")]
    pub total_display_records: i64,
}
document!(AuditResponse, None, &["response"]);

/// The answer to `POST /me/two-factor`: a secret to confirm with a code.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TwoFactorSetupResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The secret (base32), for apps that take it typed.
    #[serde(default, deserialize_with = "lenient::string")]
    pub secret: String,
    /// The `otpauth://` URL the QR code holds.
    #[serde(default, deserialize_with = "lenient::string")]
    pub otpauth_url: String,
    /// The QR code, an SVG document.
    #[serde(default, deserialize_with = "lenient::string")]
    pub qr_svg: String,
}
document!(TwoFactorSetupResponse, None, &["response"]);

/// `{"code": …}`: an authentication code (or a recovery code) for `PUT` and `DELETE
/// /me/two-factor`; with the password (and, to replace an active secret, its current code),
/// since whoever holds a session must not take over or remove the person's second factor.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TwoFactorCodeRequest {
    /// `PUT`: the 6 digits the app shows for the new secret. `DELETE`: the current code, or a
    /// recovery code.
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub code: Option<String>,
    /// `PUT` while two-factor sign-in is on (replacing its secret): the current app's code, or
    /// a recovery code.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub current_code: Option<String>,
    /// The person's password: needed to turn two-factor sign-in off or to replace its secret.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub password: Option<String>,
}
document!(TwoFactorCodeRequest, None, &["two_factor", "request"]);

/// The answer to `PUT /me/two-factor`: the recovery codes, shown this once.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RecoveryCodesResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// Ten codes, each good for one sign-in without the app.
    #[serde(default, deserialize_with = "lenient::list")]
    pub recovery_codes: Vec<String>,
}
document!(RecoveryCodesResponse, None, &["response"]);
