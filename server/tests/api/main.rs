//! Black-box tests: each starts a real texto on port 0 with a fresh database and talks HTTP.

mod helpers;

mod auth;
mod campaigns;
mod consumption;
mod contacts;
mod daily;
mod delivery;
mod framing;
mod health;
mod history_filters;
mod hostile_documents;
mod hostile_requests;
mod idempotency;
mod inbox;
mod keywords;
mod list_contacts;
mod list_upkeep;
mod lists;
mod long_replies;
mod messages;
mod notification;
mod number_lists;
mod openapi;
mod retention;
mod sdk_shapes;
mod segments;
mod send;
mod slow_clients;
mod sub_accounts;
mod team;
mod team_rules;
mod tokens;
mod web_app;
mod webhook_delivery;
mod webhooks;
