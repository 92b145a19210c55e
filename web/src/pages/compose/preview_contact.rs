//! "Preview for a contact": the message as one contact of the account will read it, its card's
//! names and custom fields filling `[firstname]`, `[lastname]` and `[field:…]` (and its list
//! entry's `[info1]`…`[info4]` when it is in a chosen list). Without one, each field shows its
//! fallback, as a recipient without a value gets it.

use leptos::{prelude::*, task::spawn_local};
use texto_core::{parse_with_default_country, wire::ContactExportResponse};

use crate::{
    api::{ApiError, use_api},
    components::errors::ErrorAlert,
    draft::Draft,
    i18n::use_texts,
};

/// The contact the preview is shown for: its number and card.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PreviewContact {
    /// The number, international digits.
    pub number: u64,
    /// Its first name.
    pub firstname: String,
    /// Its last name.
    pub lastname: String,
    /// Its custom fields.
    pub fields: std::collections::BTreeMap<String, String>,
    /// Its entry's `info1`…`info4` in the first chosen list holding it (else its first list).
    pub info: [String; 4],
}

/// The number field and its button; sets `chosen` to the contact's card.
#[component]
pub fn PreviewFor(draft: RwSignal<Draft>, chosen: RwSignal<Option<PreviewContact>>) -> impl IntoView {
    let (t, api) = (use_texts(), use_api());
    let typed = RwSignal::new(String::new());
    let (error, invalid) = (RwSignal::new(None::<ApiError>), RwSignal::new(false));
    let show = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let (country, lists) = draft.with_untracked(|d| (d.country.clone(), d.lists.clone()));
        let parsed = parse_with_default_country(typed.get_untracked().trim(), &country);
        invalid.set(parsed.is_err());
        let Ok(number) = parsed.map(|n| n.as_u64()) else {
            chosen.set(None);
            return;
        };
        spawn_local(async move {
            match api.get::<ContactExportResponse>(&format!("/contact/{number}")).await {
                Ok(found) => {
                    let card = found.contact;
                    let entry = found.lists.iter().find(|l| lists.contains(&l.list_id)).or(found.lists.first());
                    let info = std::array::from_fn(|i| entry.and_then(|e| e.info.get(i).cloned()).unwrap_or_default());
                    error.set(None);
                    chosen.set(Some(PreviewContact {
                        number,
                        firstname: card.firstname.unwrap_or_default(),
                        lastname: card.lastname.unwrap_or_default(),
                        fields: card.fields.unwrap_or_default(),
                        info,
                    }));
                }
                Err(e) => {
                    chosen.set(None);
                    error.set(Some(e));
                }
            }
        });
    };
    view! {
        <form class="preview-for" on:submit=show>
            <label for="preview-for">{move || t().preview_for}</label>
            <div class="inline">
                <input id="preview-for" type="tel" inputmode="tel" autocomplete="off" aria-describedby="preview-for-hint"
                    prop:value=move || typed.get() on:input=move |ev| typed.set(event_target_value(&ev)) />
                <button type="submit">{move || t().preview_show}</button>
                <Show when=move || chosen.with(Option::is_some)>
                    <button type="button" class="secondary" on:click=move |_| { chosen.set(None); typed.set(String::new()); }>
                        {move || t().preview_clear}
                    </button>
                </Show>
            </div>
            <Show when=move || invalid.get()>
                <p class="field-error" role="alert">{move || t().preview_not_a_number}</p>
            </Show>
            <p class="hint" id="preview-for-hint">{move || t().preview_for_hint}</p>
            <ErrorAlert error />
        </form>
    }
}
