//! The team's session and link rules, written once for both stores: how long a session lives
//! and when its use is recorded, how many reset links a person may hold, what taking a link
//! gives, and the statements that write them (in PostgreSQL's `$n` form, which the SQLite store
//! numbers for itself).

use chrono::{DateTime, Utc};

use super::team::{LinkKind, OneTimeLink, SessionGrant, SessionOwner};

/// Sets person `$1`'s password hash to `$2`.
pub(crate) const SET_PASSWORD: &str = "UPDATE users SET password_hash = $2 WHERE id = $1";

/// Replaces person `$1`'s password hash `$2` by `$3`, the same password hashed again (its
/// sessions stay); nothing when the password changed meanwhile.
pub(crate) const REHASH_PASSWORD: &str = "UPDATE users SET password_hash = $3 WHERE id = $1 AND password_hash = $2";

/// Ends person `$1`'s sessions but `$2` (a new password ends every other session).
pub(crate) const END_OTHER_SESSIONS: &str = "DELETE FROM sessions WHERE user_id = $1 AND id <> $2";

/// Ends person `$1`'s sessions in account `$2`, as they are removed.
pub(crate) const END_PERSON_SESSIONS: &str = "DELETE FROM sessions WHERE user_id = $1 AND account_id = $2";

/// Removes person `$1` of account `$2`.
pub(crate) const REMOVE_PERSON: &str = "DELETE FROM users WHERE id = $1 AND account_id = $2";

/// Starts a session: `$1` its secret's hash, `$2` the account, `$3`/`$4` its person or token,
/// `$5` its CSRF value, `$6` when.
pub(crate) const ADD_SESSION: &str =
    "INSERT INTO sessions (secret_hash, account_id, user_id, token_id, csrf, created_at, seen_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6)";

/// Records session `$2`'s use at `$1`.
pub(crate) const TOUCH_SESSION: &str = "UPDATE sessions SET seen_at = $1 WHERE id = $2";

/// Ends session `$1`.
pub(crate) const END_SESSION: &str = "DELETE FROM sessions WHERE id = $1";

/// Drops the earlier link of a kind for an email (an invitation sent again replaces the
/// first); `$1` the account, `$2` the kind, `$3` the email.
pub(crate) const REPLACE_LINK: &str = "DELETE FROM one_time_links WHERE account_id = $1 AND kind = $2 AND email = $3";

/// Takes the link whose secret's hash is `$1`: it is gone once read, used or not.
pub(crate) const TAKE_LINK: &str = "DELETE FROM one_time_links WHERE secret_hash = $1
     RETURNING kind, account_id, email, role, created_by, created_at, expires_at";

/// The statement that ends every session of `owner`, and its one parameter.
pub(crate) fn end_sessions_of(owner: SessionOwner) -> (&'static str, i64) {
    match owner {
        SessionOwner::User(user) => ("DELETE FROM sessions WHERE user_id = $1", user),
        SessionOwner::Token(token) => ("DELETE FROM sessions WHERE token_id = $1", token),
    }
}

/// Whether a reset link may be added beside `live` ones, at most `most` being live at once.
pub(crate) fn may_add_reset(live: i64, most: u32) -> bool {
    live < i64::from(most)
}

/// What taking a link gives at `now`: the link if it has not expired (an expired one is gone
/// all the same), and whether its use ends the person's other reset links (a reset link's does).
pub(crate) fn taken(found: Option<OneTimeLink>, now: DateTime<Utc>) -> (Option<OneTimeLink>, bool) {
    let found = found.filter(|link| link.expires_at > now);
    let ends_resets = found.as_ref().is_some_and(|link| link.kind == LinkKind::Reset);
    (found, ends_resets)
}

/// A session ends after this long without a request.
pub(crate) const SESSION_IDLE: chrono::Duration = chrono::Duration::hours(12);
/// A session ends this long after it began, however used.
pub(crate) const SESSION_MOST: chrono::Duration = chrono::Duration::days(30);
/// A session's use is recorded at most this often.
const SESSION_TOUCH_EVERY: chrono::Duration = chrono::Duration::minutes(1);

/// What a session's times say at a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SessionState {
    /// Unused for [`SESSION_IDLE`] or older than [`SESSION_MOST`]: it ends.
    Ended,
    /// It goes on; `touch` when its use is to be recorded (at most once a minute).
    Live {
        /// Whether to record this use.
        touch: bool,
    },
}

impl SessionGrant {
    /// The session's state at `now`.
    pub(crate) fn state(&self, now: DateTime<Utc>) -> SessionState {
        if now - self.seen_at > SESSION_IDLE || now - self.created_at > SESSION_MOST {
            SessionState::Ended
        } else {
            SessionState::Live { touch: now - self.seen_at >= SESSION_TOUCH_EVERY }
        }
    }
}

#[cfg(test)]
mod tests {
    use chrono::{Duration, TimeZone, Utc};
    use texto_core::Role;

    use super::*;

    fn session(created_at: DateTime<Utc>, seen_at: DateTime<Utc>) -> SessionGrant {
        SessionGrant {
            id: 1,
            account: 1,
            owner: SessionOwner::User(1),
            role: Role::Admin,
            actor: "a@example.com".into(),
            token: None,
            csrf: String::new(),
            created_at,
            seen_at,
            two_factor_missing: false,
        }
    }

    #[test]
    fn a_session_ends_after_12_hours_unused_or_30_days_and_records_its_use_once_a_minute() {
        let start = Utc.with_ymd_and_hms(2026, 11, 1, 9, 0, 0).unwrap();
        let fresh = session(start, start);
        assert_eq!(fresh.state(start + Duration::seconds(59)), SessionState::Live { touch: false });
        assert_eq!(fresh.state(start + Duration::minutes(1)), SessionState::Live { touch: true });
        assert_eq!(fresh.state(start + Duration::hours(12)), SessionState::Live { touch: true });
        assert_eq!(fresh.state(start + Duration::hours(12) + Duration::seconds(1)), SessionState::Ended);
        let busy = session(start, start + Duration::days(30));
        assert_eq!(busy.state(start + Duration::days(30)), SessionState::Live { touch: false });
        assert_eq!(busy.state(start + Duration::days(30) + Duration::seconds(1)), SessionState::Ended);
    }

    #[test]
    fn a_link_is_taken_until_it_expires_and_only_a_reset_link_ends_the_others() {
        let now = Utc.with_ymd_and_hms(2026, 11, 1, 9, 0, 0).unwrap();
        let link = |kind, expires_at| OneTimeLink {
            kind,
            account: 1,
            email: "a@example.com".into(),
            role: None,
            created_by: "b@example.com".into(),
            created_at: now - Duration::minutes(5),
            expires_at,
        };
        let (found, ends) = taken(Some(link(LinkKind::Reset, now + Duration::seconds(1))), now);
        assert!(found.is_some() && ends);
        let (found, ends) = taken(Some(link(LinkKind::Invitation, now + Duration::seconds(1))), now);
        assert!(found.is_some() && !ends);
        let (found, ends) = taken(Some(link(LinkKind::Reset, now)), now);
        assert!(found.is_none() && !ends, "expired at its expiry");
        assert_eq!(taken(None, now), (None, false));
        assert!(may_add_reset(2, 3) && !may_add_reset(3, 3));
    }
}
