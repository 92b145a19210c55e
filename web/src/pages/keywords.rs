//! Settings' "Keywords": the built-in STOP, START and HELP and the account's own keywords
//! ("reply OUI to join"), each with its automatic reply and action; adding, editing, deleting.

use leptos::{prelude::*, task::spawn_local};
use texto_core::wire::{
    KeywordActionDto, KeywordDto, KeywordRequest, KeywordResponse, KeywordsResponse, ListsResponse, StatusResponse,
};

use crate::{
    api::{ApiError, Paging, use_api, with_query},
    components::{errors::ErrorAlert, field::TextField},
    i18n::{Texts, use_texts},
};

/// The actions the form offers, by their wire `type` ("" for none).
const ACTIONS: [&str; 7] = ["", "add_to_list", "join_list", "remove_from_list", "tag", "blacklist", "unblacklist"];

/// An action's label.
fn action_label(t: &'static Texts, kind: &str) -> &'static str {
    match kind {
        "add_to_list" => t.action_add_to_list,
        "join_list" => t.action_join_list,
        "remove_from_list" => t.action_remove_from_list,
        "tag" => t.action_tag,
        "blacklist" => t.action_blacklist,
        "unblacklist" => t.action_unblacklist,
        _ => t.none,
    }
}

/// What a built-in keyword does by itself.
fn builtin_effect(t: &'static Texts, builtin: &str) -> &'static str {
    match builtin {
        "stop" => t.stop_effect,
        "start" => t.start_effect,
        _ => t.help_effect,
    }
}

/// The section.
#[component]
pub fn Keywords() -> impl IntoView {
    let (t, api) = (use_texts(), use_api());
    let version = RwSignal::new(0u32);
    let keywords = LocalResource::new(move || {
        version.track();
        async move { api.get::<KeywordsResponse>("/keywords").await }
    });
    let lists = LocalResource::new(move || async move {
        api.get::<ListsResponse>(&with_query("/lists", Paging::first(1000), &[]))
            .await
            .map(|a| a.lists)
            .unwrap_or_default()
    });
    let list_name = move |id: &str| {
        lists
            .get()
            .and_then(|lists| lists.iter().find(|l| l.id == id).map(|l| l.name.clone()))
            .unwrap_or_else(|| id.to_owned())
    };
    let load_error = Signal::derive(move || keywords.get().and_then(Result::err));
    let editing = RwSignal::new(None::<KeywordDto>);
    let (word, reply, action, list) = (
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
    );
    let tag = RwSignal::new(String::new());
    let error = RwSignal::new(None::<ApiError>);
    let fill = move |keyword: Option<KeywordDto>| {
        let first = keyword.as_ref().and_then(|k| k.actions.first().cloned()).unwrap_or_default();
        word.set(keyword.as_ref().and_then(|k| k.word.clone()).unwrap_or_default());
        reply.set(keyword.as_ref().and_then(|k| k.reply.clone()).unwrap_or_default());
        action.set(first.kind);
        list.set(first.list.unwrap_or_default());
        tag.set(first.value.unwrap_or_default());
        error.set(None);
        editing.set(keyword);
    };
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let edited = editing.get_untracked();
        let kind = action.get_untracked();
        let chosen = (!kind.is_empty()).then(|| KeywordActionDto {
            list: kind.ends_with("_list").then(|| list.get_untracked()),
            value: (kind == "tag").then(|| tag.get_untracked()),
            kind,
        });
        // The form shows the first action; any others set through the API are kept.
        let others = edited.as_ref().map(|k| k.actions.iter().skip(1).cloned().collect::<Vec<_>>()).unwrap_or_default();
        let builtin = edited.as_ref().is_some_and(|k| k.builtin.is_some());
        let request = KeywordRequest {
            keyword: KeywordDto {
                word: (!builtin).then(|| word.get_untracked()),
                reply: Some(reply.get_untracked()),
                actions: chosen.into_iter().chain(others).collect(),
                ..KeywordDto::default()
            },
        };
        spawn_local(async move {
            let saved = match edited.and_then(|k| k.id) {
                Some(id) => api.put::<_, KeywordResponse>(&format!("/keyword/{id}"), &request).await,
                None => api.post::<_, KeywordResponse>("/keyword", &request).await,
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
    let rows = move || {
        keywords.get().and_then(Result::ok).map(|answer| {
            answer
                .keywords
                .into_iter()
                .map(|keyword| view! { <KeywordRow keyword list_name version on_edit=fill /> })
                .collect_view()
        })
    };
    let is_builtin = move || editing.with(|k| k.as_ref().is_some_and(|k| k.builtin.is_some()));
    view! {
        <section class="card" aria-labelledby="keywords-title">
            <h2 id="keywords-title">{move || t().keywords_title}</h2>
            <p class="hint">{move || t().keywords_intro}</p>
            <ErrorAlert error=load_error />
            <div class="table-wrap">
                <table class="stack">
                    <thead><tr>
                        <th scope="col">{move || t().keyword_word}</th><th scope="col">{move || t().keyword_reply}</th>
                        <th scope="col">{move || t().keyword_action}</th><th scope="col">{move || t().actions}</th>
                    </tr></thead>
                    <tbody><Suspense fallback=move || view! { <tr><td colspan="4">{t().loading}</td></tr> }>{rows}</Suspense></tbody>
                </table>
            </div>
            <h3 class="form-title">{move || if editing.with(Option::is_some) { t().edit_keyword } else { t().add_keyword }}</h3>
            <form on:submit=submit>
                <fieldset class="plain" disabled=is_builtin>
                    <TextField id="keyword-word" label=Signal::derive(move || t().keyword_word) value=word error field="keyword.word" required=true placeholder="OUI" />
                </fieldset>
                <div class="field">
                    <label for="keyword-reply">{move || t().keyword_reply}</label>
                    <textarea id="keyword-reply" rows="2" aria-describedby="keyword-reply-hint" prop:value=move || reply.get()
                        on:input=move |ev| reply.set(event_target_value(&ev))></textarea>
                    <p class="hint" id="keyword-reply-hint">{move || t().keyword_reply_hint}</p>
                </div>
                <div class="row">
                    <div class="field">
                        <label for="keyword-action">{move || t().keyword_action}</label>
                        <select id="keyword-action" on:change=move |ev| action.set(event_target_value(&ev))>
                            {move || ACTIONS.iter().map(|kind| view! {
                                <option value=*kind selected=move || action.get() == *kind>{action_label(t(), kind)}</option>
                            }).collect_view()}
                        </select>
                    </div>
                    <Show when=move || action.get().ends_with("_list")>
                        <div class="field grow">
                            <label for="keyword-list">{move || t().keyword_list}</label>
                            <select id="keyword-list" required on:change=move |ev| list.set(event_target_value(&ev))>
                                <option value="">"—"</option>
                                {move || lists.get().unwrap_or_default().into_iter().map(|l| {
                                    let id = l.id.clone();
                                    view! { <option value=l.id.clone() selected=move || list.get() == id>{l.name.clone()}</option> }
                                }).collect_view()}
                            </select>
                        </div>
                    </Show>
                    <Show when=move || action.get() == "tag">
                        <div class="field grow">
                            <TextField id="keyword-tag" label=Signal::derive(move || t().keyword_tag) value=tag error field="keyword.actions[0].value" required=true placeholder="vip" />
                        </div>
                    </Show>
                </div>
                <ErrorAlert error=error />
                <button type="submit" class="primary">{move || if editing.with(Option::is_some) { t().save_keyword } else { t().add_keyword }}</button>
                <Show when=move || editing.with(Option::is_some)>
                    <button type="button" on:click=move |_| fill(None)>{move || t().cancel}</button>
                </Show>
            </form>
        </section>
    }
}

/// One keyword with its Edit and Delete buttons (built-in ones cannot be deleted).
#[component]
fn KeywordRow(
    keyword: KeywordDto,
    list_name: impl Fn(&str) -> String + Copy + Send + Sync + 'static,
    version: RwSignal<u32>,
    on_edit: impl Fn(Option<KeywordDto>) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let (t, api) = (use_texts(), use_api());
    let error = RwSignal::new(None::<ApiError>);
    let word = keyword.word.clone().unwrap_or_default();
    let id = keyword.id.clone().unwrap_or_default();
    let remove = move |_| {
        let id = id.clone();
        spawn_local(async move {
            match api.delete::<StatusResponse>(&format!("/keyword/{id}")).await {
                Ok(_) => version.update(|v| *v += 1),
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let builtin = keyword.builtin.clone();
    let also = (!keyword.synonyms.is_empty()).then(|| format!("{} {}", t().also_answers, keyword.synonyms.join(", ")));
    let reply = match keyword.reply.as_deref().filter(|r| !r.is_empty()) {
        Some(reply) => reply.to_owned(),
        None => t().no_reply.to_owned(),
    };
    let mut does: Vec<String> = builtin.iter().map(|b| builtin_effect(t(), b).to_owned()).collect();
    does.extend(keyword.actions.iter().map(|a| match (&a.list, &a.value) {
        (Some(list), _) => format!("{} « {} »", action_label(t(), &a.kind), list_name(list)),
        (None, Some(value)) => format!("{} « {value} »", action_label(t(), &a.kind)),
        (None, None) => action_label(t(), &a.kind).to_owned(),
    }));
    let edit_label = format!("{} {word}", t().edit);
    let delete_label = format!("{} {word}", t().delete);
    let edited = keyword.clone();
    view! {
        <tr>
            <td data-label=t().keyword_word class="text">
                <span>
                    <strong>{word.clone()}</strong>
                    {builtin.is_some().then(|| view! { " " <span class="badge paused">{t().builtin_keyword}</span> })}
                    {also.map(|also| view! { <br /><small>{also}</small> })}
                </span>
            </td>
            <td data-label=t().keyword_reply class="text">{reply}</td>
            <td data-label=t().keyword_action class="text">{if does.is_empty() { t().none.to_owned() } else { does.join(" ; ") }}</td>
            <td data-label=t().actions>
                <span class="buttons">
                    <button type="button" class="small" aria-label=edit_label on:click=move |_| on_edit(Some(edited.clone()))>{t().edit}</button>
                    {builtin.is_none().then(|| view! {
                        <button type="button" class="small danger" aria-label=delete_label on:click=remove.clone()>{t().delete}</button>
                    })}
                    <ErrorAlert error=error />
                </span>
            </td>
        </tr>
    }
}
