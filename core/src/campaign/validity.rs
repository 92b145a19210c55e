//! How long the carrier keeps trying a message (`sms.message.validity`).

/// A validity period in whole minutes, 5 to 4,320 (three days): handed to the carrier as the
/// SMPP validity period; a message it cannot deliver in that time comes back `EXPIRED`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Validity(u16);

impl Validity {
    /// The shortest period a send may ask for.
    pub const MIN_MINUTES: i64 = 5;
    /// The longest: three days.
    pub const MAX_MINUTES: i64 = 4_320;

    /// `minutes` when inside the bounds, else why not.
    pub fn from_minutes(minutes: i64) -> Result<Validity, String> {
        if (Validity::MIN_MINUTES..=Validity::MAX_MINUTES).contains(&minutes) {
            Ok(Validity(minutes as u16))
        } else {
            Err(format!("must be {} to {} minutes, not {minutes}", Validity::MIN_MINUTES, Validity::MAX_MINUTES))
        }
    }

    /// The period in minutes.
    pub fn minutes(self) -> u16 {
        self.0
    }

    /// SMPP 3.4's relative time format (§7.1.1), `YYMMDDhhmmss000R` read as a duration:
    /// 90 minutes is `000000013000000R`.
    pub fn smpp_relative(self) -> String {
        let minutes = u32::from(self.0);
        let (days, hours, minutes) = (minutes / 1_440, minutes / 60 % 24, minutes % 60);
        format!("0000{days:02}{hours:02}{minutes:02}00000R")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bounds_are_five_minutes_and_three_days() {
        assert!(Validity::from_minutes(4).is_err());
        assert!(Validity::from_minutes(4_321).is_err());
        assert_eq!(Validity::from_minutes(5).map(Validity::minutes), Ok(5));
        assert_eq!(Validity::from_minutes(4_320).map(Validity::minutes), Ok(4_320));
    }

    #[test]
    fn smpp_reads_it_as_a_relative_time() {
        let relative = |m| Validity::from_minutes(m).expect("in bounds").smpp_relative();
        assert_eq!(relative(90), "000000013000000R");
        assert_eq!(relative(4_320), "000003000000000R");
        assert_eq!(relative(1_505), "000001010500000R");
        assert_eq!(relative(90).len(), 16);
    }
}
