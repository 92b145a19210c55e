//! Pieces several pages share.

pub mod account_switcher;
pub mod chart;
pub mod download;
pub mod errors;
pub mod field;
pub mod importer;
pub mod importer_card;
pub mod pager;
pub mod phone;
pub mod role;
pub mod table;
