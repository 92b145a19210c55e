//! Templates: the team's templates by name, each with its message, who last changed it and
//! when; rename or rewrite one, start a campaign from it in Compose, or delete it. Templates are
//! made in Compose ("Save as a template").

use leptos::{prelude::*, task::spawn_local};
use leptos_router::components::A;
use texto_core::wire::{StatusResponse, TemplateDto, TemplateRequest, TemplateResponse, TemplatesResponse};

use crate::{
    api::{ApiError, use_api},
    components::{errors::ErrorAlert, field::TextField, table::rows_or},
    format,
    i18n::{use_lang, use_texts},
};

/// The form that changes the template being edited.
#[component]
fn TemplateForm(template: TemplateDto, saved: Callback<()>, cancel: Callback<()>) -> impl IntoView {
    let (t, api) = (use_texts(), use_api());
    let name = RwSignal::new(template.name.clone().unwrap_or_default());
    let text = RwSignal::new(template.text.clone().unwrap_or_default());
    let error = RwSignal::new(None::<ApiError>);
    let id = template.id.clone().unwrap_or_default();
    let save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let template =
            TemplateDto { name: Some(name.get_untracked()), text: Some(text.get_untracked()), ..template.clone() };
        let path = format!("/template/{id}");
        spawn_local(async move {
            match api.put::<_, TemplateResponse>(&path, &TemplateRequest { template }).await {
                Ok(_) => saved.run(()),
                Err(e) => error.set(Some(e)),
            }
        });
    };
    view! {
        <form class="card" on:submit=save>
            <TextField id="template-edit-name" label=Signal::derive(move || t().template_name) value=name error field="template.name" required=true />
            <div class="field">
                <label for="template-edit-text">{move || t().message}</label>
                <textarea id="template-edit-text" rows="4" prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev))></textarea>
            </div>
            <ErrorAlert error=error />
            <div class="buttons">
                <button type="submit" class="primary">{move || t().save}</button>
                <button type="button" on:click=move |_| cancel.run(())>{move || t().cancel}</button>
            </div>
        </form>
    }
}

/// The templates page.
#[component]
pub fn Templates() -> impl IntoView {
    let (t, lang, api) = (use_texts(), use_lang(), use_api());
    let version = RwSignal::new(0u32);
    let editing = RwSignal::new(None::<TemplateDto>);
    let error = RwSignal::new(None::<ApiError>);
    let all = LocalResource::new(move || {
        version.track();
        async move { api.get::<TemplatesResponse>("/templates").await.map(|a| a.templates) }
    });
    let load_error = Signal::derive(move || all.get().and_then(Result::err));
    let delete = move |template: TemplateDto| {
        if !window().confirm_with_message(t().delete_template_confirm).unwrap_or(false) {
            return;
        }
        let path = format!("/template/{}", template.id.unwrap_or_default());
        spawn_local(async move {
            match api.delete::<StatusResponse>(&path).await {
                Ok(_) => version.update(|v| *v += 1),
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let rows = move || {
        all.get().and_then(Result::ok).map(|templates| {
            rows_or(templates, 5, t().no_templates_page, move |template: TemplateDto| {
                let name = template.name.clone().unwrap_or_default();
                let (edit, remove) = (template.clone(), template.clone());
                let id = template.id.clone().unwrap_or_default();
                let marketing = template.pushtype.as_deref() == Some("marketing");
                let changed = format!(
                    "{} · {}",
                    template.updated_at.as_deref().map(|at| format::wire_date(lang.get(), at)).unwrap_or_default(),
                    template.author.clone().unwrap_or_default()
                );
                view! {
                    <tr>
                        <th scope="row" data-label=t().template_name>{name.clone()}</th>
                        <td data-label=t().message class="text">{template.text.clone().unwrap_or_default()}</td>
                        <td data-label=t().pushtype>{if marketing { t().marketing } else { t().alert }}</td>
                        <td data-label=t().last_change>{changed}</td>
                        <td class="actions">
                            <A href=format!("/app/compose?template={id}") attr:aria-label=format!("{} {name}", t().use_template)>{t().use_template}</A>
                            " "
                            <button type="button" aria-label=format!("{} {name}", t().edit) on:click=move |_| editing.set(Some(edit.clone()))>{t().edit}</button>
                            " "
                            <button type="button" class="danger" aria-label=format!("{} {name}", t().delete) on:click=move |_| delete(remove.clone())>{t().delete}</button>
                        </td>
                    </tr>
                }
            })
        })
    };
    view! {
        <h1>{move || t().templates}</h1>
        <p class="hint">{move || t().templates_intro}</p>
        <ErrorAlert error=load_error />
        <ErrorAlert error=error />
        {move || editing.get().map(|template| {
            let done = Callback::new(move |_| { editing.set(None); version.update(|v| *v += 1); });
            let cancel = Callback::new(move |_| editing.set(None));
            view! { <TemplateForm template saved=done cancel /> }
        })}
        <div class="table-wrap">
            <table class="templates stack">
                <thead><tr>
                    <th scope="col">{move || t().template_name}</th>
                    <th scope="col">{move || t().message}</th>
                    <th scope="col">{move || t().pushtype}</th>
                    <th scope="col">{move || t().last_change}</th>
                    <th scope="col"><span class="visually-hidden">{move || t().actions}</span></th>
                </tr></thead>
                <tbody>
                    <Suspense fallback=move || view! { <tr><td colspan="5">{t().loading}</td></tr> }>{rows}</Suspense>
                </tbody>
            </table>
        </div>
    }
}
