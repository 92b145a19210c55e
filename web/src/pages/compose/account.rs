//! What the in-page simulation needs to know about the account: its lists, the numbers it
//! never sends to, and the contacts of the lists chosen. Loaded once, lists on demand.

use std::collections::HashMap;

use leptos::{prelude::*, task::spawn_local};
use texto_core::{
    Contact,
    wire::{ListResponse, ListSummaryDto, ListsResponse, NumberListResponse},
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
        };
        spawn_local(async move {
            if let Ok(answer) = api.get::<ListsResponse>(&with_query("/lists", Paging::first(PAGE), &[])).await {
                account.lists.set(answer.lists);
            }
            account.blacklist.set(numbers(api, "/blacklist").await);
            account.npai.set(numbers(api, "/npai").await);
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
        account
    }
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
