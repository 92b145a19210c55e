//! Credit amounts, exact to the hundredth.

use std::{
    fmt,
    iter::Sum,
    ops::{Add, Mul, Sub},
};

/// An amount of credits, held in hundredths so that sums are exact (`1.25` is `Credits(125)`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Credits(i64);

impl Credits {
    /// Zero credits.
    pub const ZERO: Credits = Credits(0);

    /// `hundredths / 100` credits.
    pub const fn from_hundredths(hundredths: i64) -> Credits {
        Credits(hundredths)
    }

    /// Whole credits.
    pub const fn whole(credits: i64) -> Credits {
        Credits(credits * 100)
    }

    /// The amount in hundredths.
    pub const fn hundredths(self) -> i64 {
        self.0
    }

    /// The amount as a decimal number, as it goes on the wire.
    pub fn as_f64(self) -> f64 {
        self.0 as f64 / 100.0
    }

    /// Reads a wire amount, rounded to the hundredth; `None` for NaN or out of range.
    pub fn from_f64(value: f64) -> Option<Credits> {
        let hundredths = (value * 100.0).round();
        (hundredths.is_finite() && hundredths.abs() < 9.0e15).then_some(Credits(hundredths as i64))
    }
}

impl Add for Credits {
    type Output = Credits;
    fn add(self, other: Credits) -> Credits {
        Credits(self.0.saturating_add(other.0))
    }
}

impl Sub for Credits {
    type Output = Credits;
    fn sub(self, other: Credits) -> Credits {
        Credits(self.0.saturating_sub(other.0))
    }
}

impl Mul<u32> for Credits {
    type Output = Credits;
    fn mul(self, times: u32) -> Credits {
        Credits(self.0.saturating_mul(i64::from(times)))
    }
}

impl Sum for Credits {
    fn sum<I: Iterator<Item = Credits>>(iter: I) -> Credits {
        iter.fold(Credits::ZERO, Add::add)
    }
}

impl fmt::Display for Credits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let (whole, cents) = (self.0.unsigned_abs() / 100, self.0.unsigned_abs() % 100);
        match cents {
            0 => write!(f, "{sign}{whole}"),
            c if c % 10 == 0 => write!(f, "{sign}{whole}.{}", c / 10),
            c => write!(f, "{sign}{whole}.{c:02}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Credits;

    #[test]
    fn amounts_print_like_the_wire() {
        assert_eq!(Credits::whole(642).to_string(), "642");
        assert_eq!(Credits::from_hundredths(125).to_string(), "1.25");
        assert_eq!(Credits::from_hundredths(150).to_string(), "1.5");
        assert_eq!(Credits::from_hundredths(-5).to_string(), "-0.05");
        assert_eq!(Credits::from_f64(0.1 + 0.2), Some(Credits::from_hundredths(30)));
        assert_eq!(Credits::from_f64(f64::NAN), None);
    }
}
