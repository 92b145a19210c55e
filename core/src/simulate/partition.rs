//! Numbers split by hash into partitions written sequentially, so that a large request's
//! look-ups by number stay in the CPU caches: one hash table of a million numbers does not fit
//! in them, and every look-up in it is a cache (and TLB) miss, while each partition's table
//! does. Within a partition, items keep their order.

/// Below this many numbers one table fits in cache and partitioning costs more than it saves.
pub(super) const PARTITION_FROM: usize = 32_768;
/// Partitions are told by this many of the top bits of a number times [`HASH_FACTOR`].
pub(super) const PARTITION_BITS: u32 = 8;
/// Fibonacci hashing's factor (2^64 over the golden ratio): the product's top bits are spread.
pub(super) const HASH_FACTOR: u64 = 0x9E37_79B9_7F4A_7C15;

/// `items` (a number and what goes with it; about `count` of them) in partitions by number:
/// one when there are few, else 256, each in the items' order.
pub(super) fn partitioned<T>(items: impl Iterator<Item = (u64, T)>, count: usize) -> Vec<Vec<(u64, T)>> {
    if count < PARTITION_FROM {
        return vec![items.collect()];
    }
    let partitions = 1usize << PARTITION_BITS;
    let mut parts: Vec<Vec<(u64, T)>> =
        (0..partitions).map(|_| Vec::with_capacity(count / partitions * 5 / 4)).collect();
    for (number, item) in items {
        parts[partition_of(number, partitions)].push((number, item));
    }
    parts
}

/// The partition of `number` among `partitions` (a power of two; 1 for none).
#[inline]
pub(super) fn partition_of(number: u64, partitions: usize) -> usize {
    match partitions {
        0 | 1 => 0,
        _ => (number.wrapping_mul(HASH_FACTOR) >> (64 - partitions.trailing_zeros())) as usize,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_item_lands_once_in_its_partition_in_order() {
        for count in [10, 100_000] {
            let parts = partitioned((0..count as u64).map(|n| (n * 7, n)), count);
            assert_eq!(parts.len(), if count < PARTITION_FROM { 1 } else { 256 });
            assert_eq!(parts.iter().map(Vec::len).sum::<usize>(), count);
            for (at, part) in parts.iter().enumerate() {
                assert!(part.iter().all(|(number, _)| partition_of(*number, parts.len()) == at));
                assert!(part.windows(2).all(|pair| pair[0].1 < pair[1].1), "items keep their order");
            }
        }
    }
}
