//! What replies' keywords do, in PostgreSQL: each account's rule and settings read, and the
//! effects [`keyword_effects::of_keywords`] gives written, in the replies' transaction.

use chrono::{DateTime, Utc};
use deadpool_postgres::Transaction;
use texto_core::{BuiltinKeyword, Keyword};

use super::query;
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

/// Acts on the keywords of `replies` (`keywords[i]` is `replies[i]`'s, written to `tos[i]`).
pub(super) async fn act(
    tx: &Transaction<'_>,
    replies: &[Reply<'_>],
    tos: &[&str],
    keywords: &[Option<(Keyword, Option<BuiltinKeyword>)>],
    at: &str,
    now: DateTime<Utc>,
) -> Result<(), Error> {
    let mut matches = Vec::new();
    for ((reply, to), keyword) in replies.iter().zip(tos).zip(keywords) {
        let Some((word, builtin)) = keyword else { continue };
        let rule = query(tx, RULE_FOR_WORD, &[&reply.account, &word.as_str()])
            .await?
            .first()
            .map(crate::store::keywords::read_rule)
            .transpose()?
            .flatten();
        let settings = match gate(rule.as_ref(), *builtin) {
            Gate::Ignored => continue,
            Gate::Acted { needs_settings: true } => query(tx, SETTINGS, &[&reply.account])
                .await?
                .first()
                .map(read_settings)
                .transpose()?
                .unwrap_or_default(),
            Gate::Acted { needs_settings: false } => AccountSettings::default(),
        };
        matches.push(KeywordMatch { reply, to, builtin: *builtin, rule, settings });
    }
    for effect in of_keywords(&matches, now) {
        write(tx, &effect, at).await?;
    }
    Ok(())
}

/// Writes one effect.
async fn write(tx: &Transaction<'_>, effect: &KeywordEffect, at: &str) -> Result<(), Error> {
    match effect {
        KeywordEffect::AddToList { account, list, number, info: [i1, i2, i3, i4] } => {
            query(tx, ADD_TO_LIST, &[account, list, number, i1, i2, i3, i4, &at]).await?
        }
        KeywordEffect::RemoveFromList { account, list, number } => {
            query(tx, REMOVE_FROM_LIST, &[account, list, number]).await?
        }
        KeywordEffect::Blacklist(listing) => {
            let [i1, i2, i3, i4] = &listing.info;
            let params: [&(dyn tokio_postgres::types::ToSql + Sync); 8] =
                [&listing.account, &listing.number, i1, i2, i3, i4, &listing.campaign, &at];
            query(tx, BLACKLIST, &params).await?
        }
        KeywordEffect::Unblacklist { account, number } => query(tx, UNBLACKLIST, &[account, number]).await?,
        KeywordEffect::Tag { account, number, tag } => {
            let tags: Option<String> = query(tx, TAGS, &[account, number]).await?.first().map(|row| row.get(0));
            let (tags, none) = (with_tag(tags.as_deref(), tag), None::<String>);
            let params: [&(dyn tokio_postgres::types::ToSql + Sync); 11] =
                [account, number, &none, &none, &none, &tags, &none, &none, &none, &none, &at];
            query(tx, SAVE, &params).await?
        }
        KeywordEffect::OptIn { account, number, proof } => {
            let (none, at, source, address) = (None::<String>, Some(at.to_owned()), Some("keyword"), Some(""));
            let params: [&(dyn tokio_postgres::types::ToSql + Sync); 11] =
                [account, number, &none, &none, &none, &none, &at, &source, &Some(proof.as_str()), &address, &at];
            query(tx, SAVE, &params).await?
        }
        KeywordEffect::OptOut { account, number } => query(tx, OPT_OUT, &[account, number, &at, &"keyword"]).await?,
        KeywordEffect::AutoReply(answer) => {
            let params: [&(dyn tokio_postgres::types::ToSql + Sync); 8] = [
                &answer.account,
                &answer.number,
                &answer.sender,
                &answer.word,
                &answer.day,
                &answer.text,
                &answer.to_blacklisted,
                &at,
            ];
            query(tx, AUTO_REPLY, &params).await?
        }
    };
    Ok(())
}
