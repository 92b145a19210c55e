//! Short-link codes: 6 characters per recipient and link, derived from the message id with a
//! keyed permutation, so that accepting a send writes no row per link and a code cannot be
//! guessed from its neighbours.
//!
//! A code encodes `message_id × 16 + link` through a 4-round Feistel network on 36 bits
//! (SHA-256 of the server's key as round function), walked until it falls inside the 62⁶
//! codes. Messages beyond the 3.5 billionth reuse the codes of the first ones.

use sha2::{Digest, Sha256};

/// The characters of a code.
const ALPHABET: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/// How many codes there are: 62⁶.
const CODES: u64 = 62u64.pow(6);
/// Links one message can carry with a code of its own; further links go out unshortened.
pub(crate) const LINKS_PER_MESSAGE: usize = 16;
/// Half of the 36-bit block.
const HALF_BITS: u32 = 18;
const HALF_MASK: u64 = (1 << HALF_BITS) - 1;
const ROUNDS: u8 = 4;

/// Makes and reads codes with the server's key.
#[derive(Clone)]
pub(crate) struct LinkCodes {
    key: [u8; 32],
}

impl LinkCodes {
    /// Codes under `key` (kept in the database, made at first start).
    pub(crate) fn new(key: [u8; 32]) -> LinkCodes {
        LinkCodes { key }
    }

    /// The URLs message `message_id` carries for its campaign's `links`: the short URL of
    /// each of the first [`LINKS_PER_MESSAGE`], the long URL of any beyond.
    pub(crate) fn short_urls(
        &self,
        options: &texto_core::MessageOptions,
        message_id: i64,
        links: &[String],
    ) -> Vec<String> {
        links
            .iter()
            .enumerate()
            .map(|(link, long)| {
                if link < LINKS_PER_MESSAGE { options.short_url(&self.encode(message_id, link)) } else { long.clone() }
            })
            .collect()
    }

    /// The code of link `link` (below [`LINKS_PER_MESSAGE`]) of message `message_id`.
    pub(crate) fn encode(&self, message_id: i64, link: usize) -> String {
        let plain = (message_id.max(0) as u64).wrapping_mul(LINKS_PER_MESSAGE as u64).wrapping_add(link as u64) % CODES;
        let mut value = plain;
        loop {
            value = self.feistel(value, false);
            if value < CODES {
                break;
            }
        }
        let mut code = [0u8; 6];
        for slot in code.iter_mut().rev() {
            *slot = ALPHABET[(value % 62) as usize];
            value /= 62;
        }
        String::from_utf8_lossy(&code).into_owned()
    }

    /// The message id and link a code stands for; `None` for anything that is not a code.
    pub(crate) fn decode(&self, code: &str) -> Option<(i64, usize)> {
        if code.len() != 6 {
            return None;
        }
        let mut value: u64 = 0;
        for byte in code.bytes() {
            let digit = ALPHABET.iter().position(|c| *c == byte)? as u64;
            value = value * 62 + digit;
        }
        loop {
            value = self.feistel(value, true);
            if value < CODES {
                break;
            }
        }
        Some(((value / LINKS_PER_MESSAGE as u64) as i64, (value % LINKS_PER_MESSAGE as u64) as usize))
    }

    /// One pass of the network over a 36-bit block, forwards or backwards.
    fn feistel(&self, block: u64, backwards: bool) -> u64 {
        let (mut left, mut right) = (block >> HALF_BITS, block & HALF_MASK);
        if backwards {
            for round in (0..ROUNDS).rev() {
                (left, right) = (right ^ self.round(round, left), left);
            }
        } else {
            for round in 0..ROUNDS {
                (left, right) = (right, left ^ self.round(round, right));
            }
        }
        (left << HALF_BITS) | right
    }

    fn round(&self, round: u8, half: u64) -> u64 {
        let digest =
            Sha256::new().chain_update(self.key).chain_update([round]).chain_update(half.to_le_bytes()).finalize();
        u64::from_le_bytes([digest[0], digest[1], digest[2], digest[3], digest[4], digest[5], digest[6], digest[7]])
            & HALF_MASK
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn codes_decode_back_and_are_distinct() {
        let codes = LinkCodes::new([7; 32]);
        let mut seen = HashSet::new();
        for message in (1..3_000).chain([1_000_000_000, 3_000_000_000]) {
            for link in [0, 1, 15] {
                let code = codes.encode(message, link);
                assert_eq!(code.len(), 6);
                assert!(code.bytes().all(|b| b.is_ascii_alphanumeric()));
                assert_eq!(codes.decode(&code), Some((message, link)), "{code}");
                assert!(seen.insert(code));
            }
        }
    }

    #[test]
    fn another_key_gives_other_codes_and_junk_is_refused() {
        let (a, b) = (LinkCodes::new([1; 32]), LinkCodes::new([2; 32]));
        assert_ne!(a.encode(42, 0), b.encode(42, 0));
        assert_ne!(a.encode(42, 0), a.encode(43, 0), "neighbours do not look alike");
        for junk in ["", "abc", "abcdefg", "ab-def", "ÿÿÿ"] {
            assert_eq!(a.decode(junk), None, "{junk}");
        }
    }
}
