//! The campaigns and the account area's bundle ([`texto_core::ACCOUNT_AREA`]): the campaigns'
//! pages, and the screens a team opens rarely (team, tokens, settings, webhooks, audit log,
//! profile, sub-accounts), kept out of the bundle of sign-in, Home and Compose.

use leptos::prelude::*;
use leptos_router::{
    components::{Route, Routes},
    path,
};

use crate::{
    app::{Frame, NotFound},
    nav::Bundle,
    pages::{
        audit::Audit,
        campaigns::{CampaignDetail, Campaigns},
        profile::Profile,
        settings::Settings,
        sub_accounts::SubAccounts,
        team::Team,
        tokens::Tokens,
        webhooks::Webhooks,
    },
};

/// The account area.
#[component]
pub fn AccountApp() -> impl IntoView {
    view! {
        <Frame bundle=Bundle::Account>
            <Routes fallback=NotFound>
                <Route path=path!("/app/team") view=Team />
                <Route path=path!("/app/tokens") view=Tokens />
                <Route path=path!("/app/settings") view=Settings />
                <Route path=path!("/app/webhooks") view=Webhooks />
                <Route path=path!("/app/audit") view=Audit />
                <Route path=path!("/app/profile") view=Profile />
                <Route path=path!("/app/sub-accounts") view=SubAccounts />
                <Route path=path!("/app/campaigns") view=Campaigns />
                <Route path=path!("/app/campaigns/:id") view=CampaignDetail />
            </Routes>
        </Frame>
    }
}
