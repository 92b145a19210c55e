//! One conversation: what was sent to the number and what it answered, oldest first, with
//! delivery statuses; an answer box; opening it marks its replies read.

use leptos::{prelude::*, task::spawn_local};
use leptos_router::hooks::use_params_map;
use texto_core::wire::{
    CampaignResultDto, ConversationReplyDto, ConversationReplyRequest, ConversationResponse, StatusResponse,
};

use crate::{
    api::{ApiError, use_api},
    components::errors::ErrorAlert,
    format,
    i18n::{use_lang, use_texts},
    session::use_session,
};

/// The conversation page (`/app/inbox/:number`).
#[component]
pub fn Conversation() -> impl IntoView {
    let (t, lang, api, session) = (use_texts(), use_lang(), use_api(), use_session());
    let params = use_params_map();
    let number = move || params.with(|p| p.get("number").unwrap_or_default());
    let version = RwSignal::new(0u32);
    let timeline = LocalResource::new(move || {
        version.track();
        let path = format!("/conversation/{}", number());
        async move { api.get::<ConversationResponse>(&path).await }
    });
    // Opening it reads it (the navigation's count follows).
    Effect::new(move |_| {
        let path = format!("/conversation/{}/read", number());
        spawn_local(async move {
            if api.put_empty::<StatusResponse>(&path).await.is_ok() {
                api.refresh_unread().await;
            }
        });
    });
    let text = RwSignal::new(String::new());
    let error = RwSignal::new(None::<ApiError>);
    let answer = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let request = ConversationReplyRequest { reply: ConversationReplyDto { text: Some(text.get_untracked()) } };
        let path = format!("/conversation/{}/reply", number());
        spawn_local(async move {
            match api.post::<_, CampaignResultDto>(&path, &request).await {
                Ok(result) => {
                    error.set(None);
                    text.set(String::new());
                    api.set_credits(result.credits);
                    version.update(|v| *v += 1);
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let load_error = Signal::derive(move || timeline.get().and_then(Result::err));
    let entries = move || {
        timeline.get().and_then(Result::ok).map(|answer| {
            answer
                .timeline
                .into_iter()
                .map(|entry| {
                    let sent = entry.direction == "sent";
                    let who = if sent { t().you_sent } else { t().they_wrote };
                    let status = sent.then(|| view! { <span class="hint">" · "{entry.status_details.clone()}</span> });
                    view! {
                        <li class=if sent { "bubble sent" } else { "bubble received" }>
                            <p class="meta"><span>{who}</span>" · "{format::wire_date(lang.get(), &entry.date)}{status}</p>
                            <p class="bubble-text">{entry.message}</p>
                        </li>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <h1>{move || format!("{} {}", t().conversation_with, number())}</h1>
        <ErrorAlert error=load_error />
        <ol class="timeline" data-testid="timeline"><Suspense fallback=move || view! { <li>{t().loading}</li> }>{entries}</Suspense></ol>
        <Show when=move || session.may(texto_core::Action::Send)>
            <form class="card" on:submit=answer>
                <label for="answer-text">{move || t().answer}</label>
                <textarea id="answer-text" rows="3" required prop:value=move || text.get()
                    on:input=move |ev| text.set(event_target_value(&ev))></textarea>
                <p class="hint">{move || t().answer_hint}</p>
                <ErrorAlert error=error />
                <button type="submit" class="primary">{move || t().send_answer}</button>
            </form>
        </Show>
    }
}
