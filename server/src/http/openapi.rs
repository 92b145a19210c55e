//! `GET /openapi.json`: an OpenAPI 3.1 document of every endpoint, generated from the
//! handlers' `#[utoipa::path]` attributes and the wire DTOs' schemas.

use axum::{Json, Router, routing::get};
use utoipa::{
    Modify, OpenApi,
    openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme},
};

use super::{
    account, approval, audit, campaign_numbers, campaigns, clicks, consumption, contact_numbers, contacts,
    conversations, daily, keywords, links, list_upkeep, lists, messages, notification, number_lists, operator,
    operator_accounts, operator_moderation, operator_plans, operator_routing, operator_session, prices, retention,
    segments, send, session, settings, sub_accounts, team_rules, tokens, two_factor, users, webhook_resend, webhooks,
};
use crate::state::AppState;

/// The interface, as texto implements it.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "texto",
        description = "SMS campaigns: send and simulate to numbers or stored lists, webhooks, balance alerts, \
                       NPAI and blacklist. Every request and response is JSON or XML (chosen by Accept; XML by \
                       default); every answer carries status (1 = OK, negative = error) and message."
    ),
    paths(
        send::send, send::send_by_query, send::send_lists, send::simulate_send, send::simulate_by_query,
        send::simulate_lists, send::cancel,
        campaigns::history, campaigns::detail, campaigns::credits, clicks::clickers,
        campaign_numbers::replies, campaign_numbers::stops, campaign_numbers::npai, campaign_numbers::blacklist_npai,
        messages::messages, messages::replies,
        account::account, account::lookup, account::invoices, sub_accounts::create, sub_accounts::list, sub_accounts::one, sub_accounts::unlock, sub_accounts::token, sub_accounts::transfer, team_rules::show, team_rules::save, conversations::list, conversations::timeline, conversations::reply, conversations::read,
        contacts::list, contacts::export, contacts::save, contacts::erase, keywords::all, keywords::create, keywords::update, keywords::remove, contact_numbers::numbers, prices::prices, operator::accounts, operator::connectors, operator::routes, operator::traffic, operator_moderation::queue, operator_moderation::release, operator_moderation::refuse, operator_moderation::add_rule, operator_moderation::remove_rule, operator_moderation::new_accounts, operator::audit, operator_accounts::create, operator_plans::plans, operator_plans::save, operator_accounts::change, operator_accounts::top_up, operator_accounts::ledger, operator_accounts::suspend, operator_accounts::restore, operator_routing::save_connector, operator_routing::enable, operator_routing::disable, operator_routing::remove_connector, operator_routing::add_route, operator_routing::remove_route, operator_session::sign_in, operator_session::sign_out, segments::all, segments::show, segments::count, segments::create, segments::update, segments::remove, settings::show, settings::save,
        tokens::create, tokens::list, tokens::one, tokens::revoke,
        retention::show, retention::save, consumption::consumption, daily::daily,
        notification::show, notification::save,
        webhooks::create, webhooks::list, webhooks::update, webhooks::set_status, webhooks::remove, webhooks::log, webhook_resend::resend,
        lists::save, lists::lists, lists::list, lists::update, lists::remove, lists::remove_contact, lists::remove_contact_by_id,
        list_upkeep::update_contact, list_upkeep::deduplicate, list_upkeep::clear_npai,
        number_lists::list_npai, number_lists::add_npai, number_lists::remove_npai,
        number_lists::list_blacklist, number_lists::add_blacklist, number_lists::remove_blacklist, number_lists::remove_blacklist_entry,
        session::sign_in, session::sign_out, session::sign_out_everywhere, session::me, session::change_profile,
        users::users, users::invite, users::change_role, users::remove, users::invitations, users::cancel_invitation,
        links::accept_invitation, links::ask_reset, links::reset, audit::audit, audit::audit_csv,
        approval::approve, approval::reject, two_factor::start, two_factor::confirm, two_factor::turn_off,
    ),
    modifiers(&BearerToken)
)]
pub(super) struct ApiDoc;

/// Declares the `bearer` scheme the paths refer to.
struct BearerToken;

impl Modify for BearerToken {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
        );
    }
}

pub(super) fn router() -> Router<AppState> {
    Router::new().route("/openapi.json", get(|| async { Json(ApiDoc::openapi()) }))
}
