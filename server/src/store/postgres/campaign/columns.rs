//! The accepted campaigns of a batch and their messages as columns (one array per column),
//! the parameters of the multi-row inserts of [`writer`](super::writer).

use tokio_postgres::types::ToSql;

use super::jobs::Job;
use crate::store::AccountId;

/// The messages of the accepted jobs as columns (none when they go by COPY).
pub(super) struct Messages<'a> {
    /// Their campaigns: empty when there are none to insert.
    pub(super) campaigns: Vec<i64>,
    /// Their accounts.
    accounts: Vec<AccountId>,
    /// Their recipients.
    numbers: Vec<i64>,
    /// Their countries.
    countries: Vec<&'a str>,
    /// The client's ids.
    gsmsmsids: Vec<Option<&'a str>>,
    /// SMS parts.
    parts: Vec<i64>,
    /// Costs in hundredths.
    costs: Vec<i64>,
    /// Their texts' hashes.
    text_hashes: Vec<i64>,
    /// Creation times.
    created_at: Vec<&'a str>,
    /// The contacts' info fields (JSON).
    infos: Vec<Option<&'a str>>,
    /// Their A/B test's texts.
    variants: Vec<Option<i64>>,
    /// Their parts under each text, while they wait for an A/B test's winner.
    text_parts: Vec<Option<i64>>,
}

impl<'a> Messages<'a> {
    /// The messages of `accepted` (with their tickets), or none unless `wanted`.
    pub(super) fn of(accepted: &[(&'a Job, i64)], wanted: bool) -> Messages<'a> {
        let mut columns = Messages {
            campaigns: Vec::new(),
            accounts: Vec::new(),
            numbers: Vec::new(),
            countries: Vec::new(),
            gsmsmsids: Vec::new(),
            parts: Vec::new(),
            costs: Vec::new(),
            text_hashes: Vec::new(),
            created_at: Vec::new(),
            infos: Vec::new(),
            variants: Vec::new(),
            text_parts: Vec::new(),
        };
        for &(job, ticket) in accepted.iter().filter(|_| wanted) {
            for m in &job.messages {
                columns.campaigns.push(ticket);
                columns.accounts.push(job.account);
                columns.numbers.push(m.number as i64);
                columns.countries.push(m.country);
                columns.gsmsmsids.push(m.gsmsmsid.as_deref());
                columns.parts.push(m.parts);
                columns.costs.push(m.cost);
                columns.text_hashes.push(job.text_hash);
                columns.created_at.push(&job.row.created_at);
                columns.infos.push(m.info.as_deref());
                columns.variants.push(m.variant);
                columns.text_parts.push(m.text_parts);
            }
        }
        columns
    }

    /// The 12 parameters of the insert, in its columns' order.
    pub(super) fn params(&self) -> [&(dyn ToSql + Sync); 12] {
        [
            &self.campaigns,
            &self.accounts,
            &self.numbers,
            &self.countries,
            &self.gsmsmsids,
            &self.parts,
            &self.costs,
            &self.text_hashes,
            &self.created_at,
            &self.infos,
            &self.variants,
            &self.text_parts,
        ]
    }
}

/// The accepted jobs' campaign rows as columns.
pub(super) struct Campaigns<'a> {
    /// Tickets.
    ids: Vec<i64>,
    /// Accounts.
    accounts: Vec<AccountId>,
    /// Texts.
    texts: Vec<&'a str>,
    /// `alert` or `marketing`.
    pushtypes: Vec<&'a str>,
    /// Senders.
    senders: Vec<Option<&'a str>>,
    /// Short links (JSON).
    links: Vec<&'a str>,
    /// Lists (JSON).
    lists: Vec<&'a str>,
    /// UCS-2 or not.
    unicode: Vec<bool>,
    /// Validity periods in minutes.
    validity: Vec<Option<i64>>,
    /// UTM tags (JSON).
    utm: Vec<Option<&'a str>>,
    /// The templates they started from.
    templates: Vec<Option<i64>>,
    /// Their A/B tests' texts beside their own (JSON).
    variants: Vec<Option<&'a str>>,
    /// Their A/B tests' settings (JSON).
    ab: Vec<Option<&'a str>>,
    /// Statuses.
    statuses: Vec<&'a str>,
    /// Sending times.
    send_at: Vec<&'a str>,
    /// Creation times.
    created_at: Vec<&'a str>,
    /// Costs in hundredths.
    costs: Vec<i64>,
    /// The filter's nine counters.
    counters: [Vec<i64>; 9],
}

impl<'a> Campaigns<'a> {
    /// The rows of `accepted` (with their tickets).
    pub(super) fn of(accepted: &[(&'a Job, i64)]) -> Campaigns<'a> {
        let mut columns = Campaigns {
            ids: Vec::new(),
            accounts: Vec::new(),
            texts: Vec::new(),
            pushtypes: Vec::new(),
            senders: Vec::new(),
            links: Vec::new(),
            lists: Vec::new(),
            unicode: Vec::new(),
            validity: Vec::new(),
            utm: Vec::new(),
            templates: Vec::new(),
            variants: Vec::new(),
            ab: Vec::new(),
            statuses: Vec::new(),
            send_at: Vec::new(),
            created_at: Vec::new(),
            costs: Vec::new(),
            counters: Default::default(),
        };
        for &(job, ticket) in accepted {
            let row = &job.row;
            columns.ids.push(ticket);
            columns.accounts.push(job.account);
            columns.texts.push(&row.text);
            columns.pushtypes.push(row.pushtype);
            columns.senders.push(row.sender.as_deref());
            columns.links.push(&row.links);
            columns.lists.push(&row.lists);
            columns.unicode.push(row.unicode);
            columns.validity.push(row.validity);
            columns.utm.push(row.utm.as_deref());
            columns.templates.push(row.template);
            columns.variants.push(row.variants.as_deref());
            columns.ab.push(row.ab.as_deref());
            columns.statuses.push(row.status);
            columns.send_at.push(&row.send_at);
            columns.created_at.push(&row.created_at);
            columns.costs.push(job.cost.hundredths());
            for (column, value) in columns.counters.iter_mut().zip(row.counters) {
                column.push(value);
            }
        }
        columns
    }

    /// The 26 parameters of the insert, in its columns' order.
    pub(super) fn params(&self) -> Vec<&(dyn ToSql + Sync)> {
        let mut params: Vec<&(dyn ToSql + Sync)> = vec![
            &self.ids,
            &self.accounts,
            &self.texts,
            &self.pushtypes,
            &self.senders,
            &self.links,
            &self.lists,
            &self.unicode,
            &self.statuses,
            &self.send_at,
            &self.created_at,
            &self.costs,
        ];
        params.extend(self.counters.iter().map(|c| c as &(dyn ToSql + Sync)));
        params.push(&self.validity);
        params.push(&self.utm);
        params.push(&self.templates);
        params.push(&self.variants);
        params.push(&self.ab);
        params
    }
}
