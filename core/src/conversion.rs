//! A conversion to record (`POST /conversion`, the pixel): the short code of the click that led
//! to it and its value, checked once here for both ways in.

use crate::{FieldError, SHORT_CODE_LEN, wire::ConversionDto};

/// The most a conversion may be worth, in hundredths (1,000,000.00).
pub const MOST_CONVERSION_HUNDREDTHS: i64 = 100_000_000;

/// A valid conversion: a short code's characters and a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewConversion {
    /// The short link's code (`AbC123`); whether it names a followed link is the store's to say.
    pub click: String,
    /// Its value in hundredths (0 to [`MOST_CONVERSION_HUNDREDTHS`]).
    pub hundredths: i64,
}

impl NewConversion {
    /// The conversion `dto` asks for, its fields named under `path` (`conversion`).
    pub fn parse(dto: &ConversionDto, path: &str) -> Result<NewConversion, Vec<FieldError>> {
        let mut errors = Vec::new();
        let click = dto.click.as_deref().map(str::trim).unwrap_or_default();
        if click.len() != SHORT_CODE_LEN || !click.chars().all(|c| c.is_ascii_alphanumeric()) {
            errors.push(FieldError::new(
                format!("{path}.click"),
                format!("the {SHORT_CODE_LEN}-character code of a short link (AbC123 of /s/AbC123)"),
            ));
        }
        let hundredths = match dto.value {
            None => Some(0),
            Some(value) => hundredths(value),
        };
        if hundredths.is_none() {
            errors.push(FieldError::new(
                format!("{path}.value"),
                "an amount from 0 to 1000000, with two decimals at most",
            ));
        }
        match (errors.is_empty(), hundredths) {
            (true, Some(hundredths)) => Ok(NewConversion { click: click.to_owned(), hundredths }),
            _ => Err(errors),
        }
    }
}

/// `value` in hundredths, when it is an amount from 0 to 1,000,000 with two decimals at most.
fn hundredths(value: f64) -> Option<i64> {
    let scaled = value * 100.0;
    let rounded = scaled.round();
    let valid = value.is_finite() && value >= 0.0 && (scaled - rounded).abs() < 1e-6;
    // In range, so the cast is exact.
    (valid && rounded <= MOST_CONVERSION_HUNDREDTHS as f64).then_some(rounded as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(click: &str, value: Option<f64>) -> Result<NewConversion, Vec<FieldError>> {
        NewConversion::parse(
            &ConversionDto { click: Some(click.into()), value, ..ConversionDto::default() },
            "conversion",
        )
    }

    #[test]
    fn a_code_and_a_value_in_hundredths() {
        assert_eq!(parse(" AbC123 ", Some(49.9)), Ok(NewConversion { click: "AbC123".into(), hundredths: 4990 }));
        assert_eq!(parse("AbC123", None).map(|c| c.hundredths), Ok(0));
        assert_eq!(parse("AbC123", Some(1_000_000.0)).map(|c| c.hundredths), Ok(100_000_000));
    }

    #[test]
    fn a_bad_code_or_value_is_named() {
        for (click, value, path) in [
            ("AbC12", Some(1.0), "conversion.click"),
            ("AbC12!", Some(1.0), "conversion.click"),
            ("AbC123", Some(-1.0), "conversion.value"),
            ("AbC123", Some(0.001), "conversion.value"),
            ("AbC123", Some(1_000_000.01), "conversion.value"),
            ("AbC123", Some(f64::NAN), "conversion.value"),
        ] {
            let errors = parse(click, value).expect_err(click);
            assert_eq!(errors[0].path, path, "{click} {value:?}");
        }
    }
}
