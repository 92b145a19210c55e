//! Compose's draft on the server: "Save the draft" (the whole team sees it on the campaigns
//! page) and "Send a test" to one's own phones, which saves it first.

use leptos::{prelude::*, task::spawn_local};
use leptos_router::{NavigateOptions, hooks::use_navigate};

/// The router's navigation, taken when the component is set up (not inside a task).
type Navigate = std::rc::Rc<dyn Fn(&str, NavigateOptions)>;

use crate::{
    api::{ApiError, use_api},
    components::errors::ErrorAlert,
    draft::{Draft, split_numbers},
    drafts,
    i18n::use_texts,
};

/// Saves `draft` on the server (a new draft the first time) and puts its id in the address,
/// so that a reload opens it again; answers its id.
async fn keep(api: crate::api::Api, draft: RwSignal<Draft>, navigate: Navigate) -> Result<String, ApiError> {
    let (saved_as, request) = draft.with_untracked(|d| (d.saved_as.clone(), d.request()));
    let id = drafts::save(api, saved_as.as_deref(), &request).await?.id;
    if saved_as.is_none() {
        draft.update(|d| d.saved_as = Some(id.clone()));
        navigate(&format!("/app/compose?draft={id}"), NavigateOptions { replace: true, ..NavigateOptions::default() });
    }
    Ok(id)
}

/// "Save the draft" and "Send a test".
#[component]
pub fn DraftBox(draft: RwSignal<Draft>) -> impl IntoView {
    let t = use_texts();
    let api = use_api();
    let error = RwSignal::new(None::<ApiError>);
    let notice = RwSignal::new(None::<String>);
    let busy = RwSignal::new(false);
    let test_numbers = RwSignal::new(String::new());
    let navigate: Navigate = std::rc::Rc::new(use_navigate());
    let save = {
        let navigate = navigate.clone();
        move |_| {
            busy.set(true);
            let navigate = navigate.clone();
            spawn_local(async move {
                let kept = keep(api, draft, navigate).await;
                busy.set(false);
                match kept {
                    Ok(id) => {
                        error.set(None);
                        notice.set(Some(format!("{} {id}", t().draft_saved)));
                    }
                    Err(e) => error.set(Some(e)),
                }
            });
        }
    };
    let test = move |_| {
        let numbers: Vec<String> =
            test_numbers.with_untracked(|typed| split_numbers(typed).map(str::to_owned).collect());
        busy.set(true);
        let navigate = navigate.clone();
        spawn_local(async move {
            let sent = match keep(api, draft, navigate).await {
                Ok(id) => drafts::test(api, &id, numbers).await,
                Err(e) => Err(e),
            };
            busy.set(false);
            match sent {
                Ok(result) => {
                    error.set(None);
                    api.set_credits(result.credits);
                    notice.set(Some(format!("{} {}", t().test_sent, result.ticket.unwrap_or_default())));
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let empty = move || draft.with(|d| d.text.trim().is_empty());
    view! {
        <section class="draft-box" aria-label=move || t().draft>
            <div class="row">
                <button type="button" on:click=save disabled=move || empty() || busy.get()>{move || t().save_draft}</button>
            </div>
            <div class="row">
                <div class="field">
                    <label for="test-numbers">{move || t().test_numbers}</label>
                    <input id="test-numbers" inputmode="tel" autocomplete="tel" placeholder="33612345678" aria-describedby="test-numbers-hint"
                        prop:value=move || test_numbers.get() on:input=move |ev| test_numbers.set(event_target_value(&ev)) />
                    <p class="hint" id="test-numbers-hint">{move || t().test_numbers_hint}</p>
                </div>
                <button type="button" on:click=test disabled=move || empty() || busy.get()>
                    {move || t().send_test}
                </button>
            </div>
            <ErrorAlert error=error />
            {move || notice.get().map(|n| view! { <p class="alert ok" role="status">{n}</p> })}
        </section>
    }
}
