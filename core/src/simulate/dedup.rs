//! Finding repeated numbers in a large request without a cache miss per number.
//!
//! One hash set of a million numbers does not fit in the CPU caches, so every lookup is a
//! cache (and TLB) miss. Large requests are first split by hash into 256 partitions written
//! sequentially; each partition's set then stays in cache. Within a partition numbers keep
//! request order, so the first occurrence is the one kept.

use rustc_hash::FxHashSet;

use crate::Msisdn;

/// Below this many numbers one set fits in cache and partitioning costs more than it saves.
const PARTITION_FROM: usize = 32_768;
const PARTITION_BITS: u32 = 8;

/// `true` at each position whose number already appeared at an earlier position.
pub(super) fn repeated(numbers: &[Option<Msisdn>]) -> Vec<bool> {
    let mut repeated = vec![false; numbers.len()];
    let valid = numbers.iter().enumerate().filter_map(|(i, n)| n.map(|n| (n.as_u64(), i)));
    if numbers.len() < PARTITION_FROM {
        let mut seen = FxHashSet::default();
        seen.reserve(numbers.len());
        for (number, i) in valid {
            repeated[i] = !seen.insert(number);
        }
        return repeated;
    }
    let partitions = 1usize << PARTITION_BITS;
    let mut parts: Vec<Vec<(u64, usize)>> =
        (0..partitions).map(|_| Vec::with_capacity(numbers.len() / partitions * 5 / 4)).collect();
    for (number, i) in valid {
        let spread = number.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - PARTITION_BITS);
        parts[spread as usize].push((number, i));
    }
    let mut seen = FxHashSet::default();
    for part in parts {
        seen.clear();
        seen.reserve(part.len());
        for (number, i) in part {
            repeated[i] = !seen.insert(number);
        }
    }
    repeated
}

#[cfg(test)]
mod tests {
    use super::repeated;
    use crate::parse_international;

    fn check(count: usize) {
        // Every third number repeats the one two places before it.
        let numbers: Vec<_> = (0..count)
            .map(|i| if i % 3 == 2 { i - 2 } else { i })
            .map(|i| parse_international(&format!("336{:08}", i)).ok())
            .collect();
        let marks = repeated(&numbers);
        for (i, mark) in marks.iter().enumerate() {
            assert_eq!(*mark, i % 3 == 2, "position {i} of {count}");
        }
    }

    #[test]
    fn small_and_partitioned_requests_agree() {
        check(10);
        check(100_000);
    }

    #[test]
    fn invalid_numbers_are_never_repeats() {
        assert_eq!(repeated(&[None, None]), [false, false]);
    }
}
