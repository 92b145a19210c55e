//! The team's rows read the same way in both stores: people, one-time links and sessions.

use texto_core::{Msisdn, Role};

use super::{
    TokenGrant,
    columns::Columns,
    role_from_column,
    team::{LinkKind, OneTimeLink, SessionGrant, SessionOwner, TwoFactor, UserRecord},
    token_rows::read_grant,
};

/// The column of [`SESSION_GRANT`](super::team::SESSION_GRANT) where the token's grant begins.
const SESSION_TOKEN_AT: usize = 10;

/// A person from the columns of [`USER_COLUMNS`](super::team::USER_COLUMNS).
pub(super) fn read_user<R: Columns>(row: &R) -> Result<UserRecord, R::Fault> {
    Ok(UserRecord {
        id: row.column(0)?,
        account: row.column(1)?,
        email: row.column(2)?,
        name: row.column(3)?,
        role: role_from_column(&row.column::<String>(4)?),
        created_at: row.time(5)?,
        password_hash: row.column(6)?,
        two_factor: TwoFactor { secret: row.column(7)?, pending: row.column(8)?, recovery: row.column(9)? },
        phone: row.column::<Option<i64>>(10)?.and_then(|n| Msisdn::from_u64(u64::try_from(n).ok()?).ok()),
    })
}

/// A one-time link from the columns of [`LINK_COLUMNS`](super::team::LINK_COLUMNS).
pub(super) fn read_link<R: Columns>(row: &R) -> Result<OneTimeLink, R::Fault> {
    Ok(OneTimeLink {
        kind: LinkKind::parse(&row.column::<String>(0)?).unwrap_or(LinkKind::Reset),
        account: row.column(1)?,
        email: row.column(2)?,
        role: row.column::<Option<String>>(3)?.map(|role| role_from_column(&role)),
        created_by: row.column(4)?,
        created_at: row.time(5)?,
        expires_at: row.time(6)?,
    })
}

/// A session from the columns of [`SESSION_GRANT`](super::team::SESSION_GRANT).
pub(super) fn read_session<R: Columns>(row: &R) -> Result<SessionGrant, R::Fault> {
    let token = read_grant(row, SESSION_TOKEN_AT)?;
    let role = row.column::<Option<String>>(4)?;
    let (role, actor) = session_owner_role(role.as_deref(), row.column(5)?, token.as_ref());
    Ok(SessionGrant {
        id: row.column(0)?,
        account: row.column(1)?,
        owner: session_owner(row.column(2)?, row.column(3)?),
        role,
        actor,
        token,
        csrf: row.column(6)?,
        created_at: row.time(7)?,
        seen_at: row.time(8)?,
        two_factor_missing: row.column(9)?,
    })
}

/// The owner of a session's stored `(user_id, token_id)`.
fn session_owner(user: Option<i64>, token: Option<i64>) -> SessionOwner {
    match (user, token) {
        (Some(user), _) => SessionOwner::User(user),
        (None, token) => SessionOwner::Token(token.unwrap_or_default()),
    }
}

/// The role and the audit log's name of a session's owner: its person's (their role as
/// stored and their email) or its token's.
fn session_owner_role(role: Option<&str>, email: Option<String>, token: Option<&TokenGrant>) -> (Role, String) {
    match (role, email, token) {
        (Some(role), Some(email), _) => (role_from_column(role), email),
        (_, _, Some(token)) => (token.role, token.actor()),
        // The statement reads no session without its person or its token.
        _ => (Role::Analyst, String::new()),
    }
}
