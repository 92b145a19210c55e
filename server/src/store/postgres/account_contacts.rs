//! Contacts in PostgreSQL.

use async_trait::async_trait;
use chrono::Utc;
use deadpool_postgres::GenericClient;
use texto_core::{CardValues, ContactField};

use super::{PgStore, query};
use crate::{
    Error,
    store::{
        AccountId,
        account_contacts::{
            BOOK, CARD_COLUMNS, CLICKS, ContactCard, ContactChange, ContactClick, ContactFilter, ContactStore, ERASE,
            MEMBERSHIPS, Membership, SAVE, read_card, read_click, read_membership,
        },
        drafts,
        merge_cards::{CardReader, merge_cards_sql},
        segment_sql::Dialect,
        time,
    },
};

/// The card of one number of the account's book.
async fn card(db: &impl GenericClient, account: AccountId, number: i64) -> Result<Option<ContactCard>, Error> {
    let sql = format!("SELECT {CARD_COLUMNS} {BOOK} AND a.number = $2");
    Ok(query(db, &sql, &[&account, &number]).await?.first().map(read_card).transpose()?)
}

/// Creates or changes the contact of `number` (its list entries are left as they are).
pub(super) async fn save_card(
    db: &impl GenericClient,
    account: AccountId,
    number: i64,
    change: &ContactChange,
    now: &str,
) -> Result<(), Error> {
    let opt_in = change.opt_in.as_ref();
    let (at, source, proof, address) =
        (opt_in.map(|c| &c.at), opt_in.map(|c| &c.source), opt_in.map(|c| &c.proof), opt_in.map(|c| &c.address));
    let params: [&(dyn tokio_postgres::types::ToSql + Sync); 11] = [
        &account,
        &number,
        &change.firstname,
        &change.lastname,
        &change.fields,
        &change.tags,
        &at,
        &source,
        &proof,
        &address,
        &now,
    ];
    query(db, SAVE, &params).await?;
    Ok(())
}

#[async_trait]
impl ContactStore for PgStore {
    async fn merge_cards(&self, account: AccountId, fields: &[ContactField]) -> Result<CardValues, Error> {
        let client = self.pool.get().await?;
        let rows = query(&client, &merge_cards_sql(fields, Dialect::Postgres), &[&account]).await?;
        let mut cards = CardReader::new(fields);
        for row in &rows {
            cards.add(row)?;
        }
        Ok(cards.finish())
    }

    async fn contacts(&self, account: AccountId, filter: ContactFilter) -> Result<(Vec<ContactCard>, i64), Error> {
        let page = filter.page.clamped();
        let client = self.pool.get().await?;
        let conditions = filter.conditions(account, Dialect::Postgres);
        let from = format!("{BOOK} AND {}", conditions.postgres(2));
        let mut values: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> = vec![&account];
        values.extend(conditions.values().iter().map(|value| value.as_postgres()));
        let matching: i64 = query(&client, &format!("SELECT COUNT(*) {from}"), &values).await?[0].get(0);
        let sql = format!("SELECT {CARD_COLUMNS} {from} ORDER BY a.number LIMIT {} OFFSET {}", page.length, page.start);
        let cards = query(&client, &sql, &values).await?.iter().map(read_card).collect::<Result<_, _>>()?;
        Ok((cards, matching))
    }

    async fn contact(&self, account: AccountId, number: i64) -> Result<Option<ContactCard>, Error> {
        card(&self.pool.get().await?, account, number).await
    }

    async fn save_contact(&self, account: AccountId, number: i64, change: ContactChange) -> Result<ContactCard, Error> {
        let client = self.pool.get().await?;
        save_card(&client, account, number, &change, &time::store(Utc::now())).await?;
        card(&client, account, number).await?.ok_or(Error::Unavailable("a contact just saved cannot be read"))
    }

    async fn memberships(&self, account: AccountId, number: i64) -> Result<Vec<Membership>, Error> {
        let client = self.pool.get().await?;
        Ok(query(&client, MEMBERSHIPS, &[&account, &number])
            .await?
            .iter()
            .map(read_membership)
            .collect::<Result<_, _>>()?)
    }

    async fn contact_clicks(&self, account: AccountId, number: i64) -> Result<Vec<ContactClick>, Error> {
        let client = self.pool.get().await?;
        Ok(query(&client, CLICKS, &[&account, &number]).await?.iter().map(read_click).collect::<Result<_, _>>()?)
    }

    async fn erase_contact(&self, account: AccountId, number: i64) -> Result<bool, Error> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let sent = "SELECT EXISTS (SELECT 1 FROM messages WHERE account_id = $1 AND number = $2)";
        if card(&tx, account, number).await?.is_none()
            && !query(&tx, sent, &[&account, &number]).await?[0].get::<_, bool>(0)
        {
            return Ok(false);
        }
        for statement in ERASE {
            query(&tx, statement, &[&account, &number]).await?;
        }
        // The drafts that name the number lose it too.
        for row in query(&tx, drafts::BODIES, &[&account]).await? {
            let (id, body): (i64, String) = (row.try_get(0)?, row.try_get(1)?);
            if let Some(body) = drafts::without_number(&body, number) {
                query(&tx, drafts::ERASED_BODY, &[&id, &body]).await?;
            }
        }
        tx.commit().await?;
        Ok(true)
    }
}
