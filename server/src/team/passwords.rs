//! People's passwords: argon2id with one of OWASP's settings (7 MiB, 5 passes, 1 lane), hashed
//! and checked on threads of their own, at a lower priority, so that sign-ins never stall the
//! handlers around them. A hash made with other parameters (19 MiB and 2 passes, before
//! 2026-11-29) still verifies, and is made again at its owner's next sign-in.

use std::{
    num::NonZeroUsize,
    sync::{Arc, LazyLock, Mutex, OnceLock, mpsc::Sender},
};

use argon2::{
    Algorithm, Argon2, Params, PasswordHash, PasswordHasher, PasswordVerifier, Version, password_hash::SaltString,
};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::Error;

/// A password a person chose: 10 to 128 characters, not only spaces.
#[derive(Clone)]
pub(crate) struct Password(String);

impl Password {
    /// `text` as a password, or why it cannot be one.
    pub(crate) fn parse(text: &str) -> Result<Password, String> {
        match text.chars().count() {
            _ if text.trim().is_empty() => Err("a password is needed".to_owned()),
            0..=9 => Err("at least 10 characters".to_owned()),
            10..=128 => Ok(Password(text.to_owned())),
            _ => Err("at most 128 characters".to_owned()),
        }
    }
}

impl std::fmt::Debug for Password {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Password(…)")
    }
}

/// A fresh random salt (16 bytes).
fn salt() -> Result<SaltString, Error> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| Error::Command(format!("no randomness for a salt: {e}")))?;
    SaltString::encode_b64(&bytes).map_err(|e| Error::Command(format!("a salt: {e}")))
}

/// A hash or a check, handed to the hashing threads.
type Job = Box<dyn FnOnce() + Send>;

/// The hashing threads: half the cores (one on two), so that a burst of sign-ins waits its
/// turn instead of taking every core from the sends, each at nice 19 (the lowest), so that
/// when the cores are busy the kernel gives them to the sends first (a sign-in then takes
/// longer; a send does not wait behind it: sends beside 20 sign-ins a second 11-12% lower at
/// nice 19, 15% at nice 10, docs/performance.md). `None` if no thread could be started.
static HASHERS: LazyLock<Option<Sender<Job>>> = LazyLock::new(|| {
    let (jobs, queue) = std::sync::mpsc::channel::<Job>();
    let queue = Arc::new(Mutex::new(queue));
    let threads = std::thread::available_parallelism().map_or(2, usize::from).div_ceil(2).max(1);
    let mut started = 0;
    for n in 0..threads {
        let queue = Arc::clone(&queue);
        let spawned = std::thread::Builder::new().name(format!("texto-hashing-{n}")).spawn(move || {
            if let Err(error) = rustix::process::setpriority_process(None, 19) {
                tracing::warn!(%error, "the password hashing thread keeps its priority");
            }
            loop {
                let job = match queue.lock().unwrap_or_else(|e| e.into_inner()).recv() {
                    Ok(job) => job,
                    Err(_) => return,
                };
                job();
            }
        });
        started += usize::from(spawned.is_ok());
    }
    (started > 0).then_some(jobs)
});

/// Runs `work` on a hashing thread and waits for it.
async fn hashing<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> Result<T, Error> {
    let (answer, answered) = tokio::sync::oneshot::channel();
    let job: Job = Box::new(move || {
        let _ = answer.send(work());
    });
    let hashers = HASHERS.as_ref().ok_or(Error::Unavailable("no password hashing thread could start"))?;
    hashers.send(job).map_err(|_| Error::Unavailable("password hashing stopped"))?;
    answered.await.map_err(|_| Error::Unavailable("the password hashing thread stopped"))
}

/// Memory (KiB), passes and lanes of new hashes: OWASP's argon2id setting of 7 MiB and 5
/// passes, as strong as its 19 MiB and 2; it sweeps less memory, so a sign-in evicts less of
/// the sends' caches (docs/performance.md).
const PARAMS: (u32, u32, u32) = (7 * 1024, 5, 1);

fn argon2() -> Argon2<'static> {
    let (memory, passes, lanes) = PARAMS;
    let params = Params::new(memory, passes, lanes, None).unwrap_or_default();
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Whether `stored` (a PHC string that verified) was made with other parameters than new
/// hashes are: then it is made again from the password just checked.
pub(crate) fn needs_rehash(stored: &str) -> bool {
    let Ok(parsed) = PasswordHash::new(stored) else { return false };
    let Ok(params) = Params::try_from(&parsed) else { return true };
    let (memory, passes, lanes) = PARAMS;
    parsed.algorithm.as_str() != "argon2id"
        || (params.m_cost(), params.t_cost(), params.p_cost()) != (memory, passes, lanes)
}

/// The PHC string of `password` with a fresh salt.
pub(crate) async fn hash(password: Password) -> Result<String, Error> {
    hashing(move || {
        argon2()
            .hash_password(password.0.as_bytes(), &salt()?)
            .map(|hash| hash.to_string())
            .map_err(|e| Error::Command(format!("hashing a password: {e}")))
    })
    .await?
}

/// The password checks a node takes at once, running or waiting for a hashing thread
/// (`--max-password-checks`): past the bound a check is refused at once rather than queued
/// behind a burst, so that a burst of guesses does not stall everyone's sign-in.
pub(crate) struct PasswordChecks {
    places: Arc<Semaphore>,
}

impl PasswordChecks {
    /// At most `bound` checks at once.
    pub(crate) fn new(bound: NonZeroUsize) -> PasswordChecks {
        PasswordChecks { places: Arc::new(Semaphore::new(bound.get())) }
    }

    /// A place for one check, or [`Error::PasswordChecksBusy`] while every place is taken.
    pub(crate) fn turn(&self) -> Result<CheckTurn, Error> {
        Arc::clone(&self.places).try_acquire_owned().map(CheckTurn).map_err(|_| Error::PasswordChecksBusy)
    }
}

/// A place among the password checks under way, held until its check has run (even when the
/// request that asked for it is gone).
pub(crate) struct CheckTurn(
    #[allow(dead_code, reason = "held for its Drop, which gives the place back")] OwnedSemaphorePermit,
);

impl CheckTurn {
    /// Whether `password` matches the stored `hash`. Without a hash (no such person), a fixed
    /// hash is checked instead, so that the answer takes as long whether the email exists or not.
    pub(crate) async fn verify(self, hash: Option<String>, password: String) -> Result<bool, Error> {
        hashing(move || {
            let _place = self;
            let stored = hash.as_deref().unwrap_or_else(|| decoy());
            let matches = PasswordHash::new(stored)
                .map(|parsed| argon2().verify_password(password.as_bytes(), &parsed).is_ok())
                .unwrap_or(false);
            matches && hash.is_some()
        })
        .await
    }
}

/// A hash no password is known to match, with the same parameters as real ones.
fn decoy() -> &'static str {
    static DECOY: OnceLock<String> = OnceLock::new();
    DECOY.get_or_init(|| {
        let mut secret = [0u8; 32];
        let _ = getrandom::fill(&mut secret);
        salt()
            .ok()
            .and_then(|salt| argon2().hash_password(&secret, &salt).ok().map(|h| h.to_string()))
            .unwrap_or_default()
    })
}

#[cfg(test)]
mod tests {
    use std::num::NonZeroUsize;

    use super::{Password, PasswordChecks, hash, needs_rehash};
    use crate::Error;

    #[tokio::test]
    async fn a_password_matches_its_hash_and_nothing_else() {
        let stored = hash(Password::parse("correct horse battery").unwrap()).await.unwrap();
        assert!(stored.starts_with("$argon2id$v=19$m=7168,t=5,p=1$"), "{stored}");
        assert!(!needs_rehash(&stored));
        let checks = PasswordChecks::new(NonZeroUsize::MIN);
        assert!(checks.turn().unwrap().verify(Some(stored.clone()), "correct horse battery".into()).await.unwrap());
        assert!(!checks.turn().unwrap().verify(Some(stored), "correct horse battery!".into()).await.unwrap());
        assert!(!checks.turn().unwrap().verify(None, "anything at all".into()).await.unwrap());
    }

    #[tokio::test]
    async fn a_hash_with_the_former_parameters_still_verifies_and_is_to_be_made_again() {
        use argon2::{Algorithm, Argon2, Params, PasswordHasher, Version};
        let former = Argon2::new(Algorithm::Argon2id, Version::V0x13, Params::new(19 * 1024, 2, 1, None).unwrap());
        let stored = former.hash_password(b"correct horse battery", &super::salt().unwrap()).unwrap().to_string();
        assert!(stored.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{stored}");
        let checks = PasswordChecks::new(NonZeroUsize::MIN);
        assert!(checks.turn().unwrap().verify(Some(stored.clone()), "correct horse battery".into()).await.unwrap());
        assert!(!checks.turn().unwrap().verify(Some(stored.clone()), "wrong horse battery".into()).await.unwrap());
        assert!(needs_rehash(&stored));
    }

    #[tokio::test]
    async fn past_the_bound_a_check_is_refused_until_a_place_is_free() {
        let checks = PasswordChecks::new(NonZeroUsize::new(2).unwrap());
        let (first, second) = (checks.turn().unwrap(), checks.turn().unwrap());
        assert!(matches!(checks.turn().err(), Some(Error::PasswordChecksBusy)));
        drop(first);
        let third = checks.turn().expect("a place was given back");
        assert!(!third.verify(None, "anything".into()).await.unwrap());
        assert!(checks.turn().is_ok(), "the check done, its place is free");
        drop(second);
    }

    #[test]
    fn short_or_blank_passwords_are_refused() {
        assert!(Password::parse("123456789").is_err());
        assert!(Password::parse("           ").is_err());
        assert!(Password::parse(&"x".repeat(129)).is_err());
        assert!(Password::parse("0123456789").is_ok());
    }
}
