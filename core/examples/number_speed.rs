//! Throughput of `parse_international` on 1,000,000 random French mobiles.
//!
//! Run with `cargo run --release -p texto-core --example number_speed`.

use std::hint::black_box;
use std::time::Instant;

fn main() {
    // A small xorshift generator: no dependency, same numbers every run.
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let plain: Vec<String> = (0..1_000_000)
        .map(|_| {
            let lead = if next() % 2 == 0 { 6 } else { 7 };
            let rest = next() % 10_000_000;
            let second = if lead == 6 { next() % 3 } else { 3 + next() % 7 };
            format!("33{lead}{second}{rest:07}")
        })
        .collect();
    let formatted: Vec<String> = plain
        .iter()
        .map(|n| format!("+33 {} {} {} {} {}", &n[2..3], &n[3..5], &n[5..7], &n[7..9], &n[9..11]))
        .collect();

    // Warm up: parses the numbering table once.
    let _ = texto_core::parse_international("33612345678");
    for (name, inputs) in [("digits only (33612345678)", &plain), ("formatted (+33 6 12 34 56 78)", &formatted)] {
        let mut best = f64::MAX;
        let mut valid = 0;
        for _ in 0..5 {
            let start = Instant::now();
            valid = 0;
            for input in inputs.iter() {
                if texto_core::parse_international(black_box(input)).is_ok() {
                    valid += 1;
                }
            }
            best = best.min(start.elapsed().as_nanos() as f64 / inputs.len() as f64);
        }
        println!("{name}: {best:.1} ns/number ({valid} of {} valid)", inputs.len());
    }
}
