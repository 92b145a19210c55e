//! Templates (migrations `0033_campaign_studio` and PostgreSQL's `0028`): a campaign's message
//! kept to start campaigns from, seen by the whole team with who last changed it. The
//! statements are shared; SQLite numbers their `$N` as `?N`.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use texto_core::Template;

use super::{AccountId, columns::Columns};
use crate::Error;

/// A template as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SavedTemplate {
    /// Its id.
    pub(crate) id: i64,
    /// The checked template.
    pub(crate) template: Template,
    /// Who last changed it, as the audit log names them.
    pub(crate) author: Option<String>,
    /// When it was last changed.
    pub(crate) updated_at: DateTime<Utc>,
}

/// Templates.
#[async_trait]
pub(crate) trait TemplateStore: Send + Sync {
    /// The account's templates, by name.
    async fn templates(&self, account: AccountId) -> Result<Vec<SavedTemplate>, Error>;
    /// One of the account's templates.
    async fn template(&self, account: AccountId, id: i64) -> Result<Option<SavedTemplate>, Error>;
    /// Creates a template (`id` `None`) or replaces one of the account's, by `author`; `None`
    /// when the account has no template of that id.
    async fn save_template(
        &self,
        account: AccountId,
        id: Option<i64>,
        template: Template,
        author: String,
    ) -> Result<Option<SavedTemplate>, Error>;
    /// Deletes one of the account's templates; whether it had it.
    async fn delete_template(&self, account: AccountId, id: i64) -> Result<bool, Error>;
}

/// The columns [`read_template`] reads.
const COLUMNS: &str = "id, name, text, pushtype, sender, links, author, updated_at";

/// The account's templates (`$1`), by name.
pub(crate) fn all_statement() -> String {
    format!("SELECT {COLUMNS} FROM templates WHERE account_id = $1 ORDER BY lower(name), id")
}

/// One of the account's templates (`$1` account, `$2` id).
pub(crate) fn one_statement() -> String {
    format!("SELECT {COLUMNS} FROM templates WHERE account_id = $1 AND id = $2")
}

/// Creates a template (`$1` account, `$2` name, `$3` text, `$4` pushtype, `$5` sender, `$6`
/// links, `$7` author, `$8` now), answering its id.
pub(crate) const INSERT: &str =
    "INSERT INTO templates (account_id, name, text, pushtype, sender, links, author, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id";

/// Replaces a template (`$1` account, `$2` name … `$8` now as in [`INSERT`], `$9` id).
pub(crate) const UPDATE: &str = "UPDATE templates SET name = $2, text = $3, pushtype = $4, sender = $5, links = $6,
     author = $7, updated_at = $8 WHERE account_id = $1 AND id = $9";

/// Deletes a template (`$1` account, `$2` id).
pub(crate) const DELETE: &str = "DELETE FROM templates WHERE account_id = $1 AND id = $2";

/// The links of `template` as stored (JSON).
pub(crate) fn stored_links(template: &Template) -> String {
    serde_json::to_string(&template.links).unwrap_or_else(|_| "[]".to_owned())
}

/// A row of [`all_statement`] or [`one_statement`].
pub(crate) fn read_template<R: Columns>(row: &R) -> Result<SavedTemplate, R::Fault> {
    let pushtype: String = row.column(3)?;
    Ok(SavedTemplate {
        id: row.column(0)?,
        template: Template {
            name: row.column(1)?,
            text: row.column(2)?,
            pushtype: texto_core::PushType::parse(&pushtype).unwrap_or(texto_core::PushType::Alert),
            sender: row.column(4)?,
            links: serde_json::from_str(&row.column::<String>(5)?).unwrap_or_default(),
        },
        author: row.column(6)?,
        updated_at: row.time(7)?,
    })
}
