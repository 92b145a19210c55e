//! Slows down password guessing: after 5 failed sign-ins for one email, or 20 from one
//! address, each further try must wait longer (1 s, doubling, up to 15 min). Kept in memory
//! by each node.

use std::{
    collections::HashMap,
    net::IpAddr,
    sync::Mutex,
    time::{Duration, Instant},
};

/// Failures an email may have before its tries are slowed.
const EMAIL_FREE: u32 = 5;
/// Failures an address may have before its tries are slowed.
const ADDRESS_FREE: u32 = 20;
/// The longest wait.
const LONGEST: Duration = Duration::from_secs(15 * 60);
/// Entries beyond which old ones are forgotten.
const PRUNE_ABOVE: usize = 10_000;

#[derive(Debug, Clone, Copy)]
struct Failures {
    count: u32,
    next_try: Instant,
}

/// The failed sign-ins of recent emails and addresses.
#[derive(Default)]
pub(crate) struct SignInGuard {
    failures: Mutex<HashMap<String, Failures>>,
}

/// The wait after `count` failures when `free` are allowed without one.
fn wait_after(count: u32, free: u32) -> Duration {
    if count < free {
        return Duration::ZERO;
    }
    let doublings = (count - free).min(20);
    (Duration::from_secs(1) * 2u32.pow(doublings)).min(LONGEST)
}

fn keys(email: &str, address: IpAddr) -> [(String, u32); 2] {
    [(format!("email {email}"), EMAIL_FREE), (format!("address {address}"), ADDRESS_FREE)]
}

impl SignInGuard {
    /// `Err(seconds)` while a try for `email` from `address` must still wait.
    pub(crate) fn check(&self, email: &str, address: IpAddr, now: Instant) -> Result<(), u64> {
        let failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        let wait = keys(email, address)
            .iter()
            .filter_map(|(key, _)| failures.get(key))
            .map(|f| f.next_try.saturating_duration_since(now))
            .max()
            .unwrap_or_default();
        if wait.is_zero() { Ok(()) } else { Err(wait.as_secs_f64().ceil() as u64) }
    }

    /// Counts a failed try.
    pub(crate) fn failed(&self, email: &str, address: IpAddr, now: Instant) {
        let mut failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        if failures.len() > PRUNE_ABOVE {
            failures.retain(|_, f| now.saturating_duration_since(f.next_try) < LONGEST);
        }
        for (key, free) in keys(email, address) {
            let entry = failures.entry(key).or_insert(Failures { count: 0, next_try: now });
            entry.count += 1;
            entry.next_try = now + wait_after(entry.count, free);
        }
    }

    /// A sign-in for `email` succeeded: its count starts again (the address's stays).
    pub(crate) fn succeeded(&self, email: &str) {
        self.failures.lock().unwrap_or_else(|e| e.into_inner()).remove(&format!("email {email}"));
    }
}

#[cfg(test)]
mod tests {
    use std::{
        net::{IpAddr, Ipv4Addr},
        time::{Duration, Instant},
    };

    use super::SignInGuard;

    const HOME: IpAddr = IpAddr::V4(Ipv4Addr::new(192, 0, 2, 1));

    #[test]
    fn five_failures_for_an_email_then_each_try_waits_twice_as_long() {
        let (guard, start) = (SignInGuard::default(), Instant::now());
        for _ in 0..4 {
            guard.failed("a@example.com", HOME, start);
            assert_eq!(guard.check("a@example.com", HOME, start), Ok(()));
        }
        guard.failed("a@example.com", HOME, start);
        assert_eq!(guard.check("a@example.com", HOME, start), Err(1));
        assert_eq!(guard.check("b@example.com", HOME, start), Ok(()), "another email is not slowed");
        guard.failed("a@example.com", HOME, start);
        assert_eq!(guard.check("a@example.com", HOME, start), Err(2));
        assert_eq!(guard.check("a@example.com", HOME, start + Duration::from_secs(2)), Ok(()));
        guard.succeeded("a@example.com");
        assert_eq!(guard.check("a@example.com", HOME, start), Ok(()));
    }

    #[test]
    fn twenty_failures_from_an_address_slow_every_email_from_it_up_to_fifteen_minutes() {
        let (guard, start) = (SignInGuard::default(), Instant::now());
        for i in 0..19 {
            guard.failed(&format!("{i}@example.com"), HOME, start);
        }
        assert_eq!(guard.check("new@example.com", HOME, start), Ok(()));
        guard.failed("x@example.com", HOME, start);
        assert_eq!(guard.check("new@example.com", HOME, start), Err(1));
        for _ in 0..40 {
            guard.failed("x@example.com", HOME, start);
        }
        assert_eq!(guard.check("new@example.com", HOME, start), Err(900));
    }
}
