//! Cells of the CSV files texto hands to people, who open them in a spreadsheet.
//!
//! Two rules, shared by the server's exports and the web app's reports: the file starts with a
//! UTF-8 byte order mark, without which French Excel reads "Hélène" as "HÃ©lÃ¨ne"; and a cell
//! that a spreadsheet would take for a formula is written with a leading `'` (OWASP's advice
//! against CSV injection), since contact fields and a clicker's phone model come from strangers.

use std::borrow::Cow;

/// The byte order mark that opens every CSV file texto writes.
pub const CSV_BOM: &str = "\u{feff}";

/// `value` as a cell a spreadsheet shows as text: a leading `'` when it starts with `=`, `+`,
/// `-`, `@`, a tab or a carriage return, unchanged otherwise.
pub fn spreadsheet_cell(value: &str) -> Cow<'_, str> {
    if value.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        Cow::Owned(format!("'{value}"))
    } else {
        Cow::Borrowed(value)
    }
}

#[cfg(test)]
mod tests {
    use super::spreadsheet_cell;

    #[test]
    fn formulas_are_quoted_and_text_is_kept() {
        for formula in ["=HYPERLINK(\"http://x\")", "+33612345678", "-2+3", "@SUM(A1)", "\tx", "\r=1"] {
            assert_eq!(spreadsheet_cell(formula), format!("'{formula}"));
        }
        for text in ["33612345678", "Hélène", "a=b", "", " =1", "iPhone"] {
            assert_eq!(spreadsheet_cell(text), text);
        }
    }
}
