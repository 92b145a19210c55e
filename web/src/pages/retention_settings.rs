//! The Retention section of Settings: how long messages, replies, list contacts and campaign
//! texts are kept (`GET`/`PUT /retention`).

use leptos::{prelude::*, task::spawn_local};
use texto_core::wire::{RetentionDto, RetentionRequest, RetentionResponse};

use crate::{
    api::{ApiError, use_api},
    components::errors::ErrorAlert,
    i18n::{Texts, use_texts},
};

/// The periods offered ("" keeps everything).
const CHOICES: [&str; 7] = ["", "30d", "90d", "6m", "12m", "24m", "36m"];

/// A period in words.
fn period_label(t: &'static Texts, period: &str) -> String {
    let (amount, unit) = period.split_at(period.len().saturating_sub(1));
    match unit {
        "d" => format!("{amount} {}", t.days),
        "m" => format!("{amount} {}", t.months),
        _ => t.keep_everything.to_owned(),
    }
}

/// One kind of data and its period.
#[component]
fn PeriodChoice(id: &'static str, label: &'static str, hint: &'static str, value: RwSignal<String>) -> impl IntoView {
    let t = use_texts();
    let hint_id = format!("{id}-hint");
    view! {
        <div class="field">
            <label for=id>{label}</label>
            <select id=id aria-describedby=hint_id.clone() on:change=move |ev| value.set(event_target_value(&ev))>
                {move || {
                    let current = value.get();
                    let mut choices: Vec<String> = CHOICES.iter().map(|c| (*c).to_owned()).collect();
                    if !choices.contains(&current) {
                        choices.push(current.clone());
                    }
                    choices.into_iter().map(|c| {
                        let selected = c == current;
                        view! { <option value=c.clone() selected=selected>{period_label(t(), &c)}</option> }
                    }).collect_view()
                }}
            </select>
            <p class="hint" id=hint_id>{hint}</p>
        </div>
    }
}

/// The Retention section.
#[component]
pub fn RetentionSettings() -> impl IntoView {
    let t = use_texts();
    let api = use_api();
    let [message, mo, list, campaign] = [(); 4].map(|()| RwSignal::new(String::new()));
    let error = RwSignal::new(None::<ApiError>);
    let saved = RwSignal::new(false);
    let loaded = RwSignal::new(false);
    let show = move |answer: RetentionResponse| {
        let periods = answer.retention;
        message.set(periods.message);
        mo.set(periods.mo);
        list.set(periods.list);
        campaign.set(periods.campaign);
    };
    spawn_local(async move {
        if let Ok(answer) = api.get::<RetentionResponse>("/retention").await {
            show(answer);
        }
        loaded.set(true);
    });
    let save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let request = RetentionRequest {
            retention: RetentionDto {
                message: Some(message.get_untracked()),
                list: Some(list.get_untracked()),
                campaign: Some(campaign.get_untracked()),
                mo: Some(mo.get_untracked()),
                ..RetentionDto::default()
            },
        };
        saved.set(false);
        spawn_local(async move {
            match api.put::<_, RetentionResponse>("/retention", &request).await {
                Ok(answer) => {
                    error.set(None);
                    saved.set(true);
                    show(answer);
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    view! {
        <section class="card">
            <h2>{move || t().retention}</h2>
            <p>{move || t().retention_intro}</p>
            <form on:submit=save>
                <fieldset class="plain" disabled=move || !loaded.get()>
                    <div class="row">
                        <PeriodChoice id="retention-message" label=t().retention_messages hint=t().retention_messages_hint value=message />
                        <PeriodChoice id="retention-mo" label=t().retention_replies hint=t().retention_replies_hint value=mo />
                    </div>
                    <div class="row">
                        <PeriodChoice id="retention-list" label=t().retention_contacts hint=t().retention_contacts_hint value=list />
                        <PeriodChoice id="retention-campaign" label=t().retention_campaigns hint=t().retention_campaigns_hint value=campaign />
                    </div>
                    <ErrorAlert error=error />
                    <Show when=move || saved.get()><p class="alert ok" role="status">{move || t().saved}</p></Show>
                    <button type="submit" class="primary">{move || t().save_retention}</button>
                </fieldset>
            </form>
        </section>
    }
}
