//! Keywords, settings and automatic replies in SQLite (the statements shared with PostgreSQL).

use async_trait::async_trait;
use chrono::Utc;
use rusqlite::{Connection, OptionalExtension, params};
use texto_core::BuiltinKeyword;

use super::{SqliteStore, numbered};
use crate::{
    Error,
    store::{
        AccountId,
        keywords::{
            AUTO_REPLY_DONE, AccountSettings, AutoReplyOutcome, DELETE_OWN, DUE_AUTO_REPLIES, DueAutoReply, IS_BUILTIN,
            KeywordChange, KeywordRemoved, KeywordRule, KeywordSaved, KeywordStore, RULE_COLUMNS, SEED_BUILTIN,
            SET_SETTINGS, SETTINGS, actions_column, builtin_reply, listing_order, read_due_reply, read_rule,
            read_settings, stored_json,
        },
        time,
    },
};

/// The account's rule `id`.
fn rule(db: &Connection, account: AccountId, id: i64) -> Result<Option<KeywordRule>, Error> {
    let sql = format!("SELECT {RULE_COLUMNS} FROM keywords WHERE account_id = ? AND id = ?");
    Ok(db.prepare_cached(&sql)?.query_row(params![account, id], |row| read_rule(row)).optional()?.flatten())
}

/// Whether another of the account's keywords than `except` has `word`.
fn taken(db: &Connection, account: AccountId, word: &str, except: i64) -> Result<bool, Error> {
    Ok(db
        .prepare_cached("SELECT EXISTS (SELECT 1 FROM keywords WHERE account_id = ? AND word = ? AND id <> ?)")?
        .query_row(params![account, word, except], |row| row.get(0))?)
}

#[async_trait]
impl KeywordStore for SqliteStore {
    async fn keywords(&self, account: AccountId) -> Result<Vec<KeywordRule>, Error> {
        let now = time::store(Utc::now());
        self.db
            .write(move |db| {
                for builtin in BuiltinKeyword::ALL {
                    db.prepare_cached(&numbered(SEED_BUILTIN))?.execute(params![
                        account,
                        builtin.word(),
                        builtin.name(),
                        builtin_reply(builtin),
                        now
                    ])?;
                }
                let sql = format!("SELECT {RULE_COLUMNS} FROM keywords WHERE account_id = ?");
                let mut statement = db.prepare_cached(&sql)?;
                let rows = statement.query_map([account], |row| read_rule(row))?;
                let mut rules: Vec<KeywordRule> = rows.collect::<Result<Vec<_>, _>>()?.into_iter().flatten().collect();
                listing_order(&mut rules);
                Ok(rules)
            })
            .await
    }

    async fn create_keyword(&self, account: AccountId, change: KeywordChange) -> Result<KeywordSaved, Error> {
        let now = time::store(Utc::now());
        self.db
            .write(move |db| {
                let Some(word) = change.word else { return Ok(KeywordSaved::NotFound) };
                if taken(db, account, word.as_str(), 0)? {
                    return Ok(KeywordSaved::WordTaken);
                }
                let actions = change.actions.unwrap_or_default();
                let id: i64 = db
                    .prepare_cached(
                        "INSERT INTO keywords (account_id, word, reply, actions, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
                    )?
                    .query_row(
                        params![account, word.as_str(), change.reply.as_deref().unwrap_or(""), actions_column(&actions), now],
                        |row| row.get(0),
                    )?;
                Ok(rule(db, account, id)?.map_or(KeywordSaved::NotFound, KeywordSaved::Saved))
            })
            .await
    }

    async fn update_keyword(&self, account: AccountId, id: i64, change: KeywordChange) -> Result<KeywordSaved, Error> {
        self.db
            .write(move |db| {
                let Some(mut current) = rule(db, account, id)? else { return Ok(KeywordSaved::NotFound) };
                if let Some(word) = change.word.filter(|_| current.builtin.is_none()) {
                    if taken(db, account, word.as_str(), id)? {
                        return Ok(KeywordSaved::WordTaken);
                    }
                    current.word = word;
                }
                current.reply = change.reply.unwrap_or(current.reply);
                current.actions = change.actions.unwrap_or(current.actions);
                db.prepare_cached("UPDATE keywords SET word = ?, reply = ?, actions = ? WHERE id = ?")?
                    .execute(params![current.word.as_str(), current.reply, actions_column(&current.actions), id])?;
                Ok(KeywordSaved::Saved(current))
            })
            .await
    }

    async fn delete_keyword(&self, account: AccountId, id: i64) -> Result<KeywordRemoved, Error> {
        self.db
            .write(move |db| {
                if db.prepare_cached(&numbered(DELETE_OWN))?.execute(params![account, id])? > 0 {
                    return Ok(KeywordRemoved::Deleted);
                }
                let builtin: Option<bool> = db
                    .prepare_cached(&numbered(IS_BUILTIN))?
                    .query_row(params![account, id], |row| row.get(0))
                    .optional()?;
                Ok(if builtin.is_some() { KeywordRemoved::BuiltIn } else { KeywordRemoved::NotFound })
            })
            .await
    }

    async fn settings(&self, account: AccountId) -> Result<AccountSettings, Error> {
        self.db
            .read(move |db| {
                let settings = db
                    .prepare_cached(&numbered(SETTINGS))?
                    .query_row([account], |row| read_settings(row))
                    .optional()?;
                Ok(settings.unwrap_or_default())
            })
            .await
    }

    async fn set_settings(&self, account: AccountId, settings: AccountSettings) -> Result<(), Error> {
        let [utm, cap] = stored_json(&settings);
        self.db
            .write(move |db| {
                db.prepare_cached(&numbered(SET_SETTINGS))?.execute(params![
                    account,
                    settings.help_text,
                    settings.stop_confirmation,
                    settings.marketing_needs_consent,
                    utm,
                    cap,
                ])?;
                Ok(())
            })
            .await
    }

    async fn due_auto_replies(&self, most: i64) -> Result<Vec<DueAutoReply>, Error> {
        self.db
            .read(move |db| {
                let mut statement = db.prepare_cached(&numbered(DUE_AUTO_REPLIES))?;
                let rows = statement.query_map([most], |row| read_due_reply(row))?;
                Ok(rows.collect::<Result<_, _>>()?)
            })
            .await
    }

    async fn auto_reply_done(&self, id: i64, outcome: AutoReplyOutcome) -> Result<(), Error> {
        let (ticket, outcome) = match outcome {
            AutoReplyOutcome::Sent(ticket) => (Some(ticket), "sent".to_owned()),
            AutoReplyOutcome::Refused(reason) => (None, reason),
        };
        self.db
            .write(move |db| {
                db.prepare_cached(&numbered(AUTO_REPLY_DONE))?.execute(params![id, ticket, outcome])?;
                Ok(())
            })
            .await
    }
}
