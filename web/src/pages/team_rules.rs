//! Settings' "Team rules": campaigns over a number of recipients wait for approval, and (an
//! owner's choice) everyone signs in with two factors.

use leptos::{prelude::*, task::spawn_local};
use texto_core::{
    Action,
    wire::{TeamRulesDto, TeamRulesRequest, TeamRulesResponse},
};

use crate::{
    api::{ApiError, use_api},
    components::{errors::ErrorAlert, field::TextField},
    i18n::use_texts,
    session::use_session,
};

/// The team rules' section of Settings.
#[component]
pub fn TeamRules() -> impl IntoView {
    let (t, api, session) = (use_texts(), use_api(), use_session());
    let over = RwSignal::new(String::new());
    let two_factor = RwSignal::new(false);
    let (error, saved, loaded) = (RwSignal::new(None::<ApiError>), RwSignal::new(false), RwSignal::new(false));
    let show = move |rules: TeamRulesDto| {
        over.set(rules.approval_over.filter(|n| *n > 0).map(|n| n.to_string()).unwrap_or_default());
        two_factor.set(rules.require_two_factor == Some(1));
    };
    spawn_local(async move {
        if let Ok(answer) = api.get::<TeamRulesResponse>("/team-rules").await {
            show(answer.team_rules);
        }
        loaded.set(true);
    });
    let owner = move || session.may(Action::HandOver);
    let save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let typed = over.get_untracked();
        let approval_over = if typed.trim().is_empty() { Some(0) } else { typed.trim().parse().ok().or(Some(-1)) };
        let request = TeamRulesRequest {
            team_rules: TeamRulesDto {
                approval_over,
                require_two_factor: owner().then(|| i64::from(two_factor.get_untracked())),
            },
        };
        saved.set(false);
        spawn_local(async move {
            match api.put::<_, TeamRulesResponse>("/team-rules", &request).await {
                Ok(answer) => {
                    error.set(None);
                    saved.set(true);
                    show(answer.team_rules);
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    view! {
        <section class="card">
            <h2>{move || t().team_rules}</h2>
            <form on:submit=save>
                <fieldset class="plain" disabled=move || !loaded.get()>
                    <TextField id="approval-over" label=Signal::derive(move || t().approval_over) value=over error field="team_rules.approval_over" inputmode="numeric" />
                    <p class="hint">{move || t().approval_over_hint}</p>
                    <label class="check">
                        <input type="checkbox" disabled=move || !owner() prop:checked=move || two_factor.get()
                            on:change=move |ev| two_factor.set(event_target_checked(&ev)) />
                        {move || t().require_two_factor}
                    </label>
                    <Show when=move || !owner()><p class="hint">{move || t().require_two_factor_owner}</p></Show>
                    <ErrorAlert error=error />
                    <Show when=move || saved.get()><p class="alert ok" role="status">{move || t().saved}</p></Show>
                    <button type="submit" class="primary">{move || t().save}</button>
                </fieldset>
            </form>
        </section>
    }
}
