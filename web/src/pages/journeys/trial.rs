//! A trial run in the page: the way a number would go through the journey, as its contact is
//! now (`POST /journey/:id/trial`); nothing is sent.

use leptos::{prelude::*, task::spawn_local};
use texto_core::wire::{JourneyTrialRequest, JourneyTrialResponse, JourneyTrialStepDto};

use super::steps::kind_label;
use crate::{
    api::{ApiError, use_api},
    components::{errors::ErrorAlert, field::TextField},
    i18n::use_texts,
};

/// The trial of the saved journey `journey` (its id).
#[component]
pub(super) fn TrialRun(journey: Signal<Option<String>>) -> impl IntoView {
    let (t, api) = (use_texts(), use_api());
    let number = RwSignal::new(String::new());
    let way = RwSignal::new(None::<Vec<JourneyTrialStepDto>>);
    let error = RwSignal::new(None::<ApiError>);
    let run = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let Some(id) = journey.get_untracked() else { return };
        spawn_local(async move {
            let request = JourneyTrialRequest { number: number.get_untracked() };
            match api.post::<_, JourneyTrialResponse>(&format!("/journey/{id}/trial"), &request).await {
                Ok(answer) => {
                    way.set(Some(answer.steps));
                    error.set(None);
                }
                Err(e) => {
                    way.set(None);
                    error.set(Some(e));
                }
            }
        });
    };
    let steps = move || {
        way.get().map(|steps| {
            let shown = steps
                .into_iter()
                .map(|s| {
                    let what = match s.holds {
                        Some(true) => t().trial_holds,
                        Some(false) => t().trial_fails,
                        None => kind_label(t(), &s.kind),
                    };
                    view! { <li>{format!("{} {} – {what}", t().step, s.step)}</li> }
                })
                .collect_view();
            view! { <ol class="journey-trial" data-testid="journey-trial">{shown}</ol> }
        })
    };
    view! {
        <section class="card" aria-labelledby="journey-trial-title">
            <h2 id="journey-trial-title">{move || t().trial_title}</h2>
            <p class="hint">{move || t().trial_hint}</p>
            <form on:submit=run>
                <TextField id="journey-trial-number" label=Signal::derive(move || t().trial_number) value=number error field="number" />
                <button type="submit">{move || t().trial_button}</button>
            </form>
            <ErrorAlert error />
            {steps}
        </section>
    }
}
