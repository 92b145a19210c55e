//! Price plans: every plan's prices, and a form that creates a plan or replaces its prices
//! (`Edit` fills it with a plan's). The prices are written as the command line takes them.

use gloo_net::http::Method;
use leptos::{prelude::*, task::spawn_local};
use texto_core::{
    country_prices,
    wire::{CountryPriceDto, PlanPricesDto, PlanRequest, PlansResponse},
};

use super::client::{use_console, use_op_texts};
use crate::{
    api::ApiError,
    components::{errors::ErrorAlert, field::TextField, table::rows_or},
    format,
    i18n::use_lang,
};

/// The form's fields: the plan's name, its countries' prices (`FR=0.5, BE=0.75`), the rest's.
#[derive(Clone, Copy)]
struct PlanFields {
    name: RwSignal<String>,
    countries: RwSignal<String>,
    other: RwSignal<String>,
}

/// The plans page.
#[component]
pub fn Plans() -> impl IntoView {
    let (t, console) = (use_op_texts(), use_console());
    let version = RwSignal::new(0u32);
    let list = LocalResource::new(move || {
        version.track();
        async move { console.get::<PlansResponse>("/operator/plans").await }
    });
    let fields = PlanFields {
        name: RwSignal::new(String::new()),
        countries: RwSignal::new(String::new()),
        other: RwSignal::new(String::new()),
    };
    let load_error = Signal::derive(move || list.get().and_then(Result::err));
    let rows = move || {
        list.get()
            .and_then(Result::ok)
            .map(|answer| rows_or(answer.prices, 4, t().empty, move |plan| view! { <PlanRow plan fields /> }))
    };
    view! {
        <h1>{move || t().plans_title}</h1>
        <p class="hint">{move || t().plans_intro}</p>
        <ErrorAlert error=load_error />
        <div class="table-wrap">
            <table class="stack" data-testid="plans">
                <thead><tr>
                    <th scope="col">{move || t().name}</th>
                    <th scope="col">{move || t().country_prices}</th>
                    <th scope="col">{move || t().other_price}</th>
                    <th scope="col">{move || t().actions}</th>
                </tr></thead>
                <tbody><Suspense fallback=move || view! { <tr><td colspan="4">{t().loading}</td></tr> }>{rows}</Suspense></tbody>
            </table>
        </div>
        <PlanForm fields version />
    }
}

/// `FR=0.5, BE=0.75`, as the form and the command line write prices.
fn written(countries: &[CountryPriceDto]) -> String {
    countries.iter().map(|c| format!("{}={}", c.country, c.price)).collect::<Vec<_>>().join(", ")
}

/// One plan; `Edit` (not for `shipped`) puts its prices in the form.
#[component]
fn PlanRow(plan: PlanPricesDto, fields: PlanFields) -> impl IntoView {
    let (t, lang) = (use_op_texts(), use_lang());
    let prices = plan
        .countries
        .iter()
        .map(|c| format!("{}\u{a0}{}", c.country, format::credits(lang.get_untracked(), c.price)))
        .collect::<Vec<_>>()
        .join(" · ");
    let shipped = plan.name == "shipped";
    let edit = {
        let plan = plan.clone();
        move |_| {
            fields.name.set(plan.name.clone());
            fields.countries.set(written(&plan.countries));
            fields.other.set(plan.other.to_string());
            super::focus("plan-countries");
        }
    };
    view! {
        <tr data-plan=plan.name.clone()>
            <td data-label=t().name class="text">{if shipped { t().shipped_plan.to_owned() } else { plan.name.clone() }}</td>
            <td data-label=t().country_prices class="text">{prices}</td>
            <td data-label=t().other_price>{format::credits(lang.get_untracked(), plan.other)}</td>
            <td data-label=t().actions class="actions">
                {(!shipped).then(|| view! {
                    <button type="button" class="small" aria-label=format!("{} {}", t().edit, plan.name) on:click=edit.clone()>{t().edit}</button>
                })}
            </td>
        </tr>
    }
}

/// "Save the plan": creates it, or replaces the prices of the plan of that name.
#[component]
fn PlanForm(fields: PlanFields, version: RwSignal<u32>) -> impl IntoView {
    let (t, console) = (use_op_texts(), use_console());
    let error = RwSignal::new(None::<ApiError>);
    let saved = RwSignal::new(false);
    let save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        saved.set(false);
        let countries = match country_prices(&fields.countries.get_untracked()) {
            Ok(countries) => countries,
            Err(why) => {
                let problems = vec![("countries".to_owned(), why)];
                error.set(Some(ApiError { http: 422, status: -7, message: t().prices_refused.into(), problems }));
                return;
            }
        };
        let request = PlanRequest {
            countries: countries
                .into_iter()
                .map(|(country, price)| CountryPriceDto { country: country.iso2().to_owned(), price: price.as_f64() })
                .collect(),
            other: fields.other.get_untracked().trim().replace(',', ".").parse().ok(),
        };
        let name = String::from(js_sys::encode_uri_component(fields.name.get_untracked().trim()));
        let path = format!("/operator/plan/{name}");
        spawn_local(async move {
            match console.send(Method::PUT, &path, Some(&request)).await {
                Ok(()) => {
                    error.set(None);
                    saved.set(true);
                    version.update(|v| *v += 1);
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    view! {
        <section class="card">
            <h2>{move || t().plan_form}</h2>
            <form on:submit=save>
                <TextField id="plan-name" label=Signal::derive(move || t().plan_name) value=fields.name error field="name" autocomplete="off" required=true />
                <TextField id="plan-countries" label=Signal::derive(move || t().country_prices) value=fields.countries error field="countries" autocomplete="off" placeholder="FR=0.5, BE=0.75" />
                <p class="hint">{move || t().country_prices_hint}</p>
                <TextField id="plan-other" label=Signal::derive(move || t().other_price) value=fields.other error field="other" inputmode="decimal" autocomplete="off" placeholder="2.5" required=true />
                <ErrorAlert error=error />
                <Show when=move || saved.get()><p role="status">{move || t().saved}</p></Show>
                <button type="submit" class="primary">{move || t().save_plan}</button>
            </form>
        </section>
    }
}

/// The plan choices, `current` selected.
pub(super) fn plan_options(plans: Vec<String>, current: &str) -> AnyView {
    plans
        .into_iter()
        .map(|plan| {
            let chosen = plan == current;
            view! { <option value=plan.clone() selected=chosen>{plan.clone()}</option> }
        })
        .collect_view()
        .into_any()
}
