//! Sign-up pages in PostgreSQL (the statements shared with SQLite); a new sign-up holds a lock
//! on its number until its transaction ends, so that two at once see each other.

use async_trait::async_trait;
use chrono::{DateTime, Duration, Utc};
use deadpool_postgres::GenericClient;
use texto_core::SignupPage;

use super::{PgStore, account_contacts::save_card, query};
use crate::{
    Error,
    store::{
        AccountId,
        account_contacts::ContactChange,
        journey_runs::CARD,
        keywords::ADD_TO_LIST,
        signups::{
            BY_SLUG, CONFIRM, CodeChecked, Confirmation, DELETE_PAGE, Decision, FORGET_SEND, INSERT_PAGE,
            INSERT_SIGNUP, LATEST, MOST_TRIES, NewSignup, PAGE, PAGE_COLUMNS, PAGES, PENDING_COLUMNS, PageSaved,
            PendingSignup, REPLIED, RESEND_AFTER, SEEN, SLUG_TAKEN, SUPERSEDED, SavedSignupPage, Seen, SignupStarted,
            SignupStore, TRIED, UPDATE_PAGE, decide, expired_before, merged_fields, read_page, read_pending,
            stored_page,
        },
        time,
    },
};

async fn pages(
    db: &impl GenericClient,
    filter: &str,
    params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
) -> Result<Vec<SavedSignupPage>, Error> {
    let rows = query(db, &format!("SELECT {PAGE_COLUMNS} {filter}"), params).await?;
    rows.iter().map(|row| read_page(row)?).collect()
}

#[async_trait]
impl SignupStore for PgStore {
    async fn save_signup_page(
        &self,
        account: AccountId,
        id: Option<i64>,
        page: SignupPage,
    ) -> Result<PageSaved, Error> {
        let (now, definition) = (time::store(Utc::now()), stored_page(&page));
        let slug = page.slug.as_str();
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let taken: bool = query(&tx, SLUG_TAKEN, &[&slug, &id.unwrap_or(0)]).await?.first().is_some_and(|r| r.get(0));
        if taken {
            return Ok(PageSaved::SlugTaken);
        }
        let id = match id {
            None => match query(&tx, INSERT_PAGE, &[&account, &slug, &definition, &now]).await?.first() {
                Some(row) => row.get(0),
                None => return Ok(PageSaved::SlugTaken),
            },
            Some(id) => {
                let statement = tx.prepare_cached(UPDATE_PAGE).await?;
                if tx.execute(&statement, &[&account, &id, &slug, &definition, &now]).await? == 0 {
                    return Ok(PageSaved::NotFound);
                }
                id
            }
        };
        let saved = pages(&tx, PAGE, &[&account, &id]).await?.pop();
        tx.commit().await?;
        saved.map(|page| PageSaved::Saved(Box::new(page))).ok_or(Error::Unavailable("a page just saved"))
    }

    async fn signup_pages(&self, account: AccountId) -> Result<Vec<SavedSignupPage>, Error> {
        pages(&self.pool.get().await?, PAGES, &[&account]).await
    }

    async fn signup_page(&self, account: AccountId, id: i64) -> Result<Option<SavedSignupPage>, Error> {
        Ok(pages(&self.pool.get().await?, PAGE, &[&account, &id]).await?.pop())
    }

    async fn delete_signup_page(&self, account: AccountId, id: i64) -> Result<bool, Error> {
        let client = self.pool.get().await?;
        let statement = client.prepare_cached(DELETE_PAGE).await?;
        Ok(client.execute(&statement, &[&account, &id]).await? > 0)
    }

    async fn signup_page_by_slug(&self, slug: &str) -> Result<Option<SavedSignupPage>, Error> {
        Ok(pages(&self.pool.get().await?, BY_SLUG, &[&slug]).await?.pop())
    }

    async fn start_signup(&self, new: NewSignup) -> Result<SignupStarted, Error> {
        let (hour_ago, day_ago) = (time::store(new.at - Duration::hours(1)), time::store(new.at - RESEND_AFTER));
        let now = time::store(new.at);
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        query(&tx, "SELECT pg_advisory_xact_lock($1)", &[&new.number]).await?;
        let rows = query(&tx, SEEN, &[&new.address, &new.account, &new.number, &hour_ago, &day_ago]).await?;
        let seen = rows
            .first()
            .map(|row| Seen { by_address: row.get(0), by_number: row.get(1), sent_code: row.get(2) })
            .ok_or(Error::Unavailable("the sign-ups seen"))?;
        let (code_hash, send) = match decide(seen, &new.code_hash) {
            Decision::AddressBusy => return Ok(SignupStarted::AddressBusy),
            Decision::NumberBusy => return Ok(SignupStarted::NumberBusy),
            Decision::Keep { code_hash, send } => (code_hash, send),
        };
        let sent_at = send.then_some(&now);
        let row = query(
            &tx,
            INSERT_SIGNUP,
            &[
                &new.page,
                &new.account,
                &new.number,
                &new.fields,
                &code_hash,
                &new.language,
                &new.address,
                &now,
                &sent_at,
            ],
        )
        .await?;
        let id: i64 = row.first().map(|r| r.get(0)).ok_or(Error::Unavailable("a sign-up just kept"))?;
        tx.commit().await?;
        Ok(if send { SignupStarted::Send(id) } else { SignupStarted::AlreadySent(id) })
    }

    async fn forget_signup_send(&self, id: i64) -> Result<(), Error> {
        query(&self.pool.get().await?, FORGET_SEND, &[&id]).await.map(|_| ())
    }

    async fn check_signup_code(
        &self,
        page: i64,
        number: i64,
        code_hash: String,
        now: DateTime<Utc>,
    ) -> Result<CodeChecked, Error> {
        let since = expired_before(now);
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let sql = format!("SELECT {PENDING_COLUMNS}, s.code_hash, s.tries {LATEST} FOR UPDATE");
        let rows = query(&tx, &sql, &[&page, &number, &since]).await?;
        let latest = match rows.first() {
            Some(row) => Some((read_pending(row)?, row.get::<_, String>(7), row.get::<_, i64>(8))),
            None => None,
        };
        let checked = match latest {
            Some((_, _, tries)) if tries >= MOST_TRIES => CodeChecked::NoneWaiting,
            Some((pending, stored, _)) if stored == code_hash => CodeChecked::Right(pending),
            Some((pending, _, tries)) => {
                query(&tx, TRIED, &[&pending.id]).await?;
                CodeChecked::Wrong(MOST_TRIES - tries - 1)
            }
            None => CodeChecked::NoneWaiting,
        };
        tx.commit().await?;
        Ok(checked)
    }

    async fn replied_signups(&self, now: DateTime<Utc>, most: i64) -> Result<Vec<PendingSignup>, Error> {
        let client = self.pool.get().await?;
        let rows =
            query(&client, &format!("SELECT {PENDING_COLUMNS} {REPLIED}"), &[&expired_before(now), &most]).await?;
        Ok(rows.iter().map(read_pending).collect::<Result<_, _>>()?)
    }

    async fn confirm_signup(&self, confirmation: Confirmation) -> Result<bool, Error> {
        let now = time::store(confirmation.at);
        let Confirmation { signup, by, list, consent, .. } = confirmation;
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let statement = tx.prepare_cached(CONFIRM).await?;
        if tx.execute(&statement, &[&signup.id, &now, &by.as_str()]).await? == 0 {
            return Ok(false);
        }
        let (account, number) = (signup.account, signup.number);
        query(&tx, SUPERSEDED, &[&signup.page, &number]).await?;
        query(&tx, ADD_TO_LIST, &[&account, &list, &number, &"", &"", &"", &"", &now]).await?;
        let card: Option<String> = query(&tx, CARD, &[&account, &number]).await?.first().map(|row| row.get(2));
        let (fields, firstname, lastname) = merged_fields(card.as_deref(), &signup.fields);
        let change = ContactChange { firstname, lastname, fields: Some(fields), tags: None, opt_in: Some(consent) };
        save_card(&tx, account, number, &change, &now).await?;
        tx.commit().await?;
        Ok(true)
    }
}
