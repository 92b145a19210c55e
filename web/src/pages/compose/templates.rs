//! Templates in Compose: start from one of the team's templates (its message replaces the
//! draft's, the recipients stay; `?template=ID`, the Templates page's "Use", does it on
//! arrival), or keep the message being written as a new template.

use leptos::{prelude::*, task::spawn_local};
use leptos_router::hooks::use_query_map;
use texto_core::wire::{TemplateDto, TemplateRequest, TemplateResponse, TemplatesResponse};

use crate::{
    api::{ApiError, use_api},
    components::errors::ErrorAlert,
    draft::Draft,
    i18n::use_texts,
};

/// The template picker and "Save as a template".
#[component]
pub fn TemplatePicker(draft: RwSignal<Draft>) -> impl IntoView {
    let t = use_texts();
    let api = use_api();
    let templates = RwSignal::new(Vec::<TemplateDto>::new());
    let error = RwSignal::new(None::<ApiError>);
    let notice = RwSignal::new(None::<String>);
    let name = RwSignal::new(String::new());
    let load = move || {
        spawn_local(async move {
            match api.get::<TemplatesResponse>("/templates").await {
                Ok(answer) => templates.set(answer.templates),
                Err(e) => error.set(Some(e)),
            }
        })
    };
    load();
    let asked = use_query_map().with_untracked(|q| q.get("template"));
    let start_from = move |id: String| {
        let Some(chosen) = templates.with_untracked(|all| all.iter().find(|t| t.id.as_deref() == Some(&id)).cloned())
        else {
            return;
        };
        draft.update(|d| {
            d.set_text(chosen.text.clone().unwrap_or_default());
            d.links = chosen.links.clone();
            d.marketing = chosen.pushtype.as_deref() == Some("marketing");
            d.sender = chosen.sender.clone().unwrap_or_default();
            d.template = chosen.id.clone();
        });
        notice.set(Some(format!("{} {}", t().template_used, chosen.name.unwrap_or_default())));
    };
    // The template the address names, once the templates are here.
    if let Some(id) = asked {
        Effect::new(move |done: Option<bool>| {
            let ready = !templates.with(Vec::is_empty);
            if ready && done != Some(true) {
                start_from(id.clone());
            }
            ready || done == Some(true)
        });
    }
    let save = move |_| {
        let template = draft.with_untracked(|d| TemplateDto {
            name: Some(name.get_untracked()),
            text: Some(d.text.clone()),
            pushtype: Some(d.pushtype().as_str().to_owned()),
            sender: (!d.sender.trim().is_empty()).then(|| d.sender.trim().to_owned()),
            links: d.links.iter().map(|l| l.trim().to_owned()).collect(),
            ..TemplateDto::default()
        });
        spawn_local(async move {
            match api.post::<_, TemplateResponse>("/template", &TemplateRequest { template }).await {
                Ok(saved) => {
                    error.set(None);
                    name.set(String::new());
                    notice.set(Some(format!("{} {}", t().template_saved, saved.template.name.unwrap_or_default())));
                    load();
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    view! {
        <section class="templates" aria-label=move || t().templates>
            <div class="row">
                <div class="field">
                    <label for="template">{move || t().start_from_template}</label>
                    <select id="template" on:change=move |ev| start_from(event_target_value(&ev))>
                        <option value="">{move || if templates.with(Vec::is_empty) { t().no_templates } else { t().choose_template }}</option>
                        <For each=move || templates.get() key=|t| t.id.clone() let:template>
                            <option value=template.id.clone().unwrap_or_default()>{template.name.clone().unwrap_or_default()}</option>
                        </For>
                    </select>
                </div>
                <div class="field">
                    <label for="template-name">{move || t().template_name}</label>
                    <input id="template-name" autocomplete="off" maxlength="100"
                        prop:value=move || name.get() on:input=move |ev| name.set(event_target_value(&ev)) />
                </div>
                <button type="button" on:click=save
                    disabled=move || name.with(|n| n.trim().is_empty()) || draft.with(|d| d.text.trim().is_empty())>
                    {move || t().save_as_template}
                </button>
            </div>
            <ErrorAlert error=error />
            {move || notice.get().map(|n| view! { <p class="alert ok" role="status">{n}</p> })}
        </section>
    }
}
