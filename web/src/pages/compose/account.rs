//! What the in-page simulation needs to know about the account: its lists and segments, the
//! numbers it never sends to, whether its marketing needs consent (and who gave it), and the
//! contacts of the lists and segments chosen, and its price plan. Loaded once, lists and
//! segments on demand.

use std::collections::HashMap;

use leptos::{prelude::*, task::spawn_local};
use texto_core::{
    Contact, PriceTable,
    wire::{
        ContactNumbersResponse, ListResponse, ListSummaryDto, ListsResponse, NumberListResponse, PricesResponse,
        SegmentDto, SegmentsResponse, SettingsResponse,
    },
};

use crate::{
    api::{Api, Paging, use_api, with_query},
    draft::Draft,
};

/// Page size of the list and number reads.
const PAGE: i64 = 1_000;
/// Contacts of one list the page loads for its simulation (the server check covers larger lists).
const MAX_CONTACTS: i64 = 200_000;

/// The account as the Compose page sees it.
#[derive(Clone, Copy)]
pub struct Account {
    /// The stored lists with their sizes.
    pub lists: RwSignal<Vec<ListSummaryDto>>,
    /// Blacklisted numbers.
    pub blacklist: RwSignal<Vec<u64>>,
    /// NPAI numbers.
    pub npai: RwSignal<Vec<u64>>,
    /// Contacts of the chosen lists, by list id.
    pub contacts: RwSignal<HashMap<String, Vec<Contact>>>,
    /// The saved segments.
    pub segments: RwSignal<Vec<SegmentDto>>,
    /// Contacts of the chosen segments, by segment id.
    pub segment_contacts: RwSignal<HashMap<String, Vec<Contact>>>,
    /// When the account's marketing needs consent, the numbers with an opt-in.
    pub consented: RwSignal<Option<Vec<u64>>>,
    /// The account's price plan (the shipped prices until it is loaded).
    pub prices: RwSignal<PriceTable>,
}

impl Account {
    /// Starts loading the account, and the contacts of each list as `draft` chooses it.
    pub fn load(draft: RwSignal<Draft>) -> Account {
        let api = use_api();
        let account = Account {
            lists: RwSignal::new(Vec::new()),
            blacklist: RwSignal::new(Vec::new()),
            npai: RwSignal::new(Vec::new()),
            contacts: RwSignal::new(HashMap::new()),
            segments: RwSignal::new(Vec::new()),
            segment_contacts: RwSignal::new(HashMap::new()),
            consented: RwSignal::new(None),
            prices: RwSignal::new(PriceTable::default()),
        };
        spawn_local(async move {
            if let Ok(answer) = api.get::<PricesResponse>("/prices").await {
                account.prices.set(answer.table());
            }
            if let Ok(answer) = api.get::<ListsResponse>(&with_query("/lists", Paging::first(PAGE), &[])).await {
                account.lists.set(answer.lists);
            }
            if let Ok(answer) = api.get::<SegmentsResponse>("/segments").await {
                account.segments.set(answer.segments);
            }
            account.blacklist.set(numbers(api, "/blacklist").await);
            account.npai.set(numbers(api, "/npai").await);
            let asks_consent =
                api.get::<SettingsResponse>("/settings").await.ok().and_then(|a| a.settings.marketing_needs_consent);
            if asks_consent == Some(1) {
                let consented = cards(api, &[("consent", "1")]).await;
                account.consented.set(Some(consented.iter().filter_map(|c| c.number.parse().ok()).collect()));
            }
        });
        Effect::new(move |_| {
            let wanted = draft.with(|d| if d.to_lists { d.lists.clone() } else { Vec::new() });
            for id in wanted {
                if account.contacts.with_untracked(|c| c.contains_key(&id)) {
                    continue;
                }
                account.contacts.update(|c| {
                    c.insert(id.clone(), Vec::new());
                });
                spawn_local(async move {
                    let loaded = contacts(api, &id).await;
                    account.contacts.update(|c| {
                        c.insert(id, loaded);
                    });
                });
            }
        });
        Effect::new(move |_| {
            let wanted = draft.with(|d| if d.to_lists { d.segments.clone() } else { Vec::new() });
            for id in wanted {
                if account.segment_contacts.with_untracked(|c| c.contains_key(&id)) {
                    continue;
                }
                account.segment_contacts.update(|c| {
                    c.insert(id.clone(), Vec::new());
                });
                spawn_local(async move {
                    let loaded = cards(api, &[("segment", &id)]).await;
                    account.segment_contacts.update(|c| {
                        c.insert(id, loaded);
                    });
                });
            }
        });
        account
    }
}

/// The account's contacts that `filter` keeps (`/contacts/numbers`), page after page.
async fn cards(api: Api, filter: &[(&str, &str)]) -> Vec<Contact> {
    let mut found = Vec::new();
    let mut start = 0;
    while start < MAX_CONTACTS {
        let path = with_query("/contacts/numbers", Paging { start, length: PAGE }, filter);
        let Ok(answer) = api.get::<ContactNumbersResponse>(&path).await else { break };
        let got = answer.numbers.len() as i64;
        found.extend(answer.numbers.into_iter().map(|number| Contact { number, info: Default::default() }));
        start += PAGE;
        if got < PAGE {
            break;
        }
    }
    found
}

/// Every number of `/blacklist` or `/npai` (first pages only past 10 pages).
async fn numbers(api: Api, path: &str) -> Vec<u64> {
    let mut found = Vec::new();
    for page in 0..10 {
        let Ok(answer) =
            api.get::<NumberListResponse>(&with_query(path, Paging { start: page * PAGE, length: PAGE }, &[])).await
        else {
            break;
        };
        let got = answer.list.len() as i64;
        found.extend(answer.list.iter().filter_map(|e| e.destination.parse::<u64>().ok()));
        if got < PAGE {
            break;
        }
    }
    found
}

/// The contacts of list `id`, page after page.
async fn contacts(api: Api, id: &str) -> Vec<Contact> {
    let mut found = Vec::new();
    let mut start = 0;
    while start < MAX_CONTACTS {
        let path = with_query(&format!("/list/{id}"), Paging { start, length: PAGE }, &[]);
        let Ok(answer) = api.get::<ListResponse>(&path).await else { break };
        let got = answer.list.len() as i64;
        found.extend(answer.list.into_iter().map(|c| Contact {
            number: c.destination,
            info: [c.info1, c.info2, c.info3, c.info4].map(Option::unwrap_or_default),
        }));
        start += PAGE;
        if got < PAGE {
            break;
        }
    }
    found
}
