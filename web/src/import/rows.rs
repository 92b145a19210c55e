//! Turning the rows of a [`CsvFile`] into contacts, a chunk at a time, with a report of the
//! rows refused and why.

use std::io::Cursor;

use texto_core::{parse_with_default_country, spreadsheet_cell, wire::ContactCardDto};

use super::{CardColumns, CsvFile};

/// What the user chose in the column picker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportSettings {
    /// The column holding the number.
    pub phone_column: usize,
    /// The columns going to info1…info4.
    pub info_columns: [Option<usize>; 4],
    /// Skip the first row.
    pub has_header: bool,
    /// ISO code of the country of national numbers (`FR`: `06…` → `336…`).
    pub default_country: String,
    /// The columns that fill each number's contact.
    pub card: CardColumns,
}

/// A row that became a contact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportedContact {
    /// International digits (`33612345678`).
    pub number: String,
    /// info1…info4 (empty when not mapped).
    pub info: [String; 4],
    /// What the row says about the contact, when columns are mapped to it.
    pub card: Option<ContactCardDto>,
}

/// A row that was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejected {
    /// Its line in the file, from 1.
    pub row: usize,
    /// The cell read as the number.
    pub value: String,
    /// Why it is no number.
    pub reason: String,
}

/// An import under way: call [`Importer::step`] until it says it is done.
pub struct Importer {
    reader: csv::Reader<Cursor<Vec<u8>>>,
    settings: ImportSettings,
    record: csv::StringRecord,
    row: usize,
    /// Estimated rows in all (for progress).
    pub expected: usize,
    /// The contacts read so far.
    pub contacts: Vec<ImportedContact>,
    /// The rows refused so far.
    pub rejected: Vec<Rejected>,
}

impl Importer {
    /// Starts importing `file` with `settings`.
    pub fn new(file: CsvFile, settings: ImportSettings) -> Importer {
        let expected = file.lines.saturating_sub(usize::from(settings.has_header));
        let reader = csv::ReaderBuilder::new()
            .delimiter(file.delimiter)
            .has_headers(false)
            .flexible(true)
            .from_reader(Cursor::new(file.text.into_bytes()));
        Importer {
            reader,
            settings,
            record: csv::StringRecord::new(),
            row: 0,
            expected,
            contacts: Vec::new(),
            rejected: Vec::new(),
        }
    }

    /// Rows read so far (header included).
    pub fn rows_read(&self) -> usize {
        self.row
    }

    /// Reads up to `rows` more rows; true once the file is done.
    pub fn step(&mut self, rows: usize) -> bool {
        for _ in 0..rows {
            match self.reader.read_record(&mut self.record) {
                Ok(true) => {
                    self.row += 1;
                    if self.row == 1 && self.settings.has_header {
                        continue;
                    }
                    self.take_row();
                }
                Ok(false) => return true,
                Err(error) => {
                    self.row += 1;
                    self.rejected.push(Rejected { row: self.row, value: String::new(), reason: error.to_string() });
                }
            }
        }
        false
    }

    fn take_row(&mut self) {
        if self.record.iter().all(|cell| cell.trim().is_empty()) {
            return;
        }
        let cell = |column: usize| self.record.get(column).map(str::trim).unwrap_or("").to_owned();
        let value = cell(self.settings.phone_column);
        if value.is_empty() {
            self.rejected.push(Rejected { row: self.row, value, reason: "no number in this column".into() });
            return;
        }
        match parse_with_default_country(&value, &self.settings.default_country) {
            Ok(number) => {
                let info = self.settings.info_columns.map(|column| column.map(cell).unwrap_or_default());
                let card = self.settings.card.card(cell);
                self.contacts.push(ImportedContact { number: number.as_u64().to_string(), info, card });
            }
            Err(why) => self.rejected.push(Rejected { row: self.row, value, reason: why.to_string() }),
        }
    }
}

/// The rejected rows as a CSV file (`;`-separated, for Excel), with a header row; cells a
/// spreadsheet would run as formulas are quoted ([`spreadsheet_cell`]). The byte order mark is
/// added when the file is downloaded.
pub fn rejected_csv(rejected: &[Rejected]) -> String {
    let mut writer = csv::WriterBuilder::new().delimiter(b';').from_writer(Vec::new());
    let _ = writer.write_record(["row", "value", "reason"]);
    for r in rejected {
        let _ = writer.write_record([
            r.row.to_string().as_str(),
            &spreadsheet_cell(&r.value),
            &spreadsheet_cell(&r.reason),
        ]);
    }
    String::from_utf8(writer.into_inner().unwrap_or_default()).unwrap_or_default()
}
