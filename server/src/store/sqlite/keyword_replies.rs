//! What a reply's keyword does, in SQLite: the account's rule and settings read, and the
//! effects [`keyword_effects::of_keywords`] gives written, in the reply's transaction.

use chrono::{DateTime, Utc};
use rusqlite::{Connection, OptionalExtension, params};
use texto_core::{BuiltinKeyword, Keyword};

use super::numbered;
use crate::{
    Error,
    store::{
        AccountSettings,
        account_contacts::{OPT_OUT, SAVE, TAGS, with_tag},
        effects::Reply,
        keyword_effects::{Gate, KeywordEffect, KeywordMatch, gate, of_keywords},
        keywords::{
            ADD_TO_LIST, AUTO_REPLY, BLACKLIST, REMOVE_FROM_LIST, RULE_FOR_WORD, SETTINGS, UNBLACKLIST, read_settings,
        },
    },
};

/// Acts on `reply`'s keyword `word` (the built-in `builtin`, if it is one), written to `to`.
pub(super) fn act(
    db: &Connection,
    reply: &Reply<'_>,
    to: &str,
    (word, builtin): (&Keyword, Option<BuiltinKeyword>),
    at: &str,
    now: DateTime<Utc>,
) -> Result<(), Error> {
    let rule = db
        .prepare_cached(&numbered(RULE_FOR_WORD))?
        .query_row(params![reply.account, word.as_str()], |row| crate::store::keywords::read_rule(row))
        .optional()?
        .flatten();
    let settings = match gate(rule.as_ref(), builtin) {
        Gate::Ignored => return Ok(()),
        Gate::Acted { needs_settings: true } => db
            .prepare_cached(&numbered(SETTINGS))?
            .query_row([reply.account], |row| read_settings(row))
            .optional()?
            .unwrap_or_default(),
        Gate::Acted { needs_settings: false } => AccountSettings::default(),
    };
    let found = KeywordMatch { reply, to, builtin, rule, settings };
    for effect in of_keywords(&[found], now) {
        write(db, &effect, at)?;
    }
    Ok(())
}

/// Writes one effect.
fn write(db: &Connection, effect: &KeywordEffect, at: &str) -> Result<(), Error> {
    match effect {
        KeywordEffect::AddToList { account, list, number, info: [i1, i2, i3, i4] } => {
            db.prepare_cached(&numbered(ADD_TO_LIST))?.execute(params![account, list, number, i1, i2, i3, i4, at])?
        }
        KeywordEffect::RemoveFromList { account, list, number } => {
            db.prepare_cached(&numbered(REMOVE_FROM_LIST))?.execute(params![account, list, number])?
        }
        KeywordEffect::Blacklist(listing) => {
            let [i1, i2, i3, i4] = &listing.info;
            db.prepare_cached(&numbered(BLACKLIST))?.execute(params![
                listing.account,
                listing.number,
                i1,
                i2,
                i3,
                i4,
                listing.campaign,
                at
            ])?
        }
        KeywordEffect::Unblacklist { account, number } => {
            db.prepare_cached(&numbered(UNBLACKLIST))?.execute(params![account, number])?
        }
        KeywordEffect::Tag { account, number, tag } => {
            let tags: Option<String> =
                db.prepare_cached(&numbered(TAGS))?.query_row(params![account, number], |row| row.get(0)).optional()?;
            let none = None::<String>;
            db.prepare_cached(&numbered(SAVE))?.execute(params![
                account,
                number,
                none,
                none,
                none,
                with_tag(tags.as_deref(), tag),
                none,
                none,
                none,
                none,
                at
            ])?
        }
        KeywordEffect::OptIn { account, number, proof } => {
            let none = None::<String>;
            db.prepare_cached(&numbered(SAVE))?
                .execute(params![account, number, none, none, none, none, at, "keyword", proof, "", at])?
        }
        KeywordEffect::OptOut { account, number } => {
            db.prepare_cached(&numbered(OPT_OUT))?.execute(params![account, number, at, "keyword"])?
        }
        KeywordEffect::AutoReply(answer) => db.prepare_cached(&numbered(AUTO_REPLY))?.execute(params![
            answer.account,
            answer.number,
            answer.sender,
            answer.word,
            answer.day,
            answer.text,
            answer.to_blacklisted,
            at
        ])?,
    };
    Ok(())
}
