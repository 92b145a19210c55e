//! Settings' "Replies to STOP and HELP" (`GET`/`PUT /settings`): the help text, whether a
//! STOP is confirmed, and whether marketing needs consent.

use leptos::prelude::*;
use texto_core::wire::SettingsDto;

use super::settings_form::SettingsForm;
use crate::{components::errors::ErrorAlert, i18n::use_texts};

/// The section.
#[component]
pub fn ReplySettings() -> impl IntoView {
    let t = use_texts();
    let help = RwSignal::new(String::new());
    let confirm = RwSignal::new(false);
    let needs_consent = RwSignal::new(false);
    let show = move |settings: SettingsDto| {
        help.set(settings.help_text.unwrap_or_default());
        confirm.set(settings.stop_confirmation == Some(1));
        needs_consent.set(settings.marketing_needs_consent == Some(1));
    };
    let form = SettingsForm::load(show);
    let SettingsForm { loaded, error, saved, .. } = form;
    let save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        form.save(SettingsDto {
            help_text: Some(help.get_untracked()),
            stop_confirmation: Some(i64::from(confirm.get_untracked())),
            marketing_needs_consent: Some(i64::from(needs_consent.get_untracked())),
            ..SettingsDto::default()
        });
    };
    view! {
        <section class="card" aria-labelledby="reply-settings-title">
            <h2 id="reply-settings-title">{move || t().reply_settings_title}</h2>
            <form on:submit=save>
                <fieldset class="plain" disabled=move || !loaded.get()>
                    <div class="field">
                        <label for="help-text">{move || t().help_text}</label>
                        <textarea id="help-text" rows="3" aria-describedby="help-text-hint" prop:value=move || help.get()
                            on:input=move |ev| help.set(event_target_value(&ev))></textarea>
                        <p class="hint" id="help-text-hint">{move || t().help_text_hint}</p>
                    </div>
                    <label class="check">
                        <input type="checkbox" prop:checked=move || confirm.get() on:change=move |ev| confirm.set(event_target_checked(&ev)) />
                        {move || t().stop_confirmation}
                    </label>
                    <label class="check">
                        <input type="checkbox" prop:checked=move || needs_consent.get() on:change=move |ev| needs_consent.set(event_target_checked(&ev)) />
                        {move || t().marketing_needs_consent}
                    </label>
                    <ErrorAlert error=error />
                    <Show when=move || saved.get()><p class="alert ok" role="status">{move || t().saved}</p></Show>
                    <button type="submit" class="primary">{move || t().save}</button>
                </fieldset>
            </form>
        </section>
    }
}
