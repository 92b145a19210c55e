//! Compose: write the message, choose recipients, see the cost and the filter as you type,
//! then send after a confirmation. The draft survives a reload.

mod account;
mod message;
mod options;
mod recipients;
mod send;
mod simulation;
mod templates;

use leptos::prelude::*;

use crate::{components::phone::PhonePreview, draft::Draft, i18n::use_texts};

pub use account::Account;

/// The Compose page.
#[component]
pub fn Compose() -> impl IntoView {
    let t = use_texts();
    let draft = RwSignal::new(Draft::load());
    Effect::new(move |_| draft.with(Draft::save));
    let account = Account::load(draft);
    let figures = simulation::figures(draft, account);
    // What the server refused in the last send, shown next to the fields concerned.
    let refused = RwSignal::new(None::<crate::api::ApiError>);
    let preview_text = Signal::derive(move || figures.with(|f| f.preview.clone()));
    let preview_sender = Signal::derive(move || {
        draft.with(|d| if d.sender.trim().is_empty() { "36180".to_owned() } else { d.sender.trim().to_owned() })
    });

    view! {
        <h1>{move || t().compose_title}</h1>
        <div class="compose">
            <div class="compose-form">
                <templates::TemplatePicker draft />
                <message::MessageEditor draft figures refused />
                <options::MessageOptions draft refused />
                <recipients::RecipientsPicker draft account />
            </div>
            <aside class="compose-side">
                <h2>{move || t().preview}</h2>
                <PhonePreview sender=preview_sender text=preview_text />
                <simulation::SimulationPanel draft figures />
                <send::SendBox draft figures refused />
            </aside>
        </div>
    }
}
