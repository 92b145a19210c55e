//! The A/B test of Compose: up to three other texts, the sample's share, the wait and what
//! makes a text the best. The simulation beside shows the sample and the rest.

use leptos::prelude::*;

use crate::{
    api::ApiError,
    components::errors::FieldProblem,
    draft::{AbDraft, Draft},
    format::text_letter,
    i18n::use_texts,
};

/// The waits offered, as the request writes them.
const WAITS: [&str; 6] = ["30m", "1h", "2h", "4h", "12h", "24h"];

/// The texts of a test beside the draft's own: B, C, D.
const MOST_OTHER_TEXTS: usize = texto_core::MOST_VARIANTS - 1;

/// The A/B test section.
#[component]
pub fn AbTestEditor(draft: RwSignal<Draft>, refused: RwSignal<Option<ApiError>>) -> impl IntoView {
    let t = use_texts();
    let on = move || draft.with(|d| d.ab.is_some());
    let edit = move |change: Box<dyn FnOnce(&mut AbDraft)>| {
        draft.update(|d| {
            if let Some(ab) = d.ab.as_mut() {
                change(ab);
            }
        })
    };
    let variant = move |i: usize| {
        let id = format!("ab-text-{i}");
        let label = move || format!("{} {}", t().ab_text, text_letter(i as i64 + 2));
        view! {
            <div class="field ab-variant">
                <label for=id.clone()>{label}</label>
                <textarea id=id rows="3" aria-describedby="ab-texts-problem"
                    prop:value=move || draft.with(|d| d.ab.as_ref().and_then(|ab| ab.variants.get(i).cloned()).unwrap_or_default())
                    on:input=move |ev| {
                        let value = event_target_value(&ev);
                        edit(Box::new(move |ab| if let Some(text) = ab.variants.get_mut(i) { *text = value }));
                    }></textarea>
                <button type="button" class="link" aria-label=move || format!("{} {}", t().ab_remove, text_letter(i as i64 + 2))
                    on:click=move |_| edit(Box::new(move |ab| {
                        if i < ab.variants.len() {
                            ab.variants.remove(i);
                        }
                    }))>{move || t().ab_remove}</button>
            </div>
        }
    };
    let count = move || draft.with(|d| d.ab.as_ref().map_or(0, |ab| ab.variants.len()));
    let full = move || count() >= MOST_OTHER_TEXTS;
    let criterion = move |value: &'static str, label: fn(&crate::i18n::Texts) -> &'static str| {
        view! {
            <option value=value selected=move || draft.with(|d| d.ab.as_ref().is_some_and(|ab| ab.criterion == value))>
                {move || label(t())}
            </option>
        }
    };
    let settings = move || {
        on().then(|| {
            view! {
                <p class="hint">{move || t().ab_explained}</p>
                {move || (0..count()).map(variant).collect_view()}
                <FieldProblem error=refused field="variants" id="ab-texts-problem" />
                <button type="button" disabled=full
                    on:click=move |_| edit(Box::new(|ab| ab.variants.push(String::new())))>{move || t().ab_add}</button>
                <div class="row">
                    <div class="field">
                        <label for="ab-share">{move || t().ab_share}</label>
                        <input id="ab-share" type="number" inputmode="numeric" min="5" max="50" step="1"
                            aria-describedby="ab-share-hint ab-problem"
                            prop:value=move || draft.with(|d| d.ab.as_ref().map(|ab| ab.share.clone()).unwrap_or_default())
                            on:input=move |ev| {
                                let value = event_target_value(&ev);
                                edit(Box::new(move |ab| ab.share = value));
                            } />
                        <p id="ab-share-hint" class="hint">{move || t().ab_share_hint}</p>
                    </div>
                    <div class="field">
                        <label for="ab-wait">{move || t().ab_wait}</label>
                        <select id="ab-wait" on:change=move |ev| {
                            let value = event_target_value(&ev);
                            edit(Box::new(move |ab| ab.wait = value));
                        }>
                            {WAITS.map(|wait| view! {
                                <option value=wait selected=move || draft.with(|d| d.ab.as_ref().is_some_and(|ab| ab.wait == wait))>{wait}</option>
                            }).collect_view()}
                        </select>
                    </div>
                    <div class="field">
                        <label for="ab-criterion">{move || t().ab_criterion}</label>
                        <select id="ab-criterion" on:change=move |ev| {
                            let value = event_target_value(&ev);
                            edit(Box::new(move |ab| ab.criterion = value));
                        }>
                            {criterion("clicks", |t| t.ab_by_clicks)}
                            {criterion("replies", |t| t.ab_by_replies)}
                            {criterion("delivered", |t| t.ab_by_delivered)}
                        </select>
                    </div>
                </div>
                <FieldProblem error=refused field="ab" id="ab-problem" />
            }
        })
    };
    view! {
        <fieldset class="ab-test" data-testid="ab-test">
            <legend>{move || t().ab_title}</legend>
            <label class="check">
                <input type="checkbox" prop:checked=on
                    on:change=move |ev| {
                        let checked = event_target_checked(&ev);
                        draft.update(|d| d.ab = checked.then(AbDraft::default));
                    } />
                {move || t().ab_toggle}
            </label>
            {settings}
        </fieldset>
    }
}

/// With an A/B test, which of its texts the phone preview shows.
#[component]
pub fn PreviewedText(draft: RwSignal<Draft>, shown: RwSignal<usize>) -> impl IntoView {
    let t = use_texts();
    let texts = move || draft.with(|d| d.ab.as_ref().map_or(0, |ab| 1 + ab.variants.len()));
    // A text removed, or the test turned off: back to the first.
    Effect::new(move |_| {
        if shown.get_untracked() >= texts().max(1) {
            shown.set(0);
        }
    });
    move || {
        (texts() > 1).then(|| {
            let choice = move |i: usize| {
                view! {
                    <label class="radio">
                        <input type="radio" name="previewed-text" prop:checked=move || shown.get() == i
                            on:change=move |_| shown.set(i) />
                        {text_letter(i as i64 + 1).to_string()}
                    </label>
                }
            };
            view! {
                <fieldset class="previewed-text">
                    <legend>{move || t().ab_previewed}</legend>
                    {(0..texts()).map(choice).collect_view()}
                </fieldset>
            }
        })
    }
}
