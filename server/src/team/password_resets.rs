//! Password reset links asked for by email (`POST /password-reset`). The request only hands
//! the email to a worker: whether it has a sign-in, the link and its mail are the worker's
//! business, so the answer comes after the same work whether the email is known or not, and a
//! slow mail relay delays no answer (its time tells nothing).
//!
//! Bounds, beyond which a request is answered the same and sends nothing: at most
//! [`LINKS_PER_EMAIL`] live links per person (a link lives an hour; counted in the database,
//! so across nodes), and [`ASKS_PER_ADDRESS`] requests per client address and hour (counted
//! in memory by each node). A newer link leaves the earlier ones working, so that asking for a
//! link cannot be used to keep someone's link from working; using one ends them all.

use std::{net::IpAddr, num::NonZeroU32, sync::Arc};

use chrono::Utc;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::{
    Error,
    account::audit_log::AuditLog,
    delivery::Mailer,
    store::{AuditEntry, OneTimeLink, Store, token_hash},
    team::{address_range::subscriber, link_mail::mail_link, names::Email, token_mint::secret},
};

/// Live reset links a person may have: further requests send nothing until one is used or
/// expires.
pub(crate) const LINKS_PER_EMAIL: u32 = 3;
/// Requests one client address (an IPv6 client's /64) may make per hour.
const ASKS_PER_ADDRESS: NonZeroU32 = NonZeroU32::new(20).expect("not zero");
/// Requests waiting for the worker at most; more are dropped (and logged).
const WAITING: usize = 256;
/// Addresses remembered beyond which those that could ask again are forgotten.
const FORGET_ABOVE: usize = 10_000;

const SUBJECT: &str = "Reset your texto password";
const INTRO: &str = "Someone (hopefully you) asked to reset your texto password. Choose a new one here:";

/// A reset asked for: the email, and the client's address (for the audit log).
pub(crate) struct Asked {
    email: Email,
    address: IpAddr,
}

/// The requests' side: takes a reset request and hands it to the worker.
pub(crate) struct ResetRequests {
    queue: mpsc::Sender<Asked>,
    per_address: DefaultKeyedRateLimiter<IpAddr>,
}

impl ResetRequests {
    /// The requests' side, and the queue the worker ([`run`]) reads.
    pub(crate) fn new() -> (ResetRequests, mpsc::Receiver<Asked>) {
        let (queue, asked) = mpsc::channel(WAITING);
        let per_address = RateLimiter::keyed(Quota::per_hour(ASKS_PER_ADDRESS));
        (ResetRequests { queue, per_address }, asked)
    }

    /// Hands a reset of `email`, asked from `address`, to the worker, unless that address
    /// asked too often or too many wait already. The same few steps whatever the email: the
    /// caller answers at once, and the same way.
    pub(crate) fn ask(&self, email: Email, address: IpAddr) {
        if self.per_address.len() > FORGET_ABOVE {
            self.per_address.retain_recent();
        }
        if self.per_address.check_key(&subscriber(address)).is_err() {
            tracing::info!(%address, "password reset not sent: this address asked {ASKS_PER_ADDRESS} times within the hour");
            return;
        }
        if self.queue.try_send(Asked { email, address }).is_err() {
            tracing::warn!("password reset not sent: {WAITING} requests already wait for the mail relay");
        }
    }
}

/// The worker's side: makes each link and sends its mail.
pub(crate) struct ResetMailer {
    /// Where people and links are.
    pub(crate) store: Arc<dyn Store>,
    /// The mail relay (`--smtp-url`); without it the links are logged for the operator.
    pub(crate) mailer: Option<Arc<dyn Mailer>>,
    /// Where `user.reset_asked` is recorded.
    pub(crate) audit: Arc<AuditLog>,
    /// The origin the links lead to.
    pub(crate) public_url: String,
}

impl ResetMailer {
    /// Sends a link to the person `asked` names, if there is one and they have fewer than
    /// [`LINKS_PER_EMAIL`] live links.
    async fn handle(&self, asked: Asked) -> Result<(), Error> {
        let Some(user) = self.store.user_by_email(&asked.email).await? else { return Ok(()) };
        let link = OneTimeLink::reset(&user, Utc::now());
        let secret = secret()?;
        if !self.store.add_reset_link(&token_hash(&secret), &link, LINKS_PER_EMAIL).await? {
            tracing::info!(to = %user.email, "password reset not sent: {LINKS_PER_EMAIL} links sent within the hour are unused");
            return Ok(());
        }
        let url = link.url(&self.public_url, &secret);
        if !mail_link(self.mailer.as_deref(), &link, &url, SUBJECT, INTRO).await {
            tracing::info!(to = %user.email, %url, "password reset link (not emailed: logged for the operator)");
        }
        self.audit.record(AuditEntry {
            account: user.account,
            at: Utc::now(),
            actor: user.email.clone(),
            address: asked.address.to_string(),
            action: "user.reset_asked".to_owned(),
            object: String::new(),
            summary: format!("{} asked for a password reset link", user.email),
        });
        Ok(())
    }
}

/// Handles the requests `asked` brings, one after the other, until `stop`.
pub(crate) async fn run(worker: ResetMailer, mut asked: mpsc::Receiver<Asked>, stop: CancellationToken) {
    loop {
        let next = tokio::select! {
            () = stop.cancelled() => return,
            next = asked.recv() => next,
        };
        let Some(next) = next else { return };
        if let Err(error) = worker.handle(next).await {
            tracing::warn!(%error, "a password reset link could not be made");
        }
    }
}

#[cfg(test)]
mod tests {
    use std::net::{IpAddr, Ipv4Addr};

    use super::{ASKS_PER_ADDRESS, ResetRequests};
    use crate::team::names::Email;

    #[test]
    fn an_address_hands_over_twenty_requests_an_hour_and_another_address_its_own() {
        let (requests, mut asked) = ResetRequests::new();
        let (one, two) = (IpAddr::V4(Ipv4Addr::new(192, 0, 2, 1)), IpAddr::V4(Ipv4Addr::new(192, 0, 2, 2)));
        let email = Email::parse("lea@example.com").expect("an email");
        for _ in 0..25 {
            requests.ask(email.clone(), one);
        }
        requests.ask(email, two);
        let mut from = Vec::new();
        while let Ok(request) = asked.try_recv() {
            from.push(request.address);
        }
        assert_eq!(from.iter().filter(|a| **a == one).count(), ASKS_PER_ADDRESS.get() as usize);
        assert_eq!(from.last(), Some(&two));
    }
}
