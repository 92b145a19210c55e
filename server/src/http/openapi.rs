//! `GET /openapi.json`: an OpenAPI 3.1 document of every endpoint, generated from the
//! handlers' `#[utoipa::path]` attributes and the wire DTOs' schemas.

use axum::{Json, Router, routing::get};
use utoipa::{
    Modify, OpenApi,
    openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme},
};

use crate::{
    account::{audit, details, notification, retention_settings, sub_accounts, webhook_resend, webhooks},
    audience::{blacklist_npai, contact_numbers, contacts, list_upkeep, lists, segments},
    inbox::{conversations, keywords, settings},
    journeys::{api as journeys, entries as journey_entries, trial as journey_trial},
    operator::{
        account_senders, accounts, console, moderation_queue, plans, routing_changes, session as operator_session,
    },
    sending::{
        approval, campaign_numbers, campaigns, clicks, consumption, conversions, daily, drafts, messages, pause,
        prices, report, send, senders, templates, test_send, winner,
    },
    signup::api as signup_pages,
    state::AppState,
    team::{one_time_links, people, rules, session, tokens, two_factor_setup},
};

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
        send::simulate_lists, send::cancel, pause::pause, pause::resume, winner::choose,
        templates::all, templates::show, templates::create, templates::update, templates::remove,
        drafts::all, drafts::create, drafts::update, drafts::remove, drafts::send, drafts::clone, test_send::test,
        report::report, report::report_csv, senders::all, senders::set_default, conversions::record,
        campaigns::history, campaigns::detail, campaigns::credits, clicks::clickers,
        campaign_numbers::replies, campaign_numbers::stops, campaign_numbers::npai, campaign_numbers::blacklist_npai,
        messages::messages, messages::replies,
        details::account, details::lookup, details::invoices, sub_accounts::create, sub_accounts::list, sub_accounts::one, sub_accounts::unlock, sub_accounts::token, sub_accounts::transfer, rules::show, rules::save, conversations::list, conversations::timeline, conversations::reply, conversations::read,
        contacts::list, contacts::export, contacts::save, contacts::erase, keywords::all, keywords::create, keywords::update, keywords::remove, contact_numbers::numbers, prices::prices, console::accounts, console::connectors, console::routes, console::traffic, moderation_queue::queue, moderation_queue::release, moderation_queue::refuse, moderation_queue::add_rule, moderation_queue::remove_rule, moderation_queue::new_accounts, console::audit, accounts::create, plans::plans, plans::save, accounts::change, accounts::top_up, accounts::ledger, accounts::suspend, accounts::restore, account_senders::list, account_senders::register, account_senders::unregister, routing_changes::save_connector, routing_changes::enable, routing_changes::disable, routing_changes::remove_connector, routing_changes::add_route, routing_changes::remove_route, operator_session::sign_in, operator_session::sign_out, segments::all, segments::show, segments::count, segments::create, segments::update, segments::remove, journeys::all, journeys::show, journeys::create, journeys::update, journeys::remove, journeys::status, journey_entries::enter, journey_entries::contacts, journey_entries::report, journey_trial::trial, signup_pages::all, signup_pages::show, signup_pages::create, signup_pages::update, signup_pages::remove, settings::show, settings::save,
        tokens::create, tokens::list, tokens::one, tokens::revoke,
        retention_settings::show, retention_settings::save, consumption::consumption, daily::daily,
        notification::show, notification::save,
        webhooks::create, webhooks::list, webhooks::update, webhooks::set_status, webhooks::remove, webhooks::log, webhook_resend::resend,
        lists::save, lists::lists, lists::list, lists::update, lists::remove, lists::remove_contact, lists::remove_contact_by_id,
        list_upkeep::update_contact, list_upkeep::deduplicate, list_upkeep::clear_npai,
        blacklist_npai::list_npai, blacklist_npai::add_npai, blacklist_npai::remove_npai,
        blacklist_npai::list_blacklist, blacklist_npai::add_blacklist, blacklist_npai::remove_blacklist, blacklist_npai::remove_blacklist_entry,
        session::sign_in, session::sign_out, session::sign_out_everywhere, session::me, session::change_profile,
        people::users, people::invite, people::change_role, people::remove, people::invitations, people::cancel_invitation,
        one_time_links::accept_invitation, one_time_links::ask_reset, one_time_links::reset, audit::audit, audit::audit_csv,
        approval::approve, approval::reject, two_factor_setup::start, two_factor_setup::confirm, two_factor_setup::turn_off,
    ),
    modifiers(&BearerToken)
)]
pub(crate) struct ApiDoc;

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

pub(crate) fn router() -> Router<AppState> {
    Router::new().route("/openapi.json", get(|| async { Json(ApiDoc::openapi()) }))
}
