//! The live simulation: the draft validated and filtered by `texto-core` in the page, as the
//! server will, and "Check with server" to compare with `/send/simulate`.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use leptos::{prelude::*, task::spawn_local};
use texto_core::{
    Credits, Endpoint, FilterContext, MergeValues, MessageOptions, Segments, card_fields, card_values,
    has_contact_fields, render, rendered_segments, simulate, to_gsm, validate_send, wire::CampaignResultDto,
};

use super::{Account, overseas::OverseasParts, preview_contact::PreviewContact};
use crate::{
    api::{ApiError, use_api},
    clock,
    components::errors::ErrorAlert,
    draft::Draft,
    format,
    i18n::{Lang, use_lang, use_texts},
    session::use_session,
};

/// What the page knows about the draft at each keystroke.
#[derive(Debug, Clone, PartialEq)]
pub struct Figures {
    /// The split of the text as sent (STOP text and short links counted).
    pub split: Segments,
    /// Fewest and most parts over the recipients (they differ with `[info]` fields).
    pub parts: (usize, usize),
    /// The text as the contact chosen for the preview, else the first recipient, sees it.
    pub preview: String,
    /// The campaign result, or what is wrong with the draft.
    pub result: Result<CampaignResultDto, Vec<String>>,
    /// When it goes (marketing pushed into its window).
    pub send_at: Option<DateTime<Utc>>,
    /// What smart encoding does to the text, or would do once turned on (`None` when the
    /// text has nothing to replace).
    pub smart: Option<SmartFigures>,
}

/// Smart encoding's effect on the text.
#[derive(Debug, Clone, PartialEq)]
pub struct SmartFigures {
    /// Characters replaced.
    pub replaced: usize,
    /// Each distinct character and its twin.
    pub twins: Vec<(char, &'static str)>,
    /// Parts per message as written, and once replaced.
    pub parts: (usize, usize),
}

/// The message options the server uses: short links on this origin, the default STOP text.
pub fn message_options() -> MessageOptions {
    MessageOptions { public_url: clock::origin(), ..MessageOptions::default() }
}

/// The figures of `draft`, recomputed as it or the account changes; the preview shows its text
/// number `shown` (0 is its own, then its A/B test's).
pub fn figures(
    draft: RwSignal<Draft>,
    account: Account,
    preview: RwSignal<Option<PreviewContact>>,
    shown: RwSignal<usize>,
) -> Memo<Figures> {
    let session = use_session();
    Memo::new(move |_| {
        let options = message_options();
        let draft = draft.get();
        let now = clock::now();
        let contacts = account.contacts.get();
        let segment_contacts = account.segment_contacts.get();
        let chosen: Vec<&texto_core::Contact> = if draft.to_lists {
            let lists = draft.lists.iter().filter_map(|id| contacts.get(id));
            lists.chain(draft.segments.iter().filter_map(|id| segment_contacts.get(id))).flatten().collect()
        } else {
            Vec::new()
        };
        let text = draft.sent_text();
        let gsm = to_gsm(&draft.text);
        let smart = (gsm.replaced > 0).then(|| {
            let parts = |text: &str| rendered_segments(text, draft.pushtype(), false, &options, None).parts;
            SmartFigures {
                replaced: gsm.replaced,
                twins: gsm.twins.clone(),
                parts: (parts(&draft.text), parts(&gsm.text)),
            }
        });
        // Contact fields are made GSM too when smart encoding is on.
        let fields = |c: &texto_core::Contact| {
            let field = |i: usize| if draft.gsm { to_gsm(&c.info[i]).text } else { c.info[i].clone() };
            [field(0), field(1), field(2), field(3)]
        };
        let split_for = |info: [&str; 4]| {
            let values = MergeValues { info, card: &[] };
            rendered_segments(&text, draft.pushtype(), false, &options, Some(&values))
        };
        let first_fields = chosen.first().map(|c| fields(c)).unwrap_or_default();
        let split = split_for(first_fields.each_ref().map(String::as_str));
        let parts = if has_contact_fields(&draft.text) && !chosen.is_empty() {
            chosen
                .iter()
                .map(|c| split_for(fields(c).each_ref().map(String::as_str)).parts)
                .fold((usize::MAX, 0), |(lo, hi), p| (lo.min(p), hi.max(p)))
        } else {
            (split.parts, split.parts)
        };
        let short_urls: Vec<String> = draft.links.iter().map(|_| options.short_url("AbC123")).collect();
        // The preview: for the contact chosen (its card and list entry), else the first recipient.
        let gsm_if = |value: &str| if draft.gsm { to_gsm(value).text } else { value.to_owned() };
        let variant = draft.ab.as_ref().and_then(|ab| ab.variants.get(shown.get().checked_sub(1)?));
        let text = variant.map_or(text, |variant| gsm_if(variant));
        let (info, card) = match preview.get() {
            Some(contact) => {
                let custom = |name: &str| contact.fields.get(name).map(String::as_str);
                let card = card_values(&card_fields(&text), &contact.firstname, &contact.lastname, custom);
                (contact.info.each_ref().map(|v| gsm_if(v)), card.iter().map(|v| gsm_if(v)).collect())
            }
            None => (first_fields, Vec::new()),
        };
        let values = MergeValues { info: info.each_ref().map(String::as_str), card: &card };
        let preview = render(&text, draft.pushtype(), &short_urls, &options, Some(&values));

        let context = FilterContext {
            blacklist: account.blacklist.get().into_iter().collect(),
            npai: account.npai.get().into_iter().collect(),
            balance: session.credits.get().and_then(Credits::from_f64).unwrap_or(Credits::ZERO),
            message: options.clone(),
            lists: draft
                .lists
                .iter()
                .map(|id| (id.clone(), contacts.get(id).cloned().unwrap_or_default()))
                .collect::<HashMap<_, _>>(),
            segments: draft
                .segments
                .iter()
                .map(|id| (id.clone(), segment_contacts.get(id).cloned().unwrap_or_default()))
                .collect(),
            consented: account.consented.get().map(|numbers| numbers.into_iter().collect()),
            prices: account.prices.get(),
            ..FilterContext::default()
        };
        let endpoint = if draft.to_lists { Endpoint::SimulateLists } else { Endpoint::Simulate };
        let outcome = validate_send(draft.request(), endpoint, &options, now)
            .and_then(|campaign| simulate(&campaign, &context, now));
        let (result, send_at) = match outcome {
            Ok(simulation) => (Ok(simulation.to_wire(None)), Some(simulation.send_at)),
            // A link field just added and not typed in yet is not an error to show.
            Err(error) => {
                let untyped = |path: &str| {
                    let index = path.strip_prefix("sms.message.links[").and_then(|rest| rest.strip_suffix(']'));
                    index
                        .and_then(|i| i.parse::<usize>().ok())
                        .is_some_and(|i| draft.links.get(i).is_some_and(String::is_empty))
                };
                let shown = error.field_errors().into_iter().filter(|p| !untyped(&p.path)).map(|p| p.message).collect();
                (Err(shown), None)
            }
        };
        Figures { split, parts, preview, result, send_at, smart }
    })
}

/// The counters of a campaign result with their labels, in the order of the interface.
pub fn counter_rows(lang: Lang, r: &CampaignResultDto) -> Vec<(&'static str, String)> {
    let t = lang.texts();
    let n = |v: i64| format::integer(lang, v);
    let mut rows = vec![
        (t.total, n(r.total)),
        (t.sent, n(r.sent)),
        (t.invalid, n(r.invalid)),
        (t.duplicated, n(r.duplicated)),
        (t.blacklisted, n(r.blacklisted)),
        (t.npai, n(r.npai)),
        (t.not_allowed, n(r.not_allowed.unwrap_or(0))),
        (t.flood, n(r.flood.unwrap_or(0))),
        (t.country_limit, n(r.country_limit.unwrap_or(0))),
        (t.cost, format::credits(lang, r.cost)),
        (t.credits_after, format::credits(lang, r.credits)),
    ];
    if let (Some(sample), Some(rest)) = (r.ab_sample, r.ab_remainder) {
        rows.insert(9, (t.ab_rest, n(rest)));
        rows.insert(9, (t.ab_sample, n(sample)));
    }
    if let Some(capped) = r.capped {
        rows.insert(9, (t.capped_counter, n(capped)));
    }
    if let Some(no_consent) = r.no_consent {
        rows.insert(9, (t.no_consent_counter, n(no_consent)));
    }
    rows
}

/// The simulation table and the server check.
#[component]
pub fn SimulationPanel(draft: RwSignal<Draft>, figures: Memo<Figures>) -> impl IntoView {
    let t = use_texts();
    let lang = use_lang();
    let api = use_api();
    let server = RwSignal::new(None::<Result<CampaignResultDto, ApiError>>);
    // A new draft makes the last server answer stale.
    Effect::new(move |_| {
        draft.track();
        server.set(None);
    });
    let check = move |_| {
        let request = draft.get_untracked().request();
        let path = if draft.with_untracked(|d| d.to_lists) { "/send/lists/simulate" } else { "/send/simulate" };
        spawn_local(async move {
            let answer = api.post::<_, CampaignResultDto>(path, &request).await;
            server.set(Some(answer));
        });
    };
    let rows = move || match figures.with(|f| f.result.clone()) {
        _ if draft.with(|d| d.text.trim().is_empty() || !d.has_recipients()) => {
            view! { <p class="hint">{t().nothing_to_send}</p> }.into_any()
        }
        Ok(result) => {
            let parts = figures.with(|f| f.parts);
            let parts = if parts.0 == parts.1 { parts.0.to_string() } else { format!("{}–{}", parts.0, parts.1) };
            let mut rows = counter_rows(lang.get(), &result);
            rows.insert(2, (t().parts, parts));
            let tested = result.ab_sample.is_some();
            let overseas = result.overseas.clone();
            view! {
                <dl class="figures">
                    {rows.into_iter().map(|(label, value)| view! { <div><dt>{label}</dt><dd>{value}</dd></div> }).collect_view()}
                </dl>
                {tested.then(|| view! { <p class="hint">{t().ab_cost_note}</p> })}
                {overseas.map(|parts| view! { <OverseasParts parts /> })}
            }
            .into_any()
        }
        Err(problems) if problems.is_empty() => view! { <p class="hint">{t().link_to_fill}</p> }.into_any(),
        Err(problems) => {
            view! { <ul class="problems">{problems.into_iter().map(|p| view! { <li>{p}</li> }).collect_view()}</ul> }
                .into_any()
        }
    };
    let comparison = move || {
        server.get().map(|answer| match answer {
            Ok(remote) => {
                let local = figures.with(|f| f.result.clone().ok());
                // Row by row, by label: the server may count what the page cannot (the
                // frequency cap needs the account's sending history).
                let local = local.map(|local| counter_rows(lang.get(), &local)).unwrap_or_default();
                let differences: Vec<(&str, String, String)> = counter_rows(lang.get(), &remote)
                    .into_iter()
                    .map(|(label, b)| {
                        let a = local.iter().find(|(l, _)| *l == label).map_or_else(|| "—".to_owned(), |(_, a)| a.clone());
                        (label, a, b)
                    })
                    .filter(|(_, a, b)| a != b && !(a == "—" && b == "0"))
                    .collect();
                if differences.is_empty() {
                    view! { <p class="alert ok" role="status">{t().server_agrees}</p> }.into_any()
                } else {
                    view! {
                        <div class="alert" role="status">
                            <p>{t().server_differs}</p>
                            <table>
                                <thead><tr><th scope="col"></th><th scope="col">{t().in_page}</th><th scope="col">{t().on_server}</th></tr></thead>
                                <tbody>{differences.into_iter().map(|(l, a, b)| view! { <tr><th scope="row">{l}</th><td>{a}</td><td>{b}</td></tr> }).collect_view()}</tbody>
                            </table>
                        </div>
                    }
                    .into_any()
                }
            }
            Err(error) => view! { <ErrorAlert error=Some(error) /> }.into_any(),
        })
    };
    view! {
        <section class="simulation" aria-labelledby="simulation-title">
            <h2 id="simulation-title">{move || t().simulation}</h2>
            <p class="hint">{move || t().simulation_hint}</p>
            <div aria-live="polite" data-testid="simulation">{rows}</div>
            <button type="button" on:click=check>{move || t().check_with_server}</button>
            <div data-testid="server-check">{comparison}</div>
        </section>
    }
}
