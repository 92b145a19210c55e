//! The message as it shows on a recipient's phone.

use leptos::prelude::*;

use crate::i18n::use_texts;

/// A phone-shaped bubble with the sender on top and the rendered text.
#[component]
pub fn PhonePreview(
    /// The sender shown on top.
    #[prop(into)]
    sender: Signal<String>,
    /// The message as received.
    #[prop(into)]
    text: Signal<String>,
) -> impl IntoView {
    let t = use_texts();
    view! {
        <figure class="phone" aria-label=move || t().preview_label>
            <div class="phone-sender">{sender}</div>
            <div class="phone-screen">
                <p class="bubble" data-testid="preview-text">{text}</p>
            </div>
        </figure>
    }
}
