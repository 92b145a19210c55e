//! One rule of the segment editor: its kind, then what that kind asks (a field and a test, a
//! tag, a list, consent, or an engagement and its window). Each row keeps its own signal, so
//! typing in one does not redraw the others.

use leptos::prelude::*;
use texto_core::wire::{ListSummaryDto, SegmentRuleDto};

use crate::i18n::{Texts, use_texts};

/// The kinds of rule, by their wire `type`.
const KINDS: [&str; 7] = ["tag", "field", "list", "consent", "delivered", "clicked", "replied"];

/// A kind's label.
fn kind_label(t: &'static Texts, kind: &str) -> &'static str {
    match kind {
        "field" => t.rule_field,
        "list" => t.rule_list,
        "consent" => t.consent,
        "delivered" => t.rule_delivered,
        "clicked" => t.rule_clicked,
        "replied" => t.rule_replied,
        _ => t.contact_tag,
    }
}

/// A field test's label.
fn test_label(t: &'static Texts, test: &str) -> &'static str {
    match test {
        "contains" => t.test_contains,
        "before" => t.test_before,
        "after" => t.test_after,
        _ => t.test_equals,
    }
}

/// When an engagement counts: `ever`, `days` or `campaign`.
fn window_of(rule: &SegmentRuleDto) -> &'static str {
    match (&rule.campaign, rule.days) {
        (Some(_), _) => "campaign",
        (None, Some(_)) => "days",
        (None, None) => "ever",
    }
}

/// A `select` whose options are `(value, label)`, labelled for screen readers.
fn choice(
    label: String,
    options: Vec<(&'static str, &'static str)>,
    current: impl Fn() -> String + Send + Sync + Copy + 'static,
    on_pick: impl Fn(String) + Send + Sync + 'static,
) -> impl IntoView {
    view! {
        <select aria-label=label on:change=move |ev| on_pick(event_target_value(&ev))>
            {options.into_iter().map(|(value, text)| view! { <option value=value selected=move || current() == value>{text}</option> }).collect_view()}
        </select>
    }
}

/// The row of rule number `position` (from 1).
#[component]
pub fn RuleRow(
    rule: RwSignal<SegmentRuleDto>,
    position: usize,
    lists: Signal<Vec<ListSummaryDto>>,
    on_remove: impl Fn() + Send + Sync + 'static,
) -> impl IntoView {
    let t = use_texts();
    let named = move |what: &str| format!("{} {position} – {what}", t().rule);
    let kind = move || rule.with(|r| r.kind.clone());
    let text_input = move |what: &'static str,
                           read: fn(&SegmentRuleDto) -> Option<String>,
                           write: fn(&mut SegmentRuleDto, String)| {
        view! {
            <input type="text" aria-label=named(what) size="12" prop:value=move || rule.with(|r| read(r).unwrap_or_default())
                on:input=move |ev| rule.update(|r| write(r, event_target_value(&ev))) />
        }
    };
    let details = move || {
        match kind().as_str() {
        "field" => view! {
            {text_input(t().rule_field_name, |r| r.field.clone(), |r, v| r.field = Some(v))}
            {choice(named(t().rule_test), ["equals", "contains", "before", "after"].map(|v| (v, test_label(t(), v))).to_vec(),
                move || rule.with(|r| r.test.clone().unwrap_or_default()), move |v| rule.update(|r| r.test = Some(v)))}
            {text_input(t().rule_value, |r| r.value.clone(), |r, v| r.value = Some(v))}
        }
        .into_any(),
        "tag" => text_input(t().contact_tag, |r| r.value.clone(), |r, v| r.value = Some(v)).into_any(),
        "list" => view! {
            <select aria-label=named(t().rule_list) on:change=move |ev| rule.update(|r| r.list = Some(event_target_value(&ev)))>
                <option value="">"—"</option>
                {move || lists.get().into_iter().map(|l| {
                    let id = l.id.clone();
                    view! { <option value=l.id.clone() selected=move || rule.with(|r| r.list.as_deref() == Some(id.as_str()))>{l.name.clone()}</option> }
                }).collect_view()}
            </select>
        }
        .into_any(),
        "consent" => choice(named(t().consent), vec![("1", t().with_consent), ("0", t().without_consent)],
            move || rule.with(|r| r.value.clone().unwrap_or_default()), move |v| rule.update(|r| r.value = Some(v))).into_any(),
        _ => view! {
            {choice(named(t().rule_did), vec![("", t().rule_did_yes), ("1", t().rule_did_not)],
                move || rule.with(|r| if r.negate == Some(true) { "1".into() } else { String::new() }),
                move |v| rule.update(|r| r.negate = (v == "1").then_some(true)))}
            {choice(named(t().rule_window), vec![("ever", t().rule_ever), ("days", t().rule_last_days), ("campaign", t().rule_in_campaign)],
                move || rule.with(|r| window_of(r).to_owned()),
                move |v| rule.update(|r| {
                    r.days = (v == "days").then_some(30);
                    r.campaign = (v == "campaign").then(String::new);
                }))}
            <Show when=move || rule.with(|r| window_of(r) == "days")>
                <input type="number" min="1" max="1100" aria-label=named(t().rule_days) size="4"
                    prop:value=move || rule.with(|r| r.days.unwrap_or(30).to_string())
                    on:input=move |ev| rule.update(|r| r.days = event_target_value(&ev).parse().ok().or(Some(0))) />
            </Show>
            <Show when=move || rule.with(|r| window_of(r) == "campaign")>
                {text_input(t().rule_campaign, |r| r.campaign.clone(), |r, v| r.campaign = Some(v))}
            </Show>
        }
        .into_any(),
    }
    };
    view! {
        <li class="rule">
            {choice(named(t().rule_kind), KINDS.map(|k| (k, kind_label(t(), k))).to_vec(), kind,
                move |k| rule.set(SegmentRuleDto { test: (k == "field").then(|| "equals".to_owned()),
                    value: (k == "consent").then(|| "1".to_owned()), kind: k, ..SegmentRuleDto::default() }))}
            {details}
            <button type="button" class="link-button" on:click=move |_| on_remove()>{move || t().remove_rule}</button>
        </li>
    }
}
