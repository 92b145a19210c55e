//! Sub-accounts and transfers of credits in PostgreSQL.

use async_trait::async_trait;
use texto_core::{Credits, Role};

use super::{PgStore, accounts::move_money, query};
use crate::{
    Error,
    store::{
        AccountId, money,
        sub_accounts::{
            Family, NewSubAccount, SUB_ACCOUNT_COLUMNS, SubAccountRecord, SubAccountStore, email_taken, name_taken,
            read_family, read_sub_account,
        },
        time,
    },
};

#[async_trait]
impl SubAccountStore for PgStore {
    async fn create_sub_account(&self, new: &NewSubAccount) -> Result<AccountId, Error> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let account = tx
            .query_opt(
                "INSERT INTO accounts (name, parent_id, unlimited, moderated) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (name) DO NOTHING RETURNING id",
                &[&new.name, &new.parent, &new.unlimited, &new.moderated],
            )
            .await?
            .ok_or_else(name_taken)?
            .get::<_, AccountId>(0);
        tx.query_opt(
            "INSERT INTO users (account_id, email, name, password_hash, role, created_at)
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (email) DO NOTHING RETURNING id",
            &[
                &account,
                &new.owner_email.as_str(),
                &new.owner_name.as_str(),
                &new.password_hash,
                &Role::Owner.as_str(),
                &time::store(new.now),
            ],
        )
        .await?
        .ok_or_else(email_taken)?;
        tx.commit().await?;
        Ok(account)
    }

    async fn sub_accounts(&self, parent: AccountId) -> Result<Vec<SubAccountRecord>, Error> {
        let client = self.pool.get().await?;
        let rows = query(&client, &format!("{SUB_ACCOUNT_COLUMNS} ORDER BY a.id"), &[&parent]).await?;
        Ok(rows.iter().map(read_sub_account).collect::<Result<_, _>>()?)
    }

    async fn sub_account(&self, parent: AccountId, id: AccountId) -> Result<Option<SubAccountRecord>, Error> {
        let client = self.pool.get().await?;
        let rows = query(&client, &format!("{SUB_ACCOUNT_COLUMNS} AND a.id = $2"), &[&parent, &id]).await?;
        Ok(rows.first().map(read_sub_account).transpose()?)
    }

    async fn family(&self, account: AccountId) -> Result<Family, Error> {
        let client = self.pool.get().await?;
        let rows = query(&client, "SELECT parent_id, unlimited FROM accounts WHERE id = $1", &[&account]).await?;
        Ok(rows.first().map(read_family).transpose()?.unwrap_or_default())
    }

    async fn transfer(&self, from: AccountId, to: AccountId, credits: Credits) -> Result<(Credits, Credits), Error> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        // Both rows locked in id order, as the campaign writer locks them.
        let rows = tx
            .query(
                "SELECT id, balance FROM accounts WHERE id = ANY($1) ORDER BY id FOR NO KEY UPDATE",
                &[&vec![from, to]],
            )
            .await?;
        let available = rows
            .iter()
            .find(|row| row.get::<_, AccountId>(0) == from)
            .map_or(Credits::ZERO, |row| Credits::from_hundredths(row.get(1)));
        let after = move_money(&tx, &money::transfer(from, to, credits, available)?).await?;
        tx.commit().await?;
        let balance = |account| Credits::from_hundredths(after.get(&account).copied().unwrap_or_default());
        Ok((balance(from), balance(to)))
    }
}
