//! The audience and conversations' bundle ([`texto_core::AUDIENCE_AREA`]): lists, contacts,
//! segments, the blacklist and NPAI, templates, the inbox and the replies listing, kept out of
//! the bundle of Home, Compose and Campaigns.

use leptos::prelude::*;
use leptos_router::{
    components::{Route, Routes},
    path,
};

use crate::{
    app::{Frame, NotFound},
    nav::Bundle,
    pages::{
        contacts::{Contacts, card::ContactCard},
        inbox::{Conversation, Inbox},
        lists::{ListDetail, Lists},
        number_list::{Blacklist, Npai},
        replies::Replies,
        segments::Segments,
        templates::Templates,
    },
};

/// The audience and conversations.
#[component]
pub fn AudienceApp() -> impl IntoView {
    view! {
        <Frame bundle=Bundle::Audience>
            <Routes fallback=NotFound>
                <Route path=path!("/app/lists") view=Lists />
                <Route path=path!("/app/lists/:id") view=ListDetail />
                <Route path=path!("/app/contacts") view=Contacts />
                <Route path=path!("/app/contacts/:number") view=ContactCard />
                <Route path=path!("/app/segments") view=Segments />
                <Route path=path!("/app/blacklist") view=Blacklist />
                <Route path=path!("/app/npai") view=Npai />
                <Route path=path!("/app/templates") view=Templates />
                <Route path=path!("/app/inbox") view=Inbox />
                <Route path=path!("/app/inbox/:number") view=Conversation />
                <Route path=path!("/app/replies") view=Replies />
            </Routes>
        </Frame>
    }
}
