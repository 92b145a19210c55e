//! Pieces several pages share.

pub mod chart;
pub mod download;
pub mod errors;
pub mod field;
pub mod importer;
pub mod pager;
pub mod phone;
pub mod table;
