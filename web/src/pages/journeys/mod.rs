//! Journeys: messages that send themselves. The page lists the account's journeys; the editor
//! holds one: its trigger, its steps (branches indented), checked in the page by texto-core as
//! the server checks them, and once saved, each step's counts and the buttons that put it live,
//! pause or archive it.

mod steps;
mod trial;
mod trigger;

use leptos::{prelude::*, task::spawn_local};
use texto_core::{
    Journey, JourneyStatus,
    wire::{
        JourneyConditionDto, JourneyDto, JourneyReportResponse, JourneyRequest, JourneyResponse, JourneyStepReportDto,
        JourneyTriggerDto, JourneysResponse, ListsResponse, SegmentsResponse,
    },
};

use self::{
    steps::{Choices, Keys, StepList, StepSlot},
    trial::TrialRun,
    trigger::{TriggerEditor, trigger_label},
};
use crate::{
    api::{ApiError, Paging, use_api, with_query},
    components::{errors::ErrorAlert, field::TextField, table::rows_or},
    format,
    i18n::{Texts, use_lang, use_texts},
};

/// How a status is said.
fn status_label(t: &'static Texts, status: Option<&str>) -> &'static str {
    match status.and_then(JourneyStatus::parse) {
        Some(JourneyStatus::Live) => t.journey_live,
        Some(JourneyStatus::Paused) => t.journey_paused,
        Some(JourneyStatus::Archived) => t.journey_archived,
        _ => t.journey_draft,
    }
}

/// The errors texto-core finds in `journey`, as the server would answer them.
fn checked(journey: &JourneyDto) -> Result<(), ApiError> {
    Journey::parse(journey).map(|_| ()).map_err(|errors| ApiError {
        http: 422,
        status: -7,
        message: "Invalid data".into(),
        problems: errors.into_iter().map(|e| (e.path, e.message)).collect(),
    })
}

/// The journeys page.
#[component]
pub fn Journeys() -> impl IntoView {
    let (t, lang, api) = (use_texts(), use_lang(), use_api());
    let version = RwSignal::new(0u32);
    let journeys = LocalResource::new(move || {
        version.track();
        async move { api.get::<JourneysResponse>("/journeys").await }
    });
    let lists = LocalResource::new(move || async move {
        api.get::<ListsResponse>(&with_query("/lists", Paging::first(1000), &[]))
            .await
            .map(|a| a.lists)
            .unwrap_or_default()
    });
    let lists = Signal::derive(move || lists.get().unwrap_or_default());
    let segments = LocalResource::new(move || async move {
        api.get::<SegmentsResponse>("/segments").await.map(|a| a.segments).unwrap_or_default()
    });
    let segments = Signal::derive(move || segments.get().unwrap_or_default());
    let choices = Choices { lists, segments };
    let keys = Keys::new();
    let editing = RwSignal::new(None::<JourneyDto>);
    let name = RwSignal::new(String::new());
    let api_trigger = || JourneyTriggerDto { kind: "api".into(), ..JourneyTriggerDto::default() };
    let trigger = RwSignal::new(api_trigger());
    let reentry = RwSignal::new(String::new());
    let most = RwSignal::new(String::new());
    let exit = RwSignal::new(None::<JourneyConditionDto>);
    let steps = RwSignal::new(Vec::<StepSlot>::new());
    let counts = RwSignal::new(Vec::<JourneyStepReportDto>::new());
    let error = RwSignal::new(None::<ApiError>);
    let load_counts = move |id: String| {
        spawn_local(async move {
            let report = api.get::<JourneyReportResponse>(&format!("/journey/{id}/report")).await;
            counts.set(report.map(|r| r.steps).unwrap_or_default());
        })
    };
    let fill = move |journey: Option<JourneyDto>| {
        let journey = journey.unwrap_or_default();
        name.set(journey.name.clone().unwrap_or_default());
        trigger.set(journey.trigger.clone().unwrap_or_else(api_trigger));
        reentry.set(journey.reentry.clone().unwrap_or_default());
        most.set(journey.most_at_once.map(|m| m.to_string()).unwrap_or_default());
        exit.set(journey.exit.clone());
        steps.set(journey.steps.iter().cloned().map(|s| StepSlot::of(keys, s)).collect());
        counts.set(Vec::new());
        if let Some(id) = journey.id.clone() {
            load_counts(id);
        }
        editing.set(journey.id.is_some().then_some(journey));
        error.set(None);
    };
    let edited = move || JourneyDto {
        name: Some(name.get_untracked()),
        trigger: Some(trigger.get_untracked()),
        steps: steps.get_untracked().into_iter().map(StepSlot::to_wire).collect(),
        reentry: Some(reentry.get_untracked()).filter(|r| !r.trim().is_empty()),
        // What is not a whole number is sent as 0, which the check refuses with the range.
        most_at_once: most.with_untracked(|m| (!m.trim().is_empty()).then(|| m.trim().parse().unwrap_or(0))),
        exit: exit.get_untracked(),
        ..JourneyDto::default()
    };
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let journey = edited();
        if let Err(problems) = checked(&journey) {
            error.set(Some(problems));
            return;
        }
        let id = editing.get_untracked().and_then(|j| j.id);
        spawn_local(async move {
            let request = JourneyRequest { journey };
            let saved = match &id {
                Some(id) => api.put::<_, JourneyResponse>(&format!("/journey/{id}"), &request).await,
                None => api.post::<_, JourneyResponse>("/journey", &request).await,
            };
            match saved {
                Ok(answer) => {
                    fill(Some(answer.journey));
                    version.update(|v| *v += 1);
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let change_status = move |status: JourneyStatus| {
        let Some(id) = editing.get_untracked().and_then(|j| j.id) else { return };
        spawn_local(async move {
            let request = JourneyRequest {
                journey: JourneyDto { status: Some(status.as_str().to_owned()), ..JourneyDto::default() },
            };
            match api.put::<_, JourneyResponse>(&format!("/journey/{id}/status"), &request).await {
                Ok(answer) => {
                    fill(Some(answer.journey));
                    version.update(|v| *v += 1);
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let status_now =
        move || editing.with(|j| j.as_ref().and_then(|j| j.status.as_deref()).and_then(JourneyStatus::parse));
    let may_become = move |next: JourneyStatus| status_now().is_some_and(|s| s.may_become(next));
    let load_error = Signal::derive(move || journeys.get().and_then(Result::err));
    let table = move || {
        journeys.get().and_then(Result::ok).map(|answer| {
            rows_or(answer.journeys, 5, t().no_journeys, move |journey| {
                let shown = journey.name.clone().unwrap_or_default();
                let edit_label = format!("{} {shown}", t().edit);
                let trigger = trigger_label(t(), journey.trigger.as_ref().map(|t| t.kind.as_str()));
                let updated = journey.updated_at.clone().map(|d| format::wire_date(lang.get(), &d)).unwrap_or_default();
                let status = status_label(t(), journey.status.as_deref());
                let picked = journey.clone();
                view! {
                    <tr>
                        <td data-label=t().segment_name class="text">{shown.clone()}</td>
                        <td data-label=t().journey_trigger>{trigger}</td>
                        <td data-label=t().journey_status>{status}</td>
                        <td data-label=t().updated>{updated}</td>
                        <td data-label=t().actions class="actions">
                            <button type="button" aria-label=edit_label on:click=move |_| fill(Some(picked.clone()))>{t().edit}</button>
                        </td>
                    </tr>
                }
            })
        })
    };
    let counts = Signal::derive(move || counts.get());
    view! {
        <h1>{move || t().journeys_title}</h1>
        <p class="hint">{move || t().journeys_intro}</p>
        <ErrorAlert error=load_error />
        <div class="table-wrap">
            <table class="stack" data-testid="journeys">
                <thead><tr>
                    <th scope="col">{move || t().segment_name}</th><th scope="col">{move || t().journey_trigger}</th>
                    <th scope="col">{move || t().journey_status}</th><th scope="col">{move || t().updated}</th>
                    <th scope="col">{move || t().actions}</th>
                </tr></thead>
                <tbody><Suspense fallback=move || view! { <tr><td colspan="5">{t().loading}</td></tr> }>{table}</Suspense></tbody>
            </table>
        </div>
        <section class="card" aria-labelledby="journey-editor-title">
            <h2 id="journey-editor-title">{move || match editing.get() {
                Some(journey) => format!("{} – {} ({} {})", t().edit_journey, status_label(t(), journey.status.as_deref()), t().journey_version, journey.version.unwrap_or(1)),
                None => t().new_journey.to_owned(),
            }}</h2>
            <form on:submit=submit>
                <TextField id="journey-name" label=Signal::derive(move || t().segment_name) value=name error field="journey.name" required=true />
                <TriggerEditor trigger lists segments />
                <TextField id="journey-reentry" label=Signal::derive(move || t().journey_reentry) value=reentry error field="journey.reentry" />
                <TextField id="journey-most" label=Signal::derive(move || t().journey_most_at_once) value=most error field="journey.most_at_once" inputmode="numeric" />
                <div class="field">
                    <label for="journey-exit">{move || t().journey_exit}</label>
                    <select id="journey-exit" on:change=move |ev| {
                        let kind = event_target_value(&ev);
                        exit.set((!kind.is_empty()).then(|| JourneyConditionDto { kind, ..JourneyConditionDto::default() }));
                    }>
                        {[("", t().exit_never), ("replied", t().rule_replied), ("keyword", t().test_keyword), ("clicked", t().rule_clicked)]
                            .into_iter()
                            .map(|(kind, label)| view! {
                                <option value=kind selected=move || exit.with(|e| e.as_ref().map_or("", |e| e.kind.as_str()) == kind)>{label}</option>
                            })
                            .collect_view()}
                    </select>
                </div>
                <Show when=move || exit.with(|e| e.as_ref().is_some_and(|e| e.kind == "keyword"))>
                    <div class="field">
                        <label for="journey-exit-keyword">{move || t().trigger_keyword_word}</label>
                        <input id="journey-exit-keyword" type="text" prop:value=move || exit.with(|e| e.as_ref().and_then(|e| e.value.clone()).unwrap_or_default())
                            on:input=move |ev| exit.update(|e| if let Some(e) = e.as_mut() { e.value = Some(event_target_value(&ev)) }) />
                    </div>
                </Show>
                <fieldset class="journey">
                    <legend>{move || t().journey_steps}</legend>
                    <p class="hint">{move || t().journey_steps_hint}</p>
                    <StepList steps path=String::new() keys choices counts />
                </fieldset>
                <ErrorAlert error=error />
                <div class="row">
                    <button type="submit" class="primary">{move || t().save_journey}</button>
                    <Show when=move || may_become(JourneyStatus::Live)>
                        <button type="button" on:click=move |_| change_status(JourneyStatus::Live)>{move || t().put_live}</button>
                    </Show>
                    <Show when=move || may_become(JourneyStatus::Paused)>
                        <button type="button" on:click=move |_| change_status(JourneyStatus::Paused)>{move || t().pause}</button>
                    </Show>
                    <Show when=move || may_become(JourneyStatus::Archived)>
                        <button type="button" class="danger" on:click=move |_| change_status(JourneyStatus::Archived)>{move || t().archive}</button>
                    </Show>
                    <Show when=move || editing.with(Option::is_some)>
                        <button type="button" on:click=move |_| fill(None)>{move || t().new_journey}</button>
                    </Show>
                </div>
            </form>
        </section>
        <Show when=move || editing.with(Option::is_some)>
            <TrialRun journey=Signal::derive(move || editing.with(|j| j.as_ref().and_then(|j| j.id.clone()))) />
        </Show>
    }
}
