//! Slows down the guessing of passwords and two-factor codes, on each node, in memory. A try is
//! counted when it begins, before its password or code is checked, so that tries sent at once
//! are all counted; it is taken back when it succeeds or was no guess. The bounds:
//!
//! - one email from one address: 5 tries free, then each waits twice as long as the one before
//!   (1 s, 2 s, 4 s… up to 15 minutes);
//! - one address, whatever the emails: 20 tries free, then the same doubling;
//! - one email from every address: 100 tries in 15 minutes; past them, until those 15 minutes
//!   end, only addresses that have not failed for the email are checked. Guessing from many
//!   addresses then costs one address per guess, while a stranger's failures never refuse the
//!   person's own address.
//!
//! A count is forgotten an hour after its last try. An IPv6 client is counted by its /64
//! ([`subscriber`]).

use std::{
    collections::HashMap,
    net::IpAddr,
    sync::Mutex,
    time::{Duration, Instant},
};

use crate::team::address_range::subscriber;

/// Tries one email may have from one address before they wait.
const PAIR_FREE: u32 = 5;
/// Tries one address may have, whatever the emails, before they wait.
const ADDRESS_FREE: u32 = 20;
/// Tries one email may have from every address within [`EMAIL_WINDOW`] before only addresses
/// that have not failed for it are checked.
const EMAIL_BOUND: u32 = 100;
/// The window of [`EMAIL_BOUND`].
const EMAIL_WINDOW: Duration = Duration::from_secs(15 * 60);
/// The longest wait.
const LONGEST: Duration = Duration::from_secs(15 * 60);
/// How long after its last try a count is forgotten.
const FORGET_AFTER: Duration = Duration::from_secs(60 * 60);
/// Entries in one table beyond which forgotten ones are removed.
const PRUNE_ABOVE: usize = 10_000;
/// The least time between two prunings, so that a large table is not scanned at every try.
const PRUNE_EVERY: Duration = Duration::from_secs(60);

/// The tries of one email from one address, or of one address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Tries {
    count: u32,
    next_try: Instant,
    last: Instant,
}

impl Tries {
    fn fresh(now: Instant) -> Tries {
        Tries { count: 0, next_try: now, last: now }
    }

    /// These tries as they stand at `now`.
    fn at(self, now: Instant) -> Tries {
        if self.forgotten(now) { Tries::fresh(now) } else { self }
    }

    fn forgotten(&self, now: Instant) -> bool {
        now.saturating_duration_since(self.last) >= FORGET_AFTER
    }

    /// With one more try at `now`, the first `free` allowed without a wait.
    fn counted(self, now: Instant, free: u32) -> Tries {
        let count = self.count.saturating_add(1);
        Tries { count, next_try: now + wait_after(count, free), last: now }
    }
}

/// The wait after `count` tries when `free` are allowed without one.
fn wait_after(count: u32, free: u32) -> Duration {
    if count < free {
        return Duration::ZERO;
    }
    let doublings = (count - free).min(20);
    (Duration::from_secs(1) * 2u32.pow(doublings)).min(LONGEST)
}

/// `current` without the try that turned `before` into `after`: as before when nothing else
/// was counted since, else one try fewer.
fn undone(current: Tries, (before, after): (Tries, Tries)) -> Tries {
    if current == after { before } else { Tries { count: current.count.saturating_sub(1), ..current } }
}

/// The tries of one email from every address since `start`.
#[derive(Debug, Clone, Copy)]
struct Window {
    start: Instant,
    count: u32,
}

impl Window {
    fn end(&self) -> Instant {
        self.start + EMAIL_WINDOW
    }
}

#[derive(Default)]
struct Counts {
    pairs: HashMap<(String, IpAddr), Tries>,
    addresses: HashMap<IpAddr, Tries>,
    emails: HashMap<String, Window>,
    /// When the tables were last pruned.
    pruned_at: Option<Instant>,
}

impl Counts {
    /// Removes what is forgotten once a table grows large, at most once a [`PRUNE_EVERY`].
    fn prune(&mut self, now: Instant) {
        if self.pruned_at.is_some_and(|at| now.saturating_duration_since(at) < PRUNE_EVERY) {
            return;
        }
        self.pruned_at = Some(now);
        if self.pairs.len() > PRUNE_ABOVE {
            self.pairs.retain(|_, tries| !tries.forgotten(now));
        }
        if self.addresses.len() > PRUNE_ABOVE {
            self.addresses.retain(|_, tries| !tries.forgotten(now));
        }
        if self.emails.len() > PRUNE_ABOVE {
            self.emails.retain(|_, window| now < window.end());
        }
    }

    /// Takes the attempt's try back from the address and the email's window.
    fn take_back_shared(&mut self, attempt: &Attempt) {
        if let Some(tries) = self.addresses.get_mut(&attempt.address) {
            *tries = undone(*tries, attempt.from);
        }
        if let Some(window) = self.emails.get_mut(&attempt.email).filter(|w| w.start == attempt.window) {
            window.count = window.count.saturating_sub(1);
        }
    }
}

/// A try under way, counted as a failure unless it is taken back ([`SignInGuard::succeeded`],
/// [`SignInGuard::take_back`]); [`SignInGuard::failed`] starts its wait again once it is known
/// to be wrong.
#[derive(Debug)]
pub(crate) struct Attempt {
    email: String,
    address: IpAddr,
    /// The email's tries from the address before this one, and as this one left them.
    pair: (Tries, Tries),
    /// The address's tries before this one, and as this one left them.
    from: (Tries, Tries),
    /// The start of the email's window this try was counted in.
    window: Instant,
}

/// The recent tries of emails and addresses.
#[derive(Default)]
pub(crate) struct SignInGuard {
    counts: Mutex<Counts>,
}

impl SignInGuard {
    fn with<T>(&self, work: impl FnOnce(&mut Counts) -> T) -> T {
        work(&mut self.counts.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Counts a try for `email` from `address` before it is checked; `Err(seconds)` while it
    /// must still wait (a try refused is not counted).
    pub(crate) fn begin(&self, email: &str, address: IpAddr, now: Instant) -> Result<Attempt, u64> {
        let address = subscriber(address);
        self.with(|counts| {
            counts.prune(now);
            let key = (email.to_owned(), address);
            let pair = counts.pairs.get(&key).map_or(Tries::fresh(now), |tries| tries.at(now));
            let from = counts.addresses.get(&address).map_or(Tries::fresh(now), |tries| tries.at(now));
            let window = counts
                .emails
                .get(email)
                .filter(|window| now < window.end())
                .copied()
                .unwrap_or(Window { start: now, count: 0 });
            let mut wait = pair.next_try.max(from.next_try).saturating_duration_since(now);
            if window.count >= EMAIL_BOUND && pair.count > 0 {
                wait = wait.max(window.end().saturating_duration_since(now));
            }
            if !wait.is_zero() {
                return Err(wait.as_secs_f64().ceil() as u64);
            }
            let attempt = Attempt {
                email: email.to_owned(),
                address,
                pair: (pair, pair.counted(now, PAIR_FREE)),
                from: (from, from.counted(now, ADDRESS_FREE)),
                window: window.start,
            };
            counts.pairs.insert(key, attempt.pair.1);
            counts.addresses.insert(address, attempt.from.1);
            counts.emails.insert(email.to_owned(), Window { count: window.count + 1, ..window });
            Ok(attempt)
        })
    }

    /// The try was checked and wrong: it stays counted, and its wait runs from now (the try was
    /// counted, and its wait begun, before it was checked).
    pub(crate) fn failed(&self, attempt: Attempt, now: Instant) {
        self.with(|counts| {
            if let Some(tries) = counts.pairs.get_mut(&(attempt.email, attempt.address)) {
                tries.next_try = tries.next_try.max(now + wait_after(tries.count, PAIR_FREE));
            }
            if let Some(tries) = counts.addresses.get_mut(&attempt.address) {
                tries.next_try = tries.next_try.max(now + wait_after(tries.count, ADDRESS_FREE));
            }
        });
    }

    /// The try signed in: the email starts again from this address (not from others), and the
    /// try is taken back from the address and the email's window.
    pub(crate) fn succeeded(&self, attempt: Attempt) {
        self.with(|counts| {
            counts.pairs.remove(&(attempt.email.clone(), attempt.address));
            counts.take_back_shared(&attempt);
        });
    }

    /// The try was no guess (the password was right and its code is still to come, or nothing
    /// could be checked): it no longer counts, and its wait is lifted.
    pub(crate) fn take_back(&self, attempt: Attempt) {
        self.with(|counts| {
            if let Some(tries) = counts.pairs.get_mut(&(attempt.email.clone(), attempt.address)) {
                *tries = undone(*tries, attempt.pair);
            }
            counts.take_back_shared(&attempt);
        });
    }

    /// Lifts every wait of `email` (from every address); the addresses' own stay.
    pub(crate) fn unlock(&self, email: &str) {
        self.with(|counts| {
            counts.pairs.retain(|(key, _), _| key != email);
            counts.emails.remove(email);
        });
    }
}

#[cfg(test)]
mod tests {
    use std::{
        net::{IpAddr, Ipv4Addr, Ipv6Addr},
        time::{Duration, Instant},
    };

    use super::SignInGuard;

    const HOME: IpAddr = IpAddr::V4(Ipv4Addr::new(192, 0, 2, 1));
    const STRANGER: IpAddr = IpAddr::V4(Ipv4Addr::new(203, 0, 113, 9));
    const SECOND: Duration = Duration::from_secs(1);

    fn address(n: u32) -> IpAddr {
        IpAddr::V4(Ipv4Addr::from(0x0a00_0000 + n))
    }

    /// A try that fails (begun, never taken back).
    fn fail(guard: &SignInGuard, email: &str, from: IpAddr, at: Instant) {
        guard.begin(email, from, at).expect("not slowed yet");
    }

    #[test]
    fn tries_begun_at_once_are_counted_before_any_is_checked() {
        let (guard, now) = (SignInGuard::default(), Instant::now());
        let begun: Vec<_> = (0..60).map(|_| guard.begin("a@example.com", HOME, now)).collect();
        assert_eq!(begun.iter().filter(|b| b.is_ok()).count(), 5, "the 5 free tries, none more");
        assert!(begun.iter().skip(5).all(|b| b.as_ref().err() == Some(&1)), "the others wait a second");
    }

    #[test]
    fn the_addresses_of_one_ipv6_network_share_their_tries() {
        let (guard, now) = (SignInGuard::default(), Instant::now());
        let in_network = |n: u16| IpAddr::V6(Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, n));
        for n in 1..=5 {
            fail(&guard, "a@example.com", in_network(n), now);
        }
        assert_eq!(guard.begin("a@example.com", in_network(99), now).err(), Some(1), "a new address of the /64");
        let next_network = IpAddr::V6(Ipv6Addr::new(0x2001, 0xdb8, 0, 1, 0, 0, 0, 1));
        assert!(guard.begin("a@example.com", next_network, now).is_ok(), "another /64 is another subscriber");
        let mapped = IpAddr::V6(Ipv4Addr::new(192, 0, 2, 1).to_ipv6_mapped());
        for _ in 0..5 {
            fail(&guard, "b@example.com", HOME, now);
        }
        assert_eq!(guard.begin("b@example.com", mapped, now).err(), Some(1), "IPv4 written in IPv6 is IPv4");
    }

    #[test]
    fn five_failures_for_an_email_from_an_address_then_each_try_waits_twice_as_long() {
        let (guard, start) = (SignInGuard::default(), Instant::now());
        for _ in 0..5 {
            fail(&guard, "a@example.com", HOME, start);
        }
        assert_eq!(guard.begin("a@example.com", HOME, start).err(), Some(1));
        assert!(guard.begin("b@example.com", HOME, start).is_ok(), "another email is not slowed");
        fail(&guard, "a@example.com", HOME, start + SECOND);
        assert_eq!(guard.begin("a@example.com", HOME, start + SECOND).err(), Some(2));
        let attempt = guard.begin("a@example.com", HOME, start + 3 * SECOND).expect("after the wait");
        guard.succeeded(attempt);
        for _ in 0..5 {
            fail(&guard, "a@example.com", HOME, start + 3 * SECOND);
        }
        assert!(guard.begin("a@example.com", HOME, start + 3 * SECOND).is_err(), "free again after a success");
    }

    #[test]
    fn a_strangers_failures_slow_down_their_address_not_the_persons() {
        let (guard, now) = (SignInGuard::default(), Instant::now());
        for _ in 0..5 {
            fail(&guard, "a@example.com", STRANGER, now);
        }
        assert!(guard.begin("a@example.com", STRANGER, now).is_err());
        let owner = guard.begin("a@example.com", HOME, now).expect("the person's own address is not slowed");
        guard.succeeded(owner);
        assert!(guard.begin("a@example.com", STRANGER, now).is_err(), "the person's success lifts nothing else");
    }

    #[test]
    fn twenty_tries_from_an_address_slow_every_email_from_it_up_to_fifteen_minutes() {
        let (guard, start) = (SignInGuard::default(), Instant::now());
        for i in 0..19 {
            fail(&guard, &format!("{i}@example.com"), HOME, start);
        }
        let spare = guard.begin("new@example.com", HOME, start).expect("the 20th try");
        assert_eq!(guard.begin("other@example.com", HOME, start).err(), Some(1));
        guard.take_back(spare);
        assert!(guard.begin("other@example.com", HOME, start).is_ok(), "a try taken back lifts its wait");
        let mut at = start;
        for i in 0..40 {
            at += Duration::from_secs(1000);
            fail(&guard, &format!("late{i}@example.com"), HOME, at);
        }
        assert_eq!(guard.begin("new@example.com", HOME, at).err(), Some(900));
    }

    #[test]
    fn past_a_hundred_tries_for_an_email_only_addresses_that_have_not_failed_for_it_are_checked() {
        let (guard, start) = (SignInGuard::default(), Instant::now());
        for n in 0..100 {
            fail(&guard, "a@example.com", address(n), start);
        }
        assert_eq!(guard.begin("a@example.com", address(0), start + SECOND).err(), Some(899), "has failed");
        let owner = guard.begin("a@example.com", HOME, start + SECOND).expect("the person's address has not");
        guard.succeeded(owner);
        assert!(guard.begin("b@example.com", address(0), start + SECOND).is_ok(), "other emails are not slowed");
        assert!(guard.begin("a@example.com", address(0), start + 15 * 60 * SECOND).is_ok(), "once the window ends");
    }

    #[test]
    fn the_wait_after_a_wrong_try_runs_from_when_it_was_found_wrong() {
        let (guard, start) = (SignInGuard::default(), Instant::now());
        let tries: Vec<_> = (0..5).map(|_| guard.begin("a@example.com", HOME, start).expect("free")).collect();
        for attempt in tries {
            guard.failed(attempt, start + 3 * SECOND);
        }
        assert_eq!(guard.begin("a@example.com", HOME, start + 3 * SECOND).err(), Some(1));
    }

    #[test]
    fn a_try_taken_back_counts_for_nothing() {
        let (guard, start) = (SignInGuard::default(), Instant::now());
        for _ in 0..5 {
            fail(&guard, "a@example.com", HOME, start);
        }
        let right_password = guard.begin("a@example.com", HOME, start + SECOND).expect("after the wait");
        guard.take_back(right_password);
        let with_its_code = guard.begin("a@example.com", HOME, start + SECOND).expect("no new wait");
        guard.succeeded(with_its_code);
    }

    #[test]
    fn counts_are_forgotten_an_hour_after_the_last_try_or_when_unlocked() {
        let (guard, start) = (SignInGuard::default(), Instant::now());
        for _ in 0..5 {
            fail(&guard, "a@example.com", HOME, start);
            fail(&guard, "b@example.com", STRANGER, start);
        }
        let later = start + 59 * 60 * SECOND;
        fail(&guard, "a@example.com", HOME, later);
        assert_eq!(guard.begin("a@example.com", HOME, later).err(), Some(2), "within the hour the count goes on");
        let hour = start + 3600 * SECOND;
        for _ in 0..5 {
            fail(&guard, "b@example.com", STRANGER, hour);
        }
        assert_eq!(guard.begin("b@example.com", STRANGER, hour).err(), Some(1), "5 free again, no more");
        guard.unlock("a@example.com");
        for _ in 0..5 {
            fail(&guard, "a@example.com", HOME, later);
        }
    }
}
