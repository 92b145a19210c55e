//! The command line of the `texto` binary: its arguments, and the dispatcher that runs an
//! administration command and records it in the operators' log.

pub(crate) mod args;
pub mod dispatch;
