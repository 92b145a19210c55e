//! A labelled text field whose server-side problem shows under it, linked with
//! `aria-describedby` and marked `aria-invalid`.

use leptos::prelude::*;

use super::errors::FieldProblem;
use crate::api::ApiError;

/// The label, the input and the server's word on `field`.
#[component]
pub fn TextField(
    /// The input's element id (the problem's is `{id}-problem`).
    id: &'static str,
    /// The visible label.
    #[prop(into)]
    label: Signal<&'static str>,
    /// The value, both ways.
    value: RwSignal<String>,
    /// The last refusal of the form.
    error: RwSignal<Option<ApiError>>,
    /// The field's name in the error paths (`url`, `alert_trigger`).
    field: &'static str,
    /// `text` unless given (`email`, `url`).
    #[prop(optional)]
    input_type: Option<&'static str>,
    /// The virtual keyboard (`tel`, `numeric`).
    #[prop(optional)]
    inputmode: Option<&'static str>,
    /// The browser's autofill hint.
    #[prop(optional)]
    autocomplete: Option<&'static str>,
    /// An example of the expected value.
    #[prop(optional)]
    placeholder: Option<&'static str>,
    /// The form cannot be sent empty.
    #[prop(optional)]
    required: bool,
) -> impl IntoView {
    let problem_id = format!("{id}-problem");
    let has_problem = move || error.with(|e| e.as_ref().and_then(|e| e.for_field(field)).is_some());
    let described = {
        let problem_id = problem_id.clone();
        move || if has_problem() { problem_id.clone() } else { String::new() }
    };
    view! {
        <label for=id>{label}</label>
        <input id=id type=input_type.unwrap_or("text") inputmode=inputmode autocomplete=autocomplete placeholder=placeholder required=required
            aria-invalid=move || has_problem().to_string() aria-describedby=described
            prop:value=move || value.get() on:input=move |ev| value.set(event_target_value(&ev)) />
        <FieldProblem error=error field id=problem_id />
    }
}
