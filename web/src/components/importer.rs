//! The CSV importer of Compose and Lists: choose a file, pick the columns from a preview,
//! import with a progress bar (in chunks, the page stays responsive), and see — or download —
//! the rows that were refused.

use gloo_timers::future::TimeoutFuture;
use leptos::{prelude::*, task::spawn_local};
use texto_core::Country;
use wasm_bindgen::JsCast;

use super::{
    download::download_csv,
    importer_card::{CardChoices, CardPicker},
};
use crate::{
    format,
    i18n::{use_lang, use_texts},
    import::{CsvFile, ImportSettings, ImportedContact, Importer, Rejected, rejected_csv},
};

/// Rows read between two yields to the browser.
const CHUNK_ROWS: usize = 4_000;
/// Rejected rows listed on screen (all of them are in the download).
const LISTED_REJECTS: usize = 20;

/// The importer; `with_info` also maps columns to info1…info4 and to the contacts' names, tags,
/// custom fields and consent. `on_done` gets the contacts.
#[component]
pub fn CsvImporter(
    /// Also map columns to info1…info4.
    #[prop(optional)]
    with_info: bool,
    /// Gets the contacts once the file is read.
    on_done: Callback<Vec<ImportedContact>>,
    /// The country of national numbers when the page already asks for it; else the importer does.
    #[prop(optional)]
    country: Option<RwSignal<String>>,
) -> impl IntoView {
    let t = use_texts();
    let file = RwSignal::new(None::<CsvFile>);
    let unreadable = RwSignal::new(false);
    let phone_column = RwSignal::new(0usize);
    let has_header = RwSignal::new(false);
    let info_columns: [RwSignal<Option<usize>>; 4] = std::array::from_fn(|_| RwSignal::new(None));
    let card = CardChoices::default();
    let asks_country = country.is_none();
    let country = country.unwrap_or_else(|| RwSignal::new("FR".to_owned()));
    let progress = RwSignal::new(None::<(usize, usize)>);
    let report = RwSignal::new(None::<(usize, Vec<Rejected>)>);

    let choose = move |ev: leptos::ev::Event| {
        let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
        let Some(chosen) = input.files().and_then(|files| files.get(0)) else { return };
        report.set(None);
        spawn_local(async move {
            let bytes = gloo_file::futures::read_as_bytes(&gloo_file::File::from(chosen)).await.unwrap_or_default();
            let read = CsvFile::read(&bytes);
            unreadable.set(read.is_none());
            if let Some(read) = &read {
                let column = read.guess_phone_column(&country.get_untracked());
                phone_column.set(column);
                has_header.set(read.guess_header(column));
            }
            file.set(read);
        });
    };

    let import = move |_| {
        let Some(chosen) = file.get_untracked() else { return };
        let (phone, info) = (phone_column.get_untracked(), info_columns.map(|c| c.get_untracked()));
        let taken: Vec<usize> = std::iter::once(phone).chain(info.into_iter().flatten()).collect();
        let header = chosen.preview.first().cloned().unwrap_or_default();
        let settings = ImportSettings {
            phone_column: phone,
            info_columns: info,
            has_header: has_header.get_untracked(),
            default_country: country.get_untracked(),
            card: if with_info {
                card.columns(&header, has_header.get_untracked(), &taken)
            } else {
                Default::default()
            },
        };
        spawn_local(async move {
            let mut importer = Importer::new(chosen, settings);
            loop {
                let done = importer.step(CHUNK_ROWS);
                progress.set(Some((importer.rows_read(), importer.expected)));
                if done {
                    break;
                }
                TimeoutFuture::new(0).await;
            }
            progress.set(None);
            file.set(None);
            report.set(Some((importer.contacts.len(), importer.rejected)));
            on_done.run(importer.contacts);
        });
    };

    view! {
        <div class="importer">
            <label for="csv-file">{move || t().csv_file}</label>
            <input id="csv-file" type="file" accept=".csv,.txt,text/csv" aria-describedby="csv-hint" on:change=choose />
            <p class="hint" id="csv-hint">{move || t().csv_hint}</p>
            <Show when=move || unreadable.get()>
                <p class="alert error" role="alert">{move || t().file_unreadable}</p>
            </Show>
            {move || file.get().map(|f| view! {
                <ColumnPicker file=f phone_column has_header info_columns with_info card />
                {asks_country.then(|| view! { <CountrySelect id="csv-country" country /> })}
                <button type="button" class="primary" on:click=import>{move || t().import}</button>
            })}
            {move || progress.get().map(|(done, expected)| view! {
                <label for="csv-progress">{move || t().importing}</label>
                <progress id="csv-progress" max=expected.max(1) value=done></progress>
            })}
            {move || report.get().map(|(imported, rejected)| view! { <ImportReport imported rejected /> })}
        </div>
    }
}

/// The preview of the first rows with the column choices.
#[component]
fn ColumnPicker(
    file: CsvFile,
    phone_column: RwSignal<usize>,
    has_header: RwSignal<bool>,
    info_columns: [RwSignal<Option<usize>>; 4],
    with_info: bool,
    card: CardChoices,
) -> impl IntoView {
    let t = use_texts();
    let columns = file.columns;
    let first_row = StoredValue::new(file.preview.first().cloned().unwrap_or_default());
    let options = move || column_options(columns, &first_row.get_value(), has_header.get(), t().column);
    let info_names = [t().info1, t().info2, t().info3, t().info4];
    let preview = file.preview;
    view! {
        <div class="picker">
            <div class="field">
                <label for="csv-phone-column">{move || t().phone_column}</label>
                <select id="csv-phone-column" prop:value=move || phone_column.get().to_string()
                    on:change=move |ev| phone_column.set(event_target_value(&ev).parse().unwrap_or(0))>
                    {options}
                </select>
            </div>
            <label class="check">
                <input type="checkbox" prop:checked=move || has_header.get() on:change=move |ev| has_header.set(event_target_checked(&ev)) />
                {move || t().first_row_header}
            </label>
            {with_info.then(|| info_columns.into_iter().zip(info_names).enumerate().map(|(i, (signal, name))| {
                let id = format!("csv-info{}", i + 1);
                view! {
                    <div class="field">
                        <label for=id.clone()>{format!("{name} ({})", t().info_column)}</label>
                        <select id=id prop:value=move || signal.get().map(|c| c.to_string()).unwrap_or_default()
                            on:change=move |ev| signal.set(event_target_value(&ev).parse().ok())>
                            <option value="">{move || t().none}</option>
                            {options}
                        </select>
                    </div>
                }
            }).collect_view())}
            {with_info.then(|| view! { <CardPicker choices=card options=move || options().into_any() /> })}
            <div class="table-wrap">
                <table>
                    <caption>{move || t().preview_rows}</caption>
                    <tbody>
                        {preview.into_iter().map(|row| view! {
                            <tr>{row.into_iter().map(|cell| view! { <td>{cell}</td> }).collect_view()}</tr>
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
        </div>
    }
}

/// One `<option>` per column: `Column 2 (Mobile)` when the first row names it.
fn column_options(columns: usize, first_row: &[String], named: bool, word: &'static str) -> impl IntoView + use<> {
    (0..columns)
        .map(|c| {
            let label = match first_row.get(c).filter(|name| named && !name.is_empty()) {
                Some(name) => format!("{word} {} ({name})", c + 1),
                None => format!("{word} {}", c + 1),
            };
            view! { <option value=c.to_string()>{label}</option> }
        })
        .collect_view()
}

/// The country of national numbers, from every country texto knows.
#[component]
pub fn CountrySelect(
    /// The select's element id.
    id: &'static str,
    /// The chosen ISO code.
    country: RwSignal<String>,
) -> impl IntoView {
    let t = use_texts();
    let mut codes: Vec<&'static str> = Country::all().map(Country::iso2).collect();
    codes.sort_unstable();
    codes.dedup();
    view! {
        <div class="field">
            <label for=id>{move || t().default_country}</label>
            <select id=id prop:value=move || country.get() on:change=move |ev| country.set(event_target_value(&ev))>
                {codes.into_iter().map(|code| view! { <option value=code>{code}</option> }).collect_view()}
            </select>
        </div>
    }
}

/// How many rows came in, and the refused ones with their reasons.
#[component]
fn ImportReport(imported: usize, rejected: Vec<Rejected>) -> impl IntoView {
    let t = use_texts();
    let lang = use_lang();
    let count = rejected.len();
    let csv = rejected_csv(&rejected);
    let listed: Vec<Rejected> = rejected.into_iter().take(LISTED_REJECTS).collect();
    view! {
        <div class="report" role="status" data-testid="import-report">
            <p>{move || format::imported(lang.get(), imported, count)}</p>
            <Show when=move || { count > 0 }>
                <div class="table-wrap">
                    <table>
                        <caption>{move || t().rejected_rows}</caption>
                        <thead><tr><th scope="col">{move || t().row}</th><th scope="col">{move || t().value}</th><th scope="col">{move || t().reason}</th></tr></thead>
                        <tbody>
                            {listed.clone().into_iter().map(|r| view! { <tr><td>{r.row}</td><td>{r.value}</td><td>{r.reason}</td></tr> }).collect_view()}
                        </tbody>
                    </table>
                </div>
                <button type="button" on:click={
                    let csv = csv.clone();
                    move |_| download_csv("rejected-rows.csv", &csv)
                }>{move || t().download_rejected}</button>
            </Show>
        </div>
    }
}
