//! Carriers and routes: the connectors with their live status (read again every 2 s), their
//! enable, disable and remove buttons and a form to add or replace one; then the routes
//! ([`super::routes`]).

use gloo_net::http::Method;
use leptos::{prelude::*, task::spawn_local};
use texto_core::wire::{ConnectorDto, ConnectorRequest, OperatorConnectorsResponse, StatusResponse};

use super::{
    client::{use_console, use_op_texts},
    every,
    routes::Routes,
};
use crate::{
    api::ApiError,
    components::{errors::ErrorAlert, field::TextField, table::rows_or},
    format,
    i18n::use_lang,
};

/// The carriers page.
#[component]
pub fn Carriers() -> impl IntoView {
    let (t, console) = (use_op_texts(), use_console());
    let version = RwSignal::new(0u32);
    let list = LocalResource::new(move || {
        version.track();
        async move { console.get::<OperatorConnectorsResponse>("/operator/connectors").await }
    });
    every(2, move || version.update(|v| *v += 1));
    let error = RwSignal::new(None::<ApiError>);
    let load_error = Signal::derive(move || list.get().and_then(Result::err));
    // The last good answer stays on screen while the next one loads.
    let shown = RwSignal::new(None::<Vec<ConnectorDto>>);
    Effect::new(move |_| {
        if let Some(Ok(answer)) = list.get() {
            shown.set(Some(answer.connectors));
        }
    });
    let rows = move || {
        shown.get().map(|connectors| {
            rows_or(connectors, 10, t().empty, move |c| view! { <ConnectorRow connector=c version error /> })
        })
    };
    view! {
        <h1>{move || t().carriers_title}</h1>
        <p class="hint">{move || t().carriers_intro}</p>
        <h2>{move || t().connectors_title}</h2>
        <ErrorAlert error=load_error />
        <ErrorAlert error=error />
        <div class="table-wrap">
            <table class="stack" data-testid="connectors">
                <thead><tr>
                    <th scope="col">{move || t().name}</th>
                    <th scope="col">{move || t().smsc}</th>
                    <th scope="col">{move || t().enabled}</th>
                    <th scope="col">{move || t().binds_up}</th>
                    <th scope="col">{move || t().in_flight}</th>
                    <th scope="col">{move || t().per_second}</th>
                    <th scope="col">{move || t().errors}</th>
                    <th scope="col">{move || t().receipts_due}</th>
                    <th scope="col">{move || t().last_error}</th>
                    <th scope="col">{move || t().actions}</th>
                </tr></thead>
                <tbody>{move || rows().unwrap_or_else(|| view! { <tr><td colspan="10">{t().loading}</td></tr> }.into_any())}</tbody>
            </table>
        </div>
        <ConnectorForm version />
        <Routes />
    }
}

/// One connector, its status summed over the nodes that run it.
#[component]
fn ConnectorRow(connector: ConnectorDto, version: RwSignal<u32>, error: RwSignal<Option<ApiError>>) -> impl IntoView {
    let (t, console, lang) = (use_op_texts(), use_console(), use_lang());
    let sum = |f: fn(&texto_core::wire::ConnectorStatusDto) -> i64| connector.nodes.iter().map(f).sum::<i64>();
    let (up, binds) = (sum(|n| n.binds_up), sum(|n| n.binds));
    // A fold from +0.0: f64's sum of no node is -0.0, which showed as "-0.0".
    let per_second = connector.nodes.iter().fold(0.0, |total, n| total + n.per_second);
    let last_error = connector.nodes.iter().find_map(|n| n.last_error.clone()).unwrap_or_default();
    let running = !connector.nodes.is_empty();
    let name = connector.name.clone();
    let is_default = name == "default";
    let enabled = connector.enabled == 1;
    let act = move |action: &'static str, method: Method| {
        let path = format!("/operator/connector/{name}{action}");
        move |_| {
            let (path, method) = (path.clone(), method.clone());
            spawn_local(async move {
                error.set(console.send::<StatusResponse>(method, &path, None).await.err());
                version.update(|v| *v += 1);
            });
        }
    };
    let shown_name = connector.name.clone();
    let label = move |verb: &str| format!("{verb} {shown_name}");
    view! {
        <tr data-connector=connector.name.clone()>
            <td data-label=t().name class="text"><strong>{connector.name.clone()}</strong></td>
            <td data-label=t().smsc class="text">{connector.smsc.clone()}</td>
            <td data-label=t().enabled>{if enabled { t().yes } else { t().no }}</td>
            <td data-label=t().binds_up>
                {if running {
                    let class = if up > 0 { "badge live" } else { "badge failing" };
                    view! { <span class=class>{format!("{up}/{binds}")}</span> }.into_any()
                } else {
                    view! { <span class="hint">{t().not_running}</span> }.into_any()
                }}
            </td>
            <td data-label=t().in_flight>{format::integer(lang.get_untracked(), sum(|n| n.in_flight))}</td>
            <td data-label=t().per_second>{format!("{per_second:.1}")}</td>
            <td data-label=t().errors>{format::integer(lang.get_untracked(), sum(|n| n.errors))}</td>
            <td data-label=t().receipts_due>{format::integer(lang.get_untracked(), sum(|n| n.receipts_outstanding))}</td>
            <td data-label=t().last_error class="text">{last_error}</td>
            <td data-label=t().actions class="actions">
                <Show when=move || !is_default>
                    {if enabled {
                        view! { <button type="button" class="small" aria-label=label(t().disable) on:click=act("/disable", Method::POST)>{t().disable}</button> }.into_any()
                    } else {
                        view! { <button type="button" class="small" aria-label=label(t().enable) on:click=act("/enable", Method::POST)>{t().enable}</button> }.into_any()
                    }}
                    <button type="button" class="small danger" aria-label=label(t().remove) on:click=act("", Method::DELETE)>{t().remove}</button>
                </Show>
            </td>
        </tr>
    }
}

/// "Add or replace a connector".
#[component]
fn ConnectorForm(version: RwSignal<u32>) -> impl IntoView {
    let (t, console) = (use_op_texts(), use_console());
    let (name, url) = (RwSignal::new(String::new()), RwSignal::new(String::new()));
    let enabled = RwSignal::new(true);
    let (error, saved) = (RwSignal::new(None::<ApiError>), RwSignal::new(false));
    let save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let request =
            ConnectorRequest { smsc: Some(url.get_untracked()), enabled: Some(i64::from(enabled.get_untracked())) };
        let path = format!("/operator/connector/{}", name.get_untracked().trim());
        spawn_local(async move {
            let done = console.send(Method::PUT, &path, Some(&request)).await;
            saved.set(done.is_ok());
            if done.is_ok() {
                name.set(String::new());
                url.set(String::new());
            }
            error.set(done.err());
            version.update(|v| *v += 1);
        });
    };
    view! {
        <section class="card">
            <h2>{move || t().connector_form}</h2>
            <form on:submit=save>
                <div class="row">
                    <div class="field"><TextField id="connector-name" label=Signal::derive(move || t().connector_name) value=name error field="name" autocomplete="off" required=true /></div>
                    <div class="field grow"><TextField id="connector-url" label=Signal::derive(move || t().smsc_url) value=url error field="smsc" autocomplete="off" placeholder="smpp://id:password@host:2775" required=true /></div>
                </div>
                <p class="hint">{move || t().smsc_hint}</p>
                <label class="check">
                    <input type="checkbox" prop:checked=move || enabled.get() on:change=move |ev| enabled.set(event_target_checked(&ev)) />
                    {move || t().enabled}
                </label>
                <ErrorAlert error=error />
                <Show when=move || saved.get()><p role="status">{move || t().saved}</p></Show>
                <button type="submit" class="primary">{move || t().save_connector}</button>
            </form>
        </section>
    }
}
