//! The message: text, live counter, the characters that force Unicode, smart encoding (keep
//! to the GSM alphabet), and short links.

use leptos::{html, prelude::*};

use super::simulation::Figures;
use texto_core::gsm_twin;

use crate::{
    api::ApiError,
    components::errors::FieldProblem,
    draft::Draft,
    format,
    i18n::{use_lang, use_texts},
};

/// The text area with its counter, Unicode warning and link fields.
#[component]
pub fn MessageEditor(
    draft: RwSignal<Draft>,
    figures: Memo<Figures>,
    refused: RwSignal<Option<ApiError>>,
) -> impl IntoView {
    let t = use_texts();
    let lang = use_lang();
    let textarea = NodeRef::<html::Textarea>::new();
    let counter = move || figures.with(|f| format::counter(lang.get(), &f.split, f.parts));
    let unicode_chars = move || figures.with(|f| f.split.unicode_chars.clone());
    let insert_link = move |_| {
        let at = textarea.get().and_then(|area| area.selection_start().ok().flatten()).unwrap_or(u32::MAX) as usize;
        draft.update(|d| d.insert_link(at));
        if let Some(area) = textarea.get() {
            let _ = area.focus();
        }
    };
    let links = move || draft.with(|d| d.links.len());
    let field_picker = NodeRef::<html::Select>::new();
    let insert_field = move |ev| {
        let field = event_target_value(&ev);
        if field.is_empty() {
            return;
        }
        let at = textarea.get().and_then(|area| area.selection_start().ok().flatten()).unwrap_or(u32::MAX) as usize;
        draft.update(|d| d.insert_field(at, &field));
        if let Some(picker) = field_picker.get() {
            picker.set_value("");
        }
    };

    view! {
        <section class="message">
            <label for="message">{move || t().message}</label>
            <textarea id="message" rows="6" node_ref=textarea
                placeholder=move || t().message_placeholder
                aria-describedby="counter message-problem"
                prop:value=move || draft.with(|d| d.text.clone())
                on:input=move |ev| draft.update(|d| d.set_text(event_target_value(&ev)))></textarea>
            <p class="counter" id="counter" data-testid="counter" aria-live="polite">{counter}</p>
            <FieldProblem error=refused field="text" id="message-problem" />
            <FieldProblem error=refused field="links" id="links-problem" />
            <Show when=move || !unicode_chars().is_empty()>
                <UnicodeWarning chars=Signal::derive(unicode_chars) />
            </Show>
            <Show when=move || figures.with(|f| f.smart.is_some()) || draft.with(|d| d.gsm)>
                <KeepToGsm draft figures />
            </Show>
            <div class="inline">
                <button type="button" on:click=insert_link>{move || t().insert_link}</button>
                <select node_ref=field_picker aria-label=move || t().insert_field on:change=insert_field data-testid="insert-field">
                    <option value="">{move || t().insert_field}</option>
                    <option value="[firstname]">{move || t().firstname}</option>
                    <option value="[lastname]">{move || t().lastname}</option>
                    <option value="[field:]">{move || t().custom_field}</option>
                    {(1..=4).map(|n| view! { <option value=format!("[info{n}]")>{format!("info{n}")}</option> }).collect_view()}
                </select>
            </div>
            <For each=move || 0..links() key=|i| *i let:i>
                <div class="field">
                    <label for=format!("link-{i}")>{move || format!("{} {}", t().link_url, i + 1)}</label>
                    <input id=format!("link-{i}") type="url" inputmode="url" placeholder="https://" aria-describedby="link-hint"
                        prop:value=move || draft.with(|d| d.links.get(i).cloned().unwrap_or_default())
                        on:input=move |ev| draft.update(|d| if let Some(link) = d.links.get_mut(i) { *link = event_target_value(&ev) }) />
                </div>
            </For>
            <Show when=move || { links() > 0 }>
                <p class="hint" id="link-hint">{move || t().link_hint}</p>
            </Show>
        </section>
    }
}

/// Names each character that forces Unicode, highlighted, with its GSM twin when it has one.
#[component]
fn UnicodeWarning(chars: Signal<Vec<char>>) -> impl IntoView {
    let t = use_texts();
    view! {
        <div class="warning" data-testid="unicode-warning" role="status">
            <p>{move || t().unicode_intro}" "
                {move || chars.get().into_iter().map(|c| {
                    let code = format!("U+{:04X}", u32::from(c));
                    let twin = gsm_twin(c).map(|twin| format!(" → {twin}")).unwrap_or_default();
                    view! { <span class="uchar"><mark>{c.to_string()}</mark>" "<small>{format!("{code}{twin}")}</small></span> }
                }).collect_view()}
            </p>
        </div>
    }
}

/// Smart encoding: a box that keeps the message to the GSM alphabet as the server sends it
/// (the text stays as typed), and what it replaces and saves.
#[component]
fn KeepToGsm(draft: RwSignal<Draft>, figures: Memo<Figures>) -> impl IntoView {
    let t = use_texts();
    let lang = use_lang();
    let effect = move || {
        figures.with(|f| f.smart.clone()).map(|smart| {
            let twins = smart.twins.iter().map(|(c, twin)| format!("{c} → {twin}")).collect::<Vec<_>>().join(" · ");
            (format::gsm_replaced(lang.get(), smart.replaced, smart.parts), twins)
        })
    };
    view! {
        <div class="smart-encoding">
            <label class="checkbox">
                <input type="checkbox" aria-describedby="smart-encoding-effect"
                    prop:checked=move || draft.with(|d| d.gsm)
                    on:change=move |ev| draft.update(|d| d.gsm = event_target_checked(&ev)) />
                <span>{move || t().keep_to_gsm}</span>
            </label>
            <p id="smart-encoding-effect" class="hint" data-testid="smart-encoding" aria-live="polite">
                {move || effect().map(|(line, twins)| view! { {line}<br/><small>{twins}</small> })}
            </p>
        </div>
    }
}
