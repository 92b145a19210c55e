//! Messages to one number, sent at once as alerts (outside the marketing window too), charged
//! and checked as `POST /send` is: the inbox's answers, sent by a person, and what texto sends
//! by itself: the keywords' automatic replies (from the number that was written to) and the
//! codes of sign-up pages.

use texto_core::{Endpoint, Role, wire::SmsRequest};

use crate::{
    Error,
    sending::{
        idempotency::RetryKey,
        service::{self, Answered, Blacklist, Sender},
    },
    state::AppState,
    store::{AutoReplyOutcome, DueAutoReply, approval::Hand},
};

/// The body of a send of `text` to `number`, from `sender` or the default short code.
fn one_message(number: &str, text: &str, sender: Option<&str>) -> String {
    let mut message = serde_json::json!({"text": text, "pushtype": "alert"});
    if let Some(sender) = sender {
        message["sender"] = serde_json::Value::from(sender);
    }
    serde_json::json!({"sms": {"message": message, "recipients": {"gsm": [{"value": number}]}}}).to_string()
}

/// The request in `body` (built by [`one_message`]).
fn request(body: &str) -> Result<SmsRequest<'_>, Error> {
    Ok(texto_core::wire::decode_sms(body, texto_core::wire::Format::Json)?)
}

/// Sends `text` to `number` for `from`, as `POST /send` would (the inbox's answers).
pub(crate) async fn send_one(
    state: &AppState,
    from: Sender,
    number: &str,
    text: &str,
    sender: Option<&str>,
) -> Result<Answered, Error> {
    let body = one_message(number, text, sender);
    let from = Sender { replying: true, ..from };
    service::answer(state, from, (&RetryKey::NONE, &body), request(&body)?, Endpoint::Send, Blacklist::Applies).await
}

/// Sends `text` to `number` for `from`, once: `key` makes a second try (after a crash) a
/// replay of the first send (a sign-up page's code).
pub(crate) async fn send_once(
    state: &AppState,
    from: Sender,
    key: String,
    number: &str,
    text: &str,
) -> Result<Answered, Error> {
    let body = one_message(number, text, None);
    let retry = RetryKey::internal(key);
    service::answer(state, from, (&retry, &body), request(&body)?, Endpoint::Send, Blacklist::Applies).await
}

/// Sends an automatic reply, once: its id is the send's idempotency key, so a worker that
/// stopped between the send and recording it replays the first send. What became of it: its
/// campaign, or why it was not sent (nothing to send to once the filter ran — blacklisted, NPAI,
/// too many messages this hour — or a refusal such as too few credits).
pub(crate) async fn send_automatic_reply(state: &AppState, due: &DueAutoReply) -> Result<AutoReplyOutcome, Error> {
    let from = Sender {
        account: due.account,
        role: Role::Sender,
        actor: "texto (keyword)".to_owned(),
        hand: Hand::of(None, None),
        replying: true,
        approved: false,
    };
    let body = one_message(&due.number.to_string(), &due.text, Some(due.sender.as_str()).filter(|s| !s.is_empty()));
    let retry = RetryKey::internal(format!("texto-auto-reply-{}", due.id));
    let blacklist = if due.to_blacklisted { Blacklist::Waived } else { Blacklist::Applies };
    let answered = match service::answer(state, from, (&retry, &body), request(&body)?, Endpoint::Send, blacklist).await
    {
        Ok(answered) => answered,
        Err(refusal @ (Error::Invalid(_) | Error::NotEnoughCredits { .. } | Error::Request(_))) => {
            return Ok(AutoReplyOutcome::Refused(refusal.to_string()));
        }
        Err(fault) => return Err(fault),
    };
    let ticket = answered.result.ticket.as_deref().and_then(|ticket| ticket.parse().ok());
    Ok(match ticket {
        Some(ticket) if answered.result.sent > 0 => AutoReplyOutcome::Sent(ticket),
        _ => AutoReplyOutcome::Refused("filtered out: blacklisted, NPAI or too many messages".to_owned()),
    })
}
