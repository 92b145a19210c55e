//! Serving the built web app under `/app/` (with `/` leading there), with the headers that
//! keep a browser from running anything else in its name.

use std::path::Path;

use axum::{
    Router,
    http::{HeaderName, HeaderValue, header},
    response::Redirect,
    routing::get,
};
use base64::{Engine, engine::general_purpose::STANDARD};
use sha2::{Digest, Sha256};
use tower_http::{
    services::{ServeDir, ServeFile},
    set_header::{SetResponseHeader, SetResponseHeaderLayer},
};

use crate::state::AppState;

/// Where the operator's console lives: `console/index.html` answers it and its pages.
const OPERATOR_CONSOLE: &str = "/app/operator";

/// `/` → `/app/`, and the files of `web_dir` under `/app/`. Paths that name no file get
/// `index.html`, so the app's own routes survive a reload; the pages of the audience
/// ([`texto_core::AUDIENCE_AREA`]), of the account area ([`texto_core::ACCOUNT_AREA`]) and of
/// automation ([`texto_core::AUTOMATION_AREA`]) get their bundle's page,
/// `audience/index.html`, `account/index.html` and `automation/index.html`, and the operator's
/// console's pages its own, `console/index.html`. A file with a
/// `.gz` twin (written by `scripts/build-web`) goes out as that twin to browsers that take
/// gzip: the app's 1.1 MB `.wasm` travels as about 400 KB. Everything under `/app/` carries
/// the [`content_security_policy`] of both pages found at start-up and `Referrer-Policy:
/// no-referrer` (restart texto after rebuilding the app: the policy names its start scripts).
pub(crate) fn router(web_dir: &Path) -> Router<AppState> {
    let index = std::fs::read_to_string(web_dir.join("index.html")).unwrap_or_else(|_| {
        tracing::warn!(web_dir = %web_dir.display(), "the web app is not built here; /app/ will answer 404 (run scripts/build-web)");
        String::new()
    });
    // A bundle's page, or the marketing one's when that bundle is not built.
    let page_of = |bundle: &str| {
        let page = web_dir.join(bundle).join("index.html");
        let html = std::fs::read_to_string(&page).unwrap_or_default();
        (if html.is_empty() { web_dir.join("index.html") } else { page }, html)
    };
    let ((account_page, account_index), (audience_page, audience_index)) = (page_of("account"), page_of("audience"));
    let (automation_page, automation_index) = page_of("automation");
    let console_page = web_dir.join("console").join("index.html");
    let console_index = std::fs::read_to_string(&console_page).unwrap_or_default();
    let pages = format!("{index}{account_index}{audience_index}{automation_index}{console_index}");
    let policy = HeaderValue::from_str(&content_security_policy(&pages))
        .unwrap_or_else(|_| HeaderValue::from_static("default-src 'none'"));
    let files = ServeDir::new(web_dir).precompressed_gzip().fallback(ServeFile::new(web_dir.join("index.html")));
    let mut router = Router::new()
        .route("/", get(|| async { Redirect::temporary("/app/") }))
        .nest_service("/app", protected(files, &policy));
    // The operator's console, its own bundle (its files under /app/console/).
    router = router
        .route_service(OPERATOR_CONSOLE, protected(ServeFile::new(&console_page), &policy))
        .route_service(&format!("{OPERATOR_CONSOLE}/{{*rest}}"), protected(ServeFile::new(&console_page), &policy));
    let areas = [
        (texto_core::ACCOUNT_AREA, &account_page),
        (texto_core::AUDIENCE_AREA, &audience_page),
        (texto_core::AUTOMATION_AREA, &automation_page),
    ];
    for (pages, bundle_page) in areas {
        for page in pages {
            router = router.route_service(page, protected(ServeFile::new(bundle_page), &policy));
            // Its sub-pages too (a contact's page).
            let sub_pages = format!("{page}/{{*rest}}");
            router = router.route_service(&sub_pages, protected(ServeFile::new(bundle_page), &policy));
        }
    }
    router
}

/// `service` with the app's headers: `policy`, and no referrer.
fn protected<S>(service: S, policy: &HeaderValue) -> SetResponseHeader<SetResponseHeader<S, HeaderValue>, HeaderValue> {
    let service = SetResponseHeader::overriding(service, header::CONTENT_SECURITY_POLICY, policy.clone());
    SetResponseHeader::overriding(service, header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"))
}

/// The policy of the app: its own files only, WebAssembly compiled from them, the inline start
/// script Trunk writes into `index` allowed by its hash, and no framing.
pub(crate) fn content_security_policy(index: &str) -> String {
    let scripts: String =
        inline_scripts(index).map(|script| format!(" 'sha256-{}'", STANDARD.encode(Sha256::digest(script)))).collect();
    format!(
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'{scripts}; style-src 'self'; img-src 'self' data:; \
         object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )
}

/// The text of each `<script>` element of `html` that has no `src`.
fn inline_scripts(html: &str) -> impl Iterator<Item = &str> {
    html.split("<script").skip(1).filter_map(|rest| {
        let (attributes, rest) = rest.split_once('>')?;
        let (body, _) = rest.split_once("</script>")?;
        (!attributes.contains("src=")).then_some(body)
    })
}

/// `X-Content-Type-Options: nosniff`, sent with every answer texto gives.
pub(crate) fn no_sniffing() -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::overriding(
        HeaderName::from_static("x-content-type-options"),
        HeaderValue::from_static("nosniff"),
    )
}

#[cfg(test)]
mod tests {
    use super::content_security_policy;

    #[test]
    fn inline_scripts_are_allowed_by_their_hash_and_nothing_else_inline() {
        let index = "<html><head><script type=\"module\">import init from '/app/a.js';\ninit();</script>\
                     <script src=\"/app/b.js\"></script></head></html>";
        let policy = content_security_policy(index);
        // The SHA-256 of "import init from '/app/a.js';\ninit();", computed with Python's hashlib.
        let hash = "'sha256-MhIJ8Z3DU4Z6PCuNNF5GW+Wfn6iqFlRC/FefCY4bDF4='";
        assert!(policy.contains(&format!("script-src 'self' 'wasm-unsafe-eval' {hash};")), "{policy}");
        assert_eq!(policy.matches("'sha256-").count(), 1, "{policy}");
        assert!(!policy.contains("unsafe-inline"), "{policy}");
        assert!(policy.ends_with("frame-ancestors 'none'"), "{policy}");
    }
}
