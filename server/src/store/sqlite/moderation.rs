//! Moderation in SQLite (the statements shared with PostgreSQL).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use rusqlite::{OptionalExtension, params};

use super::{SqliteStore, numbered};
use crate::{
    Error,
    store::{
        AccountId,
        approval::awaiting,
        moderation::{
            ADD_RULE, HELD, HeldCampaign, Hold, MARK_HELD, MODERATED, ModerationRule, ModerationStore,
            NEW_ACCOUNTS_MODERATED, RELEASE, REMOVE_RULE, RULES, Released, RuleKind, SET_MODERATED,
            SET_NEW_ACCOUNTS_MODERATED, SUSPENDED, held, read_held, setting,
        },
        time,
    },
};

/// The held campaigns that `filter` (SQL after the held ones' conditions) keeps.
fn held_where(db: &rusqlite::Connection, filter: &str, ticket: Option<i64>) -> Result<Vec<HeldCampaign>, Error> {
    let sql = format!("{} {filter}", numbered(HELD));
    let mut statement = db.prepare_cached(&sql)?;
    let rows = match ticket {
        Some(ticket) => statement
            .query_map(params![time::store(held()), ticket], |row| read_held(row))?
            .collect::<Result<_, _>>()?,
        None => statement.query_map(params![time::store(held())], |row| read_held(row))?.collect::<Result<_, _>>()?,
    };
    Ok(rows)
}

#[async_trait]
impl ModerationStore for SqliteStore {
    async fn new_accounts_moderated(&self) -> Result<bool, Error> {
        self.db
            .read(|db| {
                let value: Option<String> =
                    db.prepare_cached(NEW_ACCOUNTS_MODERATED)?.query_row([], |row| row.get(0)).optional()?;
                Ok(value.as_deref() == Some(setting(true)))
            })
            .await
    }

    async fn set_new_accounts_moderated(&self, on: bool) -> Result<(), Error> {
        self.db
            .write(move |db| {
                db.prepare_cached(&numbered(SET_NEW_ACCOUNTS_MODERATED))?.execute(params![setting(on)])?;
                Ok(())
            })
            .await
    }

    async fn set_moderated(&self, account: AccountId, moderated: bool) -> Result<(), Error> {
        self.db
            .write(move |db| {
                db.prepare_cached(&numbered(SET_MODERATED))?.execute(params![account, moderated])?;
                Ok(())
            })
            .await
    }

    async fn moderation(&self) -> Result<(Vec<AccountId>, Vec<ModerationRule>), Error> {
        self.db
            .read(|db| {
                let accounts =
                    db.prepare_cached(MODERATED)?.query_map([], |row| row.get(0))?.collect::<Result<_, _>>()?;
                let mut statement = db.prepare_cached(RULES)?;
                let rows = statement
                    .query_map([], |row| {
                        Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?, row.get::<_, String>(2)?))
                    })?
                    .collect::<Result<Vec<_>, _>>()?;
                let rules = rows
                    .into_iter()
                    .map(|(id, kind, value)| Ok(ModerationRule { id, kind: RuleKind::parse(&kind)?, value }))
                    .collect::<Result<_, Error>>()?;
                Ok((accounts, rules))
            })
            .await
    }

    async fn suspended_accounts(&self) -> Result<Vec<AccountId>, Error> {
        self.db
            .read(|db| Ok(db.prepare_cached(SUSPENDED)?.query_map([], |row| row.get(0))?.collect::<Result<_, _>>()?))
            .await
    }

    async fn add_moderation_rule(&self, kind: RuleKind, value: &str) -> Result<i64, Error> {
        let (value, now) = (value.to_owned(), time::store(Utc::now()));
        self.db
            .write(move |db| {
                Ok(db
                    .prepare_cached(&numbered(ADD_RULE))?
                    .query_row(params![kind.as_str(), value, now], |row| row.get(0))?)
            })
            .await
    }

    async fn remove_moderation_rule(&self, id: i64) -> Result<bool, Error> {
        self.db.write(move |db| Ok(db.prepare_cached(&numbered(REMOVE_RULE))?.execute([id])? > 0)).await
    }

    async fn mark_held(&self, account: AccountId, ticket: i64, hold: &Hold) -> Result<(), Error> {
        let hold = hold.clone();
        let (person, token) = hold.hand.columns();
        self.db
            .write(move |db| {
                let requested = time::store(hold.requested);
                let values =
                    params![ticket, account, requested, hold.actor, hold.reason, person, token, hold.awaits_team];
                db.execute(&numbered(MARK_HELD), values)?;
                Ok(())
            })
            .await
    }

    async fn held_campaigns(&self) -> Result<Vec<HeldCampaign>, Error> {
        self.db.read(|db| held_where(db, "ORDER BY c.id", None)).await
    }

    async fn held_campaign(&self, ticket: i64) -> Result<Option<HeldCampaign>, Error> {
        self.db.read(move |db| Ok(held_where(db, "AND c.id = ?2", Some(ticket))?.into_iter().next())).await
    }

    async fn release_held(
        &self,
        account: AccountId,
        ticket: i64,
        now: DateTime<Utc>,
    ) -> Result<Option<Released>, Error> {
        self.db
            .write(move |db| {
                let values = params![ticket, account, time::store(now), time::store(held()), time::store(awaiting())];
                let awaits_team: Option<bool> =
                    db.prepare_cached(&numbered(RELEASE))?.query_row(values, |row| row.get(0)).optional()?;
                Ok(awaits_team.map(Released::from_awaits_team))
            })
            .await
    }
}
