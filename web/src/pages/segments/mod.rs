//! Segments: saved filters over the account's contacts (fields, tags, lists, consent and
//! engagement; every rule or any of them), with their size counted by the server as they are
//! edited, and "Send to this segment", which opens Compose with the segment chosen.

mod rule_row;

use gloo_timers::future::TimeoutFuture;
use leptos::{prelude::*, task::spawn_local};
use texto_core::{
    SegmentMatch,
    wire::{
        ListsResponse, SegmentDto, SegmentRequest, SegmentResponse, SegmentRuleDto, SegmentsResponse, StatusResponse,
    },
};

use self::rule_row::RuleRow;
use crate::{
    api::{ApiError, Paging, use_api, with_query},
    components::{errors::ErrorAlert, field::TextField, table::rows_or},
    draft::Draft,
    format,
    i18n::{Texts, use_lang, use_texts},
};

/// How long the editor waits after a change before it asks for the count.
const COUNT_AFTER_MS: u32 = 300;

/// A segment's match as the server gave it (`all` when it gave none the app reads).
fn read_match(given: Option<&str>) -> SegmentMatch {
    SegmentMatch::parse(given).unwrap_or_default()
}

/// How the editor and the list say a match.
fn match_label(t: &'static Texts, matching: SegmentMatch) -> &'static str {
    match matching {
        SegmentMatch::All => t.segment_match_all,
        SegmentMatch::Any => t.segment_match_any,
    }
}

/// Opens Compose on a new draft of the team's with `segment` as the only audience (a full page
/// load: Compose is in the other bundle).
async fn send_to(api: crate::api::Api, segment: String) -> Result<(), crate::api::ApiError> {
    let draft = Draft { to_lists: true, segments: vec![segment], ..Draft::default() };
    let saved = crate::drafts::save(api, None, &draft.request()).await?;
    if let Some(window) = web_sys::window() {
        let _ = window.location().set_href(&format!("/app/compose?draft={}", saved.id));
    }
    Ok(())
}

/// The segments page.
#[component]
pub fn Segments() -> impl IntoView {
    let (t, lang, api) = (use_texts(), use_lang(), use_api());
    let version = RwSignal::new(0u32);
    let segments = LocalResource::new(move || {
        version.track();
        async move { api.get::<SegmentsResponse>("/segments").await }
    });
    let lists = LocalResource::new(move || async move {
        api.get::<ListsResponse>(&with_query("/lists", Paging::first(1000), &[]))
            .await
            .map(|a| a.lists)
            .unwrap_or_default()
    });
    let lists = Signal::derive(move || lists.get().unwrap_or_default());
    let editing = RwSignal::new(None::<String>);
    let name = RwSignal::new(String::new());
    // How the rules combine.
    let matching = RwSignal::new(SegmentMatch::All);
    let next_row = StoredValue::new(0usize);
    let rows = RwSignal::new(Vec::<(usize, RwSignal<SegmentRuleDto>)>::new());
    let error = RwSignal::new(None::<ApiError>);
    let open_compose = move |segment: String| {
        spawn_local(async move {
            if let Err(e) = send_to(api, segment).await {
                error.set(Some(e));
            }
        })
    };
    let add_row = move |rule: SegmentRuleDto| {
        let key = next_row.get_value();
        next_row.set_value(key + 1);
        rows.update(|r| r.push((key, RwSignal::new(rule))));
    };
    let fill = move |segment: Option<SegmentDto>| {
        let segment = segment.unwrap_or_default();
        name.set(segment.name.unwrap_or_default());
        matching.set(read_match(segment.matching.as_deref()));
        rows.set(Vec::new());
        for rule in segment.rules {
            add_row(rule);
        }
        editing.set(segment.id);
        error.set(None);
    };
    let rules = Memo::new(move |_| rows.with(|r| r.iter().map(|(_, rule)| rule.get()).collect::<Vec<_>>()));
    // The live count: asked a moment after the last change, the stale answers dropped.
    let asked = RwSignal::new(0u64);
    let count = RwSignal::new(None::<Result<i64, ApiError>>);
    Effect::new(move |_| {
        let request = SegmentRequest {
            segment: SegmentDto {
                matching: Some(matching.get().as_str().to_owned()),
                rules: rules.get(),
                ..SegmentDto::default()
            },
        };
        let mine = asked.get_untracked() + 1;
        asked.set(mine);
        spawn_local(async move {
            TimeoutFuture::new(COUNT_AFTER_MS).await;
            if asked.get_untracked() != mine {
                return;
            }
            let answer = api.post::<_, SegmentResponse>("/segment/count", &request).await;
            if asked.get_untracked() == mine {
                count.set(Some(answer.map(|a| a.segment.count.unwrap_or(0))));
            }
        });
    });
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let request = SegmentRequest {
            segment: SegmentDto {
                name: Some(name.get_untracked()),
                matching: Some(matching.get_untracked().as_str().to_owned()),
                rules: rules.get_untracked(),
                ..SegmentDto::default()
            },
        };
        let id = editing.get_untracked();
        spawn_local(async move {
            let saved = match &id {
                Some(id) => api.put::<_, SegmentResponse>(&format!("/segment/{id}"), &request).await,
                None => api.post::<_, SegmentResponse>("/segment", &request).await,
            };
            match saved {
                Ok(answer) => {
                    editing.set(answer.segment.id);
                    error.set(None);
                    version.update(|v| *v += 1);
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let remove = move |_| {
        let Some(id) = editing.get_untracked() else { return };
        spawn_local(async move {
            match api.delete::<StatusResponse>(&format!("/segment/{id}")).await {
                Ok(_) => {
                    fill(None);
                    version.update(|v| *v += 1);
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let load_error = Signal::derive(move || segments.get().and_then(Result::err));
    let table = move || {
        segments.get().and_then(Result::ok).map(|answer| {
            rows_or(answer.segments, 4, t().no_segments, move |segment| {
                let id = segment.id.clone().unwrap_or_default();
                let shown = segment.name.clone().unwrap_or_default();
                let (edit_label, send_label) =
                    (format!("{} {shown}", t().edit), format!("{} {shown}", t().send_to_segment));
                let updated = segment.updated_at.clone().map(|d| format::wire_date(lang.get(), &d)).unwrap_or_default();
                let meets = match_label(t(), read_match(segment.matching.as_deref()));
                let picked = segment.clone();
                view! {
                    <tr>
                        <td data-label=t().segment_name class="text">{shown.clone()}</td>
                        <td data-label=t().segment_match_column>{meets}</td>
                        <td data-label=t().updated>{updated}</td>
                        <td data-label=t().actions class="actions">
                            <button type="button" aria-label=edit_label on:click=move |_| fill(Some(picked.clone()))>{t().edit}</button>
                            <button type="button" class="primary" aria-label=send_label on:click=move |_| open_compose(id.clone())>{t().send_to_segment}</button>
                        </td>
                    </tr>
                }
            })
        })
    };
    let count_text = move || match count.get() {
        None => t().counting.to_owned(),
        Some(Ok(n)) => format::contacts(lang.get(), n),
        Some(Err(_)) => t().segment_incomplete.to_owned(),
    };
    view! {
        <h1>{move || t().segments_title}</h1>
        <p class="hint">{move || t().segments_intro}</p>
        <ErrorAlert error=load_error />
        <div class="table-wrap">
            <table class="stack" data-testid="segments">
                <thead><tr>
                    <th scope="col">{move || t().segment_name}</th><th scope="col">{move || t().segment_match_column}</th>
                    <th scope="col">{move || t().updated}</th><th scope="col">{move || t().actions}</th>
                </tr></thead>
                <tbody><Suspense fallback=move || view! { <tr><td colspan="4">{t().loading}</td></tr> }>{table}</Suspense></tbody>
            </table>
        </div>
        <section class="card" aria-labelledby="segment-editor-title">
            <h2 id="segment-editor-title">{move || if editing.with(Option::is_some) { t().edit_segment } else { t().new_segment }}</h2>
            <form on:submit=submit>
                <TextField id="segment-name" label=Signal::derive(move || t().segment_name) value=name error field="segment.name" required=true />
                <fieldset class="rules">
                    <legend>{move || t().segment_rules}</legend>
                    <p class="hint">{move || t().segment_rules_hint}</p>
                    <div class="field">
                        <label for="segment-match">{move || t().segment_match}</label>
                        <select id="segment-match" on:change=move |ev| matching.set(read_match(Some(&event_target_value(&ev))))>
                            {SegmentMatch::ALL.map(|m| {
                                view! { <option value=m.as_str() selected=move || matching.get() == m>{move || match_label(t(), m)}</option> }
                            })}
                        </select>
                    </div>
                    <ol class="rules">
                        <For each=move || rows.get().into_iter().enumerate() key=|(_, (key, _))| *key let((position, (key, rule)))>
                            <RuleRow rule position=position + 1 lists on_remove=move || rows.update(|r| r.retain(|(k, _)| *k != key)) />
                        </For>
                    </ol>
                    <button type="button" on:click=move |_| add_row(SegmentRuleDto { kind: "tag".into(), ..SegmentRuleDto::default() })>
                        {move || t().add_rule}
                    </button>
                </fieldset>
                <p class="segment-count" role="status" data-testid="segment-count">{count_text}</p>
                <ErrorAlert error=error />
                <div class="row">
                    <button type="submit" class="primary">{move || t().save_segment}</button>
                    <Show when=move || editing.with(Option::is_some)>
                        <button type="button" on:click=move |_| open_compose(editing.get_untracked().unwrap_or_default())>{move || t().send_to_segment}</button>
                        <button type="button" class="danger" on:click=remove>{move || t().delete}</button>
                        <button type="button" on:click=move |_| fill(None)>{move || t().new_segment}</button>
                    </Show>
                </div>
            </form>
        </section>
    }
}
