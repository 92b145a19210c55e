//! Automation's bundle ([`texto_core::AUTOMATION_AREA`]): journeys and sign-up pages, kept out
//! of the other bundles, since fewer people open them than send or keep lists.

use leptos::prelude::*;
use leptos_router::{
    components::{Route, Routes},
    path,
};

use crate::{
    app::{Frame, NotFound},
    nav::Bundle,
    pages::{journeys::Journeys, signup_pages::SignupPages},
};

/// Automation.
#[component]
pub fn AutomationApp() -> impl IntoView {
    view! {
        <Frame bundle=Bundle::Automation>
            <Routes fallback=NotFound>
                <Route path=path!("/app/journeys") view=Journeys />
                <Route path=path!("/app/signup-pages") view=SignupPages />
            </Routes>
        </Frame>
    }
}
