//! How many SMS parts a text takes (docs/interface.md §4.1).

use serde::Serialize;

use crate::gsm;

/// The encoding a message is sent in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Encoding {
    /// GSM 03.38 7-bit default alphabet (160 septets, 153 per part when split).
    Gsm7,
    /// UCS-2, counted in UTF-16 units (70, 67 per part when split).
    Ucs2,
}

impl Encoding {
    /// Units one single-part message can hold.
    fn single(self) -> usize {
        match self {
            Encoding::Gsm7 => 160,
            Encoding::Ucs2 => 70,
        }
    }

    /// Units each part of a multi-part (concatenated) message can hold.
    fn per_part(self) -> usize {
        match self {
            Encoding::Gsm7 => 153,
            Encoding::Ucs2 => 67,
        }
    }
}

/// The split of one text into SMS parts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Segments {
    /// The encoding the text is sent in.
    pub encoding: Encoding,
    /// Length in units of that encoding (septets for GSM-7, UTF-16 units for UCS-2).
    pub length: usize,
    /// Number of SMS parts (0 for an empty text).
    pub parts: usize,
    /// Units each part holds: 160/70 for a single part, 153/67 once the text is split.
    pub per_part: usize,
    /// Units still free in the last part.
    pub remaining: usize,
    /// The distinct characters, in order of first appearance, that have no GSM-7 form.
    pub unicode_chars: Vec<char>,
}

/// Splits `text` into SMS parts. `unicode` forces UCS-2 even when every character is GSM-7.
///
/// An extension character (`€`, `[`, …) takes two septets and an emoji two UTF-16 units;
/// neither pair is ever split across two parts, so a part may end one unit short.
pub fn segments(text: &str, unicode: bool) -> Segments {
    let mut unicode_chars: Vec<char> = Vec::new();
    for c in text.chars() {
        if gsm::septets(c).is_none() && !unicode_chars.contains(&c) {
            unicode_chars.push(c);
        }
    }
    let encoding = if unicode || !unicode_chars.is_empty() { Encoding::Ucs2 } else { Encoding::Gsm7 };
    let unit_widths = text.chars().map(|c| match encoding {
        Encoding::Gsm7 => gsm::septets(c).unwrap_or(1),
        Encoding::Ucs2 => c.len_utf16(),
    });
    let length: usize = unit_widths.clone().sum();

    let (parts, per_part, used_in_last) = if length <= encoding.single() {
        (usize::from(length > 0), encoding.single(), length)
    } else {
        let capacity = encoding.per_part();
        let (mut parts, mut used) = (1, 0);
        for width in unit_widths {
            if used + width > capacity {
                parts += 1;
                used = 0;
            }
            used += width;
        }
        (parts, capacity, used)
    };

    Segments { encoding, length, parts, per_part, remaining: per_part - used_in_last, unicode_chars }
}

/// The parts of `text` as [`segments`] counts them, in order: what goes on the wire, one
/// concatenated part each. A text that fits one SMS is one part; an empty text is none.
pub fn split(text: &str, unicode: bool) -> (Encoding, Vec<&str>) {
    let counted = segments(text, unicode);
    if counted.parts <= 1 {
        return (counted.encoding, if text.is_empty() { Vec::new() } else { vec![text] });
    }
    let mut parts = Vec::with_capacity(counted.parts);
    let (mut start, mut used) = (0, 0);
    for (at, c) in text.char_indices() {
        let width = match counted.encoding {
            Encoding::Gsm7 => gsm::septets(c).unwrap_or(1),
            Encoding::Ucs2 => c.len_utf16(),
        };
        if used + width > counted.per_part {
            parts.push(&text[start..at]);
            start = at;
            used = 0;
        }
        used += width;
    }
    parts.push(&text[start..]);
    (counted.encoding, parts)
}
