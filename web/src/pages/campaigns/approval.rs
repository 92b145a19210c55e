//! "Approve" and "Reject" (with its required reason) on a campaign awaiting approval, for the
//! roles that may approve.

use leptos::{prelude::*, task::spawn_local};
use texto_core::wire::{CampaignDetailDto, CampaignDetailResponse, RejectRequest, StatusResponse};

use crate::{
    api::{ApiError, use_api},
    components::errors::ErrorAlert,
    i18n::use_texts,
};

/// Whether the server shows `campaign` as awaiting approval.
pub fn is_awaiting(campaign: &CampaignDetailDto) -> bool {
    campaign.status.as_deref().is_some_and(|s| s.eq_ignore_ascii_case("awaiting approval"))
}

/// The two buttons; the campaign is read again once either answered.
#[component]
pub fn Approval(id: String, campaign: RwSignal<Option<CampaignDetailDto>>) -> impl IntoView {
    let t = use_texts();
    let api = use_api();
    let error = RwSignal::new(None::<ApiError>);
    let reason = RwSignal::new(String::new());
    let decide = move |id: String, verb: &'static str, body: Option<RejectRequest>| {
        let path = format!("/campaign/{id}/{verb}");
        spawn_local(async move {
            let answer = match body {
                Some(body) => api.post::<_, StatusResponse>(&path, &body).await,
                None => api.post_empty::<StatusResponse>(&path).await,
            };
            match answer {
                Ok(_) => {
                    api.refresh_credits().await;
                    if let Ok(answer) = api.get::<CampaignDetailResponse>(&format!("/campaign/{id}")).await {
                        campaign.set(answer.campaign.into_iter().next());
                    }
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let approve_id = id.clone();
    let reject = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        decide(id.clone(), "reject", Some(RejectRequest { reason: Some(reason.get_untracked()) }));
    };
    view! {
        <section class="card" aria-labelledby="approval-title">
            <h2 id="approval-title">{t().awaiting_approval}</h2>
            <button type="button" class="primary" on:click=move |_| decide(approve_id.clone(), "approve", None)>{t().approve}</button>
            <form on:submit=reject>
                <label for="reject-reason">{t().reject_reason}</label>
                <input id="reject-reason" type="text" required prop:value=move || reason.get()
                    on:input=move |ev| reason.set(event_target_value(&ev)) />
                <button type="submit" class="danger">{t().reject}</button>
            </form>
            <ErrorAlert error=error />
        </section>
    }
}
