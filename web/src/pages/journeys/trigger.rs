//! Who enters a journey: an application (API), who joins a list, who starts matching a
//! segment, who replies with a keyword, who clicks a campaign's link, a date field of the
//! contact (a birthday, in the contact's own time), or a schedule over a segment (Paris time).
//! The editor keeps the trigger as the wire has it, so texto-core checks it as the server will.

use leptos::prelude::*;
use texto_core::wire::{CampaignsResponse, JourneyTriggerDto, ListSummaryDto, SegmentDto};

use super::steps::WEEKDAYS;
use crate::{
    api::{Paging, use_api, with_query},
    i18n::{Texts, use_texts},
};

/// How many of the latest campaigns a click trigger offers.
const CAMPAIGNS_OFFERED: i64 = 100;

/// The start of a campaign's text, to tell it in a list.
fn shortened(text: &str) -> String {
    match text.char_indices().nth(60) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

/// A trigger's kind, as the journeys' table says it.
pub(super) fn trigger_label(t: &'static Texts, kind: Option<&str>) -> &'static str {
    match kind {
        Some("list") => t.trigger_list,
        Some("segment") => t.trigger_segment_joins,
        Some("keyword") => t.trigger_keyword,
        Some("click") => t.trigger_click,
        Some("date") => t.trigger_date,
        Some("schedule") => t.trigger_schedule,
        _ => t.trigger_api,
    }
}

/// A new trigger of `kind`, with what it needs filled where there is an obvious choice.
fn new_trigger(kind: &str) -> JourneyTriggerDto {
    let mut trigger = JourneyTriggerDto { kind: kind.to_owned(), ..JourneyTriggerDto::default() };
    match kind {
        "date" => {
            trigger.field = Some("birthday".into());
            trigger.every = Some("year".into());
            trigger.offset = Some("0d".into());
            trigger.at = Some("09:00".into());
        }
        "schedule" => {
            trigger.every = Some("week".into());
            trigger.days = vec!["mon".into()];
            trigger.at = Some("10:00".into());
        }
        _ => {}
    }
    trigger
}

/// The trigger's editor.
#[component]
pub(super) fn TriggerEditor(
    trigger: RwSignal<JourneyTriggerDto>,
    lists: Signal<Vec<ListSummaryDto>>,
    segments: Signal<Vec<SegmentDto>>,
) -> impl IntoView {
    let (t, api) = (use_texts(), use_api());
    let kind = move || trigger.with(|t| t.kind.clone());
    let text = move |id: &'static str,
                     label: fn(&'static Texts) -> &'static str,
                     read: fn(&JourneyTriggerDto) -> Option<String>,
                     write: fn(&mut JourneyTriggerDto, String)| {
        view! {
            <div class="field">
                <label for=id>{move || label(t())}</label>
                <input id=id type="text" prop:value=move || trigger.with(|t| read(t).unwrap_or_default())
                    on:input=move |ev| trigger.update(|t| write(t, event_target_value(&ev))) />
            </div>
        }
    };
    let time = move |id: &'static str, label: fn(&'static Texts) -> &'static str| {
        view! {
            <div class="field">
                <label for=id>{move || label(t())}</label>
                <input id=id type="time" prop:value=move || trigger.with(|t| t.at.clone().unwrap_or_default())
                    on:input=move |ev| trigger.update(|t| t.at = Some(event_target_value(&ev))) />
            </div>
        }
    };
    let segment_choice = move || {
        view! {
            <div class="field">
                <label for="journey-trigger-segment">{move || t().trigger_segment}</label>
                <select id="journey-trigger-segment" on:change=move |ev| trigger.update(|t| t.segment = Some(event_target_value(&ev)))>
                    <option value="">{move || t().pick_segment}</option>
                    {move || segments.get().into_iter().map(|s| {
                        let id = s.id.clone().unwrap_or_default();
                        let picked = id.clone();
                        view! { <option value=id selected=move || trigger.with(|t| t.segment.as_deref() == Some(picked.as_str()))>{s.name.clone().unwrap_or_default()}</option> }
                    }).collect_view()}
                </select>
            </div>
        }
    };
    let details = move || {
        match kind().as_str() {
        "list" => view! {
            <div class="field">
                <label for="journey-trigger-list">{move || t().trigger_joins}</label>
                <select id="journey-trigger-list" on:change=move |ev| trigger.update(|t| t.list = Some(event_target_value(&ev)))>
                    <option value="">{move || t().pick_list}</option>
                    {move || lists.get().into_iter().map(|l| {
                        let id = l.id.clone();
                        view! { <option value=l.id.clone() selected=move || trigger.with(|t| t.list.as_deref() == Some(id.as_str()))>{l.name}</option> }
                    }).collect_view()}
                </select>
            </div>
        }
        .into_any(),
        "keyword" => text("journey-trigger-keyword", |t| t.trigger_keyword_word, |t| t.keyword.clone(), |t, v| t.keyword = Some(v)).into_any(),
        "click" => {
            let campaigns = LocalResource::new(move || async move {
                let path = with_query("/campaigns", Paging::first(CAMPAIGNS_OFFERED), &[]);
                api.get::<CampaignsResponse>(&path).await.map(|a| a.campaigns).unwrap_or_default()
            });
            view! {
                <div class="field">
                    <label for="journey-trigger-campaign">{move || t().trigger_campaign}</label>
                    <select id="journey-trigger-campaign" on:change=move |ev| trigger.update(|t| t.campaign = Some(event_target_value(&ev)))>
                        <option value="">{move || t().pick_campaign}</option>
                        {move || campaigns.get().unwrap_or_default().into_iter().map(|c| {
                            let picked = c.id.clone();
                            let label = format!("{} – {}", c.date, shortened(&c.text));
                            view! { <option value=c.id.clone() selected=move || trigger.with(|t| t.campaign.as_deref() == Some(picked.as_str()))>{label}</option> }
                        }).collect_view()}
                    </select>
                </div>
            }
            .into_any()
        }
        "date" => view! {
            {text("journey-trigger-field", |t| t.trigger_field, |t| t.field.clone(), |t, v| t.field = Some(v))}
            <div class="field">
                <label for="journey-trigger-every">{move || t().trigger_every}</label>
                <select id="journey-trigger-every" on:change=move |ev| trigger.update(|t| t.every = Some(event_target_value(&ev)))>
                    <option value="year" selected=move || trigger.with(|t| t.every.as_deref() != Some("once"))>{move || t().every_year}</option>
                    <option value="once" selected=move || trigger.with(|t| t.every.as_deref() == Some("once"))>{move || t().only_once}</option>
                </select>
            </div>
            {text("journey-trigger-offset", |t| t.trigger_offset, |t| t.offset.clone(), |t, v| t.offset = Some(v))}
            {time("journey-trigger-at", |t| t.trigger_at_local)}
        }
        .into_any(),
        "segment" => segment_choice().into_any(),
        "schedule" => view! {
            {segment_choice()}
            <div class="field">
                <label for="journey-trigger-repeat">{move || t().trigger_every}</label>
                <select id="journey-trigger-repeat" on:change=move |ev| trigger.update(|t| t.every = Some(event_target_value(&ev)))>
                    {[("day", t().every_day), ("week", t().every_week), ("month", t().every_month)].into_iter().map(|(value, label)| {
                        view! { <option value=value selected=move || trigger.with(|t| t.every.as_deref() == Some(value))>{label}</option> }
                    }).collect_view()}
                </select>
            </div>
            <Show when=move || trigger.with(|t| t.every.as_deref() == Some("week"))>
                <fieldset class="days">
                    <legend>{move || t().on_days}</legend>
                    {WEEKDAYS.into_iter().map(|(day, label)| view! {
                        <label class="check">
                            <input type="checkbox" prop:checked=move || trigger.with(|t| t.days.iter().any(|d| d == day))
                                on:change=move |ev| {
                                    let on = event_target_checked(&ev);
                                    trigger.update(|t| {
                                        t.days.retain(|d| d != day);
                                        if on { t.days.push(day.to_owned()) }
                                        t.days.sort_by_key(|d| WEEKDAYS.iter().position(|(x, _)| x == d));
                                    })
                                } />
                            {move || label(t())}
                        </label>
                    }).collect_view()}
                </fieldset>
            </Show>
            <Show when=move || trigger.with(|t| t.every.as_deref() == Some("month"))>
                {text("journey-trigger-day", |t| t.day_of_month, |t| t.day.clone(), |t, v| t.day = Some(v))}
            </Show>
            {time("journey-trigger-at", |t| t.trigger_at_paris)}
        }
        .into_any(),
        _ => ().into_any(),
    }
    };
    view! {
        <div class="field">
            <label for="journey-trigger">{move || t().journey_trigger}</label>
            <select id="journey-trigger" on:change=move |ev| trigger.set(new_trigger(&event_target_value(&ev)))>
                {["api", "list", "segment", "keyword", "click", "date", "schedule"].into_iter().map(|value| view! {
                    <option value=value selected=move || kind() == value>{move || trigger_label(t(), Some(value))}</option>
                }).collect_view()}
            </select>
        </div>
        {details}
    }
}
