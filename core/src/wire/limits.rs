//! Count limits enforced while a document is decoded: a list stops at its limit + 1 items, so
//! a body of twenty million empty `{}` or `<gsm/>` never becomes twenty million values.
//!
//! The limit is an explicit parameter of [`super::decode_with`] and [`super::decode_sms_with`];
//! the field readers below serde's derives cannot take parameters, so the decoding holds it in
//! a [`LimitScope`] for its duration (restored on drop, like `lenient::XmlScope`).

use std::cell::{Cell, RefCell};

use serde::de;

/// What one decoding may build.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most items in any one list of the document (recipients, contacts); one more is -7.
    pub max_items: usize,
}

impl Limits {
    /// No count limit (the body size still bounds the document).
    pub const UNBOUNDED: Limits = Limits { max_items: usize::MAX };

    /// At most `max_items` items in any list.
    pub fn items(max_items: usize) -> Limits {
        Limits { max_items }
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::UNBOUNDED
    }
}

thread_local! {
    /// The limit of the decoding running on this thread.
    static MAX_ITEMS: Cell<usize> = const { Cell::new(usize::MAX) };
    /// Why the decoding was refused as a data error (-7) rather than a syntax error.
    static DATA_ERROR: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Applies `limits` to the decoding on this thread until dropped.
pub(crate) struct LimitScope {
    previous: usize,
}

impl LimitScope {
    /// Starts a decoding bounded by `limits` (and forgets any earlier data error).
    pub(crate) fn enter(limits: Limits) -> LimitScope {
        DATA_ERROR.with(|e| e.borrow_mut().take());
        LimitScope { previous: MAX_ITEMS.with(|m| m.replace(limits.max_items)) }
    }
}

impl Drop for LimitScope {
    fn drop(&mut self) {
        MAX_ITEMS.with(|m| m.set(self.previous));
    }
}

/// The item limit of the current decoding.
pub(crate) fn max_items() -> usize {
    MAX_ITEMS.with(Cell::get)
}

/// The error for a list that reached its limit + 1 items, recorded as a data error.
pub(crate) fn too_many<E: de::Error>() -> E {
    let max = max_items();
    data_error(format!("more than {max} items: at most {max} per request"))
}

/// A refusal of a well-formed value (-7, not a syntax error): recorded for the codec.
pub(crate) fn data_error<E: de::Error>(message: String) -> E {
    DATA_ERROR.with(|e| *e.borrow_mut() = Some(message.clone()));
    E::custom(message)
}

/// The data error of the decoding that just failed, if it failed with one (cleared).
pub(crate) fn take_data_error() -> Option<String> {
    DATA_ERROR.with(|e| e.borrow_mut().take())
}

/// Pushes `item` unless the list already holds its limit: the (limit + 1)th item is an error.
pub(crate) fn push_counted<T, E: de::Error>(items: &mut Vec<T>, item: T) -> Result<(), E> {
    if items.len() >= max_items() {
        return Err(too_many());
    }
    items.push(item);
    Ok(())
}

/// Room to reserve for a list when `estimate` items may come: never more than the limit + 1.
pub(crate) fn room(estimate: usize) -> usize {
    estimate.min(max_items().saturating_add(1))
}
