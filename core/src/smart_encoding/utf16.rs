//! Smart encoding over UTF-16 code units, for the npm package's `toGsmAll`: JavaScript's
//! strings are UTF-16, so a million texts cross into WebAssembly and back as their code units,
//! copied whole, instead of being encoded to UTF-8 on the way in and decoded on the way out
//! (measured in Node 20 over 160 million characters: 149 and 131 ms against 208 and 401). The
//! twins are [`super::gsm_twin`]'s, looked up by code unit in a table built from it once.

use std::sync::OnceLock;

/// What the table holds for NUL, which ends a text: one test a code unit finds both.
const NUL: u8 = u8::MAX;

/// The twins by code unit.
struct Table {
    /// For each code unit: 0 when it stays, [`NUL`] for NUL, else 1 + the position of its
    /// twin in `twins`.
    twin_of: Box<[u8; 1 << 16]>,
    /// The distinct twins, as code units.
    twins: Vec<Box<[u16]>>,
}

/// The table, built from [`super::gsm_twin`] the first time it is needed. Every character
/// with a twin is in the Basic Multilingual Plane (a test walks them all), so one code unit
/// names it; a surrogate is always copied.
fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut twins: Vec<Box<[u16]>> = Vec::new();
        let twin_of = (0..=u16::MAX)
            .map(|unit| {
                if unit == 0 {
                    return NUL;
                }
                let Some(twin) = char::from_u32(u32::from(unit)).and_then(super::gsm_twin) else { return 0 };
                let units: Box<[u16]> = twin.encode_utf16().collect();
                let at = twins.iter().position(|known| *known == units).unwrap_or_else(|| {
                    twins.push(units);
                    twins.len() - 1
                });
                u8::try_from(at + 1).ok().filter(|at| *at != NUL).unwrap_or(0)
            })
            .collect::<Box<[u8]>>();
        // One entry for every code unit: a lookup needs no bounds check.
        let twin_of = twin_of.try_into().unwrap_or_else(|_| Box::new([0; 1 << 16]));
        Table { twin_of, twins }
    })
}

/// [`crate::to_gsm`] over UTF-16 code units, appended to `out`: several texts, each ended by a
/// NUL but the last, whose NULs are copied as they are. Answers how many characters each text
/// had replaced, in order.
pub fn to_gsm_units(units: &[u16], out: &mut Vec<u16>) -> Vec<u32> {
    let table = table();
    let mut counts = Vec::new();
    let (mut replaced, mut start) = (0, 0);
    for (at, unit) in units.iter().enumerate() {
        let twin = table.twin_of[usize::from(*unit)];
        if twin == 0 {
            continue;
        }
        if twin == NUL {
            counts.push(replaced);
            replaced = 0;
            continue;
        }
        // The run before it is copied whole.
        out.extend_from_slice(units.get(start..at).unwrap_or_default());
        out.extend_from_slice(table.twins.get(usize::from(twin) - 1).map_or(&[][..], |twin| twin));
        replaced += 1;
        start = at + 1;
    }
    out.extend_from_slice(units.get(start..).unwrap_or_default());
    counts.push(replaced);
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::to_gsm;

    #[test]
    fn each_text_is_made_gsm_as_to_gsm_makes_it() {
        let texts = [
            "Fête d\u{2019}été : –20 % sur les crêpes… «bon» cœur ôté",
            "",
            "déjà Ça ß € {x} `y` \ttab\u{A0}nbsp",
            "emoji 😀 and 𝄞 stay, ô goes",
            "Œ Ÿ Ž ő ł",
        ];
        let units: Vec<u16> = texts.join("\0").encode_utf16().collect();
        let mut out = Vec::new();
        let counts = to_gsm_units(&units, &mut out);
        let expected: Vec<String> = texts.iter().map(|text| to_gsm(text).text).collect();
        assert_eq!(String::from_utf16(&out).expect("UTF-16"), expected.join("\0"));
        assert_eq!(counts, texts.iter().map(|text| to_gsm(text).replaced as u32).collect::<Vec<_>>());
    }

    #[test]
    fn the_twins_fit_the_table() {
        assert!(table().twins.len() < usize::from(NUL), "a twin's number would read as NUL");
    }

    #[test]
    fn every_character_with_a_twin_is_one_code_unit() {
        let astral = (0x1_0000..=0x10_FFFF).filter_map(char::from_u32).find(|c| super::super::gsm_twin(*c).is_some());
        assert_eq!(astral, None, "the table looks characters up by one code unit");
    }
}
