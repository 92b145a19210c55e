//! The browser's `localStorage`: the language and the draft survive a reload (no secret is kept).

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

/// Forgets `key`.
pub fn remove(key: &str) {
    if let Some(storage) = local() {
        let _ = storage.remove_item(key);
    }
}
