//! API tokens read from a row, the same for both stores.

use super::{
    HttpErrors, TokenGrant, TokenRecord,
    columns::Columns,
    role_from_column,
    tokens::{TokenMaker, capped, ranges_from_column},
};

/// A token from the columns of [`TOKEN_COLUMNS`](super::tokens::TOKEN_COLUMNS).
pub(super) fn read_token<R: Columns>(row: &R) -> Result<TokenRecord, R::Fault> {
    let maker_role = row.column::<Option<String>>(10)?.map(|role| role_from_column(&role));
    Ok(TokenRecord {
        id: row.column(0)?,
        name: row.column(1)?,
        hint: row.column(2)?,
        created_at: row.time(3)?,
        expires_at: row.maybe_time(4)?,
        allowed: ranges_from_column(&row.column::<String>(5)?),
        last_used_at: row.maybe_time(6)?,
        http_errors: HttpErrors::from_bool(row.column(7)?),
        role: capped(role_from_column(&row.column::<String>(8)?), maker_role),
        made_by: row.column(9)?,
    })
}

/// The grant read from [`grant_columns`](super::tokens::grant_columns) starting at column
/// `at`; `None` when they are null (a session of a person, or of a token revoked since).
pub(super) fn read_grant<R: Columns>(row: &R, at: usize) -> Result<Option<TokenGrant>, R::Fault> {
    let Some(account) = row.column(at)? else { return Ok(None) };
    let maker = match row.column::<Option<i64>>(at + 8)? {
        Some(id) => {
            Some(TokenMaker { id, email: row.column(at + 9)?, role: role_from_column(&row.column::<String>(at + 10)?) })
        }
        None => None,
    };
    Ok(Some(TokenGrant {
        account,
        token: row.column(at + 1)?,
        http_errors: HttpErrors::from_bool(row.column(at + 2)?),
        expires_at: row.maybe_time(at + 3)?,
        allowed: ranges_from_column(&row.column::<String>(at + 4)?),
        last_used_at: row.maybe_time(at + 5)?,
        role: capped(role_from_column(&row.column::<String>(at + 6)?), maker.as_ref().map(|m| m.role)),
        name: row.column(at + 7)?,
        maker,
    }))
}
