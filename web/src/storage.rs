//! The browser's storage: the language survives a reload, the sub-account a tab
//! acts in survives its page loads (no secret is kept).

fn local() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// The stored value of `key`.
pub fn get(key: &str) -> Option<String> {
    local()?.get_item(key).ok()?
}

/// Stores `value` under `key` (silently skipped when storage is full or disabled).
pub fn set(key: &str, value: &str) {
    if let Some(storage) = local() {
        let _ = storage.set_item(key, value);
    }
}

fn tab() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok()?
}

/// The value of `key` kept for this tab only (`sessionStorage`).
pub fn tab_get(key: &str) -> Option<String> {
    tab()?.get_item(key).ok()?
}

/// Keeps `value` under `key` for this tab only, or forgets it (`None`).
pub fn tab_set(key: &str, value: Option<&str>) {
    if let Some(storage) = tab() {
        let _ = match value {
            Some(value) => storage.set_item(key, value),
            None => storage.remove_item(key),
        };
    }
}
