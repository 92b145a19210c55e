//! Editing one contact of a list in place: its number and its four fields
//! (`PUT /list/contact/:id`).

use leptos::{prelude::*, task::spawn_local};
use texto_core::wire::{ContactUpdateRequest, ListContactDto, StatusResponse};

use crate::{
    api::{ApiError, use_api},
    components::{errors::ErrorAlert, field::TextField},
    i18n::use_texts,
};

/// The editor of `contact`; `done` runs once it is saved or cancelled (`true` when saved).
#[component]
pub fn ContactEditor(contact: ListContactDto, done: Callback<bool>) -> impl IntoView {
    let t = use_texts();
    let api = use_api();
    let id = contact.id.clone();
    let number = RwSignal::new(contact.destination.clone());
    let fields =
        [contact.info1, contact.info2, contact.info3, contact.info4].map(|f| RwSignal::new(f.unwrap_or_default()));
    let error = RwSignal::new(None::<ApiError>);
    let save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let [info1, info2, info3, info4] = fields.map(|f| Some(f.get_untracked()));
        let request = ContactUpdateRequest {
            value: Some(number.get_untracked().trim().to_owned()),
            info1,
            info2,
            info3,
            info4,
            contact: None,
        };
        let id = id.clone();
        spawn_local(async move {
            match api.put::<_, StatusResponse>(&format!("/list/contact/{id}"), &request).await {
                Ok(_) => done.run(true),
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let labels = [t().info1, t().info2, t().info3, t().info4];
    let ids = ["edit-info1", "edit-info2", "edit-info3", "edit-info4"];
    let names = ["info1", "info2", "info3", "info4"];
    view! {
        <section class="card" aria-labelledby="edit-contact-heading">
            <h2 id="edit-contact-heading">{move || t().edit_contact}</h2>
            <form on:submit=save>
                <TextField id="edit-number" label=Signal::derive(move || t().number) value=number error field="value" inputmode="tel" required=true />
                <div class="row">
                    {(0..4).map(|i| view! {
                        <div class="field">
                            <TextField id=ids[i] label=Signal::derive(move || labels[i]) value=fields[i] error field=names[i] />
                        </div>
                    }).collect_view()}
                </div>
                <ErrorAlert error=error />
                <button type="submit" class="primary">{move || t().save}</button>
                <button type="button" on:click=move |_| done.run(false)>{move || t().cancel}</button>
            </form>
        </section>
    }
}
