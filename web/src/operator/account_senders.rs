//! An account's registered sender IDs in the console (`…/operator/account/:id/senders`): once
//! it has one, its sends may only name those.

use gloo_net::http::Method;
use leptos::{prelude::*, task::spawn_local};
use texto_core::wire::{Format, RegisterSenderRequest, SendersResponse, encode};

use super::client::{use_console, use_op_texts};
use crate::{
    api::ApiError,
    components::{errors::ErrorAlert, field::TextField},
};

/// The senders of account `id`: the list with a remove button each, and a field to add one.
#[component]
pub fn AccountSenders(id: i64) -> impl IntoView {
    let (t, console) = (use_op_texts(), use_console());
    let path = format!("/operator/account/{id}/senders");
    let senders = RwSignal::new(Vec::new());
    let (name, error) = (RwSignal::new(String::new()), RwSignal::new(None::<ApiError>));
    let answered = move |answer: Result<SendersResponse, ApiError>| match answer {
        Ok(answer) => {
            error.set(None);
            senders.set(answer.senders);
        }
        Err(e) => error.set(Some(e)),
    };
    {
        let path = path.clone();
        spawn_local(async move { answered(console.get::<SendersResponse>(&path).await) });
    }
    let add = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let (path, body) =
            (path.clone(), encode(&RegisterSenderRequest { sender: name.get_untracked() }, Format::Json));
        spawn_local(async move {
            let answer = console.call::<SendersResponse>(Method::POST, &path, Some(body)).await;
            if answer.is_ok() {
                name.set(String::new());
            }
            answered(answer);
        });
    };
    let remove = move |sender: String| {
        spawn_local(async move {
            let path = format!("/operator/account/{id}/sender/{sender}");
            answered(console.call::<SendersResponse>(Method::DELETE, &path, None).await);
        });
    };
    view! {
        <h3>{move || t().senders_title}</h3>
        <p class="hint">{move || t().senders_intro}</p>
        <ul data-testid="registered-senders">
            {move || senders.get().into_iter().map(|sender| {
                let label = format!("{} {}", t().remove, sender.name);
                let name = sender.name.clone();
                view! {
                    <li>
                        {sender.name.clone()}
                        {(sender.default == 1).then(|| view! { " "<span class="badge live">{t().default_sender}</span> })}
                        " "<button type="button" class="small" aria-label=label on:click=move |_| remove(name.clone())>{t().remove}</button>
                    </li>
                }
            }).collect_view()}
        </ul>
        <form class="row" on:submit=add>
            <div class="field"><TextField id="register-sender" label=Signal::derive(move || t().sender_to_register) value=name error field="sender" autocomplete="off" required=true /></div>
            <button type="submit">{move || t().register_sender}</button>
        </form>
        <ErrorAlert error=error />
    }
}
