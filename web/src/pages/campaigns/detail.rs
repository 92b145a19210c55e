//! One campaign: its figures, a chart of delivery statuses (refreshed while it is sending),
//! "Pause" while sending, "Resume" while paused, "Cancel" while scheduled or paused, and
//! "Clone" into Compose.

use gloo_timers::future::TimeoutFuture;
use leptos::{prelude::*, task::spawn_local};
use leptos_router::hooks::{use_navigate, use_params_map};
use texto_core::wire::{CampaignDetailDto, CampaignDetailResponse, StatusResponse};

use super::{
    approval::{Approval, is_awaiting},
    messages::CampaignMessages,
    report::CampaignReport,
    status_label,
};
use crate::{
    api::{ApiError, use_api},
    components::{
        chart::{Bar, BarChart},
        download::download_csv,
        errors::ErrorAlert,
    },
    format,
    i18n::{use_lang, use_texts},
};

/// Seconds between two reads of a campaign that is still going out.
const REFRESH_MS: u32 = 2_000;

/// The detail page of `/app/campaigns/:id`.
#[component]
pub fn CampaignDetail() -> impl IntoView {
    let t = use_texts();
    let lang = use_lang();
    let api = use_api();
    let params = use_params_map();
    let id = move || params.with(|p| p.get("id").unwrap_or_default());
    let campaign = RwSignal::new(None::<CampaignDetailDto>);
    let error = RwSignal::new(None::<ApiError>);
    let notice = RwSignal::new(None::<&'static str>);
    // Bumped when a resumed campaign goes again: the reading loop starts over.
    let reads = RwSignal::new(0u32);

    // Reads the campaign, and again every REFRESH_MS while it is scheduled or sending. A loop
    // ends as soon as the page shows another campaign, has been left, or a newer loop began.
    let still_shown = move |id: &str, round: u32| {
        params.try_with_untracked(|p| p.get("id")).flatten().as_deref() == Some(id)
            && reads.try_get_untracked() == Some(round)
    };
    Effect::new(move |_| {
        let (id, round) = (id(), reads.get());
        spawn_local(async move {
            loop {
                let answer = api.get::<CampaignDetailResponse>(&format!("/campaign/{id}")).await;
                if !still_shown(&id, round) {
                    return;
                }
                match answer {
                    Ok(answer) => {
                        error.set(None);
                        campaign.set(answer.campaign.into_iter().next());
                    }
                    Err(e) => {
                        error.set(Some(e));
                        return;
                    }
                }
                if !campaign.try_with_untracked(|c| c.as_ref().is_some_and(is_going)).unwrap_or(false) {
                    return;
                }
                TimeoutFuture::new(REFRESH_MS).await;
            }
        });
    });

    let cancel = move |_| {
        let id = id();
        spawn_local(async move {
            match api.delete::<StatusResponse>(&format!("/send/{id}")).await {
                Ok(_) => {
                    notice.set(Some(t().cancelled_notice));
                    api.refresh_credits().await;
                    if let Ok(answer) = api.get::<CampaignDetailResponse>(&format!("/campaign/{id}")).await {
                        campaign.set(answer.campaign.into_iter().next());
                    }
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let pause_or_resume = move |what: &'static str| {
        let id = id();
        spawn_local(async move {
            match api.put_empty::<CampaignDetailResponse>(&format!("/campaign/{id}/{what}")).await {
                Ok(answer) => {
                    error.set(None);
                    notice.set(Some(if what == "pause" { t().paused_notice } else { t().resumed_notice }));
                    campaign.set(answer.campaign.into_iter().next());
                    if what == "resume" {
                        reads.update(|n| *n += 1);
                    }
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    // Who clicked, as CSV: the server writes it (the app carries no CSV writer).
    let export = move |_| {
        let id = id();
        spawn_local(async move {
            match api.get_text(&format!("/campaign/{id}/clickers.csv")).await {
                Ok(csv) => download_csv(&format!("campaign-{id}-clicks.csv"), &csv),
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let navigate = use_navigate();
    // Cloned on the server: the same message, options and recipients, as a draft of the team's.
    let clone = move |_| {
        let (id, navigate) = (id(), navigate.clone());
        spawn_local(async move {
            match crate::drafts::clone(api, &id).await {
                Ok(draft) => navigate(&format!("/app/compose?draft={draft}"), Default::default()),
                Err(e) => error.set(Some(e)),
            }
        });
    };

    let bars = Signal::derive(move || {
        let t = t();
        campaign.get().map_or_else(Vec::new, |c| {
            vec![
                Bar { label: t.delivered, value: c.delivered, class: "delivered" },
                Bar { label: t.pending, value: c.pending.unwrap_or(0), class: "pending" },
                Bar { label: t.not_delivered, value: c.error, class: "failed" },
                Bar { label: t.expired, value: c.expired, class: "expired" },
                Bar { label: t.network_error, value: c.network_error, class: "failed" },
                Bar { label: t.npai, value: c.npai, class: "npai" },
                Bar { label: t.stop, value: c.stop, class: "stop" },
            ]
        })
    });

    // Changes with each receipt counted, so that the Messages table follows the figures.
    let revision = Signal::derive(move || {
        campaign.with(|c| {
            c.as_ref().map_or(0, |c| {
                c.pending.unwrap_or(0) * 1_000_003 + c.delivered + c.error + c.expired + c.npai + c.network_error
            })
        })
    });
    view! {
        <h1>{move || format!("{} {}", t().campaign_title, id())}</h1>
        <ErrorAlert error=error />
        {move || notice.get().map(|n| view! { <p class="alert ok" role="status">{n}</p> })}
        {move || campaign.get().map(|c| {
            let lang = lang.get();
            let is = |status: &str| c.status.as_deref().is_some_and(|s| s.eq_ignore_ascii_case(status));
            let (scheduled, sending, paused) = (is("scheduled"), is("sending"), is("paused"));
            let may_send = crate::session::use_session().may(texto_core::Action::Send);
            let going = is_going(&c);
            let status = status_label(lang, c.status.as_deref().unwrap_or("sent"));
            let lists = c.lists.iter().map(|l| l.id.clone()).collect::<Vec<_>>().join(", ");
            let links = c.short_links.clone().unwrap_or_default();
            let clicked = links.iter().any(|l| l.clicks > 0);
            let mut rows = vec![
                (t().status, status.to_owned()),
                (t().created, format::wire_date(lang, &c.creation_date)),
                (t().goes_at, format::wire_date(lang, &c.date)),
                (t().sender, c.sender.clone()),
                (t().pushtype, if c.pushtype.as_deref().is_some_and(|p| p.eq_ignore_ascii_case("marketing")) { t().marketing } else { t().alert }.to_owned()),
                (t().total, format::integer(lang, c.total)),
                (t().sent, format::integer(lang, c.sent.unwrap_or(0))),
                (t().cost, format::credits(lang, c.cost)),
                (t().delivered_pct, format::percent(lang, c.delivery_rate)),
                (t().stop_replies, format::integer(lang, c.stop)),
                (t().lists_word, lists),
                (t().nav_templates, c.template.clone().unwrap_or_default()),
            ];
            // Each short link: its clicks and the people who clicked.
            rows.extend(links.into_iter().map(|l| {
                (t().link_word, format!("{} — {} {} · {} {}", l.url, t().clicks_word, format::integer(lang, l.clicks), t().clickers_word, format::integer(lang, l.clickers)))
            }));
            let rejection = c.rejection.clone();
            let waiting = c.waiting.clone();
            view! {
                {rejection.map(|reason| view! { <p class="alert error" data-testid="rejection">{t().rejected_because}" "{reason}</p> })}
                {waiting.map(|why| view! { <p class="alert" data-testid="waiting">{t().waiting_because}" "{why}</p> })}
                <dl class="figures wide" data-testid="campaign-figures">
                    {rows.into_iter().filter(|(_, v)| !v.is_empty()).map(|(l, v)| view! { <div><dt>{l}</dt><dd>{v}</dd></div> }).collect_view()}
                </dl>
                <h2>{t().text}</h2>
                <p class="sms-text">{c.text.clone()}</p>
                <div class="buttons">
                    {(may_send && sending).then(|| view! { <button type="button" on:click=move |_| pause_or_resume("pause")>{t().pause_campaign}</button> })}
                    {(may_send && paused).then(|| view! { <button type="button" on:click=move |_| pause_or_resume("resume")>{t().resume_campaign}</button> })}
                    {(scheduled || paused).then(|| view! { <button type="button" class="danger" on:click=cancel>{t().cancel_campaign}</button> })}
                    <button type="button" on:click=clone.clone()>{t().clone}</button>
                    {clicked.then(|| view! { <button type="button" on:click=export>{t().export_clickers}</button> })}
                </div>
                {(is_awaiting(&c) && crate::session::use_session().may(texto_core::Action::Approve)).then(|| view! { <Approval id=c.id.clone() campaign /> })}
                {going.then(|| view! { <p class="hint" role="status">{t().refreshing}</p> })}
            }
        })}
        <h2>{move || t().delivery_chart}</h2>
        <BarChart title=Signal::derive(move || t().delivery_chart) bars />
        {move || view! { <CampaignReport id=id() /> }}
        {move || view! { <CampaignMessages id=id() revision /> }}
    }
}

/// Still changing: scheduled, sending, or handed over with receipts still to come.
fn is_going(campaign: &CampaignDetailDto) -> bool {
    let is = |status: &str| campaign.status.as_deref().is_some_and(|s| s.eq_ignore_ascii_case(status));
    // A campaign awaiting approval goes nowhere until someone decides (and reloads it then);
    // a paused one until someone resumes it here.
    !is("cancelled")
        && !is("paused")
        && !is_awaiting(campaign)
        && (campaign.pending.unwrap_or(0) > 0
            || campaign
                .status
                .as_deref()
                .is_some_and(|s| s.eq_ignore_ascii_case("scheduled") || s.eq_ignore_ascii_case("sending")))
}
