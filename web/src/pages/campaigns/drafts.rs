//! The team's drafts above the history: open one in Compose, or discard it.

use leptos::{prelude::*, task::spawn_local};
use leptos_router::components::A;

use crate::{
    api::{ApiError, use_api},
    components::{errors::ErrorAlert, table::rows_or},
    drafts::{self, DraftSummary},
    format,
    i18n::{use_lang, use_texts},
};

/// The drafts' table.
#[component]
pub fn Drafts() -> impl IntoView {
    let (t, lang, api) = (use_texts(), use_lang(), use_api());
    let version = RwSignal::new(0u32);
    let error = RwSignal::new(None::<ApiError>);
    let all = LocalResource::new(move || {
        version.track();
        async move { drafts::list(api).await }
    });
    let load_error = Signal::derive(move || all.get().and_then(Result::err));
    let discard = move |id: String| {
        if !window().confirm_with_message(t().discard_confirm).unwrap_or(false) {
            return;
        }
        spawn_local(async move {
            match drafts::discard(api, &id).await {
                Ok(()) => version.update(|v| *v += 1),
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let rows = move || {
        all.get().and_then(Result::ok).map(|drafts| {
            rows_or(drafts, 4, t().no_drafts, move |draft: DraftSummary| {
                let id = draft.id.clone();
                let label = format!("{} {}", t().discard, draft.id);
                view! {
                    <tr>
                        <td data-label=t().text class="text">{draft.text}</td>
                        <td data-label=t().last_change>{format::wire_date(lang.get(), &draft.updated_at)}</td>
                        <td data-label=t().changed_by>{draft.updated_by}</td>
                        <td class="actions">
                            <A href=format!("/app/compose?draft={}", draft.id)>{format!("{} {}", t().open_draft, draft.id)}</A>
                            " "
                            <button type="button" class="danger" aria-label=label on:click=move |_| discard(id.clone())>{t().discard}</button>
                        </td>
                    </tr>
                }
            })
        })
    };
    view! {
        <section aria-labelledby="drafts-title">
            <h2 id="drafts-title">{move || t().drafts}</h2>
            <ErrorAlert error=load_error />
            <ErrorAlert error=error />
            <div class="table-wrap">
                <table class="drafts stack">
                    <thead>
                        <tr>
                            <th scope="col">{move || t().text}</th>
                            <th scope="col">{move || t().last_change}</th>
                            <th scope="col">{move || t().changed_by}</th>
                            <th scope="col"><span class="visually-hidden">{move || t().discard}</span></th>
                        </tr>
                    </thead>
                    <tbody>
                        <Suspense fallback=move || view! { <tr><td colspan="4">{t().loading}</td></tr> }>{rows}</Suspense>
                    </tbody>
                </table>
            </div>
        </section>
    }
}
