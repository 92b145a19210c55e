//! The send flow, as a service: the API's sends and simulations, the inbox's one-recipient
//! messages and the keywords' automatic replies all call [`answer`], and nothing here knows
//! HTTP.

use std::hash::Hasher;

use chrono::Utc;
use texto_core::{
    Audience, Campaign, Credits, Endpoint, FieldError, FilterContext, PriceTable, PushType, Role, parse_international,
    registered_sender, simulate, validate_send,
    wire::{CampaignResultDto, SmsRequest},
};

use crate::{
    Error,
    operator::moderation::mark_held,
    sending::idempotency::{RetryKey, replayed},
    sending::merge_fields::{recipient_cards, stored_values},
    state::AppState,
    store::{
        AccountId, CampaignStatus, Created, NewCampaign, approval,
        approval::Hand,
        moderation::{self, Hold},
    },
};

/// Who sends: the account, what the sender may do, who they are in the audit log, and the hand
/// of the team that sends (whom four eyes tell apart).
#[derive(Debug, Clone)]
pub(crate) struct Sender {
    /// The account that sends and pays.
    pub(crate) account: AccountId,
    /// What the sender may do: a role that may not send has its campaigns approved first.
    pub(crate) role: Role,
    /// Who sends, as the audit log names them.
    pub(crate) actor: String,
    /// The person or token behind the send.
    pub(crate) hand: Hand,
    /// An answer to a number's message, from the number it wrote to (the inbox's answers and
    /// automatic replies): the account's registered senders do not apply.
    pub(crate) replying: bool,
    /// The team approved these sends beforehand: a live journey's, approved when someone who
    /// may approve put it live. The team's approval rule does not hold them again.
    pub(crate) approved: bool,
}

/// What a send or simulation answers, and the audit log's note of what it did.
pub(crate) struct Answered {
    /// The answer.
    pub(crate) result: CampaignResultDto,
    /// The object and summary of a campaign written.
    pub(crate) note: Option<(String, String)>,
}

/// Whether the recipients' blacklist applies to a send.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Blacklist {
    /// It does: every send but one.
    Applies,
    /// It does not: the confirmation of a STOP, sent to the number that has just been
    /// blacklisted.
    Waived,
}

/// The one send flow: validate → the account's context (lists, segments, consent, the filter's
/// inputs, its price plan) → simulate → for a real send, hold it for moderation or the team's
/// approval, and write the campaign, its messages and the debit in one transaction. A retry with
/// the idempotency key of a first try gets the first answer. `retry`: the request's key and its
/// body, which with its target tells a retry from another request.
pub(crate) async fn answer(
    state: &AppState,
    sender: Sender,
    retry: (&RetryKey, &str),
    request: SmsRequest<'_>,
    endpoint: Endpoint,
    blacklist: Blacklist,
) -> Result<Answered, Error> {
    let (retry, body) = retry;
    // The request's hash, once. A retry is told in the write, which replays the first answer;
    // a retry refused before it (its first try spent the balance) is told here.
    let fingerprint = retry.fingerprint(body);
    let account = sender.account;
    match attempt(state, sender, (retry, fingerprint.clone()), request, endpoint, blacklist).await {
        Err(refusal) => match retry.first_answer(state, account, fingerprint.as_deref()).await {
            Ok(Some(first)) => Ok(Answered { result: first, note: None }),
            Err(reused @ Error::IdempotencyKeyReused) => Err(reused),
            Ok(None) | Err(_) => Err(refusal),
        },
        answered => answered,
    }
}

/// `campaign` as the account's registered senders let it go ([`registered_sender`]).
async fn with_registered_sender<'a>(
    state: &AppState,
    account: AccountId,
    campaign: Campaign<'a>,
) -> Result<Campaign<'a>, Error> {
    let senders = state.store.senders(account).await?;
    if senders.is_empty() {
        return Ok(campaign);
    }
    let default = senders.iter().find(|s| s.default).map(|s| s.name.as_str());
    let registered: Vec<String> = senders.iter().map(|s| s.name.clone()).collect();
    match registered_sender(campaign.sender(), &registered, default).map_err(|e| Error::Invalid(vec![e]))? {
        Some(name) => {
            let sender =
                texto_core::Sender::parse(&name).map_err(|_| Error::Unavailable("a registered sender is damaged"))?;
            Ok(campaign.with_sender(sender))
        }
        None => Ok(campaign),
    }
}

/// An unlimited sub-account short of `cost` draws what it lacks from its parent (a transfer in
/// both ledgers, before its campaign is written); any other account is refused.
async fn draw_on_payer(state: &AppState, account: AccountId, cost: Credits, balance: Credits) -> Result<(), Error> {
    let Some(payer) = state.store.family(account).await?.payer() else {
        return Err(Error::NotEnoughCredits { cost, balance });
    };
    let lacking = Credits::from_hundredths(cost.hundredths() - balance.hundredths());
    match state.store.transfer(payer, account, lacking).await {
        Ok(_) => Ok(()),
        Err(Error::NotEnoughCredits { balance: available, .. }) => {
            Err(Error::NotEnoughCredits { cost, balance: balance + available })
        }
        Err(error) => Err(error),
    }
}

/// [`answer`] once its request's fingerprint is known.
async fn attempt(
    state: &AppState,
    sender: Sender,
    (retry, fingerprint): (&RetryKey, Option<String>),
    request: SmsRequest<'_>,
    endpoint: Endpoint,
    blacklist: Blacklist,
) -> Result<Answered, Error> {
    let recipients = request.recipients.as_ref().map_or(0, |r| r.gsm.len());
    if recipients > state.config.max_recipients {
        return Err(Error::Invalid(vec![FieldError::new(
            "sms.recipients.gsm",
            format!("{recipients} recipients: at most {} per request", state.config.max_recipients),
        )]));
    }
    let now = Utc::now();
    let campaign = validate_send(request, endpoint, &state.message, now)?;
    // A sent A/B test's sample is drawn from a random seed of its own, kept with the campaign.
    // A simulation draws from the fixed seed Compose uses in the page, so that the two agree.
    let sent = matches!(endpoint, Endpoint::Send | Endpoint::SendLists);
    let campaign = match campaign.ab() {
        Some(_) if sent => {
            campaign.with_ab_seed(getrandom::u64().map_err(|_| Error::Unavailable("no randomness for a sample"))?)
        }
        _ => campaign,
    };
    let text_hash = text_hash(campaign.text());
    // The cards merge fields read are read beside the lists (another read connection, another
    // core): a million of each take about as long.
    let audience = async {
        Ok::<_, Error>(match campaign.audience() {
            Audience::Lists { lists, segments } => (
                state.store.list_contacts(sender.account, lists).await?,
                match segments.is_empty() {
                    true => Default::default(),
                    false => state.store.segment_contacts(sender.account, segments).await?,
                },
            ),
            Audience::Numbers(_) => Default::default(),
        })
    };
    let ((lists, segments), cards) = tokio::try_join!(audience, recipient_cards(state, sender.account, &campaign))?;
    // Once the account has registered senders, only they go; none named, its default.
    let campaign = match sender.replying {
        true => campaign,
        false => with_registered_sender(state, sender.account, campaign).await?,
    };
    // A template deleted since (or another account's) is not recorded; the send goes on.
    let template = match campaign.template() {
        Some(id) => state.store.template(sender.account, id).await?.map(|_| id),
        None => None,
    };
    let numbers = numbers(&campaign, &lists, &segments);
    // The account's settings, read when they matter: consent for marketing, UTM for links.
    let marketing = campaign.pushtype() == PushType::Marketing;
    let settings = match marketing || !campaign.links().is_empty() {
        true => Some(state.store.settings(sender.account).await?),
        false => None,
    };
    let consented = match settings.as_ref().is_some_and(|s| marketing && s.marketing_needs_consent) {
        true => Some(state.store.consented(sender.account).await?),
        false => None,
    };
    let capped = match settings.as_ref().and_then(|s| s.marketing_cap).filter(|_| marketing) {
        Some(cap) => {
            let since = now - chrono::Duration::days(i64::from(cap.days()));
            Some(state.store.capped(sender.account, since, i64::from(cap.messages())).await?)
        }
        None => None,
    };
    let utm = match campaign.links().is_empty() {
        true => None,
        false => campaign.utm().clone().resolve(settings.and_then(|s| s.utm)),
    };
    let inputs = state.store.filter_inputs(sender.account, &numbers, text_hash, now).await?;
    let context = FilterContext {
        blacklist: if blacklist == Blacklist::Applies { inputs.blacklist } else { Default::default() },
        npai: inputs.npai,
        allowed_countries: inputs.allowed_countries,
        recent: inputs.recent,
        monthly_usage: inputs.monthly_usage,
        monthly_caps: inputs.monthly_caps,
        balance: inputs.balance,
        flood: inputs.flood,
        prices: PriceTable::clone(&state.plans.for_account(sender.account).1),
        message: state.message.clone(),
        lists,
        segments,
        consented,
        capped,
        cards,
    };
    let simulation = simulate(&campaign, &context, now)?;
    if matches!(endpoint, Endpoint::Simulate | Endpoint::SimulateLists) {
        return Ok(Answered { result: simulation.to_wire(None), note: None });
    }
    if !simulation.affordable() {
        // The filter's balance may come from the node's copy of the account, which a write
        // ending just after a top-up can leave below the stored one: refused on the stored
        // balance only (the store checks it again as it writes).
        let balance = state.store.balance(sender.account).await?;
        if simulation.cost > balance {
            draw_on_payer(state, sender.account, simulation.cost, balance).await?;
        }
    }
    let gsmsmsids = match campaign.audience() {
        Audience::Numbers(recipients) => recipients.iter().map(|r| r.gsmsmsid).collect(),
        Audience::Lists { .. } => Vec::new(),
    };
    let infos = stored_values(&campaign, &context);
    // A role that may not send (an author) sends for approval, and so does anyone sending to
    // more recipients than the team's rule allows (read only for campaigns to several, so a
    // one-recipient send pays nothing for it): the campaign is written waiting, with its
    // credits held, and goes once approved.
    // Moderation and approval are two gates: a held campaign waits for an operator first, and
    // once released, if it needs the team's approval, for the team.
    let recipients = simulation.counters.sent;
    // Every text an A/B test may send is moderated, not only the first.
    let held = campaign.texts().find_map(|text| state.moderation.hold_reason(sender.account, text, campaign.links()));
    let awaits = !sender.role.may(texto_core::Action::Send)
        || (recipients > 1
            && !sender.approved
            && state.store.team_rules(sender.account).await?.needs_approval(recipients));
    let waits_until = match (&held, awaits) {
        (Some(_), _) => Some(moderation::held()),
        (None, true) => Some(approval::awaiting()),
        (None, false) => None,
    };
    let written = waits_until.map(|send_at| texto_core::Simulation { send_at, ..simulation.clone() });
    let status = if written.as_ref().unwrap_or(&simulation).send_at > now {
        CampaignStatus::Scheduled
    } else {
        CampaignStatus::Sending
    };
    let idempotency = fingerprint.and_then(|fingerprint| retry.to_store(fingerprint));
    let new = NewCampaign {
        campaign: &campaign,
        simulation: written.as_ref().unwrap_or(&simulation),
        gsmsmsids,
        infos,
        text_hash,
        status,
        now,
        idempotency,
        utm,
        template,
    };
    let (ticket, balance) = match state.store.create_campaign(sender.account, new).await? {
        Created::New { ticket, balance } => (ticket, balance),
        // A retry that raced its first try past the check above.
        Created::Replayed(first) => return Ok(Answered { result: replayed(state, &first).await?, note: None }),
    };
    let mut result = simulation.to_wire(Some(ticket.to_string()));
    result.credits = balance.as_f64();
    let sent = simulation.counters.sent;
    metrics::counter!("texto_messages_accepted_total").increment(sent);
    metrics::counter!("texto_sends_total", "account" => sender.account.to_string()).increment(1);
    tracing::info!(ticket, sent, cost = %simulation.cost, awaits, held = held.is_some(), "campaign created");
    if let Some(reason) = held {
        let hold = Hold {
            reason,
            actor: sender.actor.clone(),
            hand: sender.hand,
            requested: simulation.send_at,
            awaits_team: awaits,
        };
        state.store.mark_held(sender.account, ticket, &hold).await?;
        mark_held(&mut result);
        let then = if awaits { ", then the team's approval" } else { "" };
        let summary = format!("campaign {ticket} to {sent} recipients held for moderation: {}{then}", hold.reason);
        return Ok(Answered { result, note: Some((format!("campaign {ticket}"), summary)) });
    }
    if awaits {
        state.store.mark_awaiting(sender.account, ticket, simulation.send_at, &sender.actor, sender.hand).await?;
        let summary = format!("campaign {ticket} to {sent} recipients awaits approval");
        return Ok(Answered { result, note: Some((format!("campaign {ticket}"), summary)) });
    }
    state.dispatch.notify_one();
    let summary = format!("campaign {ticket} sent to {sent} recipients");
    Ok(Answered { result, note: Some((format!("campaign {ticket}"), summary)) })
}

/// Contacts by the id of their list or segment.
type ContactsById = std::collections::HashMap<String, Vec<texto_core::Contact>>;

/// The valid numbers a campaign names, for the store's look-ups.
fn numbers(campaign: &Campaign, lists: &ContactsById, segments: &ContactsById) -> Vec<u64> {
    let parse = |n: &str| parse_international(n).ok().map(|m| m.as_u64());
    match campaign.audience() {
        Audience::Numbers(recipients) => recipients.iter().filter_map(|r| parse(r.number)).collect(),
        Audience::Lists { .. } => {
            lists.values().chain(segments.values()).flatten().filter_map(|c| parse(&c.number)).collect()
        }
    }
}

/// A stable hash of the text, for anti-flood's "identical texts".
fn text_hash(text: &str) -> i64 {
    let mut hasher = rustc_hash::FxHasher::default();
    hasher.write(text.as_bytes());
    hasher.finish() as i64
}
