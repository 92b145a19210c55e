//! The two kinds of campaign: transactional alerts and marketing.

use serde::{Deserialize, Serialize};

/// `pushtype` of a campaign. Marketing carries an opt-out text and only goes out in the
/// marketing window (docs/interface.md §4.2, §5.2); alerts go out at any time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PushType {
    /// Transactional message (`alert`).
    Alert,
    /// Marketing message (`marketing`).
    Marketing,
}

impl PushType {
    /// Parses the wire value (`alert` or `marketing`, exactly).
    pub fn parse(value: &str) -> Option<PushType> {
        match value {
            "alert" => Some(PushType::Alert),
            "marketing" => Some(PushType::Marketing),
            _ => None,
        }
    }

    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            PushType::Alert => "alert",
            PushType::Marketing => "marketing",
        }
    }
}
