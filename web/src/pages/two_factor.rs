//! Two-factor sign-in on the profile: set up from a QR code (or the key typed), confirmed by a
//! code, then the ten recovery codes shown once; turned off with a code and the password.

use leptos::{prelude::*, task::spawn_local};
use texto_core::wire::{RecoveryCodesResponse, StatusResponse, TwoFactorCodeRequest, TwoFactorSetupResponse};

use crate::{
    api::{ApiError, use_api},
    components::{errors::ErrorAlert, field::TextField},
    i18n::use_texts,
    session::use_session,
};

/// Where the set-up stands.
#[derive(Clone)]
enum Step {
    /// Nothing under way.
    Idle,
    /// A secret to scan, waiting for its first code.
    Scanning(TwoFactorSetupResponse),
    /// Just turned on: the recovery codes, shown this once.
    Codes(Vec<String>),
}

/// The profile's "Two-factor sign-in" section; `on` says whether it is on for the person.
#[component]
pub fn TwoFactor(
    /// Whether two-factor sign-in is on for the person (set here as it changes).
    on: RwSignal<bool>,
) -> impl IntoView {
    let (t, api, session) = (use_texts(), use_api(), use_session());
    let step = RwSignal::new(Step::Idle);
    let code = RwSignal::new(String::new());
    let password = RwSignal::new(String::new());
    let error = RwSignal::new(None::<ApiError>);
    let start = move |_| {
        spawn_local(async move {
            match api.post_empty::<TwoFactorSetupResponse>("/me/two-factor").await {
                Ok(setup) => {
                    error.set(None);
                    step.set(Step::Scanning(setup));
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let turning_off = on.get_untracked();
        let request = TwoFactorCodeRequest {
            code: Some(code.get_untracked().trim().to_owned()),
            // Turning it off takes the password too: a session alone may not.
            password: turning_off.then(|| password.get_untracked()),
            current_code: None,
        };
        spawn_local(async move {
            let answer = if turning_off {
                api.delete_with::<_, StatusResponse>("/me/two-factor", &request).await.map(|_| Step::Idle)
            } else {
                api.put::<_, RecoveryCodesResponse>("/me/two-factor", &request)
                    .await
                    .map(|answer| Step::Codes(answer.recovery_codes))
            };
            match answer {
                Ok(next) => {
                    error.set(None);
                    code.set(String::new());
                    password.set(String::new());
                    on.set(!turning_off);
                    step.set(next);
                    // Set up: whatever the account requires is met.
                    session.signed_in.update(|who| {
                        if let Some(who) = who.as_mut() {
                            who.two_factor_required &= turning_off;
                        }
                    });
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let code_form = move |button: &'static str, with_password: bool| {
        view! {
            <form on:submit=submit>
                <TextField id="two-factor-code" label=Signal::derive(move || t().authentication_code) value=code error field="code" inputmode="numeric" autocomplete="one-time-code" required=true />
                {with_password.then(|| view! {
                    <TextField id="two-factor-password" label=Signal::derive(move || t().password) value=password error field="password" input_type="password" autocomplete="current-password" required=true />
                })}
                <ErrorAlert error=error />
                <button type="submit" class="primary">{button}</button>
            </form>
        }
    };
    let body = move || {
        match (step.get(), on.get()) {
        (Step::Codes(codes), _) => view! {
            <p role="status">{t().two_factor_on}</p>
            <p>{t().recovery_codes_hint}</p>
            <ol class="codes" data-testid="recovery-codes">{codes.into_iter().map(|c| view! { <li>{c}</li> }).collect_view()}</ol>
        }
        .into_any(),
        (Step::Scanning(setup), _) => view! {
            <p>{t().two_factor_scan}</p>
            <div class="qr" role="img" aria-label=t().two_factor_qr inner_html=setup.qr_svg></div>
            <p class="hint">{t().two_factor_key}" "<code data-testid="two-factor-key">{setup.secret}</code></p>
            {code_form(t().two_factor_turn_on, false)}
        }
        .into_any(),
        (Step::Idle, true) => view! { <p>{t().two_factor_on}</p>{code_form(t().two_factor_turn_off, true)} }.into_any(),
        (Step::Idle, false) => view! {
            <p class="hint">{t().two_factor_intro}</p>
            <ErrorAlert error=error />
            <button type="button" class="primary" on:click=start>{t().two_factor_set_up}</button>
        }
        .into_any(),
    }
    };
    view! {
        <section class="card">
            <h2>{move || t().two_factor_title}</h2>
            {body}
        </section>
    }
}
