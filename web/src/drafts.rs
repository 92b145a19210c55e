//! Drafts kept on the server, seen by the whole team: open one into Compose, save Compose's,
//! make one to send to a list, a segment or again (a clone), and list them.

use gloo_net::http::Method;
use texto_core::wire::{CampaignResultDto, DraftResponse, DraftsResponse, SmsRequest, TestSendRequest};

use crate::{
    api::{Api, ApiError, read_borrowed},
    draft::Draft,
};

/// A draft as the campaigns page lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DraftSummary {
    /// Its id.
    pub id: String,
    /// Its text, as written.
    pub text: String,
    /// Who last changed it.
    pub updated_by: String,
    /// When, Paris time.
    pub updated_at: String,
}

/// Opens the draft `id` (`GET /campaign/:id`).
pub async fn open(api: Api, id: &str) -> Result<Draft, ApiError> {
    let text = api.text_of::<SmsRequest>(Method::GET, &format!("/campaign/{id}"), None).await?;
    let answer: DraftResponse = read_borrowed(&text)?;
    Ok(Draft::from_request(&answer.draft.sms, answer.draft.id))
}

/// A draft as just saved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Saved {
    /// Its id.
    pub id: String,
    /// Its revision now, which a send names so that a teammate's change since stops it.
    pub revision: i64,
}

/// Keeps `request` as a new draft (`None`) or as the draft `id`.
pub async fn save(api: Api, id: Option<&str>, request: &SmsRequest<'_>) -> Result<Saved, ApiError> {
    let text = match id {
        None => api.text_of(Method::POST, "/campaign/draft", Some(request)).await?,
        Some(id) => api.text_of(Method::PUT, &format!("/campaign/{id}"), Some(request)).await?,
    };
    let draft = read_borrowed::<DraftResponse>(&text)?.draft;
    Ok(Saved { id: draft.id, revision: draft.revision })
}

/// A new draft of the campaign or draft `id` (`POST /campaign/:id/clone`); answers its id.
pub async fn clone(api: Api, id: &str) -> Result<String, ApiError> {
    let text = api.text_of::<SmsRequest>(Method::POST, &format!("/campaign/{id}/clone"), None).await?;
    Ok(read_borrowed::<DraftResponse>(&text)?.draft.id)
}

/// Sends the draft as saved (`POST /campaign/:id/send?revision=N`): not if it changed since.
pub async fn send(api: Api, saved: &Saved) -> Result<CampaignResultDto, ApiError> {
    api.post_empty(&format!("/campaign/{}/send?revision={}", saved.id, saved.revision)).await
}

/// Sends the draft `id`'s message to `numbers` as a test (`POST /campaign/:id/test`).
pub async fn test(api: Api, id: &str, numbers: Vec<String>) -> Result<CampaignResultDto, ApiError> {
    api.post(&format!("/campaign/{id}/test"), &TestSendRequest { numbers }).await
}

/// The account's drafts, the last changed first.
pub async fn list(api: Api) -> Result<Vec<DraftSummary>, ApiError> {
    let text = api.text_of::<SmsRequest>(Method::GET, "/drafts", None).await?;
    let answer: DraftsResponse = read_borrowed(&text)?;
    Ok(answer
        .drafts
        .into_iter()
        .map(|draft| DraftSummary {
            id: draft.id,
            text: draft.sms.message.text.unwrap_or_default(),
            updated_by: draft.updated_by.or(draft.author).unwrap_or_default(),
            updated_at: draft.updated_at,
        })
        .collect())
}

/// Discards the draft `id`.
pub async fn discard(api: Api, id: &str) -> Result<(), ApiError> {
    api.delete::<texto_core::wire::StatusResponse>(&format!("/campaign/{id}")).await.map(|_| ())
}
