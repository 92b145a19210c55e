//! One list: its contacts with search and paging, adding, editing and deleting contacts,
//! removing duplicates and NPAI numbers, deleting the list, and "Send to this list".

use leptos::{prelude::*, task::spawn_local};
use leptos_router::hooks::{use_navigate, use_params_map};
use texto_core::wire::{
    ContactDto, ContactsDto, ListContactDto, ListRequest, ListResponse, ListSavedResponse, RemovedResponse,
    StatusResponse,
};

use super::{contact_editor::ContactEditor, imported_contacts, pasted_contacts};
use crate::{
    api::{ApiError, Paging, use_api, with_query},
    components::{errors::ErrorAlert, importer::CsvImporter, pager::Pager},
    draft::Draft,
    format,
    i18n::{use_lang, use_texts},
    import::ImportedContact,
};

/// Contacts per page.
const PAGE: i64 = 50;

/// The page of `/app/lists/:id`.
#[component]
pub fn ListDetail() -> impl IntoView {
    let t = use_texts();
    let lang = use_lang();
    let api = use_api();
    let params = use_params_map();
    let id = move || params.with(|p| p.get("id").unwrap_or_default());
    let paging = RwSignal::new(Paging::first(PAGE));
    let search = RwSignal::new(String::new());
    let version = RwSignal::new(0u32);
    let page = LocalResource::new(move || {
        version.track();
        let path = with_query(&format!("/list/{}", id()), paging.get(), &[("search", &search.get())]);
        async move { api.get::<ListResponse>(&path).await }
    });
    let total = Signal::derive(move || page.get().and_then(Result::ok).map_or(0, |p| p.total_display_records));
    let load_error = Signal::derive(move || page.get().and_then(Result::err));
    let error = RwSignal::new(None::<ApiError>);
    let saved = RwSignal::new(None::<String>);

    let remove_contact = move |contact: String| {
        spawn_local(async move {
            match api.delete::<StatusResponse>(&format!("/list/{}/contact/{contact}", id())).await {
                Ok(_) => version.update(|v| *v += 1),
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let add = move |gsm: Vec<ContactDto>| {
        let request = ListRequest { name: None, list_id: None, contacts: ContactsDto { gsm } };
        spawn_local(async move {
            match api.put::<_, ListSavedResponse>(&format!("/list/{}", id()), &request).await {
                Ok(answer) => {
                    error.set(None);
                    saved.set(Some(format::added(
                        lang.get_untracked(),
                        answer.contacts,
                        answer.invalid,
                        answer.duplicates,
                    )));
                    version.update(|v| *v += 1);
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    // "Remove duplicates" and "Remove NPAI numbers": each says how many contacts went.
    let upkeep = move |path: String| {
        spawn_local(async move {
            match api.put_empty::<RemovedResponse>(&path).await {
                Ok(answer) => {
                    error.set(None);
                    saved.set(Some(format::removed(lang.get_untracked(), answer.removed)));
                    version.update(|v| *v += 1);
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let editing = RwSignal::new(None::<ListContactDto>);
    let edited = Callback::new(move |saved_it: bool| {
        editing.set(None);
        if saved_it {
            version.update(|v| *v += 1);
        }
    });
    let number = RwSignal::new(String::new());
    let info1 = RwSignal::new(String::new());
    let add_one = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let mut contacts = pasted_contacts(&number.get_untracked());
        let info = info1.get_untracked();
        for contact in &mut contacts {
            contact.info1 = (!info.is_empty()).then(|| info.clone());
        }
        add(contacts);
        number.set(String::new());
        info1.set(String::new());
    };
    let on_import = Callback::new(move |contacts: Vec<ImportedContact>| add(imported_contacts(&contacts)));
    let navigate = use_navigate();
    let send_to = {
        let navigate = navigate.clone();
        move |_| {
            let navigate = navigate.clone();
            let draft = Draft { to_lists: true, lists: vec![id()], ..Draft::default() };
            spawn_local(async move {
                match crate::drafts::save(api, None, &draft.request()).await {
                    Ok(saved) => navigate(&format!("/app/compose?draft={}", saved.id), Default::default()),
                    Err(e) => error.set(Some(e)),
                }
            });
        }
    };
    let delete_list = move |_| {
        let confirmed = window().confirm_with_message(t().delete_list_confirm).unwrap_or(false);
        if !confirmed {
            return;
        }
        let navigate = navigate.clone();
        spawn_local(async move {
            match api.delete::<StatusResponse>(&format!("/list/{}", id())).await {
                Ok(_) => navigate("/app/lists", Default::default()),
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let name = move || page.get().and_then(Result::ok).map(|p| p.name).unwrap_or_default();
    let size = move || page.get().and_then(Result::ok).map_or(0, |p| p.contacts);
    let rows = move || {
        page.get().and_then(Result::ok).map(|answer| {
            answer
                .list
                .into_iter()
                .map(|c| {
                    let contact = c.id.clone();
                    let whole = c.clone();
                    let infos = [c.info1, c.info2, c.info3, c.info4].into_iter().flatten().collect::<Vec<_>>().join(" · ");
                    view! {
                        <tr>
                            <td>{c.destination.clone()}</td>
                            <td class="info">{infos}</td>
                            <td><div class="buttons">
                                <button type="button" class="small" aria-label=format!("{} {}", t().edit, c.destination)
                                    on:click=move |_| editing.set(Some(whole.clone()))>{t().edit}</button>
                                <button type="button" class="small danger" aria-label=format!("{} {}", t().delete, c.destination)
                                    on:click=move |_| remove_contact(contact.clone())>{t().delete}</button>
                            </div></td>
                        </tr>
                    }
                })
                .collect_view()
        })
    };

    view! {
        <h1>{name}</h1>
        <p>{move || format!("{} {}", format::integer(lang.get(), size()), t().contacts_word)}</p>
        <div class="buttons">
            <button type="button" class="primary" on:click=send_to>{move || t().send_to_list}</button>
            <button type="button" on:click=move |_| upkeep(format!("/list/deduplicate/{}", id()))>{move || t().remove_duplicates}</button>
            <button type="button" on:click=move |_| upkeep(format!("/list/{}/npai/clear", id()))>{move || t().remove_npai}</button>
            <button type="button" class="danger" on:click=delete_list>{move || t().delete_list}</button>
        </div>
        <ErrorAlert error=load_error />
        <ErrorAlert error=error />
        {move || saved.get().map(|s| view! { <p class="alert ok" role="status">{s}</p> })}
        <div class="field">
            <label for="contact-search">{move || t().search_contacts}</label>
            <input id="contact-search" type="search" prop:value=move || search.get()
                on:input=move |ev| { search.set(event_target_value(&ev)); paging.update(|p| p.start = 0); } />
        </div>
        <div class="table-wrap">
            <table>
                <thead><tr><th scope="col">{move || t().number}</th><th scope="col">"Info"</th><th scope="col">{move || t().actions}</th></tr></thead>
                <tbody><Suspense fallback=move || view! { <tr><td colspan="3">{t().loading}</td></tr> }>{rows}</Suspense></tbody>
            </table>
        </div>
        <Pager paging total />
        {move || editing.get().map(|contact| view! { <ContactEditor contact done=edited /> })}
        <section class="card">
            <h2>{move || t().add_contact}</h2>
            <form on:submit=add_one class="row">
                <div class="field">
                    <label for="contact-number">{move || t().number}</label>
                    <input id="contact-number" required inputmode="tel" prop:value=move || number.get() on:input=move |ev| number.set(event_target_value(&ev)) />
                </div>
                <div class="field">
                    <label for="contact-info1">{move || t().info1}</label>
                    <input id="contact-info1" prop:value=move || info1.get() on:input=move |ev| info1.set(event_target_value(&ev)) />
                </div>
                <button type="submit">{move || t().add}</button>
            </form>
            <details class="import">
                <summary>{move || t().import_csv}</summary>
                <CsvImporter with_info=true on_done=on_import />
            </details>
        </section>
    }
}
