//! texto's web app for marketing staff: compose, preview, simulate and send campaigns, follow
//! them, and manage lists, webhooks, the blacklist, NPAI and alerts, in French and English.
//!
//! Pages live in [`pages`], shared pieces in [`components`], the server in [`api`]. Counting,
//! filtering and cost come from `texto-core`, running in the page.

// The unit tests of these modules run in headless Chromium, as the browser suites do.
#[cfg(test)]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod account_app;
pub mod api;
mod app;
mod audience_app;
mod automation_app;
pub mod clock;
pub mod components;
pub mod draft;
pub mod drafts;
pub mod format;
pub mod i18n;
pub mod import;
mod nav;
pub mod operator;
pub mod pages;
pub mod session;
pub mod storage;

pub use account_app::AccountApp;
pub use app::App;
pub use audience_app::AudienceApp;
pub use automation_app::AutomationApp;
pub use operator::OperatorApp;

/// Mounts the marketing bundle on the page Trunk builds from the root `index.html`.
pub fn start() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(App);
}

/// Mounts the account area's bundle on the page Trunk builds from the root `account.html`.
pub fn start_account() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(AccountApp);
}

/// Mounts the audience and conversations' bundle on the page Trunk builds from the root
/// `audience.html`.
pub fn start_audience() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(AudienceApp);
}

/// Mounts automation's bundle on the page Trunk builds from the root `automation.html`.
pub fn start_automation() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(AutomationApp);
}

/// Mounts the operator's console on the page Trunk builds from the root `operator.html`.
pub fn start_operator() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(OperatorApp);
}
