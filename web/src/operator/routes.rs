//! Routes: in the order they are tried, each removable, and a form to add one.

use gloo_net::http::Method;
use leptos::{prelude::*, task::spawn_local};
use texto_core::wire::{
    CreatedResponse, Format, NewRouteRequest, OperatorRoutesResponse, PlansResponse, RouteDto, StatusResponse, encode,
};

use super::client::{use_console, use_op_texts};
use crate::{
    api::ApiError,
    components::{errors::ErrorAlert, field::TextField, table::rows_or},
};

/// The routes' table and form.
#[component]
pub fn Routes() -> impl IntoView {
    let (t, console) = (use_op_texts(), use_console());
    let version = RwSignal::new(0u32);
    let list = LocalResource::new(move || {
        version.track();
        async move { console.get::<OperatorRoutesResponse>("/operator/routes").await }
    });
    let error = RwSignal::new(None::<ApiError>);
    let load_error = Signal::derive(move || list.get().and_then(Result::err));
    let rows = move || {
        list.get()
            .and_then(Result::ok)
            .map(|answer| rows_or(answer.routes, 7, t().empty, move |route| view! { <RouteRow route version error /> }))
    };
    view! {
        <h2>{move || t().routes_title}</h2>
        <p class="hint">{move || t().routes_intro}</p>
        <ErrorAlert error=load_error />
        <ErrorAlert error=error />
        <div class="table-wrap">
            <table class="stack" data-testid="routes">
                <thead><tr>
                    <th scope="col">{move || t().priority}</th>
                    <th scope="col">{move || t().destination}</th>
                    <th scope="col">{move || t().account}</th>
                    <th scope="col">{move || t().pushtype}</th>
                    <th scope="col">{move || t().plan}</th>
                    <th scope="col">{move || t().connectors}</th>
                    <th scope="col">{move || t().actions}</th>
                </tr></thead>
                <tbody><Suspense fallback=move || view! { <tr><td colspan="7">{t().loading}</td></tr> }>{rows}</Suspense></tbody>
            </table>
        </div>
        <RouteForm version />
    }
}

/// One route.
#[component]
fn RouteRow(route: RouteDto, version: RwSignal<u32>, error: RwSignal<Option<ApiError>>) -> impl IntoView {
    let (t, console) = (use_op_texts(), use_console());
    let id = route.id;
    let remove = move |_| {
        spawn_local(async move {
            error.set(
                console.send::<StatusResponse>(Method::DELETE, &format!("/operator/route/{id}"), None).await.err(),
            );
            version.update(|v| *v += 1);
        });
    };
    let pushtype = match route.pushtype.as_deref() {
        Some("alert") => t().alert,
        Some("marketing") => t().marketing,
        _ => t().any,
    };
    view! {
        <tr>
            <td data-label=t().priority>{route.priority}</td>
            <td data-label=t().destination class="text">{route.destination.clone().unwrap_or_else(|| t().any.to_owned())}</td>
            <td data-label=t().account class="text">{route.account.clone().unwrap_or_else(|| t().any.to_owned())}</td>
            <td data-label=t().pushtype class="text">{pushtype}</td>
            <td data-label=t().plan class="text">{route.plan.clone().unwrap_or_else(|| t().any.to_owned())}</td>
            <td data-label=t().connectors class="text">{route.connectors.join(" → ")}</td>
            <td data-label=t().actions class="actions">
                <button type="button" class="small danger" aria-label=format!("{} {id}", t().remove) on:click=remove>{t().remove}</button>
            </td>
        </tr>
    }
}

/// "Add the route".
#[component]
fn RouteForm(version: RwSignal<u32>) -> impl IntoView {
    let (t, console) = (use_op_texts(), use_console());
    let fields: [RwSignal<String>; 4] = std::array::from_fn(|_| RwSignal::new(String::new()));
    let [connectors, destination, account, priority] = fields;
    let (pushtype, plan) = (RwSignal::new(String::new()), RwSignal::new(String::new()));
    let plans = LocalResource::new(move || async move {
        console.get::<PlansResponse>("/operator/plans").await.map(|p| p.plans).unwrap_or_default()
    });
    let error = RwSignal::new(None::<ApiError>);
    let add = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let value = |field: RwSignal<String>| Some(field.get_untracked().trim().to_owned()).filter(|v| !v.is_empty());
        let request = NewRouteRequest {
            connectors: connectors
                .get_untracked()
                .split(',')
                .map(|c| c.trim().to_owned())
                .filter(|c| !c.is_empty())
                .collect(),
            destination: value(destination),
            account: value(account),
            pushtype: value(pushtype),
            plan: value(plan),
            priority: value(priority).and_then(|p| p.parse().ok()),
        };
        spawn_local(async move {
            let body = Some(encode(&request, Format::Json));
            match console.call::<CreatedResponse>(Method::POST, "/operator/routes", body).await {
                Ok(_) => {
                    error.set(None);
                    fields.iter().for_each(|f| f.set(String::new()));
                    version.update(|v| *v += 1);
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    view! {
        <section class="card">
            <h2>{move || t().add_route}</h2>
            <form on:submit=add>
                <TextField id="route-connectors" label=Signal::derive(move || t().connectors) value=connectors error field="connectors" autocomplete="off" placeholder="A, B" required=true />
                <p class="hint">{move || t().connectors_hint}</p>
                <div class="row">
                    <div class="field"><TextField id="route-destination" label=Signal::derive(move || t().destination) value=destination error field="destination" autocomplete="off" placeholder="FR" /></div>
                    <div class="field"><TextField id="route-account" label=Signal::derive(move || t().account) value=account error field="account" autocomplete="off" /></div>
                    <div class="field">
                        <label for="route-pushtype">{move || t().pushtype}</label>
                        <select id="route-pushtype" on:change=move |ev| pushtype.set(event_target_value(&ev))>
                            <option value="">{move || t().any}</option>
                            <option value="alert">{move || t().alert}</option>
                            <option value="marketing">{move || t().marketing}</option>
                        </select>
                    </div>
                    <div class="field">
                        <label for="route-plan">{move || t().plan}</label>
                        <select id="route-plan" on:change=move |ev| plan.set(event_target_value(&ev))>
                            <option value="">{move || t().any}</option>
                            {move || plans.get().unwrap_or_default().into_iter().map(|name| view! { <option value=name.clone()>{name.clone()}</option> }).collect_view()}
                        </select>
                    </div>
                    <div class="field"><TextField id="route-priority" label=Signal::derive(move || t().priority) value=priority error field="priority" input_type="number" autocomplete="off" placeholder="0" /></div>
                </div>
                <p class="hint">{move || t().destination_hint}" "{move || t().account_hint}</p>
                <ErrorAlert error=error />
                <button type="submit" class="primary">{move || t().add_route}</button>
            </form>
        </section>
    }
}
