//! The body rows of a listing.

use leptos::prelude::*;

/// One row per item, or a single row across `columns` saying `empty` when there is none.
pub fn rows_or<T, V: IntoView + 'static>(
    items: Vec<T>,
    columns: usize,
    empty: &'static str,
    row: impl FnMut(T) -> V,
) -> AnyView {
    if items.is_empty() {
        return view! { <tr><td colspan=columns.to_string()>{empty}</td></tr> }.into_any();
    }
    items.into_iter().map(row).collect_view().into_any()
}
