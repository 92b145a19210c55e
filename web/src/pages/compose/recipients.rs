//! Who gets the campaign: pasted numbers, a CSV import, or stored lists and segments.

use leptos::prelude::*;

use super::Account;
use crate::{
    components::importer::{CountrySelect, CsvImporter},
    draft::{Draft, split_numbers},
    format,
    i18n::{use_lang, use_texts},
};

/// Numbers or lists, as the draft says.
#[component]
pub fn RecipientsPicker(draft: RwSignal<Draft>, account: Account) -> impl IntoView {
    let t = use_texts();
    let lang = use_lang();
    let country = RwSignal::new(draft.with_untracked(|d| d.country.clone()));
    Effect::new(move |_| {
        let chosen = country.get();
        draft.update(|d| d.country = chosen);
    });
    let mode = move |lists: bool| {
        view! {
            <label class="radio inline">
                <input type="radio" name="recipients-mode" prop:checked=move || draft.with(|d| d.to_lists == lists)
                    on:change=move |_| draft.update(|d| d.to_lists = lists) />
                {move || if lists { t().to_lists } else { t().to_numbers }}
            </label>
        }
    };
    let pasted_count = move || draft.with(|d| split_numbers(&d.pasted).count());
    let imported_count = move || draft.with(|d| d.imported.len());
    let on_import = Callback::new(move |contacts: Vec<crate::import::ImportedContact>| {
        draft.update(|d| d.imported = contacts.into_iter().map(|c| c.number).collect());
    });

    view! {
        <fieldset class="recipients">
            <legend>{move || t().send_to}</legend>
            <div class="modes">{mode(false)}{mode(true)}</div>
            <Show when=move || !draft.with(|d| d.to_lists)>
                <label for="recipients">{move || t().recipients}</label>
                <textarea id="recipients" rows="4" aria-describedby="recipients-hint recipients-count"
                    prop:value=move || draft.with(|d| d.pasted.clone())
                    on:input=move |ev| draft.update(|d| d.pasted = event_target_value(&ev))></textarea>
                <p class="hint" id="recipients-hint">{move || t().recipients_hint}</p>
                <p class="hint" id="recipients-count" aria-live="polite">{move || format::numbers(lang.get(), pasted_count())}</p>
                <CountrySelect id="country" country />
                <details class="import">
                    <summary>{move || t().import_csv}</summary>
                    <CsvImporter on_done=on_import country />
                </details>
                <Show when=move || { imported_count() > 0 }>
                    <p data-testid="imported-count">
                        {move || t().imported_numbers}": "{move || format::integer(lang.get(), imported_count() as i64)}" "
                        <button type="button" class="link-button" on:click=move |_| draft.update(|d| d.imported.clear())>{move || t().clear_import}</button>
                    </p>
                </Show>
            </Show>
            <Show when=move || draft.with(|d| d.to_lists)>
                <ListChoice draft account />
                <SegmentChoice draft account />
            </Show>
        </fieldset>
    }
}

/// A checkbox per stored list, with its size.
#[component]
fn ListChoice(draft: RwSignal<Draft>, account: Account) -> impl IntoView {
    let t = use_texts();
    let lang = use_lang();
    move || {
        let lists = account.lists.get();
        if lists.is_empty() {
            return view! { <p class="hint">{move || t().no_lists}</p> }.into_any();
        }
        lists
            .into_iter()
            .map(|list| {
                let id = list.id.clone();
                let checked_id = id.clone();
                let size = list.contacts;
                view! {
                    <label class="check">
                        <input type="checkbox" prop:checked=move || draft.with(|d| d.lists.contains(&checked_id))
                            on:change=move |ev| {
                                let on = event_target_checked(&ev);
                                draft.update(|d| {
                                    d.lists.retain(|l| *l != id);
                                    if on { d.lists.push(id.clone()); }
                                });
                            } />
                        {list.name}" ("{move || format::integer(lang.get(), size)}" "{move || t().contacts_word}")"
                    </label>
                }
            })
            .collect_view()
            .into_any()
    }
}

/// A checkbox per saved segment (none shown when the account has none).
#[component]
fn SegmentChoice(draft: RwSignal<Draft>, account: Account) -> impl IntoView {
    let t = use_texts();
    move || {
        let segments = account.segments.get();
        (!segments.is_empty()).then(|| {
            let boxes = segments
                .into_iter()
                .map(|segment| {
                    let id = segment.id.clone().unwrap_or_default();
                    let checked_id = id.clone();
                    view! {
                        <label class="check">
                            <input type="checkbox" prop:checked=move || draft.with(|d| d.segments.contains(&checked_id))
                                on:change=move |ev| {
                                    let on = event_target_checked(&ev);
                                    draft.update(|d| {
                                        d.segments.retain(|s| *s != id);
                                        if on { d.segments.push(id.clone()); }
                                    });
                                } />
                            {segment.name.clone().unwrap_or_default()}
                        </label>
                    }
                })
                .collect_view();
            view! {
                <fieldset class="segments-choice">
                    <legend>{move || t().segments_title}</legend>
                    {boxes}
                </fieldset>
            }
        })
    }
}
