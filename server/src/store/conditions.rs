//! The `WHERE` clause of a filtered listing, built once from the filter and written out for
//! either store: SQLite numbers its parameters `?`, PostgreSQL `$1`, `$2`, ….

use std::fmt::Write;

/// A value bound to a parameter of a [`Conditions`] clause.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SqlValue {
    /// An integer (ids, numbers, counts).
    Int(i64),
    /// A text (stored times, patterns, codes).
    Text(String),
}

/// Conditions joined by `AND`, each written with `?` where its values go.
#[derive(Debug, Clone, Default)]
pub(crate) struct Conditions {
    parts: Vec<String>,
    values: Vec<SqlValue>,
}

impl Conditions {
    /// Adds `condition`, whose `?`s take `values` in order.
    pub(crate) fn require(&mut self, condition: &str, values: impl IntoIterator<Item = SqlValue>) {
        self.parts.push(condition.to_owned());
        self.values.extend(values);
    }

    /// Adds every condition of `other`, with its values.
    pub(crate) fn extend(&mut self, other: Conditions) {
        self.parts.extend(other.parts);
        self.values.extend(other.values);
    }

    /// Adds one condition that holds when any of `alternatives` does (each one all of its own
    /// conditions), with their values in order. No alternative adds nothing.
    pub(crate) fn require_any(&mut self, alternatives: Vec<Conditions>) {
        if alternatives.is_empty() {
            return;
        }
        let written: Vec<String> = alternatives.iter().map(|a| format!("({})", a.sqlite())).collect();
        self.parts.push(format!("({})", written.join(" OR ")));
        self.values.extend(alternatives.into_iter().flat_map(|a| a.values));
    }

    /// The clause with SQLite's `?` parameters (`1` when there is no condition).
    pub(crate) fn sqlite(&self) -> String {
        if self.parts.is_empty() { "1".to_owned() } else { self.parts.join(" AND ") }
    }

    /// The clause with PostgreSQL's parameters, numbered from `$first` (`true` when there is
    /// no condition).
    pub(crate) fn postgres(&self, first: usize) -> String {
        if self.parts.is_empty() {
            return "true".to_owned();
        }
        let mut out = String::new();
        let mut next = first;
        for piece in self.sqlite().split('?').enumerate() {
            if piece.0 > 0 {
                let _ = write!(out, "${next}");
                next += 1;
            }
            out.push_str(piece.1);
        }
        out
    }

    /// The values, in the order of their parameters.
    pub(crate) fn values(&self) -> &[SqlValue] {
        &self.values
    }
}

/// `text` as a case-insensitive `LIKE … ESCAPE '\'` pattern that finds it anywhere.
pub(crate) fn contains_pattern(text: &str) -> SqlValue {
    let mut pattern = String::with_capacity(text.len() + 2);
    pattern.push('%');
    for c in text.to_lowercase().chars() {
        if matches!(c, '%' | '_' | '\\') {
            pattern.push('\\');
        }
        pattern.push(c);
    }
    pattern.push('%');
    SqlValue::Text(pattern)
}

impl rusqlite::ToSql for SqlValue {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        match self {
            SqlValue::Int(value) => value.to_sql(),
            SqlValue::Text(value) => value.to_sql(),
        }
    }
}

impl SqlValue {
    /// The value as a PostgreSQL parameter.
    pub(crate) fn as_postgres(&self) -> &(dyn tokio_postgres::types::ToSql + Sync) {
        match self {
            SqlValue::Int(value) => value,
            SqlValue::Text(value) => value,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn postgres_numbers_the_parameters_from_where_the_query_left_off() {
        let mut conditions = Conditions::default();
        conditions.require("account_id = ?", [SqlValue::Int(1)]);
        conditions.require("created_at BETWEEN ? AND ?", [SqlValue::Text("a".into()), SqlValue::Text("b".into())]);
        assert_eq!(conditions.sqlite(), "account_id = ? AND created_at BETWEEN ? AND ?");
        assert_eq!(conditions.postgres(3), "account_id = $3 AND created_at BETWEEN $4 AND $5");
        assert_eq!(conditions.values().len(), 3);
        assert_eq!(Conditions::default().postgres(1), "true");
    }

    #[test]
    fn alternatives_are_joined_by_or_with_their_values_in_order() {
        let alternative = |sql: &str, values: &[i64]| {
            let mut one = Conditions::default();
            one.require(sql, values.iter().map(|v| SqlValue::Int(*v)));
            one
        };
        let mut conditions = Conditions::default();
        conditions.require("account_id = ?", [SqlValue::Int(1)]);
        conditions.require_any(vec![alternative("a = ?", &[2]), alternative("b BETWEEN ? AND ?", &[3, 4])]);
        conditions.require_any(Vec::new());
        assert_eq!(conditions.sqlite(), "account_id = ? AND ((a = ?) OR (b BETWEEN ? AND ?))");
        assert_eq!(conditions.postgres(2), "account_id = $2 AND ((a = $3) OR (b BETWEEN $4 AND $5))");
        assert_eq!(conditions.values(), [1, 2, 3, 4].map(SqlValue::Int));
    }

    #[test]
    fn a_search_pattern_matches_wildcards_literally() {
        assert_eq!(contains_pattern("50%_Off\\"), SqlValue::Text("%50\\%\\_off\\\\%".into()));
    }
}
