//! Webhooks: create (type, URL, secret), pause and resume, delete, and each one's request log
//! with each event's state and a resend.

use leptos::{prelude::*, task::spawn_local};
use texto_core::wire::{
    StatusResponse, WebhookDto, WebhookListResponse, WebhookLogResponse, WebhookRequest, WebhookResponse,
};

use crate::{
    api::{ApiError, Paging, use_api, with_query},
    components::{errors::ErrorAlert, field::TextField, pager::Pager, table::rows_or},
    format,
    i18n::{Texts, use_lang, use_texts},
};

/// The event types of the interface.
const TYPES: [&str; 6] = ["MO", "DLR", "STOP", "CLICKER", "BALANCE_ALERT", "JOURNEY"];
/// Log entries per page.
const LOG_PAGE: i64 = 20;

/// The webhooks page.
#[component]
pub fn Webhooks() -> impl IntoView {
    let t = use_texts();
    let api = use_api();
    let version = RwSignal::new(0u32);
    let hooks = LocalResource::new(move || {
        version.track();
        async move { api.get::<WebhookListResponse>(&with_query("/webhook", Paging::first(1000), &[])).await }
    });
    let load_error = Signal::derive(move || hooks.get().and_then(Result::err));
    let kind = RwSignal::new("DLR".to_owned());
    let url = RwSignal::new(String::new());
    let secret = RwSignal::new(String::new());
    let error = RwSignal::new(None::<ApiError>);
    let create = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let secret_given = secret.get_untracked();
        let request = WebhookRequest {
            webhook: WebhookDto {
                kind: Some(kind.get_untracked()),
                url: Some(url.get_untracked().trim().to_owned()),
                signature: (!secret_given.is_empty()).then_some(Some(secret_given)),
                ..WebhookDto::default()
            },
        };
        spawn_local(async move {
            match api.post::<_, WebhookResponse>("/webhook", &request).await {
                Ok(_) => {
                    error.set(None);
                    url.set(String::new());
                    secret.set(String::new());
                    version.update(|v| *v += 1);
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let rows = move || {
        hooks.get().and_then(Result::ok).map(|answer| {
            if answer.webhooks.is_empty() {
                return view! { <p>{t().empty}</p> }.into_any();
            }
            answer.webhooks.into_iter().map(|hook| view! { <WebhookRow hook version /> }).collect_view().into_any()
        })
    };

    view! {
        <h1>{move || t().webhooks_title}</h1>
        <ErrorAlert error=load_error />
        <div class="webhooks"><Suspense fallback=move || view! { <p>{t().loading}</p> }>{rows}</Suspense></div>
        <section class="card">
            <h2>{move || t().new_webhook}</h2>
            <form on:submit=create>
                <div class="row">
                    <div class="field">
                        <label for="webhook-type">{move || t().event_type}</label>
                        <select id="webhook-type" prop:value=move || kind.get() on:change=move |ev| kind.set(event_target_value(&ev))>
                            {TYPES.map(|k| view! { <option value=k>{k}</option> }).collect_view()}
                        </select>
                    </div>
                    <div class="field grow">
                        <TextField id="webhook-url" label=Signal::derive(move || t().url) value=url error field="url" input_type="url" placeholder="https://" required=true />
                    </div>
                </div>
                <label for="webhook-secret">{move || t().secret}</label>
                <input id="webhook-secret" autocomplete="off" aria-describedby="webhook-secret-hint"
                    prop:value=move || secret.get() on:input=move |ev| secret.set(event_target_value(&ev)) />
                <p class="hint" id="webhook-secret-hint">{move || t().secret_hint}</p>
                <ErrorAlert error=error />
                <button type="submit" class="primary">{move || t().create_webhook}</button>
            </form>
        </section>
    }
}

/// One webhook with its actions and, on demand, its log.
#[component]
fn WebhookRow(hook: WebhookDto, version: RwSignal<u32>) -> impl IntoView {
    let t = use_texts();
    let api = use_api();
    let id = hook.webhook_id.clone().unwrap_or_default();
    let live = hook.status.as_deref() != Some("paused");
    let code = hook.last_http_code.flatten();
    let failing = code.is_some_and(|c| !(200..300).contains(&c));
    let show_log = RwSignal::new(false);
    let error = RwSignal::new(None::<ApiError>);
    let set_status = {
        let id = id.clone();
        move |_| {
            let request = WebhookRequest {
                webhook: WebhookDto {
                    status: Some(if live { "paused" } else { "live" }.into()),
                    ..WebhookDto::default()
                },
            };
            let id = id.clone();
            spawn_local(async move {
                match api.put::<_, WebhookResponse>(&format!("/webhook/{id}/status"), &request).await {
                    Ok(_) => version.update(|v| *v += 1),
                    Err(e) => error.set(Some(e)),
                }
            });
        }
    };
    let remove = {
        let id = id.clone();
        move |_| {
            let id = id.clone();
            spawn_local(async move {
                match api.delete::<StatusResponse>(&format!("/webhook/{id}")).await {
                    Ok(_) => version.update(|v| *v += 1),
                    Err(e) => error.set(Some(e)),
                }
            });
        }
    };
    let kind = hook.kind.clone().unwrap_or_default();
    let url = hook.url.clone().unwrap_or_default();
    view! {
        <article class="webhook" class:failing=failing data-testid="webhook">
            <h3>{kind.clone()}" → "<span class="url">{url}</span></h3>
            <p>
                <span class=if live { "badge live" } else { "badge paused" }>{move || if live { t().live } else { t().paused }}</span>
                {failing.then(|| view! { " " <span class="badge failing">{move || t().failing}</span> })}
                " "{move || t().last_code}": "{code.map_or("—".to_owned(), |c| c.to_string())}
            </p>
            <div class="buttons">
                <button type="button" on:click=set_status aria-label=move || format!("{} {kind}", if live { t().pause } else { t().resume })>
                    {move || if live { t().pause } else { t().resume }}
                </button>
                <button type="button" aria-expanded=move || show_log.get().to_string() on:click=move |_| show_log.update(|s| *s = !*s)>
                    {move || if show_log.get() { t().hide_log } else { t().show_log }}
                </button>
                <button type="button" class="danger" on:click=remove>{move || t().delete}</button>
            </div>
            <ErrorAlert error=error />
            <Show when=move || show_log.get()>
                <RequestLog id=id.clone() error />
            </Show>
        </article>
    }
}

/// The request log of one webhook, with paging; bodies on demand; a failed resend shows in
/// the webhook's `error`.
#[component]
fn RequestLog(id: String, error: RwSignal<Option<ApiError>>) -> impl IntoView {
    let t = use_texts();
    let lang = use_lang();
    let api = use_api();
    let paging = RwSignal::new(Paging::first(LOG_PAGE));
    let version = RwSignal::new(0u32);
    let hook = StoredValue::new(id.clone());
    let log = LocalResource::new(move || {
        version.track();
        let path = with_query(&format!("/webhook/{id}/log"), paging.get(), &[]);
        async move { api.get::<WebhookLogResponse>(&path).await }
    });
    let total = Signal::derive(move || log.get().and_then(Result::ok).map_or(0, |l| l.total_records));
    // Sends an attempt's event again now (same delivery id), then shows the log again.
    let resend = move |attempt: i64| {
        let path = format!("/webhook/{}/log/{attempt}/resend", hook.get_value());
        spawn_local(async move {
            match api.post_empty::<WebhookLogResponse>(&path).await {
                Ok(_) => version.update(|v| *v += 1),
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let rows = move || {
        log.get().and_then(Result::ok).map(|answer| {
            rows_or(answer.log, 8, t().no_requests, |entry| view! {
                <tr>
                    <td data-label=t().date>{format::wire_date(lang.get(), &entry.date)}</td>
                    <td data-label=t().event>{entry.event}</td>
                    <td data-label=t().attempt class="num">{entry.attempt}</td>
                    <td data-label=t().http_code class="num">{entry.http_code.map_or("—".to_owned(), |c| c.to_string())}</td>
                    <td data-label=t().latency class="num">{entry.latency_ms.map_or("—".to_owned(), |ms| format!("{ms} ms"))}</td>
                    <td data-label=t().error class="text">{entry.error.unwrap_or_default()}</td>
                    <td data-label=t().body class="text"><details><summary>{t().body}</summary><pre>{entry.body}</pre></details></td>
                    <td data-label=t().state>
                        {state_label(t(), entry.state.as_deref())}
                        {entry.id.map(|attempt| view! { <button type="button" class="small" on:click=move |_| resend(attempt)>{t().resend}</button> })}
                    </td>
                </tr>
            })
        })
    };
    view! {
        <div class="table-wrap">
            <table class="log stack">
                <caption>{move || t().show_log}</caption>
                <thead><tr>
                    <th scope="col">{move || t().date}</th><th scope="col">{move || t().event}</th><th scope="col">{move || t().attempt}</th>
                    <th scope="col">{move || t().http_code}</th><th scope="col">{move || t().latency}</th><th scope="col">{move || t().error}</th>
                    <th scope="col">{move || t().body}</th><th scope="col">{move || t().state}</th>
                </tr></thead>
                <tbody><Suspense fallback=move || view! { <tr><td colspan="8">{t().loading}</td></tr> }>{rows}</Suspense></tbody>
            </table>
        </div>
        <Pager paging total />
    }
}

/// An event's state in words.
fn state_label(t: &'static Texts, state: Option<&str>) -> &'static str {
    match state {
        Some("delivered") => t.state_delivered,
        Some("failed") => t.state_failed,
        _ => t.state_pending,
    }
}
