//! The pages the emailed links open, before anyone is signed in: joining a team from an
//! invitation (a name and a password, then signed in), choosing a new password from a reset
//! link, and asking for such a link ("Forgot password?").

use leptos::{prelude::*, task::spawn_local};
use leptos_router::hooks::{use_location, use_navigate};
use texto_core::wire::{AcceptDto, AcceptRequest, PasswordResetRequest, StatusResponse, UserResponse};

use crate::{
    api::{Api, ApiError},
    components::{errors::ErrorAlert, field::TextField},
    i18n::use_texts,
    session::use_session,
};

/// The secret at the end of the link (these pages show before any route is matched).
fn link_secret() -> String {
    use_location().pathname.with_untracked(|path| path.rsplit('/').next().unwrap_or_default().to_owned())
}

/// `/app/invitation/:token`: the invitee's name and password; signed in once joined.
#[component]
pub fn AcceptInvitation() -> impl IntoView {
    let t = use_texts();
    let session = use_session();
    let secret = link_secret();
    let (name, password) = (RwSignal::new(String::new()), RwSignal::new(String::new()));
    let error = RwSignal::new(None::<ApiError>);
    let navigate = use_navigate();
    let join = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let (chosen, secret, navigate) = (password.get_untracked(), secret.clone(), navigate.clone());
        let body = AcceptRequest {
            invitation: AcceptDto { name: Some(name.get_untracked()), password: Some(chosen.clone()) },
        };
        spawn_local(async move {
            let joined = Api::post_public::<_, UserResponse>(&format!("/invitation/{secret}"), &body).await;
            let signed_in = match joined {
                Ok(answer) => Api::new(session).sign_in(&answer.user.email, &chosen, None).await,
                Err(e) => Err(e),
            };
            match signed_in {
                Ok(()) => navigate("/app/", Default::default()),
                Err(e) => error.set(Some(e)),
            }
        });
    };
    view! {
        <section class="sign-in">
            <h1>{move || t().join_title}</h1>
            <p>{move || t().join_intro}</p>
            <form on:submit=join>
                <TextField id="join-name" label=Signal::derive(move || t().person_name) value=name error field="invitation.name" autocomplete="name" required=true />
                <TextField id="join-password" label=Signal::derive(move || t().new_password) value=password error field="invitation.password" input_type="password" autocomplete="new-password" required=true />
                <p class="hint">{move || t().password_rule}</p>
                <ErrorAlert error=error />
                <button type="submit" class="primary">{move || t().join}</button>
            </form>
        </section>
    }
}

/// `/app/password-reset/:token`: a new password (every session of the person ends).
#[component]
pub fn ResetPassword() -> impl IntoView {
    let t = use_texts();
    let secret = link_secret();
    let password = RwSignal::new(String::new());
    let error = RwSignal::new(None::<ApiError>);
    let done = RwSignal::new(false);
    let reset = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let body = PasswordResetRequest { email: None, password: Some(password.get_untracked()) };
        let secret = secret.clone();
        spawn_local(async move {
            match Api::post_public::<_, StatusResponse>(&format!("/password-reset/{secret}"), &body).await {
                Ok(_) => done.set(true),
                Err(e) => error.set(Some(e)),
            }
        });
    };
    view! {
        <section class="sign-in">
            <h1>{move || t().reset_title}</h1>
            <Show when=move || !done.get() fallback=move || view! {
                <p role="status">{t().reset_done}</p>
                <a href="/app/">{t().sign_in}</a>
            }>
                <form on:submit=reset.clone()>
                    <TextField id="reset-password" label=Signal::derive(move || t().new_password) value=password error field="password" input_type="password" autocomplete="new-password" required=true />
                    <p class="hint">{move || t().password_rule}</p>
                    <ErrorAlert error=error />
                    <button type="submit" class="primary">{move || t().reset_button}</button>
                </form>
            </Show>
        </section>
    }
}

/// "Forgot password?": asks for a link by email; the answer is the same whether or not the
/// email has a sign-in.
#[component]
pub fn ForgotPassword() -> impl IntoView {
    let t = use_texts();
    let email = RwSignal::new(String::new());
    let error = RwSignal::new(None::<ApiError>);
    let sent = RwSignal::new(false);
    let ask = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let body = PasswordResetRequest { email: Some(email.get_untracked().trim().to_owned()), password: None };
        spawn_local(async move {
            match Api::post_public::<_, StatusResponse>("/password-reset", &body).await {
                Ok(_) => sent.set(true),
                Err(e) => error.set(Some(e)),
            }
        });
    };
    view! {
        <details class="token-sign-in">
            <summary>{move || t().forgot_password}</summary>
            <Show when=move || !sent.get() fallback=move || view! { <p role="status">{t().reset_sent}</p> }>
                <form on:submit=ask>
                    <TextField id="forgot-email" label=Signal::derive(move || t().reset_email) value=email error field="email" input_type="email" autocomplete="username" required=true />
                    <ErrorAlert error=error />
                    <button type="submit">{move || t().send_reset_link}</button>
                </form>
            </Show>
        </details>
    }
}
