//! Showing what the server refused: the whole error in an alert, or one field's problem next
//! to the field (which names it in its `aria-describedby`).

use leptos::prelude::*;

use crate::{api::ApiError, i18n::use_texts};

/// The alert for a failed call (nothing when `error` holds none).
#[component]
pub fn ErrorAlert(
    /// The failed call, if any.
    #[prop(into)]
    error: Signal<Option<ApiError>>,
) -> impl IntoView {
    let t = use_texts();
    move || {
        error.get().map(|error| {
            let text = if error.is_network() { t().error_network.to_owned() } else { error.summary() };
            view! { <p class="alert error" role="alert">{text}</p> }
        })
    }
}

/// The problem the server found with `field`, shown under it with `id` (the field names this
/// id in its `aria-describedby`).
#[component]
pub fn FieldProblem(
    /// The failed call, if any.
    #[prop(into)]
    error: Signal<Option<ApiError>>,
    /// The field's name in the error paths.
    field: &'static str,
    /// The element id the field's `aria-describedby` names.
    #[prop(into)]
    id: String,
) -> impl IntoView {
    move || {
        error
            .get()
            .and_then(|e| e.for_field(field))
            .map(|problem| view! { <p class="field-error" id=id.clone()>{problem}</p> })
    }
}
