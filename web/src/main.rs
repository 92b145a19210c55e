//! texto's web app: mounted on the page Trunk builds from the root `index.html`.

mod compose;

use leptos::prelude::*;

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(App);
}

/// The whole app: a header and the Compose page.
#[component]
fn App() -> impl IntoView {
    view! {
        <header class="topbar">
            <span class="brand">"texto"</span>
        </header>
        <main>
            <compose::Compose />
        </main>
    }
}
