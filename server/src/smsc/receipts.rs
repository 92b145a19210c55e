//! The outcome of a submit (docs/interface.md §6.5, by destination suffix) and its delivery receipt text.

use chrono::{DateTime, Utc};
use rusmpp::values::MessageState;

/// The final state the simulator gives a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// The receipt's `stat:`.
    pub stat: &'static str,
    /// The receipt's `err:`.
    pub err: &'static str,
    /// The message_state TLV.
    pub state: MessageState,
}

/// The outcome for `destination`: `00` UNDELIV err:001, `99` UNDELIV err:000, `98` EXPIRED,
/// `97` REJECTD, anything else DELIVRD.
pub fn outcome(destination: &str) -> Outcome {
    let (stat, err, state) = if destination.ends_with("00") {
        ("UNDELIV", "001", MessageState::Undeliverable)
    } else if destination.ends_with("99") {
        ("UNDELIV", "000", MessageState::Undeliverable)
    } else if destination.ends_with("98") {
        ("EXPIRED", "000", MessageState::Expired)
    } else if destination.ends_with("97") {
        ("REJECTD", "000", MessageState::Rejected)
    } else {
        ("DELIVRD", "000", MessageState::Delivered)
    };
    Outcome { stat, err, state }
}

/// The standard receipt text: `id:… sub:001 dlvrd:… submit date:… done date:… stat:… err:… text:…`
/// (the first 20 characters of the message).
pub fn receipt_text(id: &str, outcome: Outcome, submitted: DateTime<Utc>, done: DateTime<Utc>, text: &str) -> String {
    let delivered = if outcome.state == MessageState::Delivered { "001" } else { "000" };
    let excerpt: String = text.chars().take(20).collect();
    format!(
        "id:{id} sub:001 dlvrd:{delivered} submit date:{} done date:{} stat:{} err:{} text:{excerpt}",
        submitted.format("%y%m%d%H%M"),
        done.format("%y%m%d%H%M"),
        outcome.stat,
        outcome.err,
    )
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    #[test]
    fn outcomes_follow_the_destination_suffix() {
        assert_eq!(outcome("33612345600").stat, "UNDELIV");
        assert_eq!(outcome("33612345600").err, "001");
        assert_eq!(outcome("33612345699").err, "000");
        assert_eq!(outcome("33612345698").stat, "EXPIRED");
        assert_eq!(outcome("33612345697").stat, "REJECTD");
        assert_eq!(outcome("33612345678").stat, "DELIVRD");
    }

    #[test]
    fn receipt_text_is_standard() {
        let at = Utc.with_ymd_and_hms(2026, 11, 24, 7, 5, 0).unwrap();
        assert_eq!(
            receipt_text("1f", outcome("33612345678"), at, at, "Bonjour"),
            "id:1f sub:001 dlvrd:001 submit date:2611240705 done date:2611240705 stat:DELIVRD err:000 text:Bonjour"
        );
    }
}
