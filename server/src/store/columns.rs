//! One way to read a result row, whichever store it came from: each row mapping is written once,
//! generic over [`Columns`], which both `rusqlite::Row` and `tokio_postgres::Row` implement.
//! A mapping asks for the Rust type the PostgreSQL column holds (`BIGINT` is `i64`, `INTEGER`
//! is `i32`); SQLite converts its integers to any of them, checking the range.

use std::error::Error as StdError;

use chrono::{DateTime, Utc};
use texto_core::DeliveryCode;

use super::time;

/// A value both drivers read from a column.
pub(crate) trait Value: rusqlite::types::FromSql + for<'a> tokio_postgres::types::FromSql<'a> {}

impl<T> Value for T where T: rusqlite::types::FromSql + for<'a> tokio_postgres::types::FromSql<'a> {}

/// A result row of either store, read column by column.
pub(crate) trait Columns {
    /// What reading a column fails with: the driver's own error, so a mapping fits where
    /// that driver expects one (rusqlite's `query_row`, or `?` into the crate's error).
    type Fault;

    /// The column at `index`, as `T`; a NULL, a wrong type or a value `T` refuses is a fault.
    fn column<T: Value>(&self, index: usize) -> Result<T, Self::Fault>;

    /// The text at `index`, borrowed from the row (no copy: for values read by the million);
    /// `None` for NULL.
    fn text(&self, index: usize) -> Result<Option<&str>, Self::Fault>;

    /// The stored time at `index` (see [`time::load`]).
    fn time(&self, index: usize) -> Result<DateTime<Utc>, Self::Fault> {
        Ok(time::load(&self.column::<String>(index)?))
    }

    /// The stored time at `index`, if the column is not NULL.
    fn maybe_time(&self, index: usize) -> Result<Option<DateTime<Utc>>, Self::Fault> {
        Ok(self.column::<Option<String>>(index)?.map(|at| time::load(&at)))
    }
}

impl Columns for rusqlite::Row<'_> {
    type Fault = rusqlite::Error;

    fn column<T: Value>(&self, index: usize) -> Result<T, rusqlite::Error> {
        self.get(index)
    }

    fn text(&self, index: usize) -> Result<Option<&str>, rusqlite::Error> {
        Ok(self.get_ref(index)?.as_str_or_null()?)
    }
}

impl Columns for tokio_postgres::Row {
    type Fault = tokio_postgres::Error;

    fn column<T: Value>(&self, index: usize) -> Result<T, tokio_postgres::Error> {
        self.try_get(index)
    }

    fn text(&self, index: usize) -> Result<Option<&str>, tokio_postgres::Error> {
        self.try_get(index)
    }
}

/// A delivery code as a column holds it (`BIGINT`): reading one no [`DeliveryCode`] has fails
/// like any value of the wrong type, instead of being taken for another code.
pub(crate) struct StoredCode(pub(crate) DeliveryCode);

impl StoredCode {
    fn parse(code: i64) -> Result<Self, Box<dyn StdError + Sync + Send>> {
        DeliveryCode::from_code(code).map(StoredCode).ok_or_else(|| format!("unknown delivery code {code}").into())
    }
}

impl rusqlite::types::FromSql for StoredCode {
    fn column_result(value: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        StoredCode::parse(value.as_i64()?).map_err(rusqlite::types::FromSqlError::Other)
    }
}

impl<'a> tokio_postgres::types::FromSql<'a> for StoredCode {
    fn from_sql(kind: &tokio_postgres::types::Type, raw: &'a [u8]) -> Result<Self, Box<dyn StdError + Sync + Send>> {
        StoredCode::parse(i64::from_sql(kind, raw)?)
    }

    fn accepts(kind: &tokio_postgres::types::Type) -> bool {
        <i64 as tokio_postgres::types::FromSql>::accepts(kind)
    }
}
