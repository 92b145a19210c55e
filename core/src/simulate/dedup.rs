//! Finding repeated numbers in a large request without a cache miss per number: the numbers
//! are partitioned (see [`super::partition`]), and within a partition they keep the request's
//! order, so the first occurrence is the one kept.

use rustc_hash::FxHashSet;

use super::partition::partitioned;
use crate::Msisdn;

/// `true` at each position whose number already appeared at an earlier position.
pub(super) fn repeated(numbers: &[Option<Msisdn>]) -> Vec<bool> {
    let mut repeated = vec![false; numbers.len()];
    let valid = numbers.iter().enumerate().filter_map(|(i, n)| n.map(|n| (n.as_u64(), i)));
    let mut seen = FxHashSet::default();
    for part in partitioned(valid, numbers.len()) {
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
