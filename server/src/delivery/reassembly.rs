//! Concatenated replies put back together: a phone sends a long reply as several deliver_sm,
//! numbered by a user data header or SAR TLVs. The parts wait here, unacknowledged, until the
//! last one arrives; then the whole text is stored once. Parts whose message never completes
//! are stored as they came after [`GIVE_UP_AFTER`]. Nothing waiting is acknowledged, so a
//! restart loses none of it: the SMSC delivers it again.

use std::{
    collections::{BTreeMap, HashMap},
    time::{Duration, Instant},
};

use crate::carrier::sms_text::Concat;

/// How long the parts of an incomplete message wait for the others.
pub(crate) const GIVE_UP_AFTER: Duration = Duration::from_secs(600);

/// The message a part belongs to: who sent it, to which number, and its header's reference
/// and number of parts.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct MessageKey {
    from: String,
    to: String,
    reference: u16,
    total: u8,
}

/// The parts of one message received so far.
#[derive(Debug)]
struct Waiting<T> {
    /// When its first part arrived.
    since: Instant,
    /// The text of each part by its number (a part delivered twice keeps its last text).
    texts: BTreeMap<u8, String>,
    /// What each delivery holds (its acknowledgement), every copy included.
    held: Vec<T>,
}

/// A reply ready to be stored: who sent it, its text, and the deliveries it was made of.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Whole<T> {
    /// The phone's number.
    pub(crate) from: String,
    /// The number it wrote to.
    pub(crate) to: String,
    /// The text.
    pub(crate) text: String,
    /// The deliveries it came in.
    pub(crate) held: Vec<T>,
}

/// The parts waiting, each holding a `T` (its acknowledgement) until stored.
#[derive(Debug)]
pub(crate) struct Reassembly<T> {
    waiting: HashMap<MessageKey, Waiting<T>>,
}

impl<T> Default for Reassembly<T> {
    fn default() -> Self {
        Reassembly { waiting: HashMap::new() }
    }
}

impl<T> Reassembly<T> {
    /// Takes part `part` of a reply from `from` to `to`: the whole reply once every part is in
    /// (or at once, for a part whose numbering makes no sense), else `None` while it waits.
    pub(crate) fn add(
        &mut self,
        from: &str,
        to: &str,
        part: Concat,
        text: String,
        held: T,
        now: Instant,
    ) -> Option<Whole<T>> {
        if part.total < 2 || part.seq == 0 || part.seq > part.total {
            return Some(Whole { from: from.to_owned(), to: to.to_owned(), text, held: vec![held] });
        }
        let key = MessageKey { from: from.to_owned(), to: to.to_owned(), reference: part.reference, total: part.total };
        let waiting = self.waiting.entry(key.clone()).or_insert_with(|| Waiting {
            since: now,
            texts: BTreeMap::new(),
            held: Vec::new(),
        });
        waiting.texts.insert(part.seq, text);
        waiting.held.push(held);
        if waiting.texts.len() < usize::from(part.total) {
            return None;
        }
        let waiting = self.waiting.remove(&key)?;
        Some(Whole { from: key.from, to: key.to, text: waiting.texts.into_values().collect(), held: waiting.held })
    }

    /// The parts that waited longer than [`GIVE_UP_AFTER`] at `now`, each its own reply with
    /// the text it came with (the last holding every delivery of its message).
    pub(crate) fn given_up(&mut self, now: Instant) -> Vec<Whole<T>> {
        let late: Vec<MessageKey> = self
            .waiting
            .iter()
            .filter(|(_, waiting)| now.duration_since(waiting.since) >= GIVE_UP_AFTER)
            .map(|(key, _)| key.clone())
            .collect();
        let mut replies = Vec::new();
        for key in late {
            let Some(waiting) = self.waiting.remove(&key) else { continue };
            let mut parts: Vec<Whole<T>> = waiting
                .texts
                .into_values()
                .map(|text| Whole { from: key.from.clone(), to: key.to.clone(), text, held: Vec::new() })
                .collect();
            if let Some(last) = parts.last_mut() {
                last.held = waiting.held;
            }
            replies.extend(parts);
        }
        replies
    }

    /// How many messages wait for parts.
    #[cfg(test)]
    fn incomplete(&self) -> usize {
        self.waiting.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(reference: u16, total: u8, seq: u8) -> Concat {
        Concat { reference, total, seq }
    }

    #[test]
    fn parts_in_any_order_make_one_reply_once_the_last_is_in() {
        let mut reassembly = Reassembly::default();
        let now = Instant::now();
        assert_eq!(reassembly.add("336", "36180", part(7, 3, 3), "!".into(), 'c', now), None);
        assert_eq!(reassembly.add("336", "36180", part(7, 3, 1), "Bon".into(), 'a', now), None);
        // Another message with the same reference from someone else stays apart.
        assert_eq!(reassembly.add("337", "36180", part(7, 2, 1), "Oui".into(), 'x', now), None);
        let whole = reassembly.add("336", "36180", part(7, 3, 2), "jour".into(), 'b', now).expect("complete");
        assert_eq!((whole.from.as_str(), whole.text.as_str()), ("336", "Bonjour!"));
        assert_eq!(whole.held, ['c', 'a', 'b']);
        assert_eq!(reassembly.incomplete(), 1);
    }

    #[test]
    fn a_part_delivered_twice_counts_once_and_both_copies_are_acknowledged() {
        let mut reassembly = Reassembly::default();
        let now = Instant::now();
        assert_eq!(reassembly.add("336", "36180", part(1, 2, 1), "ab".into(), 1, now), None);
        assert_eq!(reassembly.add("336", "36180", part(1, 2, 1), "ab".into(), 2, now), None);
        let whole = reassembly.add("336", "36180", part(1, 2, 2), "cd".into(), 3, now).expect("complete");
        assert_eq!((whole.text.as_str(), whole.held), ("abcd", vec![1, 2, 3]));
    }

    #[test]
    fn a_part_numbered_out_of_range_is_a_reply_of_its_own() {
        let mut reassembly = Reassembly::default();
        let now = Instant::now();
        for bad in [part(1, 2, 0), part(1, 2, 3), part(1, 1, 1)] {
            let whole = reassembly.add("336", "36180", bad, "x".into(), (), now).expect("at once");
            assert_eq!(whole.text, "x");
        }
        assert_eq!(reassembly.incomplete(), 0);
    }

    #[test]
    fn parts_that_never_complete_are_given_up_as_they_came_after_ten_minutes() {
        let mut reassembly = Reassembly::default();
        let start = Instant::now();
        assert_eq!(reassembly.add("336", "36180", part(9, 3, 1), "un ".into(), 'a', start), None);
        assert_eq!(reassembly.add("336", "36180", part(9, 3, 3), "trois".into(), 'c', start), None);
        assert!(reassembly.given_up(start + GIVE_UP_AFTER - Duration::from_secs(1)).is_empty());
        let given_up = reassembly.given_up(start + GIVE_UP_AFTER);
        let texts: Vec<&str> = given_up.iter().map(|w| w.text.as_str()).collect();
        assert_eq!(texts, ["un ", "trois"]);
        assert_eq!(given_up.iter().flat_map(|w| w.held.clone()).collect::<Vec<_>>(), ['a', 'c']);
        assert_eq!(reassembly.incomplete(), 0);
    }
}
