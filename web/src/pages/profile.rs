//! Profile: the signed-in person's name and password, two-factor sign-in, and "Sign out
//! everywhere".

use leptos::{prelude::*, task::spawn_local};
use texto_core::wire::{ProfileDto, ProfileRequest, SessionResponse, SessionsEndedResponse};

use crate::{
    api::{ApiError, use_api},
    components::{errors::ErrorAlert, field::TextField},
    i18n::use_texts,
    pages::two_factor::TwoFactor,
    session::use_session,
};

/// The profile page.
#[component]
pub fn Profile() -> impl IntoView {
    let t = use_texts();
    let api = use_api();
    let session = use_session();
    let me = LocalResource::new(move || async move { api.get::<SessionResponse>("/me").await });
    let (name, phone) = (RwSignal::new(String::new()), RwSignal::new(String::new()));
    let two_factor = RwSignal::new(false);
    Effect::new(move |_| {
        if let Some(Ok(answer)) = me.get() {
            two_factor.set(answer.user.as_ref().is_some_and(|u| u.two_factor == 1));
            phone.set(answer.user.as_ref().and_then(|u| u.phone.clone()).unwrap_or_default());
            name.set(answer.user.map(|u| u.name).unwrap_or_default());
        }
    });
    let (current, new) = (RwSignal::new(String::new()), RwSignal::new(String::new()));
    let (error, saved) = (RwSignal::new(None::<ApiError>), RwSignal::new(None::<&'static str>));
    let save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let new_password = new.get_untracked();
        let request = ProfileRequest {
            me: ProfileDto {
                name: Some(name.get_untracked()),
                password: (!new_password.is_empty()).then_some(new_password),
                current_password: Some(current.get_untracked()),
                phone: Some(phone.get_untracked()),
            },
        };
        spawn_local(async move {
            match api.put::<_, SessionResponse>("/me", &request).await {
                Ok(_) => {
                    error.set(None);
                    current.set(String::new());
                    new.set(String::new());
                    saved.set(Some(t().saved));
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let everywhere = move |_| {
        spawn_local(async move {
            let _ = api.delete::<SessionsEndedResponse>("/sessions").await;
            session.sign_out();
        });
    };
    let person = move || me.get().and_then(Result::ok).and_then(|answer| answer.user);
    view! {
        <h1>{move || t().profile_title}</h1>
        <Show when=move || person().is_some() fallback=move || view! { <p class="hint">{t().profile_token_only}</p> }>
            <p class="hint">{move || person().map(|u| u.email)}</p>
            <form on:submit=save class="card">
                <TextField id="profile-name" label=Signal::derive(move || t().person_name) value=name error field="me.name" autocomplete="name" required=true />
                <TextField id="profile-phone" label=Signal::derive(move || t().own_phone) value=phone error field="me.phone" input_type="tel" inputmode="tel" autocomplete="tel" />
                <p class="hint">{move || t().own_phone_hint}</p>
                <h2>{move || t().change_password}</h2>
                <TextField id="profile-current" label=Signal::derive(move || t().current_password) value=current error field="me.current_password" input_type="password" autocomplete="current-password" />
                <TextField id="profile-new" label=Signal::derive(move || t().new_password) value=new error field="me.password" input_type="password" autocomplete="new-password" />
                <p class="hint">{move || t().password_rule}</p>
                <ErrorAlert error=error />
                {move || saved.get().map(|text| view! { <p role="status">{text}</p> })}
                <button type="submit" class="primary">{move || t().save}</button>
            </form>
            <TwoFactor on=two_factor />
        </Show>
        <section class="card">
            <h2>{move || t().sign_out_everywhere}</h2>
            <p class="hint">{move || t().sign_out_everywhere_hint}</p>
            <button type="button" class="danger" on:click=everywhere>{move || t().sign_out_everywhere}</button>
        </section>
    }
}
