//! A chosen file: its text, its delimiter, and a preview to pick the columns from.

use texto_core::parse_with_default_country;

/// Rows the column picker previews.
const PREVIEW_ROWS: usize = 5;

/// A CSV file read into memory, ready to preview and import.
#[derive(Debug, Clone, PartialEq)]
pub struct CsvFile {
    /// The file as UTF-8.
    pub text: String,
    /// `;`, `,` or tab.
    pub delimiter: u8,
    /// The first rows, cell by cell.
    pub preview: Vec<Vec<String>>,
    /// The widest preview row.
    pub columns: usize,
    /// Lines in the file (an estimate of rows, for the progress bar).
    pub lines: usize,
}

/// The file's bytes as text: UTF-8 (a BOM is dropped), else Windows-1252, which is what
/// French Excel writes by default. Windows-1252 is read by the browser's own `TextDecoder`:
/// a decoding crate would carry every legacy encoding's tables into the page (1.5 MB).
pub fn decode_text(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
        Err(_) => web_sys::TextDecoder::new_with_label("windows-1252")
            .and_then(|decoder| decoder.decode_with_u8_array(bytes))
            .unwrap_or_else(|_| String::from_utf8_lossy(bytes).into_owned()),
    }
}

/// The delimiter the first line uses most: `;` (French Excel), `,` or tab.
fn sniff_delimiter(text: &str) -> u8 {
    let first = text.lines().next().unwrap_or("");
    [b';', b',', b'\t']
        .into_iter()
        .max_by_key(|d| (first.bytes().filter(|b| b == d).count(), *d == b','))
        .unwrap_or(b',')
}

impl CsvFile {
    /// Reads `bytes`; `None` when not one row can be read.
    pub fn read(bytes: &[u8]) -> Option<CsvFile> {
        let text = decode_text(bytes);
        let delimiter = sniff_delimiter(&text);
        let mut reader = csv::ReaderBuilder::new()
            .delimiter(delimiter)
            .has_headers(false)
            .flexible(true)
            .from_reader(text.as_bytes());
        let preview: Vec<Vec<String>> = reader
            .records()
            .take(PREVIEW_ROWS)
            .filter_map(Result::ok)
            .map(|record| record.iter().map(|cell| cell.trim().to_owned()).collect())
            .collect();
        if preview.is_empty() {
            return None;
        }
        let columns = preview.iter().map(Vec::len).max().unwrap_or(0);
        let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
        Some(CsvFile { text, delimiter, preview, columns, lines })
    }

    /// The column whose preview cells are most often phone numbers the import would take
    /// (national ones in `default_iso2`), then most often look like one (8 digits or more): a
    /// column of dates has 8 digits too, but no number.
    pub fn guess_phone_column(&self, default_iso2: &str) -> usize {
        (0..self.columns)
            .max_by_key(|&c| {
                let cells = || self.preview.iter().filter_map(|row| row.get(c));
                let numbers = cells().filter(|cell| parse_with_default_country(cell, default_iso2).is_ok()).count();
                let phone_like = cells().filter(|cell| looks_like_phone(cell)).count();
                (numbers, phone_like, std::cmp::Reverse(c))
            })
            .unwrap_or(0)
    }

    /// True when the first row names the columns: its phone cell is not a number while a
    /// later row's is.
    pub fn guess_header(&self, phone_column: usize) -> bool {
        let cell = |row: &Vec<String>| row.get(phone_column).is_some_and(|c| looks_like_phone(c));
        match self.preview.split_first() {
            Some((first, rest)) => !cell(first) && (rest.is_empty() || rest.iter().any(cell)),
            None => false,
        }
    }
}

fn looks_like_phone(cell: &str) -> bool {
    cell.bytes().filter(u8::is_ascii_digit).count() >= 8
}
