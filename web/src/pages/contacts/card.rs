//! One contact (`/app/contacts/:number`): its names, tags, custom fields and consent (edited),
//! the lists holding it, what was sent to it and what it answered; the download of everything
//! held (GDPR art. 20) and the erasure (art. 17).

use std::collections::BTreeMap;

use leptos::{prelude::*, task::spawn_local};
use leptos_router::hooks::{use_navigate, use_params_map};
use texto_core::wire::{
    ConsentDto, ContactCardDto, ContactCardRequest, ContactCardsResponse, ContactExportResponse, StatusResponse,
};

use super::consent_label;
use crate::{
    api::{ApiError, use_api},
    components::{download::download_file, errors::ErrorAlert, field::TextField},
    format,
    i18n::{use_lang, use_texts},
};

/// Custom fields as the form shows them: `name: value`, one per line.
fn fields_text(fields: &BTreeMap<String, String>) -> String {
    fields.iter().map(|(name, value)| format!("{name}: {value}")).collect::<Vec<_>>().join("\n")
}

/// Custom fields typed in the form.
fn fields_of(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_lowercase(), value.trim().to_owned()))
        .filter(|(name, _)| !name.is_empty())
        .collect()
}

/// The contact page.
#[component]
pub fn ContactCard() -> impl IntoView {
    let (t, lang, api) = (use_texts(), use_lang(), use_api());
    let params = use_params_map();
    let number = move || params.with(|p| p.get("number").unwrap_or_default());
    let version = RwSignal::new(0u32);
    let export = LocalResource::new(move || {
        version.track();
        let path = format!("/contact/{}", number());
        async move { api.get::<ContactExportResponse>(&path).await }
    });
    let (firstname, lastname, tags, fields, proof) = (
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
    );
    let opt_in = RwSignal::new(false);
    let (error, saved, confirming) = (RwSignal::new(None::<ApiError>), RwSignal::new(false), RwSignal::new(false));
    Effect::new(move |_| {
        if let Some(Ok(answer)) = export.get() {
            let c = answer.contact;
            firstname.set(c.firstname.unwrap_or_default());
            lastname.set(c.lastname.unwrap_or_default());
            tags.set(c.tags.unwrap_or_default().join(", "));
            fields.set(fields_text(&c.fields.unwrap_or_default()));
        }
    });
    let save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let consent = opt_in.get_untracked().then(|| ConsentDto {
            source: Some("api".to_owned()),
            proof: Some(proof.get_untracked()),
            ..ConsentDto::default()
        });
        let request = ContactCardRequest {
            contact: ContactCardDto {
                firstname: Some(firstname.get_untracked()),
                lastname: Some(lastname.get_untracked()),
                tags: Some(
                    tags.get_untracked()
                        .split(',')
                        .map(|tag| tag.trim().to_owned())
                        .filter(|t| !t.is_empty())
                        .collect(),
                ),
                fields: Some(fields_of(&fields.get_untracked())),
                consent,
                ..ContactCardDto::default()
            },
        };
        saved.set(false);
        let path = format!("/contact/{}", number());
        spawn_local(async move {
            match api.put::<_, ContactCardsResponse>(&path, &request).await {
                Ok(_) => {
                    error.set(None);
                    saved.set(true);
                    opt_in.set(false);
                    version.update(|v| *v += 1);
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let download = move |_| {
        if let Some(Ok(answer)) = export.get_untracked() {
            let json = serde_json::to_string_pretty(&answer).unwrap_or_default();
            download_file(&format!("contact-{}.json", number()), "application/json", &json);
        }
    };
    let navigate = use_navigate();
    let erase = move |_| {
        let path = format!("/contact/{}", number());
        let navigate = navigate.clone();
        spawn_local(async move {
            match api.delete::<StatusResponse>(&path).await {
                Ok(_) => navigate("/app/contacts", Default::default()),
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let load_error = Signal::derive(move || export.get().and_then(Result::err));
    let details = move || {
        export.get().and_then(Result::ok).map(|answer| {
            let consent = consent_label(t(), lang.get(), &answer.contact);
            let proof = answer.contact.consent.as_ref().and_then(|c| c.proof.clone()).unwrap_or_default();
            let lists = answer.lists.iter().map(|m| view! {
                <li><a href=format!("/app/lists/{}", m.list_id)>{m.name.clone()}</a></li>
            }).collect_view();
            // One timeline, newest first: what was sent, what came back, and the clicks (the
            // wire's dates are Paris `Y-m-d H:i:s`, which sort as texts).
            let mut timeline: Vec<(String, &'static str, String, String)> = Vec::new();
            timeline.extend(answer.messages.iter().map(|m| (m.date.clone(), t().timeline_sent, m.message.clone(), m.status.clone())));
            timeline.extend(answer.replies.iter().map(|r| (r.date.clone(), t().timeline_reply, r.message.clone(), "—".to_owned())));
            timeline.extend(answer.clicks.iter().map(|c| {
                (c.date.clone(), t().timeline_click, format!("{} {}", t().campaign_word, c.campaign_id), "—".to_owned())
            }));
            timeline.sort_by(|a, b| b.0.cmp(&a.0));
            let rows = timeline.into_iter().map(|(date, kind, text, status)| view! {
                <tr>
                    <td data-label=t().date>{format::wire_date(lang.get(), &date)}</td>
                    <td data-label=t().timeline_kind>{kind}</td>
                    <td data-label=t().message class="text">{text}</td>
                    <td data-label=t().status>{status}</td>
                </tr>
            }).collect_view();
            view! {
                <p data-testid="consent"><strong>{t().consent}": "</strong>{consent}{(!proof.is_empty()).then(|| format!(" — « {proof} »"))}</p>
                <p>{format!("{}: {} · {}: {}", t().contact_clicks, answer.clicks.len(), t().blacklist_short, if answer.blacklisted == 1 { t().yes } else { t().no })}</p>
                <h2>{t().contact_lists}</h2>
                <ul>{lists}</ul>
                <h2>{t().contact_history}</h2>
                <div class="table-wrap">
                    <table class="stack">
                        <thead><tr>
                            <th scope="col">{t().date}</th><th scope="col">{t().timeline_kind}</th>
                            <th scope="col">{t().message}</th><th scope="col">{t().status}</th>
                        </tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
            }
        })
    };
    view! {
        <h1>{move || format!("{} {}", t().contact_title, number())}</h1>
        <ErrorAlert error=load_error />
        <section class="card" aria-labelledby="contact-details-title">
            <h2 id="contact-details-title">{move || t().contact_details}</h2>
            <form on:submit=save>
                <div class="row">
                    <div class="field grow"><TextField id="contact-firstname" label=Signal::derive(move || t().firstname) value=firstname error field="contact.firstname" /></div>
                    <div class="field grow"><TextField id="contact-lastname" label=Signal::derive(move || t().lastname) value=lastname error field="contact.lastname" /></div>
                </div>
                <TextField id="contact-tags" label=Signal::derive(move || t().contact_tags) value=tags error field="contact.tags" placeholder="vip, newsletter" />
                <div class="field">
                    <label for="contact-fields">{move || t().contact_fields}</label>
                    <textarea id="contact-fields" rows="3" aria-describedby="contact-fields-hint" prop:value=move || fields.get()
                        on:input=move |ev| fields.set(event_target_value(&ev))></textarea>
                    <p class="hint" id="contact-fields-hint">{move || t().contact_fields_hint}</p>
                </div>
                <label class="check">
                    <input type="checkbox" prop:checked=move || opt_in.get() on:change=move |ev| opt_in.set(event_target_checked(&ev)) />
                    {move || t().record_opt_in}
                </label>
                <Show when=move || opt_in.get()>
                    <TextField id="contact-proof" label=Signal::derive(move || t().consent_proof) value=proof error field="contact.consent.proof" required=true />
                </Show>
                <ErrorAlert error=error />
                <Show when=move || saved.get()><p class="alert ok" role="status">{move || t().saved}</p></Show>
                <button type="submit" class="primary">{move || t().save}</button>
            </form>
            <Suspense fallback=move || view! { <p>{t().loading}</p> }>{details}</Suspense>
        </section>
        <section class="card" aria-labelledby="contact-data-title">
            <h2 id="contact-data-title">{move || t().contact_data}</h2>
            <p class="hint">{move || t().contact_data_hint}</p>
            <div class="buttons">
                <button type="button" on:click=download>{move || t().download_data}</button>
                <button type="button" class="danger" on:click=move |_| confirming.set(true)>{move || t().erase_contact}</button>
            </div>
            <Show when=move || confirming.get()>
                <div class="alert error" role="alert">
                    <p>{move || t().erase_warning}</p>
                    <div class="buttons">
                        <button type="button" class="danger" on:click=erase.clone()>{move || t().erase_confirm}</button>
                        <button type="button" on:click=move |_| confirming.set(false)>{move || t().cancel}</button>
                    </div>
                </div>
            </Show>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn fields_are_read_one_per_line_as_name_and_value() {
        let fields = fields_of("City: Lyon\nbirthday : 1990-04-01\nno colon\n: orphan");
        assert_eq!(fields.len(), 2);
        assert_eq!(fields["city"], "Lyon");
        assert_eq!(fields_text(&fields), "birthday: 1990-04-01\ncity: Lyon");
    }
}
