//! Throughput limits per account: a token bucket per limited account, refilled at its
//! messages a second (holding one second's worth at most), which caps each wave's share of that
//! account ([`WaveLimit`]). The limits come from the database with the connectors, each second.
//! Each node applies an account's limit to what it hands over itself.

use std::{
    collections::HashMap,
    sync::Mutex,
    time::{Duration, Instant},
};

use crate::store::{AccountId, delivery::WaveLimit};

/// An account's bucket: its messages a second, the tokens in it, and when it was last filled.
#[derive(Debug, Clone, Copy)]
struct Bucket {
    per_second: f64,
    tokens: f64,
    filled_at: Instant,
}

/// The limited accounts' buckets.
#[derive(Default)]
pub(crate) struct Throttle {
    buckets: Mutex<HashMap<AccountId, Bucket>>,
}

impl Throttle {
    /// Makes the limited accounts those of `limits` (messages a second; 0 or less holds an
    /// account's messages back); a new one starts with a full second's worth.
    pub(crate) fn set_limits(&self, limits: &[(AccountId, i64)], now: Instant) {
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        let old = std::mem::take(&mut *buckets);
        for &(account, per_second) in limits {
            let per_second = per_second.max(0) as f64;
            let bucket = old.get(&account).map_or(Bucket { per_second, tokens: per_second, filled_at: now }, |b| {
                Bucket { per_second, tokens: b.tokens.min(per_second), ..*b }
            });
            buckets.insert(account, bucket);
        }
    }

    /// How many messages the next wave may take: `total`, and of each limited account what its
    /// bucket holds at `now`.
    pub(crate) fn wave(&self, total: usize, now: Instant) -> WaveLimit {
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        let caps = buckets
            .iter_mut()
            .map(|(account, bucket)| {
                let elapsed = now.saturating_duration_since(bucket.filled_at).as_secs_f64();
                bucket.tokens = (bucket.tokens + elapsed * bucket.per_second).min(bucket.per_second);
                bucket.filled_at = now;
                (*account, bucket.tokens.floor() as usize)
            })
            .collect();
        WaveLimit { total, caps }
    }

    /// Takes what a wave handed over of each account from its bucket.
    pub(crate) fn spent(&self, per_account: &HashMap<AccountId, usize>) {
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        for (account, count) in per_account {
            if let Some(bucket) = buckets.get_mut(account) {
                bucket.tokens = (bucket.tokens - *count as f64).max(0.0);
            }
        }
    }

    /// How long until a limited account whose bucket is empty can send again (`None`: none waits).
    pub(crate) fn next_token(&self, caps: &WaveLimit) -> Option<Duration> {
        let buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        caps.caps
            .iter()
            .filter(|(_, cap)| **cap == 0)
            .filter_map(|(account, _)| buckets.get(account).filter(|b| b.per_second > 0.0))
            .map(|b| Duration::from_secs_f64(((1.0 - b.tokens) / b.per_second).clamp(0.001, 1.0)))
            .min()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_gives_its_rate_and_no_more_than_a_second_ahead() {
        let throttle = Throttle::default();
        let start = Instant::now();
        throttle.set_limits(&[(7, 100)], start);
        let wave = throttle.wave(1_000, start);
        assert_eq!((wave.total, wave.allowed(7), wave.allowed(8)), (1_000, 100, usize::MAX));
        throttle.spent(&HashMap::from([(7, 100)]));
        let empty = throttle.wave(1_000, start);
        assert_eq!(empty.allowed(7), 0);
        assert_eq!(throttle.next_token(&empty), Some(Duration::from_millis(10)));
        assert_eq!(throttle.wave(1_000, start + Duration::from_millis(250)).allowed(7), 25);
        assert_eq!(throttle.wave(1_000, start + Duration::from_secs(60)).allowed(7), 100, "one second's worth at most");
        throttle.set_limits(&[], start);
        assert_eq!(throttle.wave(10, start).caps.len(), 0, "no limit any more");
    }
}
