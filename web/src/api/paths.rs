//! Query strings of the listing routes.

/// A page of a listing: `start` and `length` of docs/interface.md §2.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Paging {
    /// First record, from 0.
    pub start: i64,
    /// Records per page.
    pub length: i64,
}

impl Paging {
    /// The first page of `length` records.
    pub fn first(length: i64) -> Paging {
        Paging { start: 0, length }
    }
}

/// `path?start=…&length=…&key=value…`, each value percent-encoded; empty values are left out.
pub fn with_query(path: &str, paging: Paging, extra: &[(&str, &str)]) -> String {
    let mut query = format!("{path}?start={}&length={}", paging.start, paging.length);
    for (key, value) in extra.iter().filter(|(_, v)| !v.is_empty()) {
        query.push('&');
        query.push_str(key);
        query.push('=');
        query.push_str(&String::from(js_sys::encode_uri_component(value)));
    }
    query
}
