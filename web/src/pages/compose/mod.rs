//! Compose: write the message, choose recipients, see the cost and the filter as you type,
//! then send after a confirmation. A draft kept on the server opens from `?draft=ID`.

mod ab_test;
mod account;
mod draft_box;
mod message;
mod options;
mod overseas;
mod preview_contact;
mod recipients;
mod send;
mod simulation;
mod templates;

use leptos::{prelude::*, task::spawn_local};
use leptos_router::hooks::use_query_map;

use crate::{api::use_api, components::phone::PhonePreview, draft::Draft, drafts, i18n::use_texts};

pub use account::Account;

/// The Compose page.
#[component]
pub fn Compose() -> impl IntoView {
    let t = use_texts();
    let draft = RwSignal::new(Draft::default());
    // What the server refused in the last send, shown next to the fields concerned.
    let refused = RwSignal::new(None::<crate::api::ApiError>);
    let (api, query) = (use_api(), use_query_map());
    Effect::new(move |_| {
        let Some(id) = query.with(|q| q.get("draft")) else { return };
        if draft.with_untracked(|d| d.saved_as.as_deref() == Some(id.as_str())) {
            return;
        }
        spawn_local(async move {
            match drafts::open(api, &id).await {
                Ok(opened) => draft.set(opened),
                Err(e) => refused.set(Some(e)),
            }
        });
    });
    let account = Account::load(draft);
    let preview_for = RwSignal::new(None::<preview_contact::PreviewContact>);
    let shown = RwSignal::new(0);
    let figures = simulation::figures(draft, account, preview_for, shown);
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
                <options::MessageOptions draft figures refused />
                <ab_test::AbTestEditor draft refused />
                <recipients::RecipientsPicker draft account />
            </div>
            <aside class="compose-side">
                <h2>{move || t().preview}</h2>
                <PhonePreview sender=preview_sender text=preview_text />
                <ab_test::PreviewedText draft shown />
                <preview_contact::PreviewFor draft chosen=preview_for />
                <simulation::SimulationPanel draft figures />
                <send::SendBox draft figures refused />
                <draft_box::DraftBox draft />
            </aside>
        </div>
    }
}
