//! Stored lists: the account's lists, a new list from pasted numbers or a CSV file, and one
//! list's contacts.

mod contact_editor;
mod detail;

use leptos::{prelude::*, task::spawn_local};
use leptos_router::{components::A, hooks::use_navigate};
use texto_core::wire::{ContactDto, ContactsDto, ListRequest, ListSavedResponse, ListsResponse};

pub use detail::ListDetail;

use crate::{
    api::{ApiError, Paging, use_api, with_query},
    components::{
        errors::{ErrorAlert, FieldProblem},
        importer::CsvImporter,
        pager::Pager,
        table::rows_or,
    },
    draft::split_numbers,
    format,
    i18n::{use_lang, use_texts},
    import::ImportedContact,
};

/// Lists per page.
const PAGE: i64 = 20;

/// The contacts of pasted numbers (no info fields).
pub fn pasted_contacts(pasted: &str) -> Vec<ContactDto> {
    split_numbers(pasted).map(|n| ContactDto { value: n.to_owned(), ..ContactDto::default() }).collect()
}

/// Imported contacts as the interface takes them.
pub fn imported_contacts(imported: &[ImportedContact]) -> Vec<ContactDto> {
    imported
        .iter()
        .map(|c| {
            let [info1, info2, info3, info4] = c.info.clone().map(|i| (!i.is_empty()).then_some(i));
            ContactDto { value: c.number.clone(), info1, info2, info3, info4, contact: c.card.clone().map(Box::new) }
        })
        .collect()
}

/// The lists page.
#[component]
pub fn Lists() -> impl IntoView {
    let t = use_texts();
    let lang = use_lang();
    let api = use_api();
    let paging = RwSignal::new(Paging::first(PAGE));
    let version = RwSignal::new(0u32);
    let page = LocalResource::new(move || {
        version.track();
        let path = with_query("/lists", paging.get(), &[]);
        async move { api.get::<ListsResponse>(&path).await }
    });
    let total = Signal::derive(move || page.get().and_then(Result::ok).map_or(0, |p| p.total_records));
    let load_error = Signal::derive(move || page.get().and_then(Result::err));

    let name = RwSignal::new(String::new());
    let pasted = RwSignal::new(String::new());
    let imported = RwSignal::new(Vec::<ImportedContact>::new());
    let error = RwSignal::new(None::<ApiError>);
    let navigate = use_navigate();
    let create = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let mut gsm = pasted_contacts(&pasted.get_untracked());
        gsm.extend(imported_contacts(&imported.get_untracked()));
        let request = ListRequest { name: Some(name.get_untracked()), list_id: None, contacts: ContactsDto { gsm } };
        let navigate = navigate.clone();
        spawn_local(async move {
            match api.post::<_, ListSavedResponse>("/list", &request).await {
                Ok(saved) => navigate(&format!("/app/lists/{}", saved.id), Default::default()),
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let on_import = Callback::new(move |contacts: Vec<ImportedContact>| imported.set(contacts));
    let rows = move || {
        page.get().and_then(Result::ok).map(|answer| {
            rows_or(answer.lists, 2, t().empty, |l| {
                view! {
                    <tr>
                        <td><A href=format!("/app/lists/{}", l.id)>{l.name}</A></td>
                        <td class="num">{format::integer(lang.get(), l.contacts)}</td>
                    </tr>
                }
            })
        })
    };

    view! {
        <h1>{move || t().lists_title}</h1>
        <ErrorAlert error=load_error />
        <div class="table-wrap">
            <table>
                <thead><tr><th scope="col">{move || t().list_name}</th><th scope="col" class="num">{move || t().size}</th></tr></thead>
                <tbody><Suspense fallback=move || view! { <tr><td colspan="2">{t().loading}</td></tr> }>{rows}</Suspense></tbody>
            </table>
        </div>
        <Pager paging total />
        <section class="card">
            <h2>{move || t().new_list}</h2>
            <form on:submit=create>
                <label for="list-name">{move || t().list_name}</label>
                <input id="list-name" required maxlength="255" aria-describedby="list-name-problem"
                    prop:value=move || name.get() on:input=move |ev| name.set(event_target_value(&ev)) />
                <FieldProblem error=error field="name" id="list-name-problem" />
                <label for="list-numbers">{move || t().paste_numbers}</label>
                <textarea id="list-numbers" rows="4" aria-describedby="list-numbers-hint"
                    prop:value=move || pasted.get() on:input=move |ev| pasted.set(event_target_value(&ev))></textarea>
                <p class="hint" id="list-numbers-hint">{move || t().recipients_hint}</p>
                <details class="import">
                    <summary>{move || t().import_csv}</summary>
                    <CsvImporter with_info=true on_done=on_import />
                </details>
                <ErrorAlert error=error />
                <button type="submit" class="primary">{move || t().create_list}</button>
            </form>
        </section>
    }
}
