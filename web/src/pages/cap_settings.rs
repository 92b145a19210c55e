//! Settings' "Marketing frequency cap" (`PUT /settings`, `settings.marketing_cap`): at most so
//! many marketing messages per number in so many days.

use leptos::prelude::*;
use texto_core::wire::{MarketingCapDto, SettingsDto};

use super::settings_form::SettingsForm;
use crate::{
    components::{errors::ErrorAlert, field::TextField},
    i18n::use_texts,
};

/// The section.
#[component]
pub fn CapSettings() -> impl IntoView {
    let t = use_texts();
    let on = RwSignal::new(false);
    let (messages, days) = (RwSignal::new(String::new()), RwSignal::new(String::new()));
    let show = move |settings: SettingsDto| {
        let cap = settings.marketing_cap.flatten();
        on.set(cap.is_some());
        let cap = cap.unwrap_or(MarketingCapDto { messages: Some(1), days: Some(7) });
        messages.set(cap.messages.map_or_else(String::new, |n| n.to_string()));
        days.set(cap.days.map_or_else(String::new, |n| n.to_string()));
    };
    let form = SettingsForm::load(show);
    let SettingsForm { loaded, error, saved, .. } = form;
    let save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        // A value that is not a whole number goes as 0, which the server refuses with its bounds.
        let number = |typed: RwSignal<String>| Some(typed.with_untracked(|t| t.trim().parse().unwrap_or(0)));
        let cap = on.get_untracked().then(|| MarketingCapDto { messages: number(messages), days: number(days) });
        form.save(SettingsDto { marketing_cap: Some(cap), ..SettingsDto::default() });
    };
    view! {
        <section class="card" aria-labelledby="cap-title">
            <h2 id="cap-title">{move || t().cap_title}</h2>
            <p id="cap-intro">{move || t().cap_intro}</p>
            <form on:submit=save>
                <fieldset class="plain" disabled=move || !loaded.get()>
                    <label class="check">
                        <input type="checkbox" aria-describedby="cap-intro" prop:checked=move || on.get()
                            on:change=move |ev| on.set(event_target_checked(&ev)) />
                        {move || t().cap_on}
                    </label>
                    <Show when=move || on.get()>
                        <div class="row">
                            <TextField id="cap-messages" label=Signal::derive(move || t().cap_messages) value=messages error field="settings.marketing_cap.messages" inputmode="numeric" />
                            <TextField id="cap-days" label=Signal::derive(move || t().cap_days) value=days error field="settings.marketing_cap.days" inputmode="numeric" />
                        </div>
                    </Show>
                    <ErrorAlert error=error />
                    <Show when=move || saved.get()><p class="alert ok" role="status">{move || t().saved}</p></Show>
                    <button type="submit" class="primary">{move || t().save}</button>
                </fieldset>
            </form>
        </section>
    }
}
