//! Sign-up pages in SQLite (the statements shared with PostgreSQL).

use async_trait::async_trait;
use chrono::{DateTime, Duration, Utc};
use rusqlite::{Connection, OptionalExtension, params};
use texto_core::SignupPage;

use super::{SqliteStore, account_contacts::save_card, numbered};
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

fn pages(db: &Connection, filter: &str, params: impl rusqlite::Params) -> Result<Vec<SavedSignupPage>, Error> {
    let sql = numbered(&format!("SELECT {PAGE_COLUMNS} {filter}"));
    let mut statement = db.prepare_cached(&sql)?;
    let rows = statement.query_map(params, |row| read_page(row))?;
    rows.map(|row| row?).collect()
}

#[async_trait]
impl SignupStore for SqliteStore {
    async fn save_signup_page(
        &self,
        account: AccountId,
        id: Option<i64>,
        page: SignupPage,
    ) -> Result<PageSaved, Error> {
        let (now, definition) = (time::store(Utc::now()), stored_page(&page));
        self.db
            .write(move |db| {
                let slug = page.slug.as_str();
                let taken: bool = db
                    .prepare_cached(&numbered(SLUG_TAKEN))?
                    .query_row(params![slug, id.unwrap_or(0)], |row| row.get(0))?;
                if taken {
                    return Ok(PageSaved::SlugTaken);
                }
                let id = match id {
                    None => match db
                        .prepare_cached(&numbered(INSERT_PAGE))?
                        .query_row(params![account, slug, definition, now], |row| row.get(0))
                        .optional()?
                    {
                        Some(id) => id,
                        None => return Ok(PageSaved::SlugTaken),
                    },
                    Some(id) => {
                        let changed = db
                            .prepare_cached(&numbered(UPDATE_PAGE))?
                            .execute(params![account, id, slug, definition, now])?;
                        if changed == 0 {
                            return Ok(PageSaved::NotFound);
                        }
                        id
                    }
                };
                let saved = pages(db, PAGE, params![account, id])?.pop();
                saved.map(|page| PageSaved::Saved(Box::new(page))).ok_or(Error::Unavailable("a page just saved"))
            })
            .await
    }

    async fn signup_pages(&self, account: AccountId) -> Result<Vec<SavedSignupPage>, Error> {
        self.db.read(move |db| pages(db, PAGES, [account])).await
    }

    async fn signup_page(&self, account: AccountId, id: i64) -> Result<Option<SavedSignupPage>, Error> {
        self.db.read(move |db| Ok(pages(db, PAGE, params![account, id])?.pop())).await
    }

    async fn delete_signup_page(&self, account: AccountId, id: i64) -> Result<bool, Error> {
        self.db.write(move |db| Ok(db.prepare_cached(&numbered(DELETE_PAGE))?.execute(params![account, id])? > 0)).await
    }

    async fn signup_page_by_slug(&self, slug: &str) -> Result<Option<SavedSignupPage>, Error> {
        let slug = slug.to_owned();
        self.db.read(move |db| Ok(pages(db, BY_SLUG, [slug])?.pop())).await
    }

    async fn start_signup(&self, new: NewSignup) -> Result<SignupStarted, Error> {
        let (hour_ago, day_ago) = (time::store(new.at - Duration::hours(1)), time::store(new.at - RESEND_AFTER));
        let now = time::store(new.at);
        self.db
            .write(move |db| {
                let seen = db
                    .prepare_cached(&numbered(SEEN))?
                    .query_row(params![new.address, new.account, new.number, hour_ago, day_ago], |row| {
                        Ok(Seen { by_address: row.get(0)?, by_number: row.get(1)?, sent_code: row.get(2)? })
                    })?;
                let (code_hash, send) = match decide(seen, &new.code_hash) {
                    Decision::AddressBusy => return Ok(SignupStarted::AddressBusy),
                    Decision::NumberBusy => return Ok(SignupStarted::NumberBusy),
                    Decision::Keep { code_hash, send } => (code_hash, send),
                };
                let sent_at = send.then_some(&now);
                let id: i64 = db.prepare_cached(&numbered(INSERT_SIGNUP))?.query_row(
                    params![
                        new.page,
                        new.account,
                        new.number,
                        new.fields,
                        code_hash,
                        new.language,
                        new.address,
                        now,
                        sent_at
                    ],
                    |row| row.get(0),
                )?;
                Ok(if send { SignupStarted::Send(id) } else { SignupStarted::AlreadySent(id) })
            })
            .await
    }

    async fn forget_signup_send(&self, id: i64) -> Result<(), Error> {
        self.db.write(move |db| Ok(db.prepare_cached(&numbered(FORGET_SEND))?.execute([id]).map(|_| ())?)).await
    }

    async fn check_signup_code(
        &self,
        page: i64,
        number: i64,
        code_hash: String,
        now: DateTime<Utc>,
    ) -> Result<CodeChecked, Error> {
        let since = expired_before(now);
        self.db
            .write(move |db| {
                let sql = numbered(&format!("SELECT {PENDING_COLUMNS}, s.code_hash, s.tries {LATEST}"));
                let latest = db
                    .prepare_cached(&sql)?
                    .query_row(params![page, number, since], |row| {
                        Ok((read_pending(row)?, row.get::<_, String>(7)?, row.get::<_, i64>(8)?))
                    })
                    .optional()?;
                match latest {
                    Some((_, _, tries)) if tries >= MOST_TRIES => Ok(CodeChecked::NoneWaiting),
                    Some((pending, stored, _)) if stored == code_hash => Ok(CodeChecked::Right(pending)),
                    Some((pending, _, tries)) => {
                        db.prepare_cached(&numbered(TRIED))?.execute([pending.id])?;
                        Ok(CodeChecked::Wrong(MOST_TRIES - tries - 1))
                    }
                    None => Ok(CodeChecked::NoneWaiting),
                }
            })
            .await
    }

    async fn replied_signups(&self, now: DateTime<Utc>, most: i64) -> Result<Vec<PendingSignup>, Error> {
        let since = expired_before(now);
        self.db
            .read(move |db| {
                let sql = numbered(&format!("SELECT {PENDING_COLUMNS} {REPLIED}"));
                let mut statement = db.prepare_cached(&sql)?;
                let rows = statement.query_map(params![since, most], |row| read_pending(row))?;
                Ok(rows.collect::<Result<_, _>>()?)
            })
            .await
    }

    async fn confirm_signup(&self, confirmation: Confirmation) -> Result<bool, Error> {
        let now = time::store(confirmation.at);
        self.db
            .write(move |db| {
                let Confirmation { signup, by, list, consent, .. } = confirmation;
                if db.prepare_cached(&numbered(CONFIRM))?.execute(params![signup.id, now, by.as_str()])? == 0 {
                    return Ok(false);
                }
                let (account, number) = (signup.account, signup.number);
                db.prepare_cached(&numbered(SUPERSEDED))?.execute(params![signup.page, number])?;
                db.prepare_cached(&numbered(ADD_TO_LIST))?
                    .execute(params![account, list, number, "", "", "", "", now])?;
                let card: Option<String> = db
                    .prepare_cached(&numbered(CARD))?
                    .query_row(params![account, number], |row| row.get(2))
                    .optional()?;
                let (fields, firstname, lastname) = merged_fields(card.as_deref(), &signup.fields);
                let change =
                    ContactChange { firstname, lastname, fields: Some(fields), tags: None, opt_in: Some(consent) };
                save_card(db, account, number, &change, &now)?;
                Ok(true)
            })
            .await
    }
}
