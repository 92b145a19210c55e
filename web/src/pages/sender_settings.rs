//! Settings' "Sender IDs" (`GET /senders`, `PUT /senders/default`): the senders the operator
//! registered for the account (once there are some, sends may only name them) and the default
//! that sends naming none go from.

use leptos::{prelude::*, task::spawn_local};
use texto_core::wire::{DefaultSenderRequest, SenderDto, SendersResponse};

use crate::{
    api::{ApiError, use_api},
    components::errors::ErrorAlert,
    i18n::use_texts,
};

/// The section.
#[component]
pub fn SenderSettings() -> impl IntoView {
    let (t, api) = (use_texts(), use_api());
    let senders = RwSignal::new(Vec::<SenderDto>::new());
    let chosen = RwSignal::new(String::new());
    let (error, saved) = (RwSignal::new(None::<ApiError>), RwSignal::new(false));
    let show = move |all: Vec<SenderDto>| {
        chosen.set(all.iter().find(|s| s.default == 1).map(|s| s.name.clone()).unwrap_or_default());
        senders.set(all);
    };
    spawn_local(async move {
        if let Ok(answer) = api.get::<SendersResponse>("/senders").await {
            show(answer.senders);
        }
    });
    let save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let sender = chosen.with_untracked(|c| (!c.is_empty()).then(|| c.clone()));
        saved.set(false);
        spawn_local(async move {
            match api.put::<_, SendersResponse>("/senders/default", &DefaultSenderRequest { sender }).await {
                Ok(answer) => {
                    error.set(None);
                    saved.set(true);
                    show(answer.senders);
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    view! {
        <section class="card" aria-labelledby="senders-title">
            <h2 id="senders-title">{move || t().senders_title}</h2>
            <Show when=move || !senders.with(Vec::is_empty) fallback=move || view! { <p>{t().no_senders}</p> }>
                <p id="senders-intro">{move || t().senders_intro}</p>
                <form on:submit=save>
                    <div class="field">
                        <label for="default-sender">{move || t().default_sender}</label>
                        <select id="default-sender" aria-describedby="senders-intro" prop:value=move || chosen.get()
                            on:change=move |ev| chosen.set(event_target_value(&ev))>
                            <option value="">{move || t().short_code_default}</option>
                            <For each=move || senders.get() key=|s| s.name.clone() let:sender>
                                <option value=sender.name.clone()>{sender.name.clone()}</option>
                            </For>
                        </select>
                    </div>
                    <ErrorAlert error=error />
                    <Show when=move || saved.get()><p class="alert ok" role="status">{move || t().saved}</p></Show>
                    <button type="submit" class="primary">{move || t().save}</button>
                </form>
            </Show>
        </section>
    }
}
