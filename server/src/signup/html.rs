//! The sign-up page's HTML, without the web app: one small document per answer (the form, the
//! code to type, the thanks, a refusal), in French or English, readable on a phone, with no
//! script. maud escapes every value it writes.

use axum::{
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use maud::{DOCTYPE, Markup, html};
use texto_core::{ContactField, FieldError, PageLanguage, SignupPage};

/// What a page in the visitor's language says around what the account wrote.
struct Words {
    number: &'static str,
    number_hint: &'static str,
    firstname: &'static str,
    lastname: &'static str,
    join: &'static str,
    code_title: &'static str,
    code_sent: &'static str,
    code_sent_before: &'static str,
    code: &'static str,
    reply_hint: &'static str,
    confirm: &'static str,
    thanks_title: &'static str,
    thanks: &'static str,
    stop_hint: &'static str,
    other_language: &'static str,
    problems: &'static str,
    number_problem: &'static str,
    consent_problem: &'static str,
    field_problem: &'static str,
}

const FRENCH: Words = Words {
    number: "Numéro de mobile",
    number_hint: "Par exemple 06 12 34 56 78, ou +32 470 12 34 56 hors de France.",
    firstname: "Prénom",
    lastname: "Nom",
    join: "S’inscrire",
    code_title: "Confirmez votre inscription",
    code_sent: "Nous venons d’envoyer un code par SMS au",
    code_sent_before: "Nous avons déjà envoyé un code par SMS aujourd’hui au",
    code: "Code reçu par SMS",
    reply_hint: "Vous pouvez aussi répondre OUI au SMS.",
    confirm: "Confirmer",
    thanks_title: "Merci !",
    thanks: "Votre inscription est confirmée :",
    stop_hint: "Pour ne plus recevoir nos SMS, répondez STOP à l’un d’eux.",
    other_language: "English",
    problems: "À corriger :",
    number_problem: "Ce numéro n’est pas un numéro de mobile que nous savons lire : par exemple 06 12 34 56 78.",
    consent_problem: "Cochez la case pour accepter de recevoir les SMS.",
    field_problem: "200 caractères au plus.",
};

const ENGLISH: Words = Words {
    number: "Mobile number",
    number_hint: "With its country code, for example +44 7700 900123, or 06 12 34 56 78 in France.",
    firstname: "First name",
    lastname: "Last name",
    join: "Sign up",
    code_title: "Confirm your sign-up",
    code_sent: "We just sent a code by SMS to",
    code_sent_before: "We already sent a code by SMS today to",
    code: "Code received by SMS",
    reply_hint: "You may also reply YES to the SMS.",
    confirm: "Confirm",
    thanks_title: "Thank you!",
    thanks: "Your sign-up is confirmed:",
    stop_hint: "To stop the messages, reply STOP to any of them.",
    other_language: "Français",
    problems: "To correct:",
    number_problem: "This is not a mobile number we can read: for example +44 7700 900123.",
    consent_problem: "Tick the box to agree to receive the SMS.",
    field_problem: "200 characters at most.",
};

fn words(language: PageLanguage) -> &'static Words {
    match language {
        PageLanguage::French => &FRENCH,
        PageLanguage::English => &ENGLISH,
    }
}

/// The styles of every page: system fonts, one column, large targets.
const STYLE: &str = "body{margin:0;font:1rem/1.5 system-ui,sans-serif;color:#1b1b1f;background:#f6f6f8}\
main{max-width:32rem;margin:0 auto;padding:1.5rem 1rem}h1{font-size:1.6rem;margin:0 0 .5rem}\
label{display:block;font-weight:600;margin-top:1rem}\
input[type=tel],input[type=text]{box-sizing:border-box;width:100%;font:inherit;padding:.7rem;margin-top:.25rem;\
border:1px solid #6b6b76;border-radius:.4rem;background:#fff}\
.consent{display:flex;gap:.6rem;align-items:flex-start;margin-top:1.2rem}.consent input{width:1.4rem;height:1.4rem;margin:0}\
.consent label{margin:0;font-weight:400}.hint{color:#4a4a55;font-size:.9rem;margin:.25rem 0 0}\
button{margin-top:1.4rem;width:100%;font:inherit;font-weight:600;padding:.8rem;border:0;border-radius:.4rem;\
background:#3b2db5;color:#fff}.problems{border-left:4px solid #b3261e;background:#fff;padding:.5rem 1rem;margin:1rem 0}\
.problem{color:#b3261e;font-size:.9rem;margin:.25rem 0 0}a{color:#3b2db5}footer{margin-top:2rem;font-size:.9rem}";

/// A whole document.
fn document(language: PageLanguage, title: &str, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang=(language.code()) {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="robots" content="noindex";
                title { (title) }
                style { (maud::PreEscaped(STYLE)) }
            }
            body { main { (body) } }
        }
    }
}

/// The answer: the document with the headers that keep it to itself (no script, no frame, no
/// cache of what a visitor typed).
pub(super) fn answer(status: StatusCode, markup: Markup) -> Response {
    let mut response = (status, markup.into_string()).into_response();
    let headers = response.headers_mut();
    let set = [
        (header::CONTENT_TYPE, "text/html; charset=utf-8"),
        (header::CACHE_CONTROL, "no-store"),
        (
            header::CONTENT_SECURITY_POLICY,
            "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        ),
        (header::REFERRER_POLICY, "no-referrer"),
    ];
    for (name, value) in set {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}

/// A field's label: the names in the visitor's language, a custom field's name as written.
fn label(field: &ContactField, w: &Words) -> String {
    match field {
        ContactField::FirstName => w.firstname.to_owned(),
        ContactField::LastName => w.lastname.to_owned(),
        ContactField::Custom(name) => {
            let spaced = name.replace('_', " ");
            let mut chars = spaced.chars();
            chars.next().map(|first| first.to_uppercase().chain(chars).collect()).unwrap_or_default()
        }
    }
}

/// The autofill hint of a field.
fn autocomplete(field: &ContactField) -> &'static str {
    match field {
        ContactField::FirstName => "given-name",
        ContactField::LastName => "family-name",
        ContactField::Custom(_) => "off",
    }
}

/// The form, with what was typed and what was wrong with it.
pub(super) fn form(
    page: &SignupPage,
    language: PageLanguage,
    typed: &[(String, String)],
    problems: &[FieldError],
) -> Markup {
    let w = words(language);
    let value = |name: &str| typed.iter().find(|(n, _)| n == name).map_or("", |(_, v)| v.as_str());
    // What is wrong, said in the page's language (core's checks name the inputs).
    let said = |path: &str| match path {
        "number" => w.number_problem,
        "consent" => w.consent_problem,
        _ => w.field_problem,
    };
    let problem = |name: &str| problems.iter().find(|p| p.path == name).map(|p| said(&p.path));
    let other = match language {
        PageLanguage::French => "en",
        PageLanguage::English => "fr",
    };
    let action = format!("/join/{}?lang={}", page.slug.as_str(), language.code());
    let body = html! {
        h1 { (page.title) }
        @if !page.text.is_empty() { p { (page.text) } }
        @if !problems.is_empty() {
            div.problems role="alert" {
                p { strong { (w.problems) } }
                ul { @for p in problems { li { a href={ "#" (p.path) } { (said(&p.path)) } } } }
            }
        }
        form method="post" action=(action) novalidate {
            label for="number" { (w.number) }
            input #number name="number" type="tel" autocomplete="tel" inputmode="tel" required
                value=(value("number")) aria-describedby="number-hint number-problem"
                aria-invalid=[problem("number").map(|_| "true")];
            p.hint #number-hint { (w.number_hint) }
            @if let Some(why) = problem("number") { p.problem #number-problem { (why) } }
            @for field in &page.fields {
                @let name = field.name();
                label for=(name) { (label(field, w)) }
                input id=(name) name=(name) type="text" autocomplete=(autocomplete(field)) value=(value(name))
                    aria-invalid=[problem(name).map(|_| "true")];
                @if let Some(why) = problem(name) { p.problem { (why) } }
            }
            div.consent {
                input #consent name="consent" type="checkbox" value="1" required checked[!value("consent").is_empty()]
                    aria-invalid=[problem("consent").map(|_| "true")];
                label for="consent" { (page.consent_text) }
            }
            @if let Some(why) = problem("consent") { p.problem { (why) } }
            button type="submit" { (w.join) }
        }
        footer { a href={ "/join/" (page.slug.as_str()) "?lang=" (other) } lang=(other) { (w.other_language) } }
    };
    document(language, &page.title, body)
}

/// The page where the code is typed, after the SMS (`sent_now`: it just went).
pub(super) fn code(
    page: &SignupPage,
    language: PageLanguage,
    number: &str,
    sent_now: bool,
    problem: Option<&str>,
) -> Markup {
    let w = words(language);
    let action = format!("/join/{}/confirm?lang={}", page.slug.as_str(), language.code());
    let body = html! {
        h1 { (w.code_title) }
        p { (if sent_now { w.code_sent } else { w.code_sent_before }) " +" (number) "." }
        @if let Some(why) = problem { div.problems role="alert" { p { (why) } } }
        form method="post" action=(action) {
            input type="hidden" name="number" value=(number);
            label for="code" { (w.code) }
            input #code name="code" type="text" inputmode="numeric" autocomplete="one-time-code" required
                pattern="[0-9]*" maxlength="6" aria-invalid=[problem.map(|_| "true")];
            button type="submit" { (w.confirm) }
        }
        p.hint { (w.reply_hint) }
    };
    document(language, &page.title, body)
}

/// The thanks, once confirmed.
pub(super) fn thanks(page: &SignupPage, language: PageLanguage) -> Markup {
    let w = words(language);
    document(
        language,
        &page.title,
        html! { h1 { (w.thanks_title) } p { (w.thanks) " " strong { (page.title) } "." } p { (w.stop_hint) } },
    )
}

/// A page that only says why (no such page, too many sign-ups, a fault).
pub(super) fn notice(language: PageLanguage, title: &str, why: &str) -> Markup {
    document(language, title, html! { h1 { (title) } p { (why) } })
}
