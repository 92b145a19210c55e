//! The blacklist and the NPAI list: the same screen over `/blacklist` and `/npai` — search,
//! paging, add and remove.

use leptos::{prelude::*, task::spawn_local};
use leptos_router::components::A;
use texto_core::wire::{
    AddedContactsResponse, BlacklistAddRequest, ContactsDto, NpaiAddRequest, NumberListResponse, StatusResponse,
};

use crate::{
    api::{Api, ApiError, Paging, use_api, with_query},
    components::{errors::ErrorAlert, field::TextField, pager::Pager, table::rows_or},
    format,
    i18n::{Texts, use_lang, use_texts},
    pages::lists::pasted_contacts,
};

/// Entries per page.
const PAGE: i64 = 50;

/// Which of the two lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Blacklist,
    Npai,
}

impl Kind {
    fn path(self) -> &'static str {
        match self {
            Kind::Blacklist => "/blacklist",
            Kind::Npai => "/npai",
        }
    }
    fn title(self, t: &Texts) -> &'static str {
        match self {
            Kind::Blacklist => t.blacklist_title,
            Kind::Npai => t.npai_title,
        }
    }
    fn intro(self, t: &Texts) -> &'static str {
        match self {
            Kind::Blacklist => t.blacklist_intro,
            Kind::Npai => t.npai_intro,
        }
    }
    async fn add(self, api: Api, contacts: ContactsDto) -> Result<AddedContactsResponse, ApiError> {
        match self {
            Kind::Blacklist => api.post(self.path(), &BlacklistAddRequest { contacts }).await,
            Kind::Npai => api.post(self.path(), &NpaiAddRequest { contacts }).await,
        }
    }
}

/// The blacklist page.
#[component]
pub fn Blacklist() -> impl IntoView {
    view! { <NumberList kind=Kind::Blacklist /> }
}

/// The NPAI page.
#[component]
pub fn Npai() -> impl IntoView {
    view! { <NumberList kind=Kind::Npai /> }
}

#[component]
fn NumberList(kind: Kind) -> impl IntoView {
    let t = use_texts();
    let lang = use_lang();
    let api = use_api();
    let paging = RwSignal::new(Paging::first(PAGE));
    let search = RwSignal::new(String::new());
    let version = RwSignal::new(0u32);
    let page = LocalResource::new(move || {
        version.track();
        let path = with_query(kind.path(), paging.get(), &[("search", &search.get())]);
        async move { api.get::<NumberListResponse>(&path).await }
    });
    let total = Signal::derive(move || page.get().and_then(Result::ok).map_or(0, |p| p.total_display_records));
    let load_error = Signal::derive(move || page.get().and_then(Result::err));
    let number = RwSignal::new(String::new());
    let error = RwSignal::new(None::<ApiError>);
    let add = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let contacts = ContactsDto { gsm: pasted_contacts(&number.get_untracked()) };
        spawn_local(async move {
            match kind.add(api, contacts).await {
                Ok(_) => {
                    error.set(None);
                    number.set(String::new());
                    version.update(|v| *v += 1);
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let remove = move |destination: String| {
        spawn_local(async move {
            match api.delete::<StatusResponse>(&format!("{}/{destination}", kind.path())).await {
                Ok(_) => version.update(|v| *v += 1),
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let rows = move || {
        page.get().and_then(Result::ok).map(|answer| {
            rows_or(answer.list, 5, t().empty, |entry| {
                let destination = entry.destination.clone();
                view! {
                    <tr>
                        <td>{entry.destination.clone()}</td>
                        <td>{format::wire_date(lang.get(), &entry.date)}</td>
                        <td>{entry.campaign_id.map(|c| view! { <A href=format!("/app/campaigns/{c}")>{c}</A> })}</td>
                        <td>{source_label(t(), entry.source.as_deref())}</td>
                        <td><button type="button" class="small danger" aria-label=format!("{} {}", t().remove, entry.destination)
                            on:click=move |_| remove(destination.clone())>{t().remove}</button></td>
                    </tr>
                }
            })
        })
    };

    view! {
        <h1>{move || kind.title(t())}</h1>
        <p>{move || kind.intro(t())}</p>
        <form on:submit=add class="row">
            <div class="field">
                <TextField id="add-number" label=Signal::derive(move || t().add_number) value=number error field="contacts" inputmode="tel" placeholder="33612345678" required=true />
            </div>
            <button type="submit">{move || t().add}</button>
        </form>
        <ErrorAlert error=load_error />
        <ErrorAlert error=error />
        <div class="field">
            <label for="number-search">{move || t().search_number}</label>
            <input id="number-search" type="search" inputmode="tel" prop:value=move || search.get()
                on:input=move |ev| { search.set(event_target_value(&ev)); paging.update(|p| p.start = 0); } />
        </div>
        <div class="table-wrap">
            <table>
                <thead><tr>
                    <th scope="col">{move || t().number}</th><th scope="col">{move || t().date}</th>
                    <th scope="col">{move || t().campaign_word}</th><th scope="col">{move || t().source}</th>
                    <th scope="col">{move || t().actions}</th>
                </tr></thead>
                <tbody><Suspense fallback=move || view! { <tr><td colspan="5">{t().loading}</td></tr> }>{rows}</Suspense></tbody>
            </table>
        </div>
        <Pager paging total />
    }
}

/// Who added an entry, in words.
fn source_label(t: &'static Texts, source: Option<&str>) -> &'static str {
    match source {
        Some("stop") => t.source_stop,
        Some("receipt") => t.source_receipt,
        _ => t.source_api,
    }
}
