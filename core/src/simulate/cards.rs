//! The recipients' values of the card fields a text names, each distinct set of values kept
//! once: a million contacts share a few thousand first names and towns, so reading them costs
//! one small entry per number instead of a string per value (measured in
//! `tests/bench/merge-bench.mjs`: the allocations and frees of a million cards were most of
//! the merge's cost).

use rustc_hash::FxHashMap;

use super::partition::{partition_of, partitioned};
use crate::Msisdn;

/// Each number's values of a text's card fields, in the order [`crate::card_fields`] gives
/// them, as [`crate::MergeValues::card`] takes them. A number without a card is absent. Built
/// by [`CardsBuilder`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CardValues {
    /// Each number's set of values, by its position in `sets`, in partitions by number (see
    /// [`super::partition`]): a recipient's look-up costs no cache miss when a whole request's
    /// are made partition by partition ([`CardValues::sets_of`]).
    by_number: Vec<FxHashMap<u64, u32>>,
    /// The distinct sets of values.
    sets: Vec<Box<[String]>>,
    /// Whether some card has a value in each field (one entry per field).
    known: Vec<bool>,
}

impl CardValues {
    /// `number`'s values, if it has a card.
    pub fn get(&self, number: u64) -> Option<&[String]> {
        let set = *self.by_number.get(partition_of(number, self.by_number.len()))?.get(&number)?;
        self.values(set)
    }

    /// The values of the set at `set` (a position [`CardValues::sets_of`] gives).
    pub fn values(&self, set: u32) -> Option<&[String]> {
        self.sets.get(set as usize).map(|values| &values[..])
    }

    /// The position of each number's set of values (below [`CardValues::sets`]; `None` for an
    /// invalid number or one without a card), looked up partition by partition. The numbers
    /// with the same values share a position, so what depends on the values alone is worked
    /// out once per set.
    pub fn sets_of(&self, numbers: &[Option<Msisdn>]) -> Vec<Option<u32>> {
        let mut sets = vec![None; numbers.len()];
        if self.is_empty() {
            return sets;
        }
        let valid = numbers.iter().enumerate().filter_map(|(at, number)| number.map(|number| (number.as_u64(), at)));
        let parts = partitioned(valid, numbers.len());
        // Numbers few enough to stay in one partition were split as cards many enough were not.
        let partitions = self.by_number.len();
        for (number, at) in parts.into_iter().flatten() {
            sets[at] = self.by_number[partition_of(number, partitions)].get(&number).copied();
        }
        sets
    }

    /// How many distinct sets of values there are.
    pub fn sets(&self) -> usize {
        self.sets.len()
    }

    /// True when no number has a card.
    pub fn is_empty(&self) -> bool {
        self.by_number.iter().all(FxHashMap::is_empty)
    }

    /// True when some card has a value in the field at `field` (a custom field no contact has
    /// is a typo far more often than a field still to be filled).
    pub fn has_value(&self, field: usize) -> bool {
        self.known.get(field).copied().unwrap_or(false)
    }
}

/// Reads cards one by one into [`CardValues`].
#[derive(Debug, Default)]
pub struct CardsBuilder {
    /// Each card's number and set, in the order recorded.
    cards: Vec<(u64, u32)>,
    /// The distinct sets of values.
    sets: Vec<Box<[String]>>,
    /// Each field's distinct values, numbered.
    fields: Vec<FieldValues>,
    /// The sets walked field by field, as a tree of numbered nodes (the root is 0): from a node
    /// and the next field's value number to the next node, or, at the last field, to the set's
    /// position in `sets`. Its keys are two numbers, not strings: a card costs a few look-ups in
    /// small tables instead of comparing a long key in a large one.
    steps: FxHashMap<u64, u32>,
    /// How many nodes `steps` has below the root.
    nodes: u32,
    /// The value numbers of the card being recorded (kept between calls: no allocation per
    /// card).
    path: Vec<u32>,
}

impl CardsBuilder {
    /// No card yet, for `fields` fields.
    pub fn new(fields: usize) -> CardsBuilder {
        CardsBuilder { fields: vec![FieldValues::default(); fields], ..CardsBuilder::default() }
    }

    /// Records `number`'s values (one per field, in order; missing ones are empty, extra ones
    /// ignored). A number recorded again keeps its last values.
    pub fn insert<'v>(&mut self, number: u64, values: impl IntoIterator<Item = &'v str>) {
        self.path.clear();
        for (value, field) in values.into_iter().chain(std::iter::repeat("")).zip(self.fields.iter_mut()) {
            self.path.push(field.number_of(value));
        }
        let mut node = 0;
        for (at, value) in self.path.iter().enumerate() {
            let step = (u64::from(node) << 32) | u64::from(*value);
            node = match self.steps.get(&step) {
                Some(next) => *next,
                None => {
                    let next = if at + 1 == self.path.len() {
                        self.sets.push(
                            self.fields.iter().zip(&self.path).map(|(field, value)| field.value(*value)).collect(),
                        );
                        u32::try_from(self.sets.len() - 1).unwrap_or(u32::MAX)
                    } else {
                        self.nodes += 1;
                        self.nodes
                    };
                    self.steps.insert(step, next);
                    next
                }
            };
        }
        if self.path.is_empty() && self.sets.is_empty() {
            self.sets.push(Box::default());
        }
        self.cards.push((number, node));
    }

    /// The cards recorded, indexed by number.
    pub fn build(self) -> CardValues {
        let count = self.cards.len();
        let by_number = partitioned(self.cards.into_iter(), count)
            .into_iter()
            .map(|part| {
                let mut sets = FxHashMap::default();
                sets.reserve(part.len());
                sets.extend(part);
                sets
            })
            .collect();
        CardValues { by_number, sets: self.sets, known: self.fields.iter().map(|field| field.known).collect() }
    }
}

/// One field's distinct values.
#[derive(Debug, Clone, Default)]
struct FieldValues {
    /// Each value's number.
    numbers: FxHashMap<Box<str>, u32>,
    /// The values, by number.
    values: Vec<Box<str>>,
    /// Whether some card has a value in this field.
    known: bool,
}

impl FieldValues {
    /// `value`'s number, numbering it if it is new.
    fn number_of(&mut self, value: &str) -> u32 {
        self.known |= !value.is_empty();
        if let Some(number) = self.numbers.get(value) {
            return *number;
        }
        let number = u32::try_from(self.values.len()).unwrap_or(u32::MAX);
        self.values.push(value.into());
        self.numbers.insert(value.into(), number);
        number
    }

    /// The value numbered `number` (empty if there is none).
    fn value(&self, number: u32) -> String {
        self.values.get(number as usize).map(|value| value.to_string()).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_international;

    fn cards<'v, const N: usize>(fields: usize, cards: impl IntoIterator<Item = (u64, [&'v str; N])>) -> CardValues {
        let mut builder = CardsBuilder::new(fields);
        for (number, values) in cards {
            builder.insert(number, values);
        }
        builder.build()
    }

    #[test]
    fn each_number_reads_its_own_values_and_equal_sets_are_kept_once() {
        let cards = cards(
            2,
            [
                (33_611_111_111, ["Léa", "Lyon"]),
                (33_622_222_222, ["Léa", "Lyon"]),
                (33_633_333_333, ["Lyon", "Léa"]),
                (33_644_444_444, ["Noé", ""]),
                (33_655_555_555, ["Léa", "Paris"]),
            ],
        );
        assert_eq!(cards.get(33_611_111_111), Some(&["Léa".to_owned(), "Lyon".to_owned()][..]));
        assert_eq!(cards.get(33_622_222_222), cards.get(33_611_111_111));
        assert_eq!(cards.get(33_633_333_333), Some(&["Lyon".to_owned(), "Léa".to_owned()][..]));
        assert_eq!(cards.get(33_644_444_444), Some(&["Noé".to_owned(), String::new()][..]));
        assert_eq!(cards.get(33_655_555_555), Some(&["Léa".to_owned(), "Paris".to_owned()][..]));
        assert_eq!(cards.get(33_666_666_666), None);
        assert_eq!(cards.sets(), 4, "two numbers with the same values share one set");
    }

    #[test]
    fn missing_values_are_empty_and_extra_ones_ignored() {
        let mut builder = CardsBuilder::new(2);
        builder.insert(1, ["Noé"]);
        builder.insert(2, ["a", "b", "c"]);
        let cards = builder.build();
        assert_eq!(cards.get(1), Some(&["Noé".to_owned(), String::new()][..]));
        assert_eq!(cards.get(2), Some(&["a".to_owned(), "b".to_owned()][..]));
    }

    #[test]
    fn values_that_join_alike_stay_apart() {
        let cards = cards(2, [(1, ["a1:", "b"]), (2, ["a", "1:b"]), (3, ["", "3:x"])]);
        assert_eq!(cards.get(1), Some(&["a1:".to_owned(), "b".to_owned()][..]));
        assert_eq!(cards.get(2), Some(&["a".to_owned(), "1:b".to_owned()][..]));
        assert_eq!(cards.get(3), Some(&[String::new(), "3:x".to_owned()][..]));
    }

    #[test]
    fn cards_of_no_field_share_one_empty_set() {
        let cards = cards(0, [(1, ["ignored"]), (2, [""])]);
        assert_eq!(cards.get(1), Some(&[][..]));
        assert_eq!(cards.get(2), Some(&[][..]));
        assert_eq!(cards.sets(), 1);
    }

    #[test]
    fn a_number_recorded_again_keeps_its_last_values() {
        let cards = cards(1, [(1, ["avant"]), (1, ["après"])]);
        assert_eq!(cards.get(1), Some(&["après".to_owned()][..]));
    }

    #[test]
    fn a_field_is_known_once_some_card_has_a_value_in_it() {
        assert!(CardValues::default().is_empty());
        let cards = cards(3, [(1, ["", "Lyon", "", "ignored"])]);
        assert!(!cards.is_empty());
        assert_eq!((0..4).map(|field| cards.has_value(field)).collect::<Vec<_>>(), [false, true, false, false]);
    }

    /// Looked up a request at a time, few or many cards, few or many numbers, a number's set
    /// is the one it was recorded with.
    #[test]
    fn a_request_reads_each_number_set_as_one_look_up_would() {
        let number = |i: u64| parse_international(&format!("336{:08}", i * 7_919 % 100_000_000)).ok();
        for (cards, asked) in [(10, 100_000), (100_000, 10), (100_000, 200_000)] {
            let mut builder = CardsBuilder::new(1);
            let towns: Vec<String> = (0..500).map(|town| format!("Ville {town}")).collect();
            for i in 0..cards {
                builder.insert(number(i).map_or(0, |n| n.as_u64()), [towns[(i % 500) as usize].as_str()]);
            }
            let values = builder.build();
            let numbers: Vec<_> = (0..asked).rev().map(number).chain([None]).collect();
            let sets = values.sets_of(&numbers);
            assert_eq!(sets.len(), numbers.len());
            for (number, set) in numbers.iter().zip(&sets) {
                let expected = number.and_then(|n| values.get(n.as_u64()));
                assert_eq!(set.and_then(|set| values.values(set)), expected);
            }
            let both = (0..cards.min(asked)).filter(|i| number(*i).is_some()).count();
            assert!(both > 0);
            assert_eq!(sets.iter().filter(|set| set.is_some()).count(), both);
        }
    }
}
