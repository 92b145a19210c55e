//! Pausing and resuming a sending campaign, written once for both stores: which changes are
//! allowed. A paused campaign keeps its `sending` status with `paused_at` set: no new wave
//! takes its messages, those already handed over finish, and resuming lets the next wave take
//! them again (marketing only inside its window, as always).

use texto_core::FieldError;

use super::CampaignStatus;
use crate::Error;

/// What is asked of a campaign.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pausing {
    /// Stop starting new waves.
    Pause,
    /// Start them again.
    Resume,
}

impl Pausing {
    /// Whether campaign `ticket`, found `status` and `paused`, may change as asked: only a
    /// sending campaign pauses, only a paused one resumes.
    pub(crate) fn allowed(self, ticket: i64, status: &str, paused: bool) -> Result<(), Error> {
        let refuse = |why: String| Err(Error::Invalid(vec![FieldError::new("ticket", why)]));
        let sending = status == CampaignStatus::Sending.as_str();
        match (self, sending, paused) {
            (Pausing::Pause, true, false) | (Pausing::Resume, true, true) => Ok(()),
            (Pausing::Pause, true, true) => refuse(format!("campaign {ticket} is already paused")),
            (Pausing::Resume, true, false) => refuse(format!("campaign {ticket} is not paused")),
            (Pausing::Pause, false, _) => {
                refuse(format!("campaign {ticket} is {status}: only a sending campaign can be paused"))
            }
            (Pausing::Resume, false, _) => refuse(format!("campaign {ticket} is {status}: it is not paused")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_sending_campaign_pauses_and_only_a_paused_one_resumes() {
        assert!(Pausing::Pause.allowed(1, "sending", false).is_ok());
        assert!(Pausing::Resume.allowed(1, "sending", true).is_ok());
        for (pausing, status, paused) in [
            (Pausing::Pause, "sending", true),
            (Pausing::Pause, "scheduled", false),
            (Pausing::Pause, "sent", false),
            (Pausing::Resume, "sending", false),
            (Pausing::Resume, "cancelled", true),
        ] {
            let refused = pausing.allowed(7, status, paused).expect_err("refused");
            assert!(matches!(refused, Error::Invalid(ref fields) if fields[0].message.contains("campaign 7")));
        }
    }
}
