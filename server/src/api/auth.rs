//! Bearer tokens: who is calling, and whether they are over their rate limit.

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

use crate::{
    Error,
    address_range::{AddressRange, any_contains, client_address},
    state::AppState,
    store::{AccountId, HttpErrors, token_hash},
};

/// The account a request acts for, from its token.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Caller {
    /// The token's account.
    pub(crate) account: AccountId,
}

/// Requests per second per token, with bursts of twice that.
pub(crate) fn rate_limiter(per_second: u32) -> Option<DefaultKeyedRateLimiter<[u8; 32]>> {
    let rate = NonZeroU32::new(per_second)?;
    let burst = NonZeroU32::new(per_second.saturating_mul(2)).unwrap_or(rate);
    Some(RateLimiter::keyed(Quota::per_second(rate).allow_burst(burst)))
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Caller, Error> {
        let token = bearer(parts)
            .or_else(|| query_token(parts))
            .ok_or(Error::Unauthorized("no token: send Authorization: Bearer <token>"))?;
        let hash = token_hash(&token);
        let grant = state.store.token_grant(&hash).await?.ok_or(Error::Unauthorized("unknown or revoked token"))?;
        // The token's own setting for how its errors are answered (see `render_errors`).
        if let Some(choice) = parts.extensions.get::<ErrorStatuses>() {
            let _ = choice.0.set(grant.http_errors);
        }
        let now = Utc::now();
        if grant.expires_at.is_some_and(|at| at <= now) {
            return Err(Error::Unauthorized("this token has expired"));
        }
        if !grant.allowed.is_empty() && !any_contains(&grant.allowed, client(parts, &state.config.trusted_proxies)) {
            return Err(Error::Unauthorized("this token is not allowed from this address"));
        }
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
        Ok(Caller { account: grant.account })
    }
}

/// How the request's errors are to be answered, once its token is known: put in the request
/// by `render_errors`, set by [`Caller`], read back by `render_errors` for the answer.
#[derive(Clone, Default)]
pub(crate) struct ErrorStatuses(pub(crate) Arc<OnceLock<HttpErrors>>);

/// The client's address: the peer's, or from `X-Forwarded-For` behind a trusted proxy. A
/// request without a peer address (none in texto's own server) is treated as unspecified,
/// which no range a user writes holds.
fn client(parts: &Parts, trusted: &[AddressRange]) -> IpAddr {
    let peer = parts
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(IpAddr::V6(Ipv6Addr::UNSPECIFIED), |ConnectInfo(peer)| peer.ip());
    let forwarded = parts.headers.get("x-forwarded-for").and_then(|v| v.to_str().ok());
    client_address(peer, forwarded, trusted)
}

fn bearer(parts: &Parts) -> Option<String> {
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

/// `service` behind the bearer token: the 401 envelope without a valid one.
pub(crate) fn behind_token(service: axum::Router, state: AppState) -> axum::Router {
    service.layer(axum::middleware::from_fn_with_state(state, require_token))
}

async fn require_token(
    axum::extract::State(state): axum::extract::State<AppState>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let (mut parts, body) = request.into_parts();
    match Caller::from_request_parts(&mut parts, &state).await {
        Ok(_) => next.run(axum::extract::Request::from_parts(parts, body)).await,
        Err(error) => error.into_response(),
    }
}
