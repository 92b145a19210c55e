//! The numbering-plan table: the generated text of `numbering_data.rs`, parsed once into a
//! compact prefix trie over whole international numbers.
//!
//! Text grammar, one line per calling code: `CC COUNTRIES PAIRS TRIE`, fields split by one space.
//! - `COUNTRIES`: `,`-separated ISO 3166 alpha-2 codes, each followed by the country's national
//!   (trunk) prefix digits, if any (`FR0`, `IT`). The first is the calling code's main country.
//! - `PAIRS`: `,`-separated terminal kinds; the n-th is written in the trie as the n-th letter of
//!   `a…zA…Z`. Each is one letter (country index in `COUNTRIES`, `a` = first) then the allowed
//!   national lengths as hex digits (`a9` = first country, 9 digits).
//! - `TRIE`: the national prefixes, `node := MARK | '!' MARK children | children`,
//!   `children := group | '(' group+ ')'`, `group := digits node`, where `digits` is one digit or
//!   a regex-like class (`[0-24-8]`). A `MARK` means: every number with this prefix and one of the
//!   pair's lengths is a mobile number of that country.

use std::sync::OnceLock;

use super::numbering_data::NUMBERING;

/// Bit of [`Node::slots`] set on the node reached after a complete calling code.
const CC_ROOT: u64 = 1 << 40;
/// Country index of a node that ends no prefix.
pub(crate) const NO_COUNTRY: u16 = u16::MAX;
/// A digit without child in [`Node::slots`].
const NO_CHILD: u64 = 0xF;
/// Longest international number (E.164) the table can hold.
pub(crate) const MAX_DIGITS: usize = 15;

/// One country of the table.
#[derive(Debug)]
pub(crate) struct CountryInfo {
    pub(crate) iso2: &'static str,
    pub(crate) calling_code: u16,
    pub(crate) national_prefix: &'static str,
}

/// A trie node, 16 bytes. Its children sit contiguously from `first`, in digit order.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Node {
    /// Bits 4d..4d+4: rank of digit d's child among the children, or [`NO_CHILD`];
    /// bit 40: [`CC_ROOT`]; bits 48..64: country index of a range ending here, or [`NO_COUNTRY`].
    slots: u64,
    first: u32,
    /// Bit n set: international numbers of n digits with this prefix are valid.
    pub(crate) mask: u32,
}

impl Node {
    /// Country index of the range this node ends, or [`NO_COUNTRY`].
    #[inline(always)]
    pub(crate) fn country(&self) -> u16 {
        (self.slots >> 48) as u16
    }

    /// Whether the path to this node spells a whole calling code.
    #[inline(always)]
    pub(crate) fn is_calling_code(&self) -> bool {
        self.slots & CC_ROOT != 0
    }
}

/// The parsed table.
#[derive(Debug)]
pub(crate) struct Table {
    pub(crate) nodes: Vec<Node>,
    pub(crate) countries: Vec<CountryInfo>,
    /// Country index + 1 by `(A..Z)*26 + (A..Z)`, 0 = none.
    by_iso2: Vec<u16>,
}

impl Table {
    /// The child of `node` for `digit`, if any.
    #[inline(always)]
    pub(crate) fn child(&self, node: &Node, digit: u8) -> Option<&Node> {
        let rank = (node.slots >> (u32::from(digit) * 4)) & NO_CHILD;
        if rank == NO_CHILD {
            return None;
        }
        self.nodes.get((node.first + rank as u32) as usize)
    }

    /// The country index for an ISO alpha-2 code, in any case.
    pub(crate) fn country_index(&self, iso2: &str) -> Option<usize> {
        let key = iso2_key(iso2.as_bytes())?;
        match self.by_iso2.get(key).copied() {
            Some(0) | None => None,
            Some(i) => Some(usize::from(i) - 1),
        }
    }
}

fn iso2_key(code: &[u8]) -> Option<usize> {
    match code {
        [a, b] if a.is_ascii_alphabetic() && b.is_ascii_alphabetic() => {
            Some(usize::from(a.to_ascii_uppercase() - b'A') * 26 + usize::from(b.to_ascii_uppercase() - b'A'))
        }
        _ => None,
    }
}

/// The table, parsed at first use.
pub(crate) fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| match parse(NUMBERING) {
        Ok(table) => table,
        // The text is generated and checked by the tests: this is a build defect, not input.
        Err(e) => panic!("corrupt built-in numbering data: {e}"),
    })
}

const MARKS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

struct BuildNode {
    kids: [u32; 10],
    term: Option<(u16, u32)>,
    cc_root: bool,
}

impl BuildNode {
    fn new() -> Self {
        BuildNode { kids: [0; 10], term: None, cc_root: false }
    }
}

struct Builder {
    nodes: Vec<BuildNode>,
}

impl Builder {
    fn child(&mut self, at: u32, digit: u8) -> u32 {
        let existing = self.nodes[at as usize].kids[usize::from(digit)];
        if existing != 0 {
            return existing;
        }
        let id = self.nodes.len() as u32;
        self.nodes.push(BuildNode::new());
        self.nodes[at as usize].kids[usize::from(digit)] = id;
        id
    }
}

/// Parses one line's trie text.
struct TrieParser<'a> {
    text: &'a [u8],
    pos: usize,
    /// (global country index, international length mask) per mark.
    pairs: &'a [(u16, u32)],
}

impl TrieParser<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.pos).copied()
    }

    fn mark(&mut self, b: &mut Builder, at: u32) -> Result<(), String> {
        let c = self.peek().ok_or("trie ends before a mark")?;
        let i = MARKS.iter().position(|&m| m == c).ok_or("bad mark")?;
        let pair = *self.pairs.get(i).ok_or("mark without pair")?;
        self.pos += 1;
        let node = &mut b.nodes[at as usize];
        if node.term.is_none() {
            node.term = Some(pair);
        }
        Ok(())
    }

    fn node(&mut self, b: &mut Builder, at: u32) -> Result<(), String> {
        match self.peek() {
            Some(b'!') => {
                self.pos += 1;
                self.mark(b, at)?;
                self.children(b, at)
            }
            Some(c) if c.is_ascii_alphabetic() => self.mark(b, at),
            _ => self.children(b, at),
        }
    }

    fn children(&mut self, b: &mut Builder, at: u32) -> Result<(), String> {
        if self.peek() == Some(b'(') {
            self.pos += 1;
            loop {
                self.group(b, at)?;
                if self.peek() == Some(b')') {
                    self.pos += 1;
                    return Ok(());
                }
            }
        }
        self.group(b, at)
    }

    fn group(&mut self, b: &mut Builder, at: u32) -> Result<(), String> {
        let mut set = 0u16;
        match self.peek() {
            Some(d @ b'0'..=b'9') => {
                set = 1 << (d - b'0');
                self.pos += 1;
            }
            Some(b'[') => {
                self.pos += 1;
                loop {
                    match self.peek() {
                        Some(b']') => {
                            self.pos += 1;
                            break;
                        }
                        Some(d @ b'0'..=b'9') => {
                            self.pos += 1;
                            let mut hi = d;
                            if self.peek() == Some(b'-') {
                                hi = self.text.get(self.pos + 1).copied().ok_or("open range")?;
                                self.pos += 2;
                            }
                            if !(d..=hi).all(|x| x.is_ascii_digit()) || hi < d {
                                return Err("bad digit range".into());
                            }
                            for x in d..=hi {
                                set |= 1 << (x - b'0');
                            }
                        }
                        _ => return Err("bad digit class".into()),
                    }
                }
            }
            _ => return Err(format!("expected a digit at {}", self.pos)),
        }
        // The subtree text is shared by every digit of the set: parse it once per digit.
        let start = self.pos;
        for digit in 0..10u8 {
            if set & (1 << digit) != 0 {
                self.pos = start;
                let child = b.child(at, digit);
                self.node(b, child)?;
            }
        }
        Ok(())
    }
}

fn parse(text: &'static str) -> Result<Table, String> {
    let mut b = Builder { nodes: vec![BuildNode::new()] };
    let mut countries: Vec<CountryInfo> = Vec::new();
    for line in text.lines().filter(|l| !l.is_empty()) {
        let mut fields = line.split(' ');
        let (Some(cc), Some(names), Some(pairs), Some(trie), None) =
            (fields.next(), fields.next(), fields.next(), fields.next(), fields.next())
        else {
            return Err(format!("bad line {line:.20}"));
        };
        let calling_code: u16 = cc.parse().map_err(|_| format!("bad calling code {cc}"))?;
        let first_country = countries.len();
        for name in names.split(',') {
            let (iso2, national_prefix) = name.split_at_checked(2).ok_or("bad country")?;
            if iso2_key(iso2.as_bytes()).is_none() || !national_prefix.bytes().all(|c| c.is_ascii_digit()) {
                return Err(format!("bad country {name}"));
            }
            countries.push(CountryInfo { iso2, calling_code, national_prefix });
        }
        let mut pair_list = Vec::new();
        for pair in pairs.split(',') {
            let (who, lengths) = pair.split_at_checked(1).ok_or("bad pair")?;
            let who = MARKS.iter().position(|&m| who.as_bytes() == [m]).ok_or("bad pair")?;
            if first_country + who >= countries.len() {
                return Err(format!("pair {pair} names no country"));
            }
            let mut mask = 0u32;
            for h in lengths.chars() {
                let len = h.to_digit(16).ok_or("bad length")? as usize + cc.len();
                if len > MAX_DIGITS {
                    return Err(format!("{cc}: length {len} exceeds E.164"));
                }
                mask |= 1 << len;
            }
            pair_list.push(((first_country + who) as u16, mask));
        }
        let mut at = 0u32;
        for d in cc.bytes() {
            at = b.child(at, d - b'0');
        }
        if std::mem::replace(&mut b.nodes[at as usize].cc_root, true) {
            return Err(format!("calling code {cc} twice"));
        }
        let mut p = TrieParser { text: trie.as_bytes(), pos: 0, pairs: &pair_list };
        p.node(&mut b, at)?;
        if p.pos != trie.len() {
            return Err(format!("{cc}: trailing trie text at {}", p.pos));
        }
    }
    if countries.len() >= usize::from(NO_COUNTRY) {
        return Err("too many countries".into());
    }

    // Flatten breadth-first so that each node's children are contiguous.
    let mut order: Vec<u32> = Vec::with_capacity(b.nodes.len());
    order.push(0);
    let mut nodes = Vec::with_capacity(b.nodes.len());
    let mut i = 0;
    while let Some(&id) = order.get(i) {
        let n = &b.nodes[id as usize];
        let first = order.len() as u32;
        let mut slots = if n.cc_root { CC_ROOT } else { 0 };
        let mut rank = 0;
        for (d, &k) in n.kids.iter().enumerate() {
            let slot = if k != 0 {
                order.push(k);
                rank += 1;
                rank - 1
            } else {
                NO_CHILD
            };
            slots |= slot << (4 * d);
        }
        let (country, mask) = n.term.unwrap_or((NO_COUNTRY, 0));
        slots |= u64::from(country) << 48;
        nodes.push(Node { slots, first, mask });
        i += 1;
    }

    let mut by_iso2 = vec![0u16; 26 * 26];
    for (i, c) in countries.iter().enumerate() {
        if let Some(slot) = iso2_key(c.iso2.as_bytes()).and_then(|k| by_iso2.get_mut(k)) {
            *slot = i as u16 + 1;
        }
    }
    Ok(Table { nodes, countries, by_iso2 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_built_in_data() {
        let t = parse(NUMBERING).expect("numbering data parses");
        assert!(t.countries.len() > 200, "{} countries", t.countries.len());
        assert!(t.nodes.len() > 1000);
    }

    #[test]
    fn every_country_has_at_least_one_range() {
        let t = table();
        let mut has_range = vec![false; t.countries.len()];
        for n in &t.nodes {
            if n.country() != NO_COUNTRY {
                has_range[usize::from(n.country())] = true;
                assert_ne!(n.mask, 0);
            }
        }
        for (c, ok) in t.countries.iter().zip(has_range) {
            assert!(ok, "{} has no mobile range", c.iso2);
        }
    }

    #[test]
    fn rejects_malformed_text() {
        assert!(parse("33 FR0 a9 6(").is_err());
        assert!(parse("33 FR0 a9 6a7").is_err());
        assert!(parse("33 FR0 b9 6a").is_err());
        assert!(parse("33 FR0 a9 6a\n33 FR0 a9 7a").is_err());
        assert!(parse("33 FR0 af 6a").is_err());
        assert!(parse("33 FR0 a9 6(1a2a)").is_ok());
    }
}
