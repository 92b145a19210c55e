//! `/join/{slug}`: the hosted sign-up page. `GET` shows the form; `POST` keeps the sign-up under
//! the limits (a few an hour per address and per number) and sends the code by SMS, unless one
//! went to the number within a day; `POST /join/{slug}/confirm` checks the typed code and, when
//! right, adds the number to the page's list with its consent. Every answer is a small HTML
//! page: visitors never see the API's envelope.

use axum::{
    Router,
    extract::{Path, RawQuery, Request, State},
    http::{StatusCode, header},
    response::Response,
    routing::{get, post},
};
use chrono::Utc;
use texto_core::{FieldError, PageLanguage, parse_international};

use super::{confirm, html, send_code};
use crate::{
    Error,
    http::auth,
    state::AppState,
    store::signups::{CodeChecked, ConfirmedBy, NewSignup, SavedSignupPage, SignupStarted},
};

/// The largest form body read: far above any real sign-up.
const MOST_BODY_BYTES: usize = 16 * 1024;

pub(super) fn router() -> Router<AppState> {
    Router::new().route("/join/{slug}", get(show).post(sign_up)).route("/join/{slug}/confirm", post(confirm_code))
}

/// The language asked by `?lang=`, else by `Accept-Language`.
fn language(query: Option<&str>, headers: &axum::http::HeaderMap) -> PageLanguage {
    let asked = query.and_then(|q| form_urlencoded::parse(q.as_bytes()).find(|(name, _)| name == "lang"));
    let accepted = headers.get(header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok());
    PageLanguage::chosen(asked.as_ref().map(|(_, value)| value.as_ref()), accepted)
}

/// What a refusal or a fault shows, by language: `(title, why)`.
fn said(
    language: PageLanguage,
    french: (&'static str, &'static str),
    english: (&'static str, &'static str),
) -> (&'static str, &'static str) {
    match language {
        PageLanguage::French => french,
        PageLanguage::English => english,
    }
}

fn not_found(language: PageLanguage) -> Response {
    let (title, why) = said(
        language,
        ("Page introuvable", "Cette page d’inscription n’existe pas ou plus."),
        ("Page not found", "This sign-up page does not exist, or no longer does."),
    );
    html::answer(StatusCode::NOT_FOUND, html::notice(language, title, why))
}

fn fault(language: PageLanguage, error: &Error) -> Response {
    tracing::error!(%error, "a sign-up page could not answer");
    let (title, why) = said(
        language,
        ("Réessayez dans un instant", "Nous n’avons pas pu enregistrer votre demande. Réessayez dans un instant."),
        ("Try again in a moment", "We could not take your request. Try again in a moment."),
    );
    html::answer(StatusCode::SERVICE_UNAVAILABLE, html::notice(language, title, why))
}

/// The page at `slug`, or the answer that says there is none (or that it cannot be read).
async fn page(state: &AppState, slug: &str, language: PageLanguage) -> Result<SavedSignupPage, Response> {
    let found = match texto_core::Slug::parse(slug) {
        Some(slug) => state.store.signup_page_by_slug(slug.as_str()).await,
        None => Ok(None),
    };
    match found {
        Ok(Some(saved)) => Ok(saved),
        Ok(None) => Err(not_found(language)),
        Err(error) => Err(fault(language, &error)),
    }
}

/// `GET /join/{slug}`.
async fn show(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    RawQuery(query): RawQuery,
    request: Request,
) -> Response {
    let language = language(query.as_deref(), request.headers());
    match page(&state, &slug, language).await {
        Ok(saved) => html::answer(StatusCode::OK, html::form(&saved.page, language, &[], &[])),
        Err(answer) => answer,
    }
}

/// The pairs of a posted form, or none when it is too large.
async fn pairs(request: Request) -> Option<Vec<(String, String)>> {
    let body = axum::body::to_bytes(request.into_body(), MOST_BODY_BYTES).await.ok()?;
    Some(form_urlencoded::parse(&body).map(|(name, value)| (name.into_owned(), value.into_owned())).collect())
}

/// `POST /join/{slug}`.
async fn sign_up(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    RawQuery(query): RawQuery,
    request: Request,
) -> Response {
    let language = language(query.as_deref(), request.headers());
    let saved = match page(&state, &slug, language).await {
        Ok(saved) => saved,
        Err(answer) => return answer,
    };
    let (parts, body) = request.into_parts();
    let address = auth::client(&parts, &state.config.trusted_proxies).to_string();
    let Some(typed) = pairs(Request::from_parts(parts, body)).await else {
        let problem = FieldError::new("form", "the form is too large");
        return html::answer(StatusCode::PAYLOAD_TOO_LARGE, html::form(&saved.page, language, &[], &[problem]));
    };
    let filled = match saved.page.read_form(typed.iter().map(|(n, v)| (n.as_str(), v.as_str()))) {
        Ok(filled) => filled,
        Err(problems) => {
            return html::answer(
                StatusCode::UNPROCESSABLE_ENTITY,
                html::form(&saved.page, language, &typed, &problems),
            );
        }
    };
    let number = filled.number.as_u64() as i64;
    let code = match super::new_code() {
        Ok(code) => code,
        Err(error) => return fault(language, &error),
    };
    let new = NewSignup {
        page: saved.id,
        account: saved.account,
        number,
        fields: serde_json::to_string(&filled.fields).unwrap_or_else(|_| "{}".to_owned()),
        code_hash: super::code_hash(number, &code),
        language: language.code().to_owned(),
        address,
        at: Utc::now(),
    };
    let started = match state.store.start_signup(new).await {
        Ok(started) => started,
        Err(error) => return fault(language, &error),
    };
    let sent_now = match started {
        SignupStarted::AddressBusy | SignupStarted::NumberBusy => {
            let (title, why) = said(
                language,
                (
                    "Trop de demandes",
                    "Trop d’inscriptions viennent d’être faites depuis cette adresse ou pour ce numéro. Réessayez dans une heure.",
                ),
                (
                    "Too many requests",
                    "Too many sign-ups were just made from this address or for this number. Try again in an hour.",
                ),
            );
            return html::answer(StatusCode::TOO_MANY_REQUESTS, html::notice(language, title, why));
        }
        SignupStarted::AlreadySent(_) => false,
        SignupStarted::Send(id) => match send_code(&state, &saved, id, number, &code, language).await {
            Ok(()) => true,
            Err(error) => return fault(language, &error),
        },
    };
    html::answer(StatusCode::OK, html::code(&saved.page, language, &number.to_string(), sent_now, None))
}

/// `POST /join/{slug}/confirm`.
async fn confirm_code(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    RawQuery(query): RawQuery,
    request: Request,
) -> Response {
    let language = language(query.as_deref(), request.headers());
    let saved = match page(&state, &slug, language).await {
        Ok(saved) => saved,
        Err(answer) => return answer,
    };
    let typed = pairs(request).await.unwrap_or_default();
    let value = |name: &str| typed.iter().find(|(n, _)| n == name).map_or("", |(_, v)| v.trim());
    let Ok(number) = parse_international(value("number")) else {
        return html::answer(StatusCode::UNPROCESSABLE_ENTITY, html::form(&saved.page, language, &[], &[]));
    };
    let number = number.as_u64() as i64;
    let now = Utc::now();
    let checked = state.store.check_signup_code(saved.id, number, super::code_hash(number, value("code")), now).await;
    match checked {
        Ok(CodeChecked::Right(pending)) => match confirm(&state, &saved, pending, ConfirmedBy::Code, now).await {
            Ok(_) => html::answer(StatusCode::OK, html::thanks(&saved.page, language)),
            Err(error) => fault(language, &error),
        },
        Ok(CodeChecked::Wrong(left)) => {
            let why = match language {
                PageLanguage::French => format!("Ce n’est pas le bon code. Essais restants : {left}."),
                PageLanguage::English => format!("That is not the code. Tries left: {left}."),
            };
            let page = html::code(&saved.page, language, &number.to_string(), false, Some(&why));
            html::answer(StatusCode::UNPROCESSABLE_ENTITY, page)
        }
        Ok(CodeChecked::NoneWaiting) => {
            let (title, why) = said(
                language,
                ("Inscription expirée", "Aucune inscription n’attend ce numéro : recommencez depuis le formulaire."),
                ("Sign-up expired", "No sign-up waits for this number: start again from the form."),
            );
            html::answer(StatusCode::GONE, html::notice(language, title, why))
        }
        Err(error) => fault(language, &error),
    }
}
