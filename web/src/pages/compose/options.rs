//! Push type, sender (the account's registered senders offered) and sending time.

use leptos::prelude::*;
use texto_core::{Sender, next_allowed_send, parse_delay, wire::SendersResponse};

use super::simulation::Figures;
use crate::{
    api::{ApiError, use_api},
    clock,
    components::errors::FieldProblem,
    draft::Draft,
    format,
    i18n::{use_lang, use_texts},
};

/// The three message options.
#[component]
pub fn MessageOptions(
    draft: RwSignal<Draft>,
    figures: Memo<Figures>,
    refused: RwSignal<Option<ApiError>>,
) -> impl IntoView {
    let t = use_texts();
    let lang = use_lang();
    let api = use_api();
    // The registered senders, offered as the field's suggestions.
    let registered = LocalResource::new(move || async move {
        api.get::<SendersResponse>("/senders").await.map(|a| a.senders).unwrap_or_default()
    });
    let sender_problem = move || {
        draft.with(|d| {
            let sender = d.sender.trim();
            (!sender.is_empty() && Sender::parse(sender).is_err()).then(|| t().sender_hint)
        })
    };
    // Recipients in Paris's window and overseas, by the simulation (overseas ones keep their
    // own hours, which it lists).
    let zones = move || {
        figures.with(|f| {
            let result = f.result.as_ref().ok();
            let overseas: i64 =
                result.and_then(|r| r.overseas.as_ref()).map_or(0, |parts| parts.iter().map(|p| p.recipients).sum());
            (result.map_or(0, |r| r.sent) - overseas, overseas)
        })
    };
    let when = move || {
        let (delay, pushtype) = draft.with(|d| (d.delay(), d.pushtype()));
        let now = clock::now();
        match parse_delay(&delay, now) {
            Err(_) => (true, t().delay_bad.to_owned()),
            Ok(at) => {
                let asked = at.unwrap_or(now);
                let goes = next_allowed_send(pushtype, asked);
                let mut line =
                    if at.is_some() { format::goes_at(lang.get(), now, asked) } else { t().send_now.to_owned() };
                let (paris, overseas) = zones();
                if goes != asked && (paris > 0 || overseas == 0) {
                    line = format!("{line} {}", format::postponed(lang.get(), goes));
                }
                if overseas > 0 {
                    line = format!("{line} {}", t().overseas_own_hours);
                }
                (false, line)
            }
        }
    };
    let choice = move |marketing: bool| {
        view! {
            <label class="radio">
                <input type="radio" name="pushtype" value=if marketing { "marketing" } else { "alert" }
                    prop:checked=move || draft.with(|d| d.marketing == marketing)
                    on:change=move |_| draft.update(|d| d.marketing = marketing) />
                <span>
                    <strong>{move || if marketing { t().marketing } else { t().alert }}</strong>
                    <span class="hint">{move || if marketing { t().marketing_explained } else { t().alert_explained }}</span>
                </span>
            </label>
        }
    };
    view! {
        <fieldset class="pushtype">
            <legend>{move || t().pushtype}</legend>
            {choice(false)}
            {choice(true)}
        </fieldset>
        <div class="row">
            <div class="field">
                <label for="sender">{move || t().sender}</label>
                <input id="sender" autocomplete="off" maxlength="15" placeholder="36180" list="registered-senders"
                    aria-invalid=move || sender_problem().is_some().to_string()
                    aria-describedby=move || if refused.with(|e| e.as_ref().and_then(|e| e.for_field("sender")).is_some()) { "sender-hint sender-problem" } else { "sender-hint" }
                    prop:value=move || draft.with(|d| d.sender.clone())
                    on:input=move |ev| draft.update(|d| d.sender = event_target_value(&ev)) />
                <p id="sender-hint" class=move || if sender_problem().is_some() { "field-error" } else { "hint" }>{move || t().sender_hint}</p>
                <FieldProblem error=refused field="sender" id="sender-problem" />
                <datalist id="registered-senders">
                    {move || registered.get().unwrap_or_default().into_iter().map(|s| view! { <option value=s.name.clone()></option> }).collect_view()}
                </datalist>
            </div>
            <div class="field">
                <label for="send-at">{move || t().send_at}</label>
                <input id="send-at" type="datetime-local" aria-describedby="send-at-hint send-at-when send-at-problem"
                    prop:value=move || draft.with(|d| d.send_at.clone())
                    on:input=move |ev| draft.update(|d| d.send_at = event_target_value(&ev)) />
                <p id="send-at-hint" class="hint">{move || t().send_at_hint}</p>
                <FieldProblem error=refused field="delay" id="send-at-problem" />
                <p id="send-at-when" data-testid="send-at-when" aria-live="polite" class=move || if when().0 { "field-error" } else { "when" }>{move || when().1}</p>
            </div>
            <div class="field">
                <label for="validity">{move || t().validity}</label>
                <input id="validity" type="number" inputmode="numeric" min="5" max="4320" step="1"
                    aria-describedby="validity-hint validity-problem"
                    prop:value=move || draft.with(|d| d.validity.clone())
                    on:input=move |ev| draft.update(|d| d.validity = event_target_value(&ev)) />
                <p id="validity-hint" class="hint">{move || t().validity_hint}</p>
                <FieldProblem error=refused field="validity" id="validity-problem" />
            </div>
        </div>
    }
}
