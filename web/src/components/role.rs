//! The five roles in the user's language, and a select of them.

use leptos::prelude::*;
use texto_core::Role;

use crate::i18n::{Texts, use_texts};

/// A role in the user's language.
pub fn role_label(t: &'static Texts, role: &str) -> &'static str {
    match role.parse::<Role>() {
        Ok(Role::Owner) => t.role_owner,
        Ok(Role::Admin) => t.role_admin,
        Ok(Role::Sender) => t.role_sender,
        Ok(Role::Author) => t.role_author,
        _ => t.role_analyst,
    }
}

/// A select of the five roles bound to `value`.
#[component]
pub fn RoleSelect(
    /// The chosen role's name, both ways.
    value: RwSignal<String>,
    /// The select's element id.
    #[prop(optional)]
    id: Option<&'static str>,
    /// Its accessible name, when no label names it.
    #[prop(optional)]
    label: Option<String>,
) -> impl IntoView {
    let t = use_texts();
    view! {
        <select id=id aria-label=label on:change=move |ev| value.set(event_target_value(&ev))>
            {move || Role::ALL.into_iter().map(|role| view! {
                <option value=role.as_str() selected=move || value.get() == role.as_str()>{role_label(t(), role.as_str())}</option>
            }).collect_view()}
        </select>
    }
}
