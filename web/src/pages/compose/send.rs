//! "Send": a confirmation that restates what will happen, then the ticket.

use leptos::{prelude::*, task::spawn_local};
use leptos_router::{NavigateOptions, components::A, hooks::use_navigate};
use texto_core::wire::CampaignResultDto;

use super::simulation::Figures;
use crate::{
    api::{ApiError, use_api},
    clock,
    components::errors::ErrorAlert,
    draft::Draft,
    drafts, format,
    i18n::{use_lang, use_texts},
};

/// The send button, its confirmation dialog and the outcome.
#[component]
pub fn SendBox(draft: RwSignal<Draft>, figures: Memo<Figures>, refused: RwSignal<Option<ApiError>>) -> impl IntoView {
    let t = use_texts();
    let lang = use_lang();
    let api = use_api();
    let confirming = RwSignal::new(false);
    let busy = RwSignal::new(false);
    let error = refused;
    let accepted = RwSignal::new(None::<CampaignResultDto>);
    let blocked = move || {
        figures.with(|f| match &f.result {
            Ok(r) if r.sent > 0 && r.credits < 0.0 => Some(t().not_enough_credits),
            Ok(r) if r.sent > 0 => None,
            _ => Some(t().nothing_to_send),
        })
    };
    // Kept where the (copied) handler can take it: the router is not reachable from a task.
    let navigate = StoredValue::new_local(use_navigate());
    let confirm = move |_| {
        let (request, saved_as) = draft.with_untracked(|d| (d.request(), d.saved_as.clone()));
        let path = if draft.with_untracked(|d| d.to_lists) { "/send/lists" } else { "/send" };
        busy.set(true);
        error.set(None);
        let navigate = navigate.get_value();
        spawn_local(async move {
            // A draft kept on the server is saved as it stands, then sent (and gone).
            let answer = match &saved_as {
                None => api.post::<_, CampaignResultDto>(path, &request).await,
                Some(id) => match drafts::save(api, Some(id), &request).await {
                    Ok(saved) => drafts::send(api, &saved).await,
                    Err(e) => Err(e),
                },
            };
            busy.set(false);
            confirming.set(false);
            match answer {
                Ok(result) => {
                    api.set_credits(result.credits);
                    draft.set(Draft::default());
                    if saved_as.is_some() {
                        navigate("/app/compose", NavigateOptions { replace: true, ..NavigateOptions::default() });
                    }
                    accepted.set(Some(result));
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    // The dialog opens with the focus on "Confirm" (Escape or "Cancel" closes it).
    let confirm_button = NodeRef::<leptos::html::Button>::new();
    Effect::new(move |_| {
        if let Some(button) = confirm_button.get() {
            let _ = button.focus();
        }
    });
    let summary = move || {
        let lang = lang.get();
        let (result, parts, send_at) = figures.with(|f| (f.result.clone().ok(), f.parts, f.send_at));
        let result = result?;
        let sms = if parts.0 == parts.1 { parts.0.to_string() } else { format!("{}–{}", parts.0, parts.1) };
        let now = clock::now();
        let when = match send_at {
            Some(at) if at > now + chrono::Duration::minutes(1) => format::goes_at(lang, now, at),
            _ => t().send_now.to_owned(),
        };
        let rows = vec![
            (t().recipients, format::integer(lang, result.sent)),
            (t().parts, sms),
            (t().cost, format::credits(lang, result.cost)),
            (t().credits_after, format::credits(lang, result.credits)),
            (t().goes_at, when),
        ];
        Some(
            view! { <dl class="figures">{rows.into_iter().map(|(l, v)| view! { <div><dt>{l}</dt><dd>{v}</dd></div> }).collect_view()}</dl> },
        )
    };

    view! {
        <section class="send">
            // "Nothing to send" is already said by the simulation above the button.
            {move || blocked().filter(|why| *why != t().nothing_to_send).map(|why| view! { <p class="hint">{why}</p> })}
            <button type="button" class="primary big" disabled=move || blocked().is_some() || busy.get()
                on:click=move |_| { accepted.set(None); confirming.set(true) }>{move || t().send}</button>
            <ErrorAlert error=error />
            {move || accepted.get().map(|result| {
                let ticket = result.ticket.unwrap_or_default();
                view! {
                    <div class="alert ok" role="status" data-testid="accepted">
                        <p>{move || t().accepted}" "{move || t().ticket}" "<strong>{ticket.clone()}</strong></p>
                        <A href=format!("/app/campaigns/{ticket}")>{move || t().see_campaign}</A>
                    </div>
                }
            })}
            <Show when=move || confirming.get()>
                <div class="dialog-backdrop">
                    <div class="dialog" role="dialog" aria-modal="true" aria-labelledby="confirm-title"
                        on:keydown=move |ev| if ev.key() == "Escape" { confirming.set(false) }>
                        <h2 id="confirm-title">{move || t().confirm_title}</h2>
                        {summary}
                        <div class="buttons">
                            <button type="button" class="primary" node_ref=confirm_button disabled=move || busy.get() on:click=confirm>
                                {move || if busy.get() { t().sending } else { t().confirm }}
                            </button>
                            <button type="button" on:click=move |_| confirming.set(false)>{move || t().cancel}</button>
                        </div>
                    </div>
                </div>
            </Show>
        </section>
    }
}
