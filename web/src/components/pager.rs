//! Paging of a listing: "21–40 of 135" with previous and next.

use leptos::prelude::*;

use crate::{
    api::Paging,
    format,
    i18n::{use_lang, use_texts},
};

/// Previous/next buttons over `total` records, moving `paging`.
#[component]
pub fn Pager(
    /// The page shown, moved by the buttons.
    paging: RwSignal<Paging>,
    /// Records in all.
    #[prop(into)]
    total: Signal<i64>,
) -> impl IntoView {
    let t = use_texts();
    let lang = use_lang();
    let range = move || {
        let Paging { start, length } = paging.get();
        let total = total.get();
        if total == 0 {
            return String::new();
        }
        let (from, to) = (start + 1, (start + length).min(total));
        let of = if lang.get() == crate::i18n::Lang::Fr { "sur" } else { "of" };
        format!(
            "{}–{} {of} {}",
            format::integer(lang.get(), from),
            format::integer(lang.get(), to),
            format::integer(lang.get(), total)
        )
    };
    let has_previous = move || paging.get().start > 0;
    let has_next = move || {
        let p = paging.get();
        p.start + p.length < total.get()
    };
    view! {
        <div class="pager">
            <button type="button" disabled=move || !has_previous() on:click=move |_| paging.update(|p| p.start = (p.start - p.length).max(0))>
                {move || t().previous}
            </button>
            <span aria-live="polite">{range}</span>
            <button type="button" disabled=move || !has_next() on:click=move |_| paging.update(|p| p.start += p.length)>
                {move || t().next}
            </button>
        </div>
    }
}
