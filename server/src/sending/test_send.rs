//! `POST /campaign/:id/test` (`{"numbers": ["336…"]}`, 1 to 10): a campaign's or a draft's
//! message as its first contact gets it, sent to the team's own phones as an alert of its own
//! (charged as one, in the history apart from the campaign, which it leaves untouched).

use axum::{
    Router,
    extract::{Path, State},
    response::Response,
    routing::post,
};
use texto_core::{
    Endpoint, MergeValues, card_fields, parse_international, test_request,
    wire::{SmsRequest, TestSendRequest},
};

use crate::{
    Error,
    http::{Accept, access::noted, auth::Caller, body::WireBody, inputs::path_id},
    sending::{
        drafts::campaign_body,
        idempotency::RetryKey,
        send::respond,
        service::{self, Blacklist},
    },
    state::AppState,
    store::{AccountId, Page, merge_cards::card_values_of},
};

pub(crate) fn router() -> Router<AppState> {
    Router::new().route("/campaign/{ticket}/test", post(test))
}

/// The values of the sample contact a test shows: the first contact of the campaign's first
/// list (its four fields) or its first number, then what its card holds of the card fields the
/// text names. `None` when there is no such contact.
async fn sample_values(
    state: &AppState,
    account: AccountId,
    campaign: &SmsRequest<'_>,
) -> Result<Option<Vec<String>>, Error> {
    let first_list = campaign.lists.as_ref().and_then(|lists| lists.first()).and_then(|l| path_id(&l.value));
    let (number, info) = match first_list {
        Some(list) => {
            // One contact's page of the list, not the whole list.
            let page = state.store.list(account, list, None, Page { start: 0, length: 1 }).await?;
            match page.and_then(|page| page.contacts.into_iter().next()) {
                Some(contact) => (Some(contact.number), contact.info),
                None => return Ok(None),
            }
        }
        None => {
            let first = campaign.recipients.as_ref().and_then(|r| r.gsm.first());
            (first.and_then(|gsm| parse_international(&gsm.value).ok()).map(|n| n.as_u64()), Default::default())
        }
    };
    let fields = card_fields(campaign.message.text.as_deref().unwrap_or_default());
    let card = match number.and_then(|n| i64::try_from(n).ok()) {
        Some(number) if !fields.is_empty() => state.store.contact(account, number).await?,
        _ => None,
    };
    let card =
        card.map_or_else(Vec::new, |card| card_values_of(&fields, &card.firstname, &card.lastname, &card.fields));
    Ok(Some(info.into_iter().chain(card).collect()))
}

/// The caller's own mobile number (their profile's), for a test that names none.
async fn own_number(state: &AppState, caller: &Caller) -> Result<String, Error> {
    let user = match caller.user() {
        Some(id) => state.store.user(caller.own_account(), id).await?,
        None => None,
    };
    user.and_then(|user| user.phone).map(|phone| phone.to_string()).ok_or_else(|| {
        Error::Invalid(vec![texto_core::FieldError::new(
            "numbers",
            "1 to 10 numbers, or add your mobile number to your profile (PUT /me) to test on it",
        )])
    })
}

#[utoipa::path(post, path = "/campaign/{ticket}/test", tag = "drafts", request_body = texto_core::wire::TestSendRequest,
    params(("ticket" = String, Path, description = "The campaign's ticket or the draft's id")),
    responses((status = 200, description = "The test's own campaign result, with its ticket", body = texto_core::wire::CampaignResultDto), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn test(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(ticket): Path<String>,
    retry: RetryKey,
    body: WireBody,
) -> Result<Response, Error> {
    let not_found = || Error::NotFound(format!("campaign {ticket}"));
    let id = path_id(&ticket).ok_or_else(not_found)?;
    let TestSendRequest { numbers } = body.decode()?;
    let numbers = match numbers.is_empty() {
        true => vec![own_number(&state, &caller).await?],
        false => numbers,
    };
    // Its message and lists; not the numbers it went to, which a test does not send to.
    let stored = campaign_body(&state, caller.account, id, false).await?.ok_or_else(not_found)?;
    let campaign: SmsRequest<'_> =
        serde_json::from_str(&stored).map_err(|_| Error::Unavailable("a stored draft is damaged"))?;
    let sample = sample_values(&state, caller.account, &campaign).await?;
    let values = sample.as_deref().map(MergeValues::stored);
    let request = test_request(&campaign, numbers, &state.message, values.as_ref()).map_err(Error::Invalid)?;
    // A retry with the request's Idempotency-Key answers the first test instead of sending again.
    let answered =
        service::answer(&state, caller.sender(), (&retry, &body.text), request, Endpoint::Send, Blacklist::Applies)
            .await?;
    let summary = match (&answered.result.ticket, answered.note) {
        (_, Some((_, summary))) => format!("campaign {id} tested: {summary}"),
        (Some(test), None) => format!("campaign {id} tested as campaign {test}"),
        (None, None) => format!("campaign {id} tested"),
    };
    Ok(noted(respond(accept, &answered.result), format!("campaign {id}"), summary))
}
