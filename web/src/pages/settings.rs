//! Settings: the low-balance alert (`/notification/balance`), keywords and the replies to STOP and
//! HELP, sender IDs, UTM tagging, the marketing frequency cap, the team's rules, how long data is
//! kept, and the language.

use leptos::{prelude::*, task::spawn_local};
use texto_core::wire::{NotificationDto, NotificationRequest, NotificationResponse};

use super::{
    cap_settings::CapSettings, keywords::Keywords, reply_settings::ReplySettings,
    retention_settings::RetentionSettings, sender_settings::SenderSettings, team_rules::TeamRules,
    utm_settings::UtmSettings,
};
use crate::{
    api::{ApiError, use_api},
    components::{errors::ErrorAlert, field::TextField},
    i18n::{Lang, use_lang, use_texts},
};

/// The settings page.
#[component]
pub fn Settings() -> impl IntoView {
    let t = use_texts();
    let lang = use_lang();
    let api = use_api();
    let trigger = RwSignal::new(String::new());
    let by_email = RwSignal::new(false);
    let email = RwSignal::new(String::new());
    let by_sms = RwSignal::new(false);
    let phone = RwSignal::new(String::new());
    let error = RwSignal::new(None::<ApiError>);
    let saved = RwSignal::new(false);
    let show = move |n: NotificationDto| {
        trigger.set(n.alert_trigger.unwrap_or_default());
        by_email.set(n.alert_email.as_deref() == Some("1"));
        email.set(n.email.unwrap_or_default());
        by_sms.set(n.alert_gsm.as_deref() == Some("1"));
        phone.set(n.phone_number.unwrap_or_default());
    };
    // The form stays disabled until the current settings are in, so they never overwrite
    // what the user has started to type.
    let loaded = RwSignal::new(false);
    spawn_local(async move {
        let answer = api.get::<NotificationResponse>("/notification/balance").await;
        if let Ok(answer) = answer {
            show(answer.notification);
        }
        loaded.set(true);
    });
    let save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let flag = |on: bool| Some(if on { "1" } else { "0" }.to_owned());
        let optional = |value: String| (!value.trim().is_empty()).then(|| value.trim().to_owned());
        let request = NotificationRequest {
            notification: NotificationDto {
                alert_trigger: Some(trigger.get_untracked().trim().to_owned()),
                alert_email: flag(by_email.get_untracked()),
                alert_gsm: flag(by_sms.get_untracked()),
                email: optional(email.get_untracked()),
                phone_number: optional(phone.get_untracked()),
                ..NotificationDto::default()
            },
        };
        saved.set(false);
        spawn_local(async move {
            match api.put::<_, NotificationResponse>("/notification/balance", &request).await {
                Ok(answer) => {
                    error.set(None);
                    saved.set(true);
                    show(answer.notification);
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };

    view! {
        <h1>{move || t().settings_title}</h1>
        <section class="card">
            <h2>{move || t().balance_alert}</h2>
            <p>{move || t().balance_alert_intro}</p>
            <form on:submit=save>
                <fieldset class="plain" disabled=move || !loaded.get()>
                <TextField id="alert-trigger" label=Signal::derive(move || t().alert_trigger) value=trigger error field="alert_trigger" inputmode="numeric" required=true />
                <label class="check">
                    <input type="checkbox" prop:checked=move || by_email.get() on:change=move |ev| by_email.set(event_target_checked(&ev)) />
                    {move || t().alert_by_email}
                </label>
                <TextField id="alert-email" label=Signal::derive(move || t().email) value=email error field="email" input_type="email" autocomplete="email" />
                <label class="check">
                    <input type="checkbox" prop:checked=move || by_sms.get() on:change=move |ev| by_sms.set(event_target_checked(&ev)) />
                    {move || t().alert_by_sms}
                </label>
                <TextField id="alert-phone" label=Signal::derive(move || t().phone_number) value=phone error field="phone_number" inputmode="tel" autocomplete="tel" />
                <ErrorAlert error=error />
                <Show when=move || saved.get()><p class="alert ok" role="status">{move || t().saved}</p></Show>
                <button type="submit" class="primary">{move || t().save}</button>
                </fieldset>
            </form>
        </section>
        <Keywords />
        <ReplySettings />
        <SenderSettings />
        <UtmSettings />
        <CapSettings />
        <TeamRules />
        <RetentionSettings />
        <section class="card">
            <h2>{move || t().language}</h2>
            <p id="language-intro">{move || t().language_intro}</p>
            <label for="language">{move || t().language}</label>
            <select id="language" aria-describedby="language-intro"
                prop:value=move || lang.get().tag() on:change=move |ev| lang.set(Lang::from_tag(&event_target_value(&ev)))>
                <option value="en">"English"</option>
                <option value="fr">"Français"</option>
            </select>
        </section>
    }
}
