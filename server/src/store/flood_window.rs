//! The last hour of sends per account and number, in memory, for anti-flood (REFERENCE §3).
//!
//! Anti-flood asks, for every number of a request, how many texts (and how many identical
//! ones) the account sent it in the last 60 minutes. Asking the database costs a look-up per
//! number or a scan of the account's hour; this window answers from memory. The store fills
//! it from `messages` at start-up and adds each campaign's messages once they are committed.

use std::sync::{Mutex, PoisonError};

use chrono::{DateTime, Utc};
use rustc_hash::FxHashMap;
use texto_core::RecentSends;

use super::AccountId;

/// The anti-flood window.
const WINDOW_SECONDS: i64 = 3_600;
/// How often (in seconds) recording also drops the sends that left the window.
const SWEEP_EVERY_SECONDS: i64 = 60;

/// One send: when (Unix seconds) and the hash of its text.
type Send = (i64, i64);

/// Sends of the last hour, per account and number.
#[derive(Default)]
pub(crate) struct FloodWindow {
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    accounts: FxHashMap<AccountId, FxHashMap<u64, Vec<Send>>>,
    swept_at: i64,
}

impl FloodWindow {
    /// Records that `account` sent `text_hash` to each of `numbers` at `at`.
    pub(crate) fn record(&self, account: AccountId, numbers: impl IntoIterator<Item = u64>, text_hash: i64, at: DateTime<Utc>) {
        let at = at.timestamp();
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if at - state.swept_at >= SWEEP_EVERY_SECONDS {
            state.sweep(at - WINDOW_SECONDS);
            state.swept_at = at;
        }
        let sends = state.accounts.entry(account).or_default();
        for number in numbers {
            sends.entry(number).or_default().push((at, text_hash));
        }
    }

    /// The sends to `numbers` since `now` minus one hour, for those that had any.
    pub(crate) fn recent(&self, account: AccountId, numbers: &[u64], text_hash: i64, now: DateTime<Utc>) -> FxHashMap<u64, RecentSends> {
        let since = now.timestamp() - WINDOW_SECONDS;
        let state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let mut recent = FxHashMap::default();
        let Some(sends) = state.accounts.get(&account) else { return recent };
        for number in numbers {
            let Some(times) = sends.get(number) else { continue };
            let mut counts = RecentSends::default();
            for (_, hash) in times.iter().filter(|(at, _)| *at >= since) {
                counts.any += 1;
                counts.identical += u32::from(*hash == text_hash);
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
        self.accounts.retain(|_, numbers| {
            numbers.retain(|_, sends| {
                sends.retain(|(at, _)| *at >= since);
                !sends.is_empty()
            });
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
        assert_eq!(later.get(&33_612_345_678), Some(&RecentSends { identical: 0, any: 1 }), "the 10:00 send left the window");
        assert_eq!(window.recent(3, &[33_612_345_678], 7, at(45)).len(), 0, "another account sent nothing");
    }

    #[test]
    fn sweeping_forgets_only_what_left_the_window() {
        let window = FloodWindow::default();
        window.record(1, [33_612_345_678], 7, at(0));
        window.record(1, [33_700_000_000], 7, at(50));
        window.record(1, [33_711_111_111], 7, at(70)); // sweeps everything before 10:10
        let state = window.state.lock().unwrap_or_else(PoisonError::into_inner);
        let numbers = &state.accounts[&1];
        assert!(!numbers.contains_key(&33_612_345_678));
        assert!(numbers.contains_key(&33_700_000_000));
        assert!(numbers.contains_key(&33_711_111_111));
    }
}
