//! Sign in with an API token.

use leptos::{prelude::*, task::spawn_local};

use crate::{api::Api, i18n::use_texts, session::use_session};

/// The sign-in form; says why when the previous session ended with a 401.
#[component]
pub fn SignIn() -> impl IntoView {
    let t = use_texts();
    let session = use_session();
    let token = RwSignal::new(String::new());
    let refused = RwSignal::new(None::<&'static str>);
    let busy = RwSignal::new(false);
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let given = token.get_untracked().trim().to_owned();
        if given.is_empty() {
            refused.set(Some(t().token_refused));
            return;
        }
        busy.set(true);
        spawn_local(async move {
            let answer = Api::new(session).try_token(&given).await;
            busy.set(false);
            refused.set(answer.err().map(|e| if e.is_network() { t().error_network } else { t().token_refused }));
        });
    };
    view! {
        <section class="sign-in">
            <h1>{move || t().sign_in_title}</h1>
            <Show when=move || session.expired.get()>
                <p class="alert" role="alert">{move || t().session_ended}</p>
            </Show>
            <p>{move || t().sign_in_intro}</p>
            <form on:submit=submit>
                <label for="token">{move || t().api_token}</label>
                <input id="token" type="password" autocomplete="current-password" required
                    aria-invalid=move || refused.get().is_some().to_string()
                    aria-describedby=move || refused.get().map(|_| "token-problem")
                    prop:value=move || token.get() on:input=move |ev| token.set(event_target_value(&ev)) />
                {move || refused.get().map(|why| view! { <p class="field-error" id="token-problem" role="alert">{why}</p> })}
                <button type="submit" class="primary" disabled=move || busy.get()>{move || t().sign_in}</button>
            </form>
        </section>
    }
}
