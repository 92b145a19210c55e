//! Sign-up pages: the account's hosted forms (`/join/{slug}`), each with how many sign-ups it
//! confirmed; the form below sets one (checked in the page by texto-core as the server checks
//! it): its address, what it says, the fields it asks, the list a confirmed number joins and
//! the consent the visitor ticks.

use leptos::{prelude::*, task::spawn_local};
use texto_core::{
    SignupPage,
    wire::{ListsResponse, SignupPageDto, SignupPageRequest, SignupPageResponse, SignupPagesResponse, StatusResponse},
};

use crate::{
    api::{ApiError, Paging, use_api, with_query},
    components::{errors::ErrorAlert, field::TextField, table::rows_or},
    i18n::use_texts,
};

/// The errors texto-core finds in `page`, as the server would answer them.
fn checked(page: &SignupPageDto) -> Result<(), ApiError> {
    SignupPage::parse(page).map(|_| ()).map_err(|errors| ApiError {
        http: 422,
        status: -7,
        message: "Invalid data".into(),
        problems: errors.into_iter().map(|e| (e.path, e.message)).collect(),
    })
}

/// The sign-up pages page.
#[component]
pub fn SignupPages() -> impl IntoView {
    let (t, api) = (use_texts(), use_api());
    let version = RwSignal::new(0u32);
    let pages = LocalResource::new(move || {
        version.track();
        async move { api.get::<SignupPagesResponse>("/signup-pages").await }
    });
    let lists = LocalResource::new(move || async move {
        api.get::<ListsResponse>(&with_query("/lists", Paging::first(1000), &[]))
            .await
            .map(|a| a.lists)
            .unwrap_or_default()
    });
    let list_name = move |id: &str| {
        lists.get().and_then(|all| all.iter().find(|l| l.id == id).map(|l| l.name.clone())).unwrap_or_default()
    };
    let editing = RwSignal::new(None::<String>);
    let (slug, title, text, fields, list, consent) = (
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
    );
    let error = RwSignal::new(None::<ApiError>);
    let fill = move |page: Option<SignupPageDto>| {
        let page = page.unwrap_or_default();
        slug.set(page.slug.clone().unwrap_or_default());
        title.set(page.title.clone().unwrap_or_default());
        text.set(page.text.clone().unwrap_or_default());
        fields.set(page.fields.join(", "));
        list.set(page.list.clone().unwrap_or_default());
        consent.set(page.consent_text.clone().unwrap_or_default());
        editing.set(page.id);
        error.set(None);
    };
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let page = SignupPageDto {
            slug: Some(slug.get_untracked()),
            title: Some(title.get_untracked()),
            text: Some(text.get_untracked()),
            fields: fields
                .with_untracked(|f| f.split(',').map(str::trim).filter(|f| !f.is_empty()).map(str::to_owned).collect()),
            list: Some(list.get_untracked()),
            consent_text: Some(consent.get_untracked()),
            ..SignupPageDto::default()
        };
        if let Err(problems) = checked(&page) {
            error.set(Some(problems));
            return;
        }
        let id = editing.get_untracked();
        spawn_local(async move {
            let request = SignupPageRequest { signup_page: page };
            let saved = match &id {
                Some(id) => api.put::<_, SignupPageResponse>(&format!("/signup-page/{id}"), &request).await,
                None => api.post::<_, SignupPageResponse>("/signup-page", &request).await,
            };
            match saved {
                Ok(_) => {
                    fill(None);
                    version.update(|v| *v += 1);
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let remove = move |id: String| {
        spawn_local(async move {
            match api.delete::<StatusResponse>(&format!("/signup-page/{id}")).await {
                Ok(_) => version.update(|v| *v += 1),
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let load_error = Signal::derive(move || pages.get().and_then(Result::err));
    let table = move || {
        pages.get().and_then(Result::ok).map(|answer| {
            rows_or(answer.signup_pages, 6, t().no_signup_pages, move |page| {
                let address = page.address.clone().unwrap_or_default();
                let shown = page.title.clone().unwrap_or_default();
                let (edit_label, delete_label) = (format!("{} {shown}", t().edit), format!("{} {shown}", t().delete));
                let list = list_name(page.list.as_deref().unwrap_or(""));
                let (picked, id) = (page.clone(), page.id.clone().unwrap_or_default());
                view! {
                    <tr>
                        <td data-label=t().signup_address class="text">
                            <a href=address.clone() target="_blank" rel="noopener">{address.clone()}</a>
                        </td>
                        <td data-label=t().signup_title class="text">{shown.clone()}</td>
                        <td data-label=t().signup_list class="text">{list}</td>
                        <td data-label=t().signup_confirmed>{page.confirmed.unwrap_or(0)}</td>
                        <td data-label=t().signup_unconfirmed>{page.unconfirmed.unwrap_or(0)}</td>
                        <td data-label=t().actions class="actions">
                            <span class="buttons">
                                <button type="button" class="small" aria-label=edit_label on:click=move |_| fill(Some(picked.clone()))>{t().edit}</button>
                                <button type="button" class="small danger" aria-label=delete_label on:click=move |_| remove(id.clone())>{t().delete}</button>
                            </span>
                        </td>
                    </tr>
                }
            })
        })
    };
    view! {
        <h1>{move || t().signup_pages_title}</h1>
        <p class="hint">{move || t().signup_pages_intro}</p>
        <ErrorAlert error=load_error />
        <div class="table-wrap">
            <table class="stack" data-testid="signup-pages">
                <thead><tr>
                    <th scope="col">{move || t().signup_address}</th><th scope="col">{move || t().signup_title}</th>
                    <th scope="col">{move || t().signup_list}</th><th scope="col">{move || t().signup_confirmed}</th>
                    <th scope="col">{move || t().signup_unconfirmed}</th><th scope="col">{move || t().actions}</th>
                </tr></thead>
                <tbody><Suspense fallback=move || view! { <tr><td colspan="6">{t().loading}</td></tr> }>{table}</Suspense></tbody>
            </table>
        </div>
        <section class="card" aria-labelledby="signup-editor-title">
            <h2 id="signup-editor-title">{move || if editing.with(Option::is_some) { t().edit_signup_page } else { t().new_signup_page }}</h2>
            <form on:submit=submit>
                <TextField id="signup-slug" label=Signal::derive(move || t().signup_slug) value=slug error field="signup_page.slug" required=true placeholder="club" />
                <TextField id="signup-title" label=Signal::derive(move || t().signup_title) value=title error field="signup_page.title" required=true />
                <div class="field">
                    <label for="signup-text">{move || t().signup_text}</label>
                    <textarea id="signup-text" rows="2" prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev))></textarea>
                </div>
                <TextField id="signup-fields" label=Signal::derive(move || t().signup_fields) value=fields error field="signup_page.fields" placeholder="firstname, city" />
                <div class="field">
                    <label for="signup-list">{move || t().signup_list}</label>
                    <select id="signup-list" required on:change=move |ev| list.set(event_target_value(&ev))>
                        <option value="" selected=move || list.get().is_empty()>{move || t().pick_list}</option>
                        {move || lists.get().unwrap_or_default().into_iter().map(|l| {
                            let id = l.id.clone();
                            view! { <option value=l.id.clone() selected=move || list.get() == id>{l.name.clone()}</option> }
                        }).collect_view()}
                    </select>
                </div>
                <div class="field">
                    <label for="signup-consent">{move || t().signup_consent}</label>
                    <textarea id="signup-consent" rows="2" required aria-describedby="signup-consent-hint" prop:value=move || consent.get()
                        on:input=move |ev| consent.set(event_target_value(&ev))></textarea>
                    <p class="hint" id="signup-consent-hint">{move || t().signup_consent_hint}</p>
                </div>
                <ErrorAlert error=error />
                <button type="submit" class="primary">{move || t().save}</button>
                <Show when=move || editing.with(Option::is_some)>
                    <button type="button" on:click=move |_| fill(None)>{move || t().cancel}</button>
                </Show>
            </form>
        </section>
    }
}
