//! The SMS parts of each recipient's message, counted without writing it: the text as sent is
//! cut once into its fixed characters and its merge fields, and each recipient's values are
//! measured in place. Only a message longer than one SMS is written out and split, since where
//! a long text's parts break depends on each of its characters.

use super::merge::{MergeValues, Named, placeholders};
use crate::{gsm, to_gsm};

/// Units a single SMS holds in GSM-7 and in UCS-2.
const SINGLE: (usize, usize) = (160, 70);

/// How long a piece of text is: in GSM-7 septets (`None` when a character has no GSM form) and
/// in UTF-16 units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Length {
    septets: Option<usize>,
    utf16: usize,
}

impl Length {
    const ZERO: Length = Length { septets: Some(0), utf16: 0 };

    fn of(text: &str) -> Length {
        text.chars().fold(Length::ZERO, |length, c| Length {
            septets: length.septets.zip(gsm::septets(c)).map(|(a, b)| a + b),
            utf16: length.utf16 + c.len_utf16(),
        })
    }

    fn plus(self, other: Length) -> Length {
        Length { septets: self.septets.zip(other.septets).map(|(a, b)| a + b), utf16: self.utf16 + other.utf16 }
    }
}

/// Where a merge field's value comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    /// `info1`…`info4`.
    Info(usize),
    /// The card's value at this position of [`MergeValues::card`].
    Card(usize),
    /// Nothing (a field no value fills).
    Nothing,
}

/// A text as sent, measured once for all its recipients.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PartsPlan {
    fixed: Length,
    fields: Vec<(Source, Length)>,
    unicode: bool,
    smart: bool,
}

impl PartsPlan {
    /// The plan of `sent` (the text as sent, its merge fields unfilled); `unicode` forces
    /// UCS-2; `smart` makes the values GSM as smart encoding does.
    pub(crate) fn new(sent: &str, unicode: bool, smart: bool) -> PartsPlan {
        let (mut fixed, mut last, mut fields) = (Length::ZERO, 0, Vec::new());
        for placeholder in placeholders(sent) {
            fixed = fixed.plus(Length::of(&sent[last..placeholder.at.start]));
            last = placeholder.at.end;
            let source = match placeholder.named {
                Named::Info(n) => Source::Info(n),
                Named::Card(_, index) => Source::Card(index),
                Named::BadCustom(_) => Source::Nothing,
            };
            fields.push((source, Length::of(placeholder.fallback)));
        }
        PartsPlan { fixed: fixed.plus(Length::of(&sent[last..])), fields, unicode, smart }
    }

    /// True when a recipient's `info1`…`info4` fill some of the text's merge fields (else its
    /// parts depend on its card's values alone).
    pub(crate) fn reads_info(&self) -> bool {
        self.fields.iter().any(|(source, _)| matches!(source, Source::Info(_)))
    }

    /// The parts the message merged with `values` takes when it fits one SMS (1, or 0 when
    /// empty); `None` when it is longer and must be written out to be split.
    pub(crate) fn single_part(&self, values: &MergeValues) -> Option<usize> {
        let mut length = self.fixed;
        for (source, fallback) in &self.fields {
            let value = match source {
                Source::Info(n) => values.info[*n],
                Source::Card(i) => values.card.get(*i).map_or("", String::as_str),
                Source::Nothing => "",
            };
            length = length.plus(match value.trim().is_empty() {
                true => *fallback,
                false => self.measure(value),
            });
        }
        let (units, single) = match length.septets.filter(|_| !self.unicode) {
            Some(septets) => (septets, SINGLE.0),
            None => (length.utf16, SINGLE.1),
        };
        (units <= single).then_some(usize::from(units > 0))
    }

    /// A value's length as it is sent.
    fn measure(&self, value: &str) -> Length {
        let length = Length::of(value);
        match self.smart && length.septets.is_none() {
            true => Length::of(&to_gsm(value).text),
            false => length,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::merge::merge;
    use crate::segments;

    /// The plan agrees with writing the message out and splitting it, whenever it answers.
    #[test]
    fn the_plan_counts_as_the_written_message_does() {
        let card = vec!["Léa".to_owned(), "x".repeat(150), "Zoë 😀".to_owned()];
        let cases = [
            (
                "Bonjour [firstname|client], à [field:ville|Paris] !",
                MergeValues { info: ["", "", "", ""], card: &card },
            ),
            ("[info1] [info2|—] [lastname]", MergeValues { info: ["Ada", "", "", ""], card: &card[2..] }),
            ("Hi [field:ville]", MergeValues { info: ["", "", "", ""], card: &card[1..] }),
            ("[info1]", MergeValues::default()),
            ("Code € [info1|[x]]", MergeValues { info: ["€€", "", "", ""], card: &[] }),
        ];
        for (text, values) in cases {
            for (unicode, smart) in [(false, false), (true, false), (false, true)] {
                // Smart encoding makes the text GSM when the campaign is validated.
                let text = if smart { to_gsm(text).text } else { text.to_owned() };
                let plan = PartsPlan::new(&text, unicode, smart);
                let written = merge(&text, Some(&values));
                let written = if smart { to_gsm(&written).text } else { written };
                let expected = segments(&written, unicode).parts;
                match plan.single_part(&values) {
                    Some(parts) => assert_eq!(parts, expected, "{text} unicode {unicode} smart {smart}"),
                    None => assert!(expected > 1, "{text}: only a long message is left to write out"),
                }
            }
        }
    }
}
