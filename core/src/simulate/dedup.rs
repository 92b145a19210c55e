//! Finding repeated numbers in a large request without a cache miss per number: the numbers
//! are partitioned (see [`super::partition`]), and within a partition they keep the request's
//! order, so the first occurrence is the one kept.
//!
//! Each partition's numbers go into a table of their own, twice their count, probed linearly
//! from a slot their hash gives: in the npm package a general hash set (hashbrown) probes four
//! slots at a time (wasm32 has no SIMD there) and hashes each number anew, and was the
//! filter's second largest cost (docs/performance.md).

use super::partition::{HASH_FACTOR, PARTITION_BITS, partitioned};
use crate::Msisdn;

/// `true` at each position whose number already appeared at an earlier position.
pub(super) fn repeated(numbers: &[Option<Msisdn>]) -> Vec<bool> {
    let mut repeated = vec![false; numbers.len()];
    let valid = numbers.iter().enumerate().filter_map(|(i, n)| n.map(|n| (n.as_u64(), i)));
    // 0 marks an empty slot: no number is 0.
    let mut table: Vec<u64> = Vec::new();
    for part in partitioned(valid, numbers.len()) {
        let bits = (part.len() * 2).next_power_of_two().max(2).trailing_zeros();
        let mask = (1 << bits) - 1;
        table.clear();
        table.resize(1 << bits, 0);
        for (number, i) in part {
            // The hash's bits below those that chose the partition.
            let mut slot = ((number.wrapping_mul(HASH_FACTOR) << PARTITION_BITS) >> (64 - bits)) as usize;
            loop {
                match table[slot] {
                    0 => {
                        table[slot] = number;
                        break;
                    }
                    seen if seen == number => {
                        repeated[i] = true;
                        break;
                    }
                    _ => slot = (slot + 1) & mask,
                }
            }
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
    fn only_the_first_of_many_repeats_is_kept() {
        // A thousand numbers, each a hundred times: long probe runs in every partition's table.
        let numbers: Vec<_> =
            (0..100_000).map(|i| parse_international(&format!("336{:08}", (i % 1_000) * 7_919)).ok()).collect();
        let marks = repeated(&numbers);
        assert!(marks[..1_000].iter().all(|mark| !mark));
        assert!(marks[1_000..].iter().all(|mark| *mark));
    }

    #[test]
    fn invalid_numbers_are_never_repeats() {
        assert_eq!(repeated(&[None, None]), [false, false]);
    }
}
