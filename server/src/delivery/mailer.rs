//! Email for balance alerts: SMTP through lettre when `--smtp-url` is set.

use async_trait::async_trait;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor, message::Mailbox};

/// Sends one plain-text email.
#[async_trait]
pub(crate) trait Mailer: Send + Sync {
    /// Sends `body` to `to`; the error says why it did not go.
    async fn send(&self, to: &str, subject: &str, body: &str) -> Result<(), String>;
}

/// An SMTP relay (`smtp://HOST:PORT`, no TLS: a local relay or an SMTP gateway).
pub(crate) struct SmtpMailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
}

impl SmtpMailer {
    /// A mailer for `url`, sending as `from`.
    pub(crate) fn new(url: &str, from: &str) -> Result<SmtpMailer, String> {
        let parsed = url::Url::parse(url).map_err(|e| format!("--smtp-url {url}: {e}"))?;
        if parsed.scheme() != "smtp" {
            return Err(format!("--smtp-url {url}: expected smtp://HOST:PORT"));
        }
        let host = parsed.host_str().ok_or_else(|| format!("--smtp-url {url}: no host"))?;
        let transport =
            AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host).port(parsed.port().unwrap_or(25)).build();
        let from = from.parse().map_err(|e| format!("--smtp-from {from}: {e}"))?;
        Ok(SmtpMailer { transport, from })
    }
}

#[async_trait]
impl Mailer for SmtpMailer {
    async fn send(&self, to: &str, subject: &str, body: &str) -> Result<(), String> {
        let to: Mailbox = to.parse().map_err(|e| format!("the address {to:?}: {e}"))?;
        let message = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(subject)
            .body(body.to_owned())
            .map_err(|e| format!("the message: {e}"))?;
        self.transport.send(message).await.map(|_| ()).map_err(|e| format!("SMTP: {e}"))
    }
}
