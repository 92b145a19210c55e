//! The last hour of sends per account and number, in memory, for anti-flood (docs/interface.md §3.3).
//!
//! Anti-flood asks, for every number of a request, how many texts (and how many identical
//! ones) the account sent it in the last 60 minutes. Asking the database costs a look-up per
//! number or a scan of the account's hour; this window answers from memory. The store fills
//! it from `messages` at start-up and adds each campaign's messages once they are committed.

use std::{
    collections::hash_map::Entry,
    sync::{Mutex, PoisonError},
};

use chrono::{DateTime, Utc};
use rustc_hash::FxHashMap;
use texto_core::RecentSends;

use super::AccountId;

/// The anti-flood window.
const WINDOW_SECONDS: i64 = 3_600;
/// How often (in seconds) recording also drops the sends that left the window.
const SWEEP_EVERY_SECONDS: i64 = 60;

/// One send: when (Unix seconds) and a 32-bit digest of its text's hash (two different texts
/// share one with odds of one in four billion).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Sent {
    at: u32,
    text: u32,
}

impl Sent {
    fn new(at: i64, text_hash: i64) -> Sent {
        Sent { at: seconds(at), text: digest(text_hash) }
    }
}

fn seconds(at: i64) -> u32 {
    u32::try_from(at.max(0)).unwrap_or(u32::MAX)
}

fn digest(text_hash: i64) -> u32 {
    let bits = text_hash as u64;
    (bits ^ (bits >> 32)) as u32
}

/// A number's sends in the window. Most numbers get one an hour: it stays inline, with no
/// allocation (a million-recipient campaign adds a million of these).
#[derive(Debug)]
enum Sends {
    One(Sent),
    Many(Vec<Sent>),
}

impl Sends {
    fn push(&mut self, sent: Sent) {
        match self {
            Sends::One(first) => *self = Sends::Many(vec![*first, sent]),
            Sends::Many(list) => list.push(sent),
        }
    }

    fn all(&self) -> &[Sent] {
        match self {
            Sends::One(sent) => std::slice::from_ref(sent),
            Sends::Many(list) => list,
        }
    }

    /// Keeps the sends at or after `since`; false when none is left.
    fn keep_since(&mut self, since: u32) -> bool {
        match self {
            Sends::One(sent) => sent.at >= since,
            Sends::Many(list) => {
                list.retain(|sent| sent.at >= since);
                if let [only] = list.as_slice() {
                    *self = Sends::One(*only);
                }
                !self.all().is_empty()
            }
        }
    }
}

/// Sends of the last hour, per account and number.
#[derive(Default)]
pub(crate) struct FloodWindow {
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    accounts: FxHashMap<AccountId, FxHashMap<u64, Sends>>,
    swept_at: i64,
}

impl FloodWindow {
    /// Records that `account` sent `text_hash` to each of `numbers` at `at`.
    pub(crate) fn record(
        &self,
        account: AccountId,
        numbers: impl IntoIterator<Item = u64>,
        text_hash: i64,
        at: DateTime<Utc>,
    ) {
        let at = at.timestamp();
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if at - state.swept_at >= SWEEP_EVERY_SECONDS {
            state.sweep(at - WINDOW_SECONDS);
            state.swept_at = at;
        }
        let sends = state.accounts.entry(account).or_default();
        let sent = Sent::new(at, text_hash);
        for number in numbers {
            match sends.entry(number) {
                Entry::Occupied(mut earlier) => earlier.get_mut().push(sent),
                Entry::Vacant(none) => {
                    none.insert(Sends::One(sent));
                }
            }
        }
    }

    /// The sends to `numbers` since `now` minus one hour, for those that had any.
    pub(crate) fn recent(
        &self,
        account: AccountId,
        numbers: &[u64],
        text_hash: i64,
        now: DateTime<Utc>,
    ) -> FxHashMap<u64, RecentSends> {
        let since = seconds(now.timestamp() - WINDOW_SECONDS);
        let text = digest(text_hash);
        let state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let mut recent = FxHashMap::default();
        let Some(sends) = state.accounts.get(&account) else { return recent };
        for number in numbers {
            let Some(times) = sends.get(number) else { continue };
            let mut counts = RecentSends::default();
            for sent in times.all().iter().filter(|sent| sent.at >= since) {
                counts.any += 1;
                counts.identical += u32::from(sent.text == text);
            }
            if counts.any > 0 {
                recent.insert(*number, counts);
            }
        }
        recent
    }
}

impl State {
    /// Drops the sends before `since`, and the numbers and accounts left with none.
    fn sweep(&mut self, since: i64) {
        let since = seconds(since);
        self.accounts.retain(|_, numbers| {
            numbers.retain(|_, sends| sends.keep_since(since));
            !numbers.is_empty()
        });
    }
}

#[cfg(test)]
mod tests {
    use chrono::{Duration, TimeZone};

    use super::*;

    fn at(minute: i64) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 21, 10, 0, 0).single().unwrap_or_default() + Duration::minutes(minute)
    }

    #[test]
    fn counts_the_last_hour_per_account_and_number() {
        let window = FloodWindow::default();
        window.record(1, [33_612_345_678, 33_700_000_000], 7, at(0));
        window.record(1, [33_612_345_678], 8, at(30));
        window.record(2, [33_612_345_678], 7, at(30));

        let recent = window.recent(1, &[33_612_345_678, 33_699_999_999], 7, at(45));
        assert_eq!(recent.get(&33_612_345_678), Some(&RecentSends { identical: 1, any: 2 }));
        assert_eq!(recent.get(&33_699_999_999), None, "never sent to");

        let later = window.recent(1, &[33_612_345_678], 7, at(61));
        assert_eq!(
            later.get(&33_612_345_678),
            Some(&RecentSends { identical: 0, any: 1 }),
            "the 10:00 send left the window"
        );
        assert_eq!(window.recent(3, &[33_612_345_678], 7, at(45)).len(), 0, "another account sent nothing");
    }

    #[test]
    fn sweeping_forgets_only_what_left_the_window() {
        let window = FloodWindow::default();
        window.record(1, [33_612_345_678, 33_699_999_999], 7, at(0));
        window.record(1, [33_699_999_999], 8, at(20));
        window.record(1, [33_700_000_000, 33_699_999_999], 7, at(50));
        window.record(1, [33_711_111_111], 7, at(70)); // sweeps everything before 10:10
        {
            let state = window.state.lock().unwrap_or_else(PoisonError::into_inner);
            let numbers = &state.accounts[&1];
            assert!(!numbers.contains_key(&33_612_345_678));
            assert!(numbers.contains_key(&33_700_000_000));
            assert!(numbers.contains_key(&33_711_111_111));
            assert_eq!(numbers[&33_699_999_999].all().len(), 2, "the 10:00 send went, 10:20 and 10:50 stay");
        }
        let recent = window.recent(1, &[33_699_999_999], 7, at(75));
        assert_eq!(recent.get(&33_699_999_999), Some(&RecentSends { identical: 1, any: 2 }));
    }
}
