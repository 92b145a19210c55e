//! The importer's choices for the contacts themselves (Lists only): which columns hold the
//! first and last names and the tags, whether the other columns become custom fields named
//! after the header row, and whether the people in the file agreed to receive texts.

use leptos::prelude::*;

use crate::{
    i18n::use_texts,
    import::{CardColumns, FileConsent, field_name},
};

/// What the user picks, turned into [`CardColumns`] by [`CardChoices::columns`].
#[derive(Clone, Copy)]
pub struct CardChoices {
    firstname: RwSignal<Option<usize>>,
    lastname: RwSignal<Option<usize>>,
    tags: RwSignal<Option<usize>>,
    other_columns_as_fields: RwSignal<bool>,
    consented: RwSignal<bool>,
    consent_source: RwSignal<String>,
    consent_proof: RwSignal<String>,
    consent_date: RwSignal<Option<usize>>,
}

impl Default for CardChoices {
    /// Nothing picked.
    fn default() -> CardChoices {
        CardChoices {
            firstname: RwSignal::new(None),
            lastname: RwSignal::new(None),
            tags: RwSignal::new(None),
            other_columns_as_fields: RwSignal::new(false),
            consented: RwSignal::new(false),
            consent_source: RwSignal::new("import".to_owned()),
            consent_proof: RwSignal::new(String::new()),
            consent_date: RwSignal::new(None),
        }
    }
}

impl CardChoices {
    /// The columns picked, for a file whose first row is `header` (named when `has_header`);
    /// `taken` are the columns already used (the number, info1…info4).
    pub fn columns(&self, header: &[String], has_header: bool, taken: &[usize]) -> CardColumns {
        let (firstname, lastname, tags) =
            (self.firstname.get_untracked(), self.lastname.get_untracked(), self.tags.get_untracked());
        let consent_date = self.consent_date.get_untracked();
        let used: Vec<usize> =
            taken.iter().copied().chain([firstname, lastname, tags, consent_date].into_iter().flatten()).collect();
        let fields = match self.other_columns_as_fields.get_untracked() && has_header {
            true => header
                .iter()
                .enumerate()
                .filter(|(column, _)| !used.contains(column))
                .filter_map(|(column, name)| Some((column, field_name(name)?)))
                .collect(),
            false => Vec::new(),
        };
        let consent = self.consented.get_untracked().then(|| FileConsent {
            source: self.consent_source.get_untracked(),
            proof: self.consent_proof.get_untracked().trim().to_owned(),
            date: consent_date,
        });
        CardColumns { firstname, lastname, tags, fields, consent }
    }
}

/// A column select with "None" first.
fn column_select(
    id: &'static str,
    label: impl Fn() -> &'static str + Send + Sync + Copy + 'static,
    signal: RwSignal<Option<usize>>,
    options: impl Fn() -> AnyView + Send + Sync + Copy + 'static,
) -> impl IntoView {
    let t = use_texts();
    view! {
        <div class="field">
            <label for=id>{label}</label>
            <select id=id prop:value=move || signal.get().map(|c| c.to_string()).unwrap_or_default()
                on:change=move |ev| signal.set(event_target_value(&ev).parse().ok())>
                <option value="">{move || t().none}</option>
                {options}
            </select>
        </div>
    }
}

/// The choices, with `options` the column `<option>`s.
#[component]
pub fn CardPicker(
    /// Where the choices go.
    choices: CardChoices,
    /// The column `<option>`s.
    options: impl Fn() -> AnyView + Send + Sync + Copy + 'static,
) -> impl IntoView {
    let t = use_texts();
    view! {
        <fieldset class="card-columns">
            <legend>{move || t().import_contact_details}</legend>
            <div class="row">
                {column_select("csv-firstname", move || t().firstname, choices.firstname, options)}
                {column_select("csv-lastname", move || t().lastname, choices.lastname, options)}
                {column_select("csv-tags", move || t().contact_tags, choices.tags, options)}
            </div>
            <label class="check">
                <input type="checkbox" prop:checked=move || choices.other_columns_as_fields.get()
                    on:change=move |ev| choices.other_columns_as_fields.set(event_target_checked(&ev)) />
                {move || t().import_other_columns}
            </label>
            <label class="check">
                <input type="checkbox" prop:checked=move || choices.consented.get()
                    on:change=move |ev| choices.consented.set(event_target_checked(&ev)) />
                {move || t().import_consented}
            </label>
            <Show when=move || choices.consented.get()>
                <div class="row">
                    <div class="field">
                        <label for="csv-consent-source">{move || t().import_consent_source}</label>
                        <select id="csv-consent-source" on:change=move |ev| choices.consent_source.set(event_target_value(&ev))>
                            <option value="import">{move || t().consent_source_import}</option>
                            <option value="form">{move || t().consent_source_form}</option>
                        </select>
                    </div>
                    {column_select("csv-consent-date", move || t().import_consent_date, choices.consent_date, options)}
                </div>
                <div class="field">
                    <label for="csv-consent-proof">{move || t().consent_proof}</label>
                    <input id="csv-consent-proof" type="text" prop:value=move || choices.consent_proof.get()
                        on:input=move |ev| choices.consent_proof.set(event_target_value(&ev)) />
                </div>
            </Show>
        </fieldset>
    }
}
