//! The team's rules in SQLite (the statements shared with PostgreSQL).

use async_trait::async_trait;
use rusqlite::params;

use super::{SqliteStore, numbered};
use crate::{
    Error,
    store::{
        AccountId,
        team_rules::{SET_TEAM_RULES, TEAM_RULES, TeamRules, TeamRulesStore, read_team_rules},
    },
};

#[async_trait]
impl TeamRulesStore for SqliteStore {
    async fn team_rules(&self, account: AccountId) -> Result<TeamRules, Error> {
        self.db
            .read(move |db| {
                Ok(db.prepare_cached(&numbered(TEAM_RULES))?.query_row([account], |row| read_team_rules(row))?)
            })
            .await
    }

    async fn set_team_rules(&self, account: AccountId, rules: TeamRules) -> Result<(), Error> {
        let over = rules.approval_over.map(|n| i64::from(n.get()));
        self.db
            .write(move |db| {
                db.execute(&numbered(SET_TEAM_RULES), params![account, over, rules.require_two_factor])?;
                Ok(())
            })
            .await
    }
}
