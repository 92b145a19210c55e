//! Finding repeated numbers in a large request without a cache miss per number: the numbers
//! are partitioned (see [`super::partition`]), and within a partition they keep the request's
//! order, so the first occurrence is the one kept.
//!
//! Each partition's numbers go into a table of their own, twice their count, probed linearly
//! from a slot their hash gives: in the npm package a general hash set (hashbrown) probes four
//! slots at a time (it has no SIMD path for wasm32) and hashes each number anew, and was the
//! filter's second largest cost (docs/performance.md).
//!
//! The hash is public, so a request could list numbers chosen to land on neighbouring slots,
//! and each would walk past all the others: a partition where one walk grows long is sorted
//! instead, which costs the same whatever the numbers.

use std::collections::BinaryHeap;

use super::partition::{HASH_FACTOR, PARTITION_BITS, partitioned};
use crate::Msisdn;

/// Slots one number may walk past before its partition is sorted instead: honest numbers at
/// half load almost never walk a dozen.
const LONGEST_WALK: usize = 64;

/// `true` at each position whose number already appeared at an earlier position.
pub(super) fn repeated(numbers: &[Option<Msisdn>]) -> Vec<bool> {
    let mut repeated = vec![false; numbers.len()];
    let valid = numbers.iter().enumerate().filter_map(|(i, n)| n.map(|n| (n.as_u64(), i)));
    let mut table = Vec::new();
    for part in partitioned(valid, numbers.len()) {
        if !mark_by_table(&part, &mut table, &mut repeated) {
            mark_by_sorting(part, &mut repeated);
        }
    }
    repeated
}

/// Marks the repeats of `part` (numbers with their positions, in order) through `table`, or
/// returns `false` when a number walked too far, having marked only true repeats.
fn mark_by_table(part: &[(u64, usize)], table: &mut Vec<u64>, repeated: &mut [bool]) -> bool {
    let bits = (part.len() * 2).next_power_of_two().max(2).trailing_zeros();
    let mask = (1 << bits) - 1;
    // 0 marks an empty slot: no number is 0.
    table.clear();
    table.resize(1 << bits, 0);
    for &(number, i) in part {
        // The hash's bits below those that chose the partition.
        let mut slot = ((number.wrapping_mul(HASH_FACTOR) << PARTITION_BITS) >> (64 - bits)) as usize;
        let mut walked = 0;
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
                _ if walked == LONGEST_WALK => return false,
                _ => (slot, walked) = ((slot + 1) & mask, walked + 1),
            }
        }
    }
    true
}

/// Marks the repeats of `part` by sorting it: by number, then position, so the first of each
/// number comes first. A heap sort (std's `BinaryHeap`): its worst case is its usual case, and
/// its code is a fraction of `sort_unstable`'s in the WebAssembly builds, whose size is budgeted.
fn mark_by_sorting(part: Vec<(u64, usize)>, repeated: &mut [bool]) {
    let mut last = None;
    for (number, i) in BinaryHeap::from(part).into_sorted_vec() {
        repeated[i] = last == Some(number);
        last = Some(number);
    }
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
    fn numbers_chosen_to_collide_are_sorted_and_still_marked() {
        // Valid numbers whose hashes all start walking from one slot of a one-partition
        // table of 4,096 slots (2,000 numbers), the first 500 of them twice.
        let slot = |n: u64| (n.wrapping_mul(super::HASH_FACTOR) << super::PARTITION_BITS) >> (64 - 12);
        let colliding: Vec<u64> = (33_612_000_000u64..).filter(|&n| slot(n) == 7).take(1_500).collect();
        let numbers: Vec<_> =
            colliding.iter().chain(&colliding[..500]).map(|n| parse_international(&n.to_string()).ok()).collect();
        assert!(numbers.iter().all(Option::is_some));
        let mut table = Vec::new();
        let part: Vec<(u64, usize)> = numbers.iter().enumerate().map(|(i, n)| (n.unwrap().as_u64(), i)).collect();
        assert!(!super::mark_by_table(&part, &mut table, &mut vec![false; part.len()]), "the walk grows too long");
        let marks = repeated(&numbers);
        assert!(marks[..1_500].iter().all(|mark| !mark));
        assert!(marks[1_500..].iter().all(|mark| *mark));
    }

    #[test]
    fn invalid_numbers_are_never_repeats() {
        assert_eq!(repeated(&[None, None]), [false, false]);
    }
}
