//! The email that carries a one-time link (an invitation, a password reset).

use crate::{delivery::Mailer, store::OneTimeLink};

/// Emails `url`, the page of `link`, under `subject` after `intro`; whether it went (not
/// without a mailer, nor when the relay refused it: that is logged).
pub(crate) async fn mail_link(
    mailer: Option<&dyn Mailer>,
    link: &OneTimeLink,
    url: &str,
    subject: &str,
    intro: &str,
) -> bool {
    let Some(mailer) = mailer else { return false };
    let until = texto_core::format_paris(link.expires_at);
    let body = format!("{intro}\n\n{url}\n\nThis link works once, until {until} (Paris time).\n");
    match mailer.send(&link.email, subject, &body).await {
        Ok(()) => true,
        Err(error) => {
            tracing::warn!(%error, to = %link.email, "a one-time link could not be emailed");
            false
        }
    }
}
