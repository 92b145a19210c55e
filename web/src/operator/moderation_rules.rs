//! The moderation rules: the patterns and domains that hold campaigns, each removable, a form
//! to add one, and whether new accounts are moderated.

use gloo_net::http::Method;
use leptos::{prelude::*, task::spawn_local};
use texto_core::wire::{
    CreatedResponse, Format, ModerationResponse, ModerationRuleDto, ModerationRuleRequest,
    NewAccountsModerationRequest, StatusResponse, encode,
};

use super::client::{use_console, use_op_texts};
use crate::{
    api::ApiError,
    components::{errors::ErrorAlert, field::TextField, table::rows_or},
};

/// The rules' card, under the queue; `version` reloads the moderation page's answer.
#[component]
pub fn Rules(list: LocalResource<Result<ModerationResponse, ApiError>>, version: RwSignal<u32>) -> impl IntoView {
    let (t, console) = (use_op_texts(), use_console());
    let error = RwSignal::new(None::<ApiError>);
    let answer = move || list.get().and_then(Result::ok);
    let switch = move |moderated: bool| {
        let request = NewAccountsModerationRequest { moderated: Some(i64::from(moderated)) };
        spawn_local(async move {
            error.set(console.send(Method::PUT, "/operator/moderation/new-accounts", Some(&request)).await.err());
            version.update(|v| *v += 1);
        });
    };
    // Whether new accounts are moderated, and the button that switches it, once it is known.
    let new_accounts = move || {
        answer().map(|a| {
            let on = a.new_accounts_moderated == 1;
            view! {
                {if on { t().new_accounts_moderated } else { t().new_accounts_free }}" "
                <button type="button" class="small" on:click=move |_| switch(!on)>
                    {if on { t().stop_moderating_new } else { t().moderate_new }}
                </button>
            }
        })
    };
    let rows = move || {
        answer().map(|a| rows_or(a.rules, 3, t().no_rules, move |rule| view! { <RuleRow rule version error /> }))
    };
    view! {
        <section class="card">
            <h2>{move || t().rules_title}</h2>
            <p data-testid="new-accounts">{new_accounts}</p>
            <p class="hint">{move || t().rules_intro}</p>
            <ErrorAlert error=error />
            <div class="table-wrap">
                <table class="stack" data-testid="moderation-rules">
                    <thead><tr>
                        <th scope="col">{move || t().rule_kind}</th>
                        <th scope="col">{move || t().rule_value}</th>
                        <th scope="col">{move || t().actions}</th>
                    </tr></thead>
                    <tbody><Suspense fallback=move || view! { <tr><td colspan="3">{t().loading}</td></tr> }>{rows}</Suspense></tbody>
                </table>
            </div>
            <RuleForm version />
        </section>
    }
}

/// One rule, with "Remove".
#[component]
fn RuleRow(rule: ModerationRuleDto, version: RwSignal<u32>, error: RwSignal<Option<ApiError>>) -> impl IntoView {
    let (t, console) = (use_op_texts(), use_console());
    let id = rule.id;
    let remove = move |_| {
        spawn_local(async move {
            let path = format!("/operator/moderation/rule/{id}");
            error.set(console.send::<StatusResponse>(Method::DELETE, &path, None).await.err());
            version.update(|v| *v += 1);
        });
    };
    let kind = match rule.kind.as_str() {
        "domain" => t().rule_domain,
        _ => t().rule_pattern,
    };
    view! {
        <tr>
            <td data-label=t().rule_kind class="text">{kind}</td>
            <td data-label=t().rule_value class="text"><code>{rule.value.clone()}</code></td>
            <td data-label=t().actions class="actions">
                <button type="button" class="small danger" aria-label=format!("{} {}", t().remove, rule.value) on:click=remove>{t().remove}</button>
            </td>
        </tr>
    }
}

/// "Add the rule": a pattern or a domain.
#[component]
fn RuleForm(version: RwSignal<u32>) -> impl IntoView {
    let (t, console) = (use_op_texts(), use_console());
    let (kind, value) = (RwSignal::new("pattern".to_owned()), RwSignal::new(String::new()));
    let error = RwSignal::new(None::<ApiError>);
    let add = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let request = ModerationRuleRequest { kind: Some(kind.get_untracked()), value: Some(value.get_untracked()) };
        spawn_local(async move {
            let body = Some(encode(&request, Format::Json));
            match console.call::<CreatedResponse>(Method::POST, "/operator/moderation/rules", body).await {
                Ok(_) => {
                    error.set(None);
                    value.set(String::new());
                    version.update(|v| *v += 1);
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    view! {
        <form on:submit=add>
            <h3>{move || t().add_rule}</h3>
            <div class="row">
                <div class="field">
                    <label for="rule-kind">{move || t().rule_kind}</label>
                    <select id="rule-kind" on:change=move |ev| kind.set(event_target_value(&ev))>
                        <option value="pattern">{move || t().rule_pattern}</option>
                        <option value="domain">{move || t().rule_domain}</option>
                    </select>
                </div>
                <div class="field"><TextField id="rule-value" label=Signal::derive(move || t().rule_value) value error field="value" autocomplete="off" required=true /></div>
            </div>
            <p class="hint">{move || t().rule_value_hint}</p>
            <ErrorAlert error=error />
            <button type="submit" class="primary">{move || t().add_rule}</button>
        </form>
    }
}
