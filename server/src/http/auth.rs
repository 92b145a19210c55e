//! Who is calling: a bearer token (with its rate limit) or a session cookie (with its CSRF
//! header), and the role either carries.

use std::{
    net::{IpAddr, Ipv6Addr, SocketAddr},
    num::NonZeroU32,
    sync::{Arc, OnceLock},
};

use axum::{
    extract::{ConnectInfo, FromRequestParts},
    http::{HeaderValue, Method, header, request::Parts},
};
use chrono::Utc;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use texto_core::{Action, Role};

use crate::{
    Error,
    state::AppState,
    store::{
        AccountId, HttpErrors, SessionGrant, SessionOwner, approval::Hand, team_sessions::SessionState, token_hash,
    },
    team::address_range::{AddressRange, client_address},
};

/// Who a request acts for: its account, its role, and who to name in the audit log.
#[derive(Debug, Clone)]
pub(crate) struct Caller {
    /// The account.
    pub(crate) account: AccountId,
    /// What the caller may do.
    pub(crate) role: Role,
    /// A person's email, or a token's name with its maker's email, as the audit log names them.
    pub(crate) actor: String,
    /// The person who answers for the request: the one signed in, or the one who made the
    /// token (of the request or of its session); `None` for a token without a maker.
    pub(crate) person: Option<i64>,
    /// The client's address.
    pub(crate) address: IpAddr,
    /// The session, when signed in with the cookie.
    pub(crate) session: Option<SessionGrant>,
    /// The API token, when the request came with one.
    pub(crate) token: Option<i64>,
    /// The caller's own account, when it acts in one of that account's sub-accounts
    /// ([`ACCOUNT_HEADER`]); its changes are recorded in both accounts' audit logs.
    pub(crate) home: Option<AccountId>,
}

impl Caller {
    /// The person signed in, if a person is.
    pub(crate) fn user(&self) -> Option<i64> {
        match self.session.as_ref().map(|s| s.owner) {
            Some(SessionOwner::User(user)) => Some(user),
            _ => None,
        }
    }

    /// Whose hand the request is: the person who answers for it, else its token.
    pub(crate) fn hand(&self) -> Hand {
        Hand::of(self.person, self.token)
    }

    /// The caller as the send flow knows a sender.
    pub(crate) fn sender(&self) -> crate::sending::service::Sender {
        crate::sending::service::Sender {
            account: self.account,
            role: self.role,
            actor: self.actor.clone(),
            hand: self.hand(),
            replying: false,
            approved: false,
        }
    }

    /// The account the caller belongs to, even while acting in one of its sub-accounts.
    pub(crate) fn own_account(&self) -> AccountId {
        self.home.unwrap_or(self.account)
    }

    /// `Forbidden` unless the caller's role may do `action`.
    pub(crate) fn require(&self, action: Action) -> Result<(), Error> {
        if self.role.may(action) {
            Ok(())
        } else {
            Err(Error::Forbidden { role: self.role, action: action.as_str().to_owned() })
        }
    }
}

/// The header that names the sub-account a caller of its parent acts in (the app's account
/// switcher); without it, a caller acts in its own account.
pub(crate) const ACCOUNT_HEADER: &str = "x-texto-account";

/// The session cookie's name.
pub(crate) const SESSION_COOKIE: &str = "texto_session";
/// The header a state-changing request made with the cookie repeats the session's CSRF value in.
pub(crate) const CSRF_HEADER: &str = "x-csrf-token";

/// Requests per second per token, with bursts of twice that.
pub(crate) fn rate_limiter(per_second: u32) -> Option<DefaultKeyedRateLimiter<[u8; 32]>> {
    let rate = NonZeroU32::new(per_second)?;
    let burst = NonZeroU32::new(per_second.saturating_mul(2)).unwrap_or(rate);
    Some(RateLimiter::keyed(Quota::per_second(rate).allow_burst(burst)))
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = Error;

    /// The caller [`authorize`](crate::http::access) found (taken, not copied), or found now
    /// (routes outside the table).
    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Caller, Error> {
        match parts.extensions.remove::<Caller>() {
            Some(caller) => Ok(caller),
            None => authenticate(parts, state, !parts.method.is_safe()).await,
        }
    }
}

/// Who sent the request: a bearer token (or `?token=`), else the session cookie, which for a
/// request that `changes` something must come with the session's CSRF value. The caller of a
/// suspended account gets 403.
pub(crate) async fn authenticate(parts: &Parts, state: &AppState, changes: bool) -> Result<Caller, Error> {
    let caller = identify(parts, state, changes).await?;
    if state.moderation.is_suspended(caller.account)
        || caller.home.is_some_and(|home| state.moderation.is_suspended(home))
    {
        return Err(Error::Suspended);
    }
    Ok(caller)
}

/// Who sent the request, suspended or not.
async fn identify(parts: &Parts, state: &AppState, changes: bool) -> Result<Caller, Error> {
    let address = client(parts, &state.config.trusted_proxies);
    let caller = if let Some(token) = bearer(parts).or_else(|| query_token(parts)) {
        by_token(parts, state, &token, address).await?
    } else {
        match session_cookie(parts) {
            Some(secret) => by_session(parts, state, &secret, address, changes).await?,
            None => return Err(Error::Unauthorized("no token: send Authorization: Bearer <token>")),
        }
    };
    switch_account(parts, state, caller).await
}

/// The caller moved into the sub-account [`ACCOUNT_HEADER`] names, with the same role; -5 if
/// that account is not one of the caller's sub-accounts. A person there keeps to its rules as
/// well as their own account's: without two-factor sign-in where the sub-account requires it,
/// their session may do nothing but set it up.
async fn switch_account(parts: &Parts, state: &AppState, caller: Caller) -> Result<Caller, Error> {
    let Some(asked) = parts.headers.get(ACCOUNT_HEADER).and_then(|v| v.to_str().ok()).map(str::trim) else {
        return Ok(caller);
    };
    let not_found = || Error::NotFound(format!("sub-account {asked}"));
    let id = crate::http::inputs::path_id(asked).ok_or_else(not_found)?;
    if id == caller.account {
        return Ok(caller);
    }
    let sub_account = state.store.sub_account(caller.account, id).await?.ok_or_else(not_found)?;
    let home = caller.account;
    let mut caller = Caller { home: Some(home), account: sub_account.id, ..caller };
    if let (Some(user), Some(session)) = (caller.user(), caller.session.as_mut())
        && !session.two_factor_missing
        && state.store.team_rules(sub_account.id).await?.require_two_factor
    {
        let set_up = state.store.user(home, user).await?.is_some_and(|person| person.two_factor.secret.is_some());
        session.two_factor_missing = !set_up;
    }
    Ok(caller)
}

async fn by_token(parts: &Parts, state: &AppState, token: &str, address: IpAddr) -> Result<Caller, Error> {
    let hash = token_hash(token);
    let grant = state.store.token_grant(&hash).await?.ok_or(Error::Unauthorized("unknown or revoked token"))?;
    // The token's own setting for how its errors are answered (see `render_errors`).
    if let Some(choice) = parts.extensions.get::<ErrorStatuses>() {
        let _ = choice.0.set(grant.http_errors);
    }
    let now = Utc::now();
    grant.admits(now, address)?;
    if let Some(limiter) = &state.rate_limiter {
        limiter.check_key(&hash).map_err(|_| Error::RateLimited)?;
    }
    if grant.use_is_stale(now) {
        let store = state.store.clone();
        tokio::spawn(async move {
            if let Err(error) = store.touch_token(grant.token, now).await {
                tracing::warn!(%error, token = grant.token, "recording a token's last use");
            }
        });
    }
    Ok(Caller {
        account: grant.account,
        role: grant.role,
        actor: grant.actor(),
        person: grant.maker.as_ref().map(|maker| maker.id),
        address,
        session: None,
        token: Some(grant.token),
        home: None,
    })
}

async fn by_session(
    parts: &Parts,
    state: &AppState,
    secret: &str,
    address: IpAddr,
    changes: bool,
) -> Result<Caller, Error> {
    crate::http::same_site::refuse_other_sites(&parts.headers, state.config.public_url.as_deref())?;
    let grant = state
        .store
        .session_grant(&token_hash(secret))
        .await?
        .ok_or(Error::Unauthorized("this session has ended: sign in again"))?;
    let now = Utc::now();
    let touch = match grant.state(now) {
        SessionState::Ended => {
            state.store.end_session(grant.id).await?;
            return Err(Error::Unauthorized("this session has ended: sign in again"));
        }
        SessionState::Live { touch } => touch,
    };
    if let Some(token) = &grant.token {
        token.admits(now, address)?;
    }
    if changes {
        let sent = parts.headers.get(CSRF_HEADER).and_then(|v| v.to_str().ok()).unwrap_or("");
        if !same_secret(sent, &grant.csrf) {
            return Err(Error::CrossSite);
        }
    }
    if touch {
        state.store.touch_session(grant.id, now).await?;
    }
    let (token, person) = match grant.owner {
        SessionOwner::Token(token) => (Some(token), grant.token.as_ref().and_then(|t| t.maker.as_ref()).map(|m| m.id)),
        SessionOwner::User(user) => (None, Some(user)),
    };
    Ok(Caller {
        account: grant.account,
        role: grant.role,
        actor: grant.actor.clone(),
        person,
        address,
        session: Some(grant),
        token,
        home: None,
    })
}

/// Compares two secrets in a time that does not depend on where they differ.
fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len() && !b.is_empty() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The value of the session cookie, if the request has one.
fn session_cookie(parts: &Parts) -> Option<String> {
    parts
        .headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, value)| *name == SESSION_COOKIE && !value.is_empty())
        .map(|(_, value)| value.to_owned())
}

/// How the request's errors are to be answered, once its token is known: put in the request
/// by `render_errors`, set by [`Caller`], read back by `render_errors` for the answer.
#[derive(Clone, Default)]
pub(crate) struct ErrorStatuses(pub(crate) Arc<OnceLock<HttpErrors>>);

/// The client's address: the peer's, or from `X-Forwarded-For` (all its lines) behind a
/// trusted proxy. A request without a peer address (none in texto's own server) is treated as
/// unspecified, which no range a user writes holds.
pub(crate) fn client(parts: &Parts, trusted: &[AddressRange]) -> IpAddr {
    let peer = parts
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(IpAddr::V6(Ipv6Addr::UNSPECIFIED), |ConnectInfo(peer)| peer.ip());
    // Every line, in order; a line that is not text stops the walk like a hop that is not an
    // address.
    let lines = parts.headers.get_all("x-forwarded-for").into_iter().map(|v| v.to_str().unwrap_or(""));
    client_address(peer, lines, trusted)
}

/// The bearer token of the `Authorization` header, if there is one.
pub(crate) fn bearer(parts: &Parts) -> Option<String> {
    bearer_token(parts.headers.get(header::AUTHORIZATION)?)
}

/// The bearer token of an `Authorization` header's value, if it holds one.
fn bearer_token(value: &HeaderValue) -> Option<String> {
    let (scheme, token) = value.to_str().ok()?.trim().split_once(' ')?;
    (scheme.eq_ignore_ascii_case("bearer") && !token.trim().is_empty()).then(|| token.trim().to_owned())
}

/// How the errors of the live token in `authorization` are to be answered; `None` without
/// one (or when the store cannot tell).
pub(crate) async fn token_choice(state: &AppState, authorization: Option<&HeaderValue>) -> Option<HttpErrors> {
    let token = bearer_token(authorization?)?;
    state.store.token_grant(&token_hash(&token)).await.ok().flatten().map(|grant| grant.http_errors)
}

/// `?token=` is accepted on `GET /send` and `GET /send/simulate`, as by the public service.
fn query_token(parts: &Parts) -> Option<String> {
    if parts.method != Method::GET || !parts.uri.path().starts_with("/send") {
        return None;
    }
    form_urlencoded::parse(parts.uri.query()?.as_bytes())
        .find(|(key, value)| key == "token" && !value.is_empty())
        .map(|(_, value)| value.into_owned())
}
