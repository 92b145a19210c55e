//! Keywords, settings and automatic replies in PostgreSQL.

use async_trait::async_trait;
use chrono::Utc;
use deadpool_postgres::GenericClient;
use texto_core::BuiltinKeyword;

use super::{PgStore, query};
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
async fn rule(db: &impl GenericClient, account: AccountId, id: i64) -> Result<Option<KeywordRule>, Error> {
    let sql = format!("SELECT {RULE_COLUMNS} FROM keywords WHERE account_id = $1 AND id = $2");
    Ok(query(db, &sql, &[&account, &id]).await?.first().map(read_rule).transpose()?.flatten())
}

/// Whether another of the account's keywords than `except` has `word`.
async fn taken(db: &impl GenericClient, account: AccountId, word: &str, except: i64) -> Result<bool, Error> {
    let sql = "SELECT EXISTS (SELECT 1 FROM keywords WHERE account_id = $1 AND word = $2 AND id <> $3)";
    Ok(query(db, sql, &[&account, &word, &except]).await?[0].get(0))
}

#[async_trait]
impl KeywordStore for PgStore {
    async fn keywords(&self, account: AccountId) -> Result<Vec<KeywordRule>, Error> {
        let client = self.pool.get().await?;
        let now = time::store(Utc::now());
        for builtin in BuiltinKeyword::ALL {
            let (word, name, reply) = (builtin.word(), builtin.name(), builtin_reply(builtin));
            query(&client, SEED_BUILTIN, &[&account, &word, &name, &reply, &now]).await?;
        }
        let sql = format!("SELECT {RULE_COLUMNS} FROM keywords WHERE account_id = $1");
        let mut rules: Vec<KeywordRule> = query(&client, &sql, &[&account])
            .await?
            .iter()
            .map(read_rule)
            .collect::<Result<Vec<_>, _>>()?
            .into_iter()
            .flatten()
            .collect();
        listing_order(&mut rules);
        Ok(rules)
    }

    async fn create_keyword(&self, account: AccountId, change: KeywordChange) -> Result<KeywordSaved, Error> {
        let Some(word) = change.word else { return Ok(KeywordSaved::NotFound) };
        let client = self.pool.get().await?;
        let actions = actions_column(&change.actions.unwrap_or_default());
        let reply = change.reply.unwrap_or_default();
        let rows = query(
            &client,
            "INSERT INTO keywords (account_id, word, reply, actions, created_at) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (account_id, word) DO NOTHING RETURNING id",
            &[&account, &word.as_str(), &reply, &actions, &time::store(Utc::now())],
        )
        .await?;
        let Some(row) = rows.first() else { return Ok(KeywordSaved::WordTaken) };
        Ok(rule(&client, account, row.get(0)).await?.map_or(KeywordSaved::NotFound, KeywordSaved::Saved))
    }

    async fn update_keyword(&self, account: AccountId, id: i64, change: KeywordChange) -> Result<KeywordSaved, Error> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let Some(mut current) = rule(&tx, account, id).await? else { return Ok(KeywordSaved::NotFound) };
        if let Some(word) = change.word.filter(|_| current.builtin.is_none()) {
            if taken(&tx, account, word.as_str(), id).await? {
                return Ok(KeywordSaved::WordTaken);
            }
            current.word = word;
        }
        current.reply = change.reply.unwrap_or(current.reply);
        current.actions = change.actions.unwrap_or(current.actions);
        let actions = actions_column(&current.actions);
        let sql = "UPDATE keywords SET word = $1, reply = $2, actions = $3 WHERE id = $4";
        match query(&tx, sql, &[&current.word.as_str(), &current.reply, &actions, &id]).await {
            Err(Error::Postgres(e)) if e.code() == Some(&tokio_postgres::error::SqlState::UNIQUE_VIOLATION) => {
                return Ok(KeywordSaved::WordTaken);
            }
            other => other?,
        };
        tx.commit().await?;
        Ok(KeywordSaved::Saved(current))
    }

    async fn delete_keyword(&self, account: AccountId, id: i64) -> Result<KeywordRemoved, Error> {
        let client = self.pool.get().await?;
        if !query(&client, &format!("{DELETE_OWN} RETURNING id"), &[&account, &id]).await?.is_empty() {
            return Ok(KeywordRemoved::Deleted);
        }
        let builtin = query(&client, IS_BUILTIN, &[&account, &id]).await?;
        Ok(if builtin.is_empty() { KeywordRemoved::NotFound } else { KeywordRemoved::BuiltIn })
    }

    async fn settings(&self, account: AccountId) -> Result<AccountSettings, Error> {
        let client = self.pool.get().await?;
        Ok(query(&client, SETTINGS, &[&account]).await?.first().map(read_settings).transpose()?.unwrap_or_default())
    }

    async fn set_settings(&self, account: AccountId, settings: AccountSettings) -> Result<(), Error> {
        let client = self.pool.get().await?;
        let [utm, cap] = stored_json(&settings);
        query(
            &client,
            SET_SETTINGS,
            &[
                &account,
                &settings.help_text,
                &settings.stop_confirmation,
                &settings.marketing_needs_consent,
                &utm,
                &cap,
            ],
        )
        .await?;
        Ok(())
    }

    async fn due_auto_replies(&self, most: i64) -> Result<Vec<DueAutoReply>, Error> {
        let client = self.pool.get().await?;
        Ok(query(&client, DUE_AUTO_REPLIES, &[&most]).await?.iter().map(read_due_reply).collect::<Result<_, _>>()?)
    }

    async fn auto_reply_done(&self, id: i64, outcome: AutoReplyOutcome) -> Result<(), Error> {
        let (ticket, outcome) = match outcome {
            AutoReplyOutcome::Sent(ticket) => (Some(ticket), "sent".to_owned()),
            AutoReplyOutcome::Refused(reason) => (None, reason),
        };
        let client = self.pool.get().await?;
        query(&client, AUTO_REPLY_DONE, &[&id, &ticket, &outcome]).await?;
        Ok(())
    }
}
