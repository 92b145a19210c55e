//! The role table applied to every route, in one place: what each route requires, checked
//! before its handler runs; and the audit line each change leaves once it succeeded.

use axum::{
    extract::{MatchedPath, Request, State},
    http::Method,
    middleware::Next,
    response::{IntoResponse, Response},
};
use chrono::Utc;
use texto_core::Action;

use crate::{
    Error,
    http::{
        auth::{Caller, authenticate},
        same_site::refuse_other_sites,
    },
    state::AppState,
    store::AuditEntry,
};

/// What a route requires.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Nothing: health, the OpenAPI document, short links, signing in and one-time links.
    Public,
    /// A caller whose role may do the action; a change is recorded under the name given.
    Signed(Action, Option<&'static str>),
    /// An operator; an account's token or session is refused with 403.
    Operator,
}

use Access::{Operator, Public, Signed};
use Action::{Approve, Compose, EditDelivery, EditLists, Manage, Read, ReadAudit, Send};

/// Every route of the interface with what it requires: the table the middleware applies
/// and the permission test walks.
pub const ROUTES: &[(&str, &str, Access)] = &[
    ("GET", "/health", Public),
    ("GET", "/openapi.json", Public),
    ("GET", "/s/{code}", Public),
    ("GET", "/conversion.gif", Public),
    ("POST", "/session", Public),
    ("POST", "/invitation/{token}", Public),
    ("POST", "/password-reset", Public),
    ("POST", "/password-reset/{token}", Public),
    ("GET", "/me", Signed(Read, None)),
    ("PUT", "/me", Signed(Read, Some("user.profile"))),
    ("DELETE", "/session", Signed(Read, Some("session.end"))),
    ("DELETE", "/sessions", Signed(Read, Some("session.end_all"))),
    ("POST", "/me/two-factor", Signed(Read, Some("user.two_factor_setup"))),
    ("PUT", "/me/two-factor", Signed(Read, Some("user.two_factor_on"))),
    ("DELETE", "/me/two-factor", Signed(Read, Some("user.two_factor_off"))),
    ("POST", "/send", Signed(Compose, Some("campaign.send"))),
    ("GET", "/send", Signed(Compose, Some("campaign.send"))),
    ("POST", "/send/lists", Signed(Compose, Some("campaign.send"))),
    ("POST", "/send/simulate", Signed(Compose, None)),
    ("GET", "/send/simulate", Signed(Compose, None)),
    ("POST", "/send/lists/simulate", Signed(Compose, None)),
    ("DELETE", "/send/{ticket}", Signed(Send, Some("campaign.cancel"))),
    ("PUT", "/campaign/{ticket}/pause", Signed(Send, Some("campaign.pause"))),
    ("PUT", "/campaign/{ticket}/resume", Signed(Send, Some("campaign.resume"))),
    ("PUT", "/campaign/{ticket}/winner", Signed(Send, Some("campaign.ab_winner"))),
    ("POST", "/campaign/{ticket}/approve", Signed(Approve, Some("campaign.approve"))),
    ("POST", "/campaign/{ticket}/reject", Signed(Approve, Some("campaign.reject"))),
    ("GET", "/campaigns", Signed(Read, None)),
    ("GET", "/campaign/{ticket}", Signed(Read, None)),
    ("GET", "/drafts", Signed(Read, None)),
    ("POST", "/campaign/draft", Signed(Compose, Some("draft.create"))),
    ("PUT", "/campaign/{ticket}", Signed(Compose, Some("draft.update"))),
    ("DELETE", "/campaign/{ticket}", Signed(Compose, Some("draft.delete"))),
    ("POST", "/campaign/{ticket}/send", Signed(Compose, Some("campaign.send"))),
    ("POST", "/campaign/{ticket}/clone", Signed(Compose, Some("draft.clone"))),
    ("POST", "/campaign/{ticket}/test", Signed(Compose, Some("campaign.test"))),
    ("GET", "/campaign/{ticket}/mo", Signed(Read, None)),
    ("GET", "/campaign/{ticket}/blacklist", Signed(Read, None)),
    ("GET", "/campaign/{ticket}/npai", Signed(Read, None)),
    ("PUT", "/campaign/{ticket}/npai", Signed(EditDelivery, Some("blacklist.add_npai"))),
    ("GET", "/campaign/{ticket}/clickers", Signed(Read, None)),
    ("GET", "/campaign/{ticket}/clickers.csv", Signed(Read, None)),
    ("GET", "/campaign/{ticket}/messages.csv", Signed(Read, None)),
    ("GET", "/campaign/{ticket}/report", Signed(Read, None)),
    ("GET", "/campaign/{ticket}/report.csv", Signed(Read, None)),
    ("GET", "/credits", Signed(Read, None)),
    ("GET", "/messages", Signed(Read, None)),
    ("GET", "/messages/mo", Signed(Read, None)),
    ("GET", "/metrics/consumption", Signed(Read, None)),
    ("GET", "/metrics/daily", Signed(Read, None)),
    ("GET", "/contacts", Signed(Read, None)),
    ("GET", "/contact/{number}", Signed(Read, Some("contact.export"))),
    ("PUT", "/contact/{number}", Signed(EditLists, Some("contact.save"))),
    ("DELETE", "/contact/{number}", Signed(EditLists, Some("contact.erase"))),
    ("GET", "/account", Signed(Read, None)),
    ("POST", "/account", Signed(Manage, Some("account.create"))),
    ("GET", "/sub-accounts", Signed(Read, None)),
    ("GET", "/sub-accounts/{id}", Signed(Read, None)),
    ("POST", "/sub-accounts/{id}/credits", Signed(Manage, Some("account.credits"))),
    ("GET", "/account/{id}/unlock", Signed(Manage, Some("account.unlock"))),
    ("POST", "/token/account/{id}", Signed(Manage, Some("token.create"))),
    ("POST", "/lookup", Signed(Send, Some("lookup"))),
    ("GET", "/account/invoice", Signed(Read, None)),
    ("GET", "/account/invoice/{id}", Signed(Read, None)),
    ("GET", "/account/invoice/{id}/download", Signed(Read, None)),
    ("GET", "/webhook", Signed(Read, None)),
    ("POST", "/webhook", Signed(EditDelivery, Some("webhook.create"))),
    ("PUT", "/webhook/{id}", Signed(EditDelivery, Some("webhook.update"))),
    ("DELETE", "/webhook/{id}", Signed(EditDelivery, Some("webhook.delete"))),
    ("PUT", "/webhook/{id}/status", Signed(EditDelivery, Some("webhook.status"))),
    ("GET", "/webhook/{id}/log", Signed(Read, None)),
    ("POST", "/webhook/{id}/log/{attempt}/resend", Signed(EditDelivery, Some("webhook.resend"))),
    ("GET", "/notification/balance", Signed(Read, None)),
    ("PUT", "/notification/balance", Signed(Manage, Some("settings.balance_alert"))),
    ("GET", "/npai", Signed(Read, None)),
    ("POST", "/npai", Signed(EditDelivery, Some("npai.add"))),
    ("DELETE", "/npai/{number}", Signed(EditDelivery, Some("npai.remove"))),
    ("GET", "/blacklist", Signed(Read, None)),
    ("POST", "/blacklist", Signed(EditDelivery, Some("blacklist.add"))),
    ("DELETE", "/blacklist/{number}", Signed(EditDelivery, Some("blacklist.remove"))),
    ("DELETE", "/blacklist/contact/{id}", Signed(EditDelivery, Some("blacklist.remove"))),
    ("GET", "/lists", Signed(Read, None)),
    ("POST", "/list", Signed(EditLists, Some("list.create"))),
    ("GET", "/list/{id}", Signed(Read, None)),
    ("PUT", "/list/{id}", Signed(EditLists, Some("list.add_contacts"))),
    ("DELETE", "/list/{id}", Signed(EditLists, Some("list.delete"))),
    ("DELETE", "/list/{id}/contact/{contact_id}", Signed(EditLists, Some("list.remove_contact"))),
    ("DELETE", "/list/contact/{contact_id}", Signed(EditLists, Some("list.remove_contact"))),
    ("PUT", "/list/contact/{contact_id}", Signed(EditLists, Some("list.update_contact"))),
    ("PUT", "/list/deduplicate/{id}", Signed(EditLists, Some("list.deduplicate"))),
    ("PUT", "/list/{id}/npai/clear", Signed(EditLists, Some("list.clear_npai"))),
    ("GET", "/retention", Signed(Read, None)),
    ("PUT", "/retention", Signed(Manage, Some("settings.retention"))),
    ("GET", "/token", Signed(Manage, None)),
    ("POST", "/token", Signed(Manage, Some("token.create"))),
    ("GET", "/token/{id}", Signed(Manage, None)),
    ("DELETE", "/token/{id}", Signed(Manage, Some("token.revoke"))),
    ("GET", "/users", Signed(Read, None)),
    ("POST", "/users", Signed(Manage, Some("user.invite"))),
    ("PUT", "/user/{id}", Signed(Manage, Some("user.role"))),
    ("DELETE", "/user/{id}", Signed(Manage, Some("user.remove"))),
    ("GET", "/invitations", Signed(Manage, None)),
    ("DELETE", "/invitations/{email}", Signed(Manage, Some("user.cancel_invitation"))),
    ("GET", "/audit", Signed(ReadAudit, None)),
    ("GET", "/audit.csv", Signed(ReadAudit, None)),
    ("GET", "/team-rules", Signed(Read, None)),
    ("GET", "/conversations", Signed(Read, None)),
    ("GET", "/conversation/{number}", Signed(Read, None)),
    ("POST", "/conversation/{number}/reply", Signed(Send, Some("conversation.reply"))),
    ("PUT", "/conversation/{number}/read", Signed(Read, None)),
    ("PUT", "/team-rules", Signed(Manage, Some("settings.team_rules"))),
    ("GET", "/keywords", Signed(Read, None)),
    ("POST", "/keyword", Signed(EditDelivery, Some("keyword.create"))),
    ("PUT", "/keyword/{id}", Signed(EditDelivery, Some("keyword.update"))),
    ("DELETE", "/keyword/{id}", Signed(EditDelivery, Some("keyword.delete"))),
    ("GET", "/contacts/numbers", Signed(Read, None)),
    ("GET", "/prices", Signed(Read, None)),
    ("GET", "/senders", Signed(Read, None)),
    ("PUT", "/senders/default", Signed(Manage, Some("sender.default"))),
    ("POST", "/conversion", Signed(Send, None)),
    ("GET", "/templates", Signed(Read, None)),
    ("POST", "/template", Signed(Compose, Some("template.create"))),
    ("GET", "/template/{id}", Signed(Read, None)),
    ("PUT", "/template/{id}", Signed(Compose, Some("template.update"))),
    ("DELETE", "/template/{id}", Signed(Compose, Some("template.delete"))),
    ("GET", "/journeys", Signed(Read, None)),
    ("POST", "/journey", Signed(Compose, Some("journey.create"))),
    ("GET", "/journey/{id}", Signed(Read, None)),
    ("PUT", "/journey/{id}", Signed(Compose, Some("journey.update"))),
    ("DELETE", "/journey/{id}", Signed(Compose, Some("journey.delete"))),
    ("PUT", "/journey/{id}/status", Signed(Approve, Some("journey.status"))),
    ("POST", "/journey/{id}/enter", Signed(Send, Some("journey.enter"))),
    ("GET", "/journey/{id}/contacts", Signed(Read, None)),
    ("GET", "/journey/{id}/report", Signed(Read, None)),
    ("POST", "/journey/{id}/trial", Signed(Read, None)),
    ("GET", "/signup-pages", Signed(Read, None)),
    ("POST", "/signup-page", Signed(EditLists, Some("signup_page.create"))),
    ("GET", "/signup-page/{id}", Signed(Read, None)),
    ("PUT", "/signup-page/{id}", Signed(EditLists, Some("signup_page.update"))),
    ("DELETE", "/signup-page/{id}", Signed(EditLists, Some("signup_page.delete"))),
    ("GET", "/join/{slug}", Public),
    ("POST", "/join/{slug}", Public),
    ("POST", "/join/{slug}/confirm", Public),
    ("GET", "/segments", Signed(Read, None)),
    ("POST", "/segment", Signed(EditLists, Some("segment.create"))),
    ("POST", "/segment/count", Signed(Read, None)),
    ("GET", "/segment/{id}", Signed(Read, None)),
    ("PUT", "/segment/{id}", Signed(EditLists, Some("segment.update"))),
    ("DELETE", "/segment/{id}", Signed(EditLists, Some("segment.delete"))),
    ("GET", "/settings", Signed(Read, None)),
    ("PUT", "/settings", Signed(Manage, Some("settings.account"))),
    ("GET", "/operator/accounts", Operator),
    ("GET", "/operator/connectors", Operator),
    ("GET", "/operator/routes", Operator),
    ("GET", "/operator/traffic", Operator),
    ("GET", "/operator/moderation", Operator),
    ("POST", "/operator/campaign/{ticket}/release", Operator),
    ("POST", "/operator/campaign/{ticket}/refuse", Operator),
    ("POST", "/operator/moderation/rules", Operator),
    ("DELETE", "/operator/moderation/rule/{id}", Operator),
    ("PUT", "/operator/moderation/new-accounts", Operator),
    ("GET", "/operator/audit", Operator),
    ("POST", "/operator/session", Public),
    ("DELETE", "/operator/session", Operator),
    ("GET", "/operator/plans", Operator),
    ("PUT", "/operator/plan/{name}", Operator),
    ("POST", "/operator/accounts", Operator),
    ("PUT", "/operator/account/{id}", Operator),
    ("POST", "/operator/account/{id}/credits", Operator),
    ("GET", "/operator/account/{id}/ledger", Operator),
    ("POST", "/operator/account/{id}/suspend", Operator),
    ("POST", "/operator/account/{id}/restore", Operator),
    ("GET", "/operator/account/{id}/senders", Operator),
    ("POST", "/operator/account/{id}/senders", Operator),
    ("DELETE", "/operator/account/{id}/sender/{name}", Operator),
    ("PUT", "/operator/connector/{name}", Operator),
    ("DELETE", "/operator/connector/{name}", Operator),
    ("POST", "/operator/connector/{name}/enable", Operator),
    ("POST", "/operator/connector/{name}/disable", Operator),
    ("POST", "/operator/routes", Operator),
    ("DELETE", "/operator/route/{id}", Operator),
];

/// What `method` on the route `path` requires; a route missing from the table requires the
/// power to manage the account (and the permission test fails on it).
pub fn required(method: &Method, path: &str) -> Access {
    let method = if method == Method::HEAD { Method::GET } else { method.clone() };
    ROUTES
        .iter()
        .find(|(m, p, _)| *p == path && *m == method.as_str())
        .map_or(Signed(Manage, None), |(_, _, access)| *access)
}

/// What a person whose account requires two-factor sign-in may do before setting it up:
/// read who they are, set it up, and sign out.
const BEFORE_TWO_FACTOR: &[(&str, &str)] = &[
    ("GET", "/me"),
    ("POST", "/me/two-factor"),
    ("PUT", "/me/two-factor"),
    ("DELETE", "/session"),
    ("DELETE", "/sessions"),
];

/// `caller`, unless the account requires two-factor sign-in, the caller has not set it up,
/// and the route is not one of [`BEFORE_TWO_FACTOR`].
pub(crate) fn two_factor_in_place(caller: Caller, method: &str, path: &str) -> Result<Caller, Error> {
    let missing = caller.session.as_ref().is_some_and(|session| session.two_factor_missing);
    if missing && !BEFORE_TWO_FACTOR.contains(&(method, path)) {
        return Err(Error::TwoFactorRequired);
    }
    Ok(caller)
}

/// What a handler tells the audit log about the change it made.
#[derive(Debug, Clone)]
pub(crate) struct AuditNote {
    /// On what (`campaign 42`).
    pub(crate) object: String,
    /// One line (`campaign 42 sent to 12,000 recipients`).
    pub(crate) summary: String,
}

/// `response` carrying `note` for the audit log.
pub(crate) fn noted(response: Response, object: impl Into<String>, summary: impl Into<String>) -> Response {
    let mut response = response;
    response.extensions_mut().insert(AuditNote { object: object.into(), summary: summary.into() });
    response
}

/// Marks a request to a route that needs no credentials, for what reads its body (which then
/// reads a few KiB at most), so that the table is looked up once per request.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PublicRoute;

/// Applies the table: a public route goes through; another needs a caller whose role may do
/// its action (401 without one, 403 when the role may not). A change that succeeded is
/// recorded in the audit log.
pub(crate) async fn authorize(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let path = request.extensions().get::<MatchedPath>().map(|p| p.as_str().to_owned()).unwrap_or_default();
    let (action, audit_name) = match required(request.method(), &path) {
        Public => {
            let mut request = request;
            request.extensions_mut().insert(PublicRoute);
            // Signing in and the one-time links: never from another site's page.
            if !request.method().is_safe()
                && let Err(error) = refuse_other_sites(request.headers(), state.config.public_url.as_deref())
            {
                return error.into_response();
            }
            return next.run(request).await;
        }
        Operator => {
            let (mut parts, body) = request.into_parts();
            return match crate::operator::caller::authenticate(&parts, &state).await {
                Ok(operator) => {
                    parts.extensions.insert(operator);
                    next.run(Request::from_parts(parts, body)).await
                }
                Err(error) => error.into_response(),
            };
        }
        Signed(action, audit_name) => (action, audit_name),
    };
    let (mut parts, body) = request.into_parts();
    // A route that changes something (`GET /send` included) needs the session's CSRF value.
    let changes = audit_name.is_some() || !parts.method.is_safe();
    let caller = match authenticate(&parts, &state, changes)
        .await
        .and_then(|c| c.require(action).map(|()| c))
        .and_then(|c| two_factor_in_place(c, parts.method.as_str(), &path))
    {
        Ok(caller) => caller,
        Err(error) => return error.into_response(),
    };
    // Only a change is recorded: reads pay for no copy.
    let audited = audit_name.map(|name| (name, caller.clone(), format!("{} {}", parts.method, parts.uri.path())));
    parts.extensions.insert(caller);
    let mut response = next.run(Request::from_parts(parts, body)).await;
    let note = response.extensions_mut().remove::<AuditNote>();
    if let Some((name, caller, request_line)) = audited.filter(|_| response.status().is_success()) {
        let note = note.unwrap_or(AuditNote { object: String::new(), summary: request_line });
        let entry = AuditEntry {
            account: caller.account,
            at: Utc::now(),
            actor: caller.actor,
            address: caller.address.to_string(),
            action: name.to_owned(),
            object: note.object,
            summary: note.summary,
        };
        // Acting in a sub-account: the change is on record there and in the caller's own account.
        if let Some(home) = caller.home {
            let summary = format!("in sub-account {}: {}", entry.account, entry.summary);
            state.audit.record(AuditEntry { account: home, summary, ..entry.clone() });
        }
        state.audit.record(entry);
    }
    response
}
