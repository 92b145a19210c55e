//! A journey's steps in the editor, top to bottom, a branch's own steps indented under it. Each
//! step keeps its own signals, so typing in one does not redraw the others; a step is moved up
//! or down, or taken out, within the list that holds it.

use leptos::prelude::*;
use texto_core::wire::{JourneyConditionDto, JourneyStepDto, JourneyStepReportDto, ListSummaryDto, SegmentDto};

use crate::i18n::{Texts, use_texts};

/// One step as the editor holds it: its own fields, and a branch's two lists of steps.
#[derive(Debug, Clone, Copy)]
pub(super) struct StepSlot {
    key: usize,
    step: RwSignal<JourneyStepDto>,
    then: RwSignal<Vec<StepSlot>>,
    otherwise: RwSignal<Vec<StepSlot>>,
}

/// Hands out keys that tell steps apart across redraws.
#[derive(Debug, Clone, Copy)]
pub(super) struct Keys(StoredValue<usize>);

impl Keys {
    /// A new counter.
    pub(super) fn new() -> Keys {
        Keys(StoredValue::new(0))
    }

    fn next(self) -> usize {
        let key = self.0.get_value();
        self.0.set_value(key + 1);
        key
    }
}

impl StepSlot {
    /// `step` and its branches' steps, as the editor holds them.
    pub(super) fn of(keys: Keys, step: JourneyStepDto) -> StepSlot {
        let then = step.then.iter().cloned().map(|s| StepSlot::of(keys, s)).collect();
        let otherwise = step.otherwise.iter().cloned().map(|s| StepSlot::of(keys, s)).collect();
        let own = JourneyStepDto { then: Vec::new(), otherwise: Vec::new(), ..step };
        StepSlot {
            key: keys.next(),
            step: RwSignal::new(own),
            then: RwSignal::new(then),
            otherwise: RwSignal::new(otherwise),
        }
    }

    /// The step as the server reads it.
    pub(super) fn to_wire(self) -> JourneyStepDto {
        let own = self.step.get_untracked();
        match own.kind.as_str() {
            "branch" => JourneyStepDto {
                then: self.then.get_untracked().into_iter().map(StepSlot::to_wire).collect(),
                otherwise: self.otherwise.get_untracked().into_iter().map(StepSlot::to_wire).collect(),
                ..own
            },
            _ => own,
        }
    }
}

/// The kinds of step, by their wire `type`.
const KINDS: [&str; 7] = ["send", "wait", "branch", "tag", "list", "webhook", "end"];

/// A kind's label.
pub(super) fn kind_label(t: &'static Texts, kind: &str) -> &'static str {
    match kind {
        "wait" => t.step_wait,
        "branch" => t.step_branch,
        "tag" => t.step_tag,
        "list" => t.step_list,
        "webhook" => t.step_webhook,
        "end" => t.step_end,
        _ => t.step_send,
    }
}

/// The tests a branch offers in the app, by their wire `type`.
const TESTS: [&str; 7] = ["clicked", "replied", "keyword", "delivered", "tag", "list", "segment"];

/// The account's lists and segments, which steps and tests name.
#[derive(Debug, Clone, Copy)]
pub(super) struct Choices {
    /// Its lists.
    pub(super) lists: Signal<Vec<ListSummaryDto>>,
    /// Its segments.
    pub(super) segments: Signal<Vec<SegmentDto>>,
}

/// A text of the app, picked from the language's texts.
pub(super) type Label = fn(&'static Texts) -> &'static str;

/// The days of the week as the API names them, Monday first, with their labels.
pub(super) const WEEKDAYS: [(&str, Label); 7] = [
    ("mon", |t| t.monday),
    ("tue", |t| t.tuesday),
    ("wed", |t| t.wednesday),
    ("thu", |t| t.thursday),
    ("fri", |t| t.friday),
    ("sat", |t| t.saturday),
    ("sun", |t| t.sunday),
];

fn test_label(t: &'static Texts, test: &str) -> &'static str {
    match test {
        "replied" => t.rule_replied,
        "keyword" => t.test_keyword,
        "delivered" => t.test_delivered,
        "tag" => t.contact_tag,
        "list" => t.rule_list,
        "segment" => t.test_segment,
        _ => t.rule_clicked,
    }
}

/// A new step of `kind`, with what it needs filled where there is an obvious choice.
fn new_step(kind: &str) -> JourneyStepDto {
    let mut step = JourneyStepDto { kind: kind.to_owned(), ..JourneyStepDto::default() };
    match kind {
        "wait" => step.duration = Some("1d".into()),
        "branch" => {
            step.condition = Some(Box::new(JourneyConditionDto { kind: "clicked".into(), ..Default::default() }))
        }
        _ => {}
    }
    step
}

/// The steps of `steps`, at `path` (`""` for the journey's own, `2.then.` for a branch's).
#[component]
pub(super) fn StepList(
    steps: RwSignal<Vec<StepSlot>>,
    path: String,
    keys: Keys,
    choices: Choices,
    counts: Signal<Vec<JourneyStepReportDto>>,
) -> impl IntoView {
    let t = use_texts();
    let prefix = path.clone();
    let add = move |_| steps.update(|s| s.push(StepSlot::of(keys, new_step("send"))));
    view! {
        <ol class="journey-steps">
            <For each=move || steps.get().into_iter().enumerate() key=|(i, slot)| (slot.key, *i) let:entry>
                {
                    let (index, slot) = entry;
                    view! { <StepRow held=slot path=format!("{prefix}{index}") index steps keys choices counts /> }
                }
            </For>
        </ol>
        <button type="button" on:click=add>{move || t().add_step}</button>
    }
}

/// One step, its place `path`, `index` in `steps`.
#[component]
fn StepRow(
    held: StepSlot,
    path: String,
    index: usize,
    steps: RwSignal<Vec<StepSlot>>,
    keys: Keys,
    choices: Choices,
    counts: Signal<Vec<JourneyStepReportDto>>,
) -> impl IntoView {
    let t = use_texts();
    let lists = choices.lists;
    let step = held.step;
    let shown = StoredValue::new(path.clone());
    let named = move |what: &str| format!("{} {} – {what}", t().step, shown.get_value());
    let kind = move || step.with(|s| s.kind.clone());
    let count_path = path.clone();
    let count = move || {
        counts.with(|all| {
            all.iter().find(|c| c.step == count_path).map(|c| {
                format!(
                    "{} {} · {} {} · {} {}",
                    c.entered,
                    t().step_reached,
                    c.waiting,
                    t().step_waiting,
                    c.done,
                    t().step_done
                )
            })
        })
    };
    let last = move || steps.with(|s| index + 1 >= s.len());
    let swap = move |with: usize| steps.update(|s| s.swap(index, with));
    let (up_label, down_label, remove_label) = (named(t().move_up), named(t().move_down), named(t().remove_rule));
    let details = {
        move || {
            let field = |what: &'static str,
                         read: fn(&JourneyStepDto) -> Option<String>,
                         write: fn(&mut JourneyStepDto, String)| {
                view! {
                    <input type="text" aria-label=named(what) prop:value=move || step.with(|s| read(s).unwrap_or_default())
                        on:input=move |ev| step.update(|s| write(s, event_target_value(&ev))) />
                }
            };
            match kind().as_str() {
                "send" => view! {
                    <textarea aria-label=named(t().step_text) rows="2" prop:value=move || step.with(|s| s.text.clone().unwrap_or_default())
                        on:input=move |ev| step.update(|s| s.text = Some(event_target_value(&ev)))></textarea>
                    {field(t().step_link, |s| s.links.first().cloned(), |s, v| {
                        let v = v.trim().to_owned();
                        s.links = if v.is_empty() { Vec::new() } else { vec![v] };
                    })}
                    <select aria-label=named(t().pushtype) on:change=move |ev| step.update(|s| s.pushtype = Some(event_target_value(&ev)))>
                        <option value="alert" selected=move || step.with(|s| s.pushtype.as_deref() != Some("marketing"))>{t().alert}</option>
                        <option value="marketing" selected=move || step.with(|s| s.pushtype.as_deref() == Some("marketing"))>{t().marketing}</option>
                    </select>
                }
                .into_any(),
                "wait" => view! {
                    <select aria-label=named(t().wait_how) on:change=move |ev| step.update(|s| {
                        let until = event_target_value(&ev) == "until";
                        s.duration = (!until).then(|| "1d".to_owned());
                        s.until = until.then(|| "10:00".to_owned());
                        s.days = Vec::new();
                    })>
                        <option value="for" selected=move || step.with(|s| s.until.is_none())>{t().wait_for}</option>
                        <option value="until" selected=move || step.with(|s| s.until.is_some())>{t().wait_until}</option>
                    </select>
                    {move || match step.with(|s| s.until.is_some()) {
                        false => view! {
                            <input type="text" aria-label=named(t().step_duration) prop:value=move || step.with(|s| s.duration.clone().unwrap_or_default())
                                on:input=move |ev| step.update(|s| s.duration = Some(event_target_value(&ev))) />
                        }
                        .into_any(),
                        true => view! {
                            <input type="time" aria-label=named(t().step_until) prop:value=move || step.with(|s| s.until.clone().unwrap_or_default())
                                on:input=move |ev| step.update(|s| s.until = Some(event_target_value(&ev))) />
                            <select aria-label=named(t().step_day) on:change=move |ev| step.update(|s| {
                                let day = event_target_value(&ev);
                                s.days = if day.is_empty() { Vec::new() } else { vec![day] };
                            })>
                                <option value="">{t().any_day}</option>
                                {WEEKDAYS.into_iter().map(|(day, label)| view! {
                                    <option value=day selected=move || step.with(|s| s.days.first().map(String::as_str) == Some(day))>{move || label(t())}</option>
                                }).collect_view()}
                            </select>
                        }
                        .into_any(),
                    }}
                }
                .into_any(),
                "tag" => field(t().contact_tag, |s| s.add.clone().or(s.remove.clone()), |s, v| {
                    if s.remove.is_some() { s.remove = Some(v) } else { s.add = Some(v) }
                })
                .into_any(),
                "list" => view! {
                    <select aria-label=named(t().rule_list) on:change=move |ev| step.update(|s| { s.add = Some(event_target_value(&ev)); s.remove = None; })>
                        <option value="">{t().pick_list}</option>
                        {move || lists.get().into_iter().map(|l| {
                            let id = l.id.clone();
                            view! { <option value=l.id.clone() selected=move || step.with(|s| s.add.as_deref() == Some(id.as_str()))>{l.name}</option> }
                        }).collect_view()}
                    </select>
                }
                .into_any(),
                "webhook" => view! {
                    <input type="url" aria-label=named(t().step_url) placeholder="https://" prop:value=move || step.with(|s| s.url.clone().unwrap_or_default())
                        on:input=move |ev| step.update(|s| s.url = Some(event_target_value(&ev))) />
                }
                .into_any(),
                "branch" => {
                    let test = move || step.with(|s| s.condition.as_ref().map(|c| c.kind.clone()).unwrap_or_default());
                    let set_test = move |kind: String| step.update(|s| s.condition = Some(Box::new(JourneyConditionDto { kind, ..Default::default() })));
                    view! {
                        <select aria-label=named(t().step_if) on:change=move |ev| set_test(event_target_value(&ev))>
                            {TESTS.map(|k| view! { <option value=k selected=move || test() == k>{test_label(t(), k)}</option> })}
                        </select>
                        {move || match test().as_str() {
                            "tag" | "keyword" => view! {
                                <input type="text" aria-label=named(if test() == "tag" { t().contact_tag } else { t().trigger_keyword_word }) prop:value=move || step.with(|s| s.condition.as_ref().and_then(|c| c.value.clone()).unwrap_or_default())
                                    on:input=move |ev| step.update(|s| if let Some(c) = s.condition.as_mut() { c.value = Some(event_target_value(&ev)) }) />
                            }.into_any(),
                            "list" => view! {
                                <select aria-label=named(t().rule_list) on:change=move |ev| step.update(|s| if let Some(c) = s.condition.as_mut() { c.list = Some(event_target_value(&ev)) })>
                                    <option value="">{t().pick_list}</option>
                                    {move || lists.get().into_iter().map(|l| view! { <option value=l.id.clone()>{l.name}</option> }).collect_view()}
                                </select>
                            }.into_any(),
                            "segment" => view! {
                                <select aria-label=named(t().test_segment) on:change=move |ev| step.update(|s| if let Some(c) = s.condition.as_mut() { c.segment = Some(event_target_value(&ev)) })>
                                    <option value="">{t().pick_segment}</option>
                                    {move || choices.segments.get().into_iter().map(|g| {
                                        let id = g.id.clone().unwrap_or_default();
                                        let picked = id.clone();
                                        view! { <option value=id selected=move || step.with(|s| s.condition.as_ref().and_then(|c| c.segment.as_deref()) == Some(picked.as_str()))>{g.name.clone().unwrap_or_default()}</option> }
                                    }).collect_view()}
                                </select>
                            }.into_any(),
                            _ => ().into_any(),
                        }}
                    }
                    .into_any()
                }
                _ => ().into_any(),
            }
        }
    };
    let branches = {
        let path = path.clone();
        move || {
            (kind() == "branch").then(|| {
                view! {
                    <div class="branch">
                        <p class="branch-label">{t().step_then}</p>
                        <StepList steps=held.then path=format!("{path}.then.") keys choices counts />
                        <p class="branch-label">{t().step_else}</p>
                        <StepList steps=held.otherwise path=format!("{path}.else.") keys choices counts />
                    </div>
                }
                .into_any()
            })
        }
    };
    view! {
        <li class="journey-step" data-step=path.clone()>
            <div class="row">
                <span class="step-number" aria-hidden="true">{path.clone()}</span>
                <select aria-label=named(t().step_type) on:change=move |ev| step.set(new_step(&event_target_value(&ev)))>
                    {KINDS.map(|k| view! { <option value=k selected=move || kind() == k>{kind_label(t(), k)}</option> })}
                </select>
                {details}
                <button type="button" aria-label=up_label disabled=move || index == 0 on:click=move |_| swap(index.saturating_sub(1))>"↑"</button>
                <button type="button" aria-label=down_label disabled=last on:click=move |_| swap(index + 1)>"↓"</button>
                <button type="button" aria-label=remove_label on:click=move |_| steps.update(|s| { s.remove(index); })>{t().remove_rule}</button>
            </div>
            <p class="hint step-counts">{count}</p>
            {branches}
        </li>
    }
}
