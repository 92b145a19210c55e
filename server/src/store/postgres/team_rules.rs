//! The team's rules in PostgreSQL.

use async_trait::async_trait;

use super::{PgStore, query};
use crate::{
    Error,
    store::{
        AccountId,
        team_rules::{SET_TEAM_RULES, TEAM_RULES, TeamRules, TeamRulesStore, read_team_rules},
    },
};

#[async_trait]
impl TeamRulesStore for PgStore {
    async fn team_rules(&self, account: AccountId) -> Result<TeamRules, Error> {
        let client = self.pool.get().await?;
        let rows = query(&client, TEAM_RULES, &[&account]).await?;
        Ok(rows.first().map(read_team_rules).transpose()?.unwrap_or_default())
    }

    async fn set_team_rules(&self, account: AccountId, rules: TeamRules) -> Result<(), Error> {
        let client = self.pool.get().await?;
        let over = rules.approval_over.map(|n| i64::from(n.get()));
        query(&client, SET_TEAM_RULES, &[&account, &over, &rules.require_two_factor]).await?;
        Ok(())
    }
}
