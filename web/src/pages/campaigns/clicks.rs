//! A campaign's short links: clicks per link, and the export of who clicked (CSV with the
//! contacts' info1…info4, written by the server).

use leptos::{prelude::*, task::spawn_local};
use texto_core::wire::LinkClicksDto;

use crate::{
    api::{ApiError, use_api},
    components::download::download_text,
    format,
    i18n::{use_lang, use_texts},
};

/// The links of campaign `id` with their clicks (read by the detail page with the campaign);
/// a failed export shows in the page's `error`.
#[component]
pub fn CampaignClicks(id: Signal<String>, links: RwSignal<Vec<LinkClicksDto>>, error: RwSignal<Option<ApiError>>) -> impl IntoView {
    let t = use_texts();
    let lang = use_lang();
    let api = use_api();
    let export = move |_| {
        let id = id.get_untracked();
        spawn_local(async move {
            // The server writes the CSV: the app carries no CSV writer nor the clickers' types.
            match api.get_text(&format!("/campaign/{id}/clickers.csv")).await {
                Ok(csv) => {
                    error.set(None);
                    download_text(&format!("campaign-{id}-clicks.csv"), "text/csv", &csv);
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let rows = move || {
        let lang = lang.get();
        links
            .get()
            .into_iter()
            .map(|l| view! { <tr><td class="url">{l.url}</td><td>{format::integer(lang, l.clicks)}</td><td>{format::integer(lang, l.clickers)}</td></tr> })
            .collect_view()
    };
    view! {
        <Show when=move || links.with(|l| !l.is_empty())>
            <h2>{move || t().clicks_title}</h2>
            <div class="table-wrap">
                <table data-testid="link-clicks">
                    <thead><tr>
                        <th scope="col">{move || t().link_word}</th><th scope="col">{move || t().clicks_word}</th><th scope="col">{move || t().clickers_word}</th>
                    </tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            <button type="button" on:click=export disabled=move || links.with(|l| l.iter().all(|l| l.clicks == 0))>
                {move || t().export_clickers}
            </button>
        </Show>
    }
}
