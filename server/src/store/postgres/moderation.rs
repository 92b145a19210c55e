//! Moderation in PostgreSQL (the statements shared with SQLite).

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::{PgStore, query};
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

#[async_trait]
impl ModerationStore for PgStore {
    async fn new_accounts_moderated(&self) -> Result<bool, Error> {
        let client = self.pool.get().await?;
        let row = client.query_opt(NEW_ACCOUNTS_MODERATED, &[]).await?;
        Ok(row.is_some_and(|row| row.get::<_, String>(0) == setting(true)))
    }

    async fn set_new_accounts_moderated(&self, on: bool) -> Result<(), Error> {
        let client = self.pool.get().await?;
        client.execute(SET_NEW_ACCOUNTS_MODERATED, &[&setting(on)]).await?;
        Ok(())
    }

    async fn set_moderated(&self, account: AccountId, moderated: bool) -> Result<(), Error> {
        let client = self.pool.get().await?;
        client.execute(SET_MODERATED, &[&account, &moderated]).await?;
        Ok(())
    }

    async fn moderation(&self) -> Result<(Vec<AccountId>, Vec<ModerationRule>), Error> {
        let client = self.pool.get().await?;
        let accounts = query(&client, MODERATED, &[]).await?.iter().map(|row| row.get(0)).collect();
        let rules = query(&client, RULES, &[])
            .await?
            .iter()
            .map(|row| Ok(ModerationRule { id: row.get(0), kind: RuleKind::parse(row.get(1))?, value: row.get(2) }))
            .collect::<Result<_, Error>>()?;
        Ok((accounts, rules))
    }

    async fn suspended_accounts(&self) -> Result<Vec<AccountId>, Error> {
        let client = self.pool.get().await?;
        Ok(query(&client, SUSPENDED, &[]).await?.iter().map(|row| row.get(0)).collect())
    }

    async fn add_moderation_rule(&self, kind: RuleKind, value: &str) -> Result<i64, Error> {
        let client = self.pool.get().await?;
        let rows = query(&client, ADD_RULE, &[&kind.as_str(), &value, &time::store(Utc::now())]).await?;
        Ok(rows.first().map(|row| row.get(0)).unwrap_or_default())
    }

    async fn remove_moderation_rule(&self, id: i64) -> Result<bool, Error> {
        let client = self.pool.get().await?;
        Ok(client.execute(REMOVE_RULE, &[&id]).await? > 0)
    }

    async fn mark_held(&self, account: AccountId, ticket: i64, hold: &Hold) -> Result<(), Error> {
        let client = self.pool.get().await?;
        let (person, token) = hold.hand.columns();
        let requested = time::store(hold.requested);
        let values: [&(dyn tokio_postgres::types::ToSql + Sync); 8] =
            [&ticket, &account, &requested, &hold.actor, &hold.reason, &person, &token, &hold.awaits_team];
        client.execute(MARK_HELD, &values).await?;
        Ok(())
    }

    async fn held_campaigns(&self) -> Result<Vec<HeldCampaign>, Error> {
        let client = self.pool.get().await?;
        let sql = format!("{HELD} ORDER BY c.id");
        Ok(query(&client, &sql, &[&time::store(held())]).await?.iter().map(read_held).collect::<Result<_, _>>()?)
    }

    async fn held_campaign(&self, ticket: i64) -> Result<Option<HeldCampaign>, Error> {
        let client = self.pool.get().await?;
        let sql = format!("{HELD} AND c.id = $2");
        Ok(query(&client, &sql, &[&time::store(held()), &ticket]).await?.first().map(read_held).transpose()?)
    }

    async fn release_held(
        &self,
        account: AccountId,
        ticket: i64,
        now: DateTime<Utc>,
    ) -> Result<Option<Released>, Error> {
        let client = self.pool.get().await?;
        let (now, held, awaiting) = (time::store(now), time::store(held()), time::store(awaiting()));
        let rows = query(&client, RELEASE, &[&ticket, &account, &now, &held, &awaiting]).await?;
        Ok(rows.first().map(|row| Released::from_awaits_team(row.get(0))))
    }
}
