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
    ContactInfo, Endpoint, test_request,
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
    store::{AccountId, Page},
};

pub(crate) fn router() -> Router<AppState> {
    Router::new().route("/campaign/{ticket}/test", post(test))
}

/// The fields of the first contact of the campaign's first list, the sample a test shows;
/// `None` for a send to numbers (or to lists without contacts).
async fn sample_contact(
    state: &AppState,
    account: AccountId,
    campaign: &SmsRequest<'_>,
) -> Result<Option<[String; 4]>, Error> {
    let Some(first) = campaign.lists.as_ref().and_then(|lists| lists.first()) else { return Ok(None) };
    let Some(list) = path_id(&first.value) else { return Ok(None) };
    // One contact's page of the list, not the whole list.
    let page = state.store.list(account, list, None, Page { start: 0, length: 1 }).await?;
    Ok(page.and_then(|page| page.contacts.into_iter().next()).map(|contact| contact.info))
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
    // Its message and lists; not the numbers it went to, which a test does not send to.
    let stored = campaign_body(&state, caller.account, id, false).await?.ok_or_else(not_found)?;
    let campaign: SmsRequest<'_> =
        serde_json::from_str(&stored).map_err(|_| Error::Unavailable("a stored draft is damaged"))?;
    let sample = sample_contact(&state, caller.account, &campaign).await?;
    let info: Option<ContactInfo> = sample.as_ref().map(|info| [&*info[0], &*info[1], &*info[2], &*info[3]]);
    let request = test_request(&campaign, numbers, &state.message, info.as_ref()).map_err(Error::Invalid)?;
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
