//! CSV import of contacts, as marketing files really are: Excel's `;` or `,`, UTF-8 with or
//! without a BOM or Windows-1252, national numbers, bad rows. Pure logic, driven in chunks by
//! the importer component so 100,000 rows never freeze the page.

mod card;
mod file;
mod rows;

pub use card::{CardColumns, FileConsent, field_name};
pub use file::{CsvFile, decode_text};
pub use rows::{ImportSettings, ImportedContact, Importer, Rejected, rejected_csv};
