//! The Compose page: write a message and see, as you type, how many SMS it costs.

use leptos::prelude::*;
use texto_core::{Encoding, Segments, segments};

/// The message editor with its live length counter and Unicode warning.
#[component]
pub fn Compose() -> impl IntoView {
    let (text, set_text) = signal(String::new());
    let split = Memo::new(move |_| segments(&text.read(), false));

    view! {
        <section class="compose">
            <h1>"Compose"</h1>
            <label for="message">"Message"</label>
            <textarea
                id="message"
                rows="6"
                placeholder="Write your SMS…"
                prop:value=text
                on:input=move |ev| set_text.set(event_target_value(&ev))
            ></textarea>
            <p class="counter" data-testid="counter" aria-live="polite">
                {move || counter_line(&split.read())}
            </p>
            <Show when=move || !split.read().unicode_chars.is_empty()>
                <p class="warning" data-testid="unicode-warning" role="status">
                    {move || unicode_warning(&split.read().unicode_chars)}
                </p>
            </Show>
        </section>
    }
}

/// "172 characters · 2 SMS · GSM-7 · 134 left".
fn counter_line(split: &Segments) -> String {
    let encoding = match split.encoding {
        Encoding::Gsm7 => "GSM-7",
        Encoding::Ucs2 => "Unicode (UCS-2)",
    };
    format!(
        "{} characters · {} SMS · {} · {} left",
        split.length, split.parts, encoding, split.remaining
    )
}

/// Names the characters that switched the message to Unicode, which cuts an SMS to 70 characters.
fn unicode_warning(chars: &[char]) -> String {
    let listed: Vec<String> = chars.iter().map(|c| format!("“{}”", c.escape_debug())).collect();
    format!(
        "These characters switch the message to Unicode (70 characters per SMS instead of 160): {}",
        listed.join(" ")
    )
}
