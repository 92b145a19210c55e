//! The notices worker: sends the email and SMS of each balance alert (docs/interface.md §7.4). The SMS
//! goes through the carrier, uncharged; the email through SMTP, or, without an SMTP server,
//! is logged and recorded as not sent.

use std::sync::Arc;

use texto_core::parse_international;

use super::{clock::Clock, mailer::Mailer};
use crate::{
    Error,
    carrier::{Carrier, Outgoing, Submitted},
    store::{DeliveryStore, Notice},
};

/// The subject of the alert email.
const SUBJECT: &str = "texto: low balance";

/// Sends pending notices, one pass per [`Notifier::step`].
pub(crate) struct Notifier {
    pub(crate) store: Arc<dyn DeliveryStore>,
    pub(crate) carrier: Arc<dyn Carrier>,
    pub(crate) mailer: Option<Arc<dyn Mailer>>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) sender: String,
}

impl Notifier {
    /// Tries every pending notice once; returns how many were settled (sent or failed for good).
    pub(crate) async fn step(&self) -> Result<usize, Error> {
        let mut settled = 0;
        for notice in self.store.pending_notices().await? {
            let outcome = match notice.channel.as_str() {
                "email" => Some(self.email(&notice).await),
                "sms" => self.sms(&notice).await,
                other => Some(Err(format!("unknown channel {other}"))),
            };
            if let Some(outcome) = outcome {
                if let Err(error) = &outcome {
                    tracing::warn!(notice = notice.id, channel = %notice.channel, %error, "a balance alert notice was not sent");
                }
                self.store.notice_done(notice.id, outcome.err(), self.clock.now()).await?;
                settled += 1;
            }
        }
        Ok(settled)
    }

    async fn email(&self, notice: &Notice) -> Result<(), String> {
        match &self.mailer {
            Some(mailer) => mailer.send(&notice.target, SUBJECT, &notice.body).await,
            None => {
                tracing::info!(to = %notice.target, body = %notice.body, "balance alert email (no --smtp-url: logged only)");
                Err("no SMTP server configured (--smtp-url): logged only".into())
            }
        }
    }

    /// `None` when the carrier cannot take it now (tried again next step).
    async fn sms(&self, notice: &Notice) -> Option<Result<(), String>> {
        let Ok(number) = parse_international(&notice.target) else {
            return Some(Err(format!("{} is not an international number", notice.target)));
        };
        let sms = Outgoing {
            source: self.sender.clone(),
            destination: number.as_u64().to_string(),
            text: notice.body.clone(),
            unicode: false,
            validity: None,
            reference: 0,
        };
        match self.carrier.submit(&sms).await {
            Submitted::Accepted { .. } => Some(Ok(())),
            Submitted::Failed { code, reason } => Some(Err(format!("refused by the SMSC (code {code}): {reason}"))),
            Submitted::Retry(_) => None,
        }
    }
}
