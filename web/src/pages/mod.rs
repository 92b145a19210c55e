//! One module per screen.

pub mod audit;
pub mod campaigns;
pub mod cap_settings;
pub mod compose;
pub mod contacts;
pub mod home;
pub mod inbox;
pub mod keywords;
pub mod lists;
pub mod number_list;
pub mod one_time_links;
pub mod profile;
pub mod replies;
pub mod reply_settings;
pub mod retention_settings;
pub mod segments;
pub mod settings;
pub mod sign_in;
pub mod sub_accounts;
pub mod team;
pub mod team_rules;
pub mod templates;
pub mod tokens;
pub mod two_factor;
pub mod utm_settings;
pub mod webhooks;
