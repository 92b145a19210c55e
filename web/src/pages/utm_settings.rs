//! Settings' "Tag links for analytics (UTM)" (`PUT /settings`, `settings.utm`): the tags added
//! to every short link's target, so the site's analytics credit the campaign.

use leptos::prelude::*;
use texto_core::wire::{SettingsDto, UtmDto};

use super::settings_form::SettingsForm;
use crate::{
    components::{errors::ErrorAlert, field::TextField},
    i18n::use_texts,
};

/// The section.
#[component]
pub fn UtmSettings() -> impl IntoView {
    let t = use_texts();
    let on = RwSignal::new(false);
    let (source, medium, campaign, click) = (
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
    );
    let show = move |settings: SettingsDto| {
        let utm = settings.utm.flatten();
        on.set(utm.is_some());
        let starting = UtmDto { source: Some("sms".into()), medium: Some("texto".into()), ..UtmDto::default() };
        let utm = utm.unwrap_or(starting);
        source.set(utm.source.unwrap_or_default());
        medium.set(utm.medium.unwrap_or_default());
        campaign.set(utm.campaign.unwrap_or_default());
        click.set(utm.click.unwrap_or_default());
    };
    let form = SettingsForm::load(show);
    let SettingsForm { loaded, error, saved, .. } = form;
    let save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let utm = on.get_untracked().then(|| UtmDto {
            source: Some(source.get_untracked()),
            medium: Some(medium.get_untracked()),
            campaign: Some(campaign.get_untracked()),
            click: Some(click.get_untracked()),
        });
        form.save(SettingsDto { utm: Some(utm), ..SettingsDto::default() });
    };
    view! {
        <section class="card" aria-labelledby="utm-title">
            <h2 id="utm-title">{move || t().utm_title}</h2>
            <p id="utm-intro">{move || t().utm_intro}</p>
            <form on:submit=save>
                <fieldset class="plain" disabled=move || !loaded.get()>
                    <label class="check">
                        <input type="checkbox" aria-describedby="utm-intro" prop:checked=move || on.get()
                            on:change=move |ev| on.set(event_target_checked(&ev)) />
                        {move || t().utm_on}
                    </label>
                    <Show when=move || on.get()>
                        <div class="row">
                            <TextField id="utm-source" label=Signal::derive(move || t().utm_source) value=source error field="settings.utm.source" />
                            <TextField id="utm-medium" label=Signal::derive(move || t().utm_medium) value=medium error field="settings.utm.medium" />
                            <TextField id="utm-campaign" label=Signal::derive(move || t().utm_campaign) value=campaign error field="settings.utm.campaign" />
                        </div>
                        <TextField id="utm-click" label=Signal::derive(move || t().utm_click) value=click error field="settings.utm.click" />
                        <p class="hint" id="utm-click-hint">{move || t().utm_click_hint}</p>
                    </Show>
                    <ErrorAlert error=error />
                    <Show when=move || saved.get()><p class="alert ok" role="status">{move || t().saved}</p></Show>
                    <button type="submit" class="primary">{move || t().save}</button>
                </fieldset>
            </form>
        </section>
    }
}
