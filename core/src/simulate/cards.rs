//! The recipients' values of the card fields a text names, each distinct set of values kept
//! once: a million contacts share a few thousand first names and towns, so reading them costs
//! one small entry per number instead of a string per value (measured in
//! `tests/bench/merge-bench.mjs`: the allocations and frees of a million cards were most of
//! the merge's cost).

use rustc_hash::FxHashMap;

/// Each number's values of a text's card fields, in the order [`crate::card_fields`] gives
/// them, as [`crate::MergeValues::card`] takes them. A number without a card is absent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CardValues {
    /// Each number's set of values, by its position in `sets`.
    by_number: FxHashMap<u64, u32>,
    /// The distinct sets of values.
    sets: Vec<Box<[String]>>,
    /// Each set's position in `sets`, by its key (see [`CardValues::insert`]).
    set_ids: FxHashMap<Box<[u8]>, u32>,
    /// Whether some card has a value in each field (one entry per field).
    known: Vec<bool>,
    /// The key of the values being recorded (kept between calls: no allocation per number).
    key: Vec<u8>,
}

impl CardValues {
    /// No card yet, for `fields` fields.
    pub fn new(fields: usize) -> CardValues {
        CardValues { known: vec![false; fields], ..CardValues::default() }
    }

    /// Records `number`'s values (one per field, in order; missing ones are empty, extra ones
    /// ignored). A number recorded again keeps its last values.
    pub fn insert<'v>(&mut self, number: u64, values: impl IntoIterator<Item = &'v str>) {
        // One look-up a number, by a key no other set of values has: each value's length in
        // four bytes, then the value.
        self.key.clear();
        for (value, known) in values.into_iter().chain(std::iter::repeat("")).zip(self.known.iter_mut()) {
            *known |= !value.is_empty();
            self.key.extend_from_slice(&u32::try_from(value.len()).unwrap_or(u32::MAX).to_le_bytes());
            self.key.extend_from_slice(value.as_bytes());
        }
        let set = match self.set_ids.get(self.key.as_slice()) {
            Some(set) => *set,
            None => {
                let set = u32::try_from(self.sets.len()).unwrap_or(u32::MAX);
                self.sets.push(values_of_key(&self.key, self.known.len()));
                self.set_ids.insert(self.key.as_slice().into(), set);
                set
            }
        };
        self.by_number.insert(number, set);
    }

    /// `number`'s values, if it has a card.
    pub fn get(&self, number: u64) -> Option<&[String]> {
        self.set_of(number).map(|(_, values)| values)
    }

    /// `number`'s values and their set's position (below [`CardValues::sets`]), shared by
    /// the numbers with the same values: what depends on the values alone is worked out once
    /// per set.
    pub fn set_of(&self, number: u64) -> Option<(usize, &[String])> {
        let set = *self.by_number.get(&number)? as usize;
        self.sets.get(set).map(|values| (set, &values[..]))
    }

    /// How many distinct sets of values there are.
    pub fn sets(&self) -> usize {
        self.sets.len()
    }

    /// True when no number has a card.
    pub fn is_empty(&self) -> bool {
        self.by_number.is_empty()
    }

    /// True when some card has a value in the field at `field` (a custom field no contact has
    /// is a typo far more often than a field still to be filled).
    pub fn has_value(&self, field: usize) -> bool {
        self.known.get(field).copied().unwrap_or(false)
    }
}

/// The values a key of [`CardValues::insert`] holds.
fn values_of_key(mut key: &[u8], fields: usize) -> Box<[String]> {
    (0..fields)
        .map(|_| {
            let (length, rest) = key.split_at_checked(4).unwrap_or_default();
            let length = length.try_into().map_or(0, |length| u32::from_le_bytes(length) as usize);
            let (value, rest) = rest.split_at_checked(length).unwrap_or_default();
            key = rest;
            String::from_utf8_lossy(value).into_owned()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_number_reads_its_own_values_and_equal_sets_are_kept_once() {
        let mut cards = CardValues::new(2);
        cards.insert(33_611_111_111, ["Léa", "Lyon"]);
        cards.insert(33_622_222_222, ["Léa", "Lyon"]);
        cards.insert(33_633_333_333, ["Lyon", "Léa"]);
        cards.insert(33_644_444_444, ["Noé"]);
        assert_eq!(cards.get(33_611_111_111), Some(&["Léa".to_owned(), "Lyon".to_owned()][..]));
        assert_eq!(cards.get(33_622_222_222), cards.get(33_611_111_111));
        assert_eq!(cards.get(33_633_333_333), Some(&["Lyon".to_owned(), "Léa".to_owned()][..]));
        assert_eq!(cards.get(33_644_444_444), Some(&["Noé".to_owned(), String::new()][..]));
        assert_eq!(cards.get(33_655_555_555), None);
        assert_eq!(cards.sets.len(), 3, "two numbers with the same values share one set");
    }

    #[test]
    fn values_that_join_alike_stay_apart() {
        let mut cards = CardValues::new(2);
        cards.insert(1, ["a1:", "b"]);
        cards.insert(2, ["a", "1:b"]);
        cards.insert(3, ["", "3:x"]);
        assert_eq!(cards.get(1), Some(&["a1:".to_owned(), "b".to_owned()][..]));
        assert_eq!(cards.get(2), Some(&["a".to_owned(), "1:b".to_owned()][..]));
        assert_eq!(cards.get(3), Some(&[String::new(), "3:x".to_owned()][..]));
    }

    #[test]
    fn a_number_recorded_again_keeps_its_last_values() {
        let mut cards = CardValues::new(1);
        cards.insert(1, ["avant"]);
        cards.insert(1, ["après"]);
        assert_eq!(cards.get(1), Some(&["après".to_owned()][..]));
    }

    #[test]
    fn a_field_is_known_once_some_card_has_a_value_in_it() {
        let mut cards = CardValues::new(3);
        assert!(cards.is_empty());
        cards.insert(1, ["", "Lyon", "", "ignored"]);
        assert!(!cards.is_empty());
        assert_eq!((0..4).map(|field| cards.has_value(field)).collect::<Vec<_>>(), [false, true, false, false]);
    }
}
