//! What a reply's keyword does: the one home of those rules, beside
//! [`super::effects`]. The stores find the account's rule for the reply's first word and its
//! settings, ask [`of_keywords`] what follows, and write the [`KeywordEffect`]s in order.

use chrono::{DateTime, Utc};
use texto_core::{BuiltinKeyword, KeywordAction, format_paris};

use super::{
    AccountId,
    effects::{Listing, Reply, info_of},
    keywords::{AccountSettings, DEFAULT_STOP_CONFIRMATION, KeywordRule},
};

/// The short code replies come to when they name no other number: answers from it need no
/// sender.
const DEFAULT_SHORT_CODE: &str = "36180";

/// The sender of an answer to a reply written to `to`: that number, or `None` for the default
/// short code (the campaign's default sender).
pub(crate) fn answer_sender(to: &str) -> Option<&str> {
    Some(to).filter(|to| !to.is_empty() && *to != DEFAULT_SHORT_CODE)
}

/// A kept reply whose first word is a keyword, with what the store found for it.
#[derive(Debug, Clone)]
pub(crate) struct KeywordMatch<'a> {
    /// The reply.
    pub(crate) reply: &'a Reply<'a>,
    /// The number it was written to.
    pub(crate) to: &'a str,
    /// The built-in keyword it calls, if one.
    pub(crate) builtin: Option<BuiltinKeyword>,
    /// The account's rule for its word, if written (a built-in keyword acts with its defaults
    /// until the account's keywords are first read).
    pub(crate) rule: Option<KeywordRule>,
    /// The account's settings (read for the built-in keywords only; default otherwise).
    pub(crate) settings: AccountSettings,
}

/// An automatic reply to write, for the auto-reply worker to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AutoReply {
    /// The account that answers.
    pub(crate) account: AccountId,
    /// To whom.
    pub(crate) number: i64,
    /// From the number that was written to (empty: the default sender).
    pub(crate) sender: String,
    /// The keyword answered: with the Paris day, at most one answer each per number.
    pub(crate) word: String,
    /// The Paris day (`YYYY-MM-DD`).
    pub(crate) day: String,
    /// What is answered.
    pub(crate) text: String,
    /// A STOP confirmation: sent although the number is now blacklisted.
    pub(crate) to_blacklisted: bool,
}

/// One thing a keyword does, written in the order given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum KeywordEffect {
    /// The number joins one of the account's lists (with the contact info of the message it
    /// answered), unless it is in it.
    AddToList { account: AccountId, list: i64, number: i64, info: [String; 4] },
    /// The number leaves one of the account's lists.
    RemoveFromList { account: AccountId, list: i64, number: i64 },
    /// The number is blacklisted (source `keyword`), unless it is.
    Blacklist(Listing),
    /// The number leaves the blacklist.
    Unblacklist { account: AccountId, number: i64 },
    /// The number's contact gets a tag (the contact is created if need be).
    Tag { account: AccountId, number: i64, tag: String },
    /// The number's contact opts in by keyword, with the reply as its proof.
    OptIn { account: AccountId, number: i64, proof: String },
    /// The number's contact opts out by keyword.
    OptOut { account: AccountId, number: i64 },
    /// An answer to send.
    AutoReply(AutoReply),
}

/// What a reply's keyword needs before it is acted on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Gate {
    /// Nothing: the account has no rule for the word and it is not a built-in one.
    Ignored,
    /// It is acted on; a built-in word's answer reads the account's settings too.
    Acted {
        /// Whether the account's settings are read.
        needs_settings: bool,
    },
}

/// The gate of a reply's keyword: the account's `rule` for the word, and the built-in word it
/// is, if any.
pub(crate) fn gate(rule: Option<&KeywordRule>, builtin: Option<BuiltinKeyword>) -> Gate {
    match (rule, builtin) {
        (None, None) => Gate::Ignored,
        (_, builtin) => Gate::Acted { needs_settings: builtin.is_some() },
    }
}

/// What `matches` do, in their order. A STOP's blacklisting is written by
/// [`super::effects::of_replies`] before these, so a START later in the same batch lifts it;
/// a START followed by a STOP from the same number loses its lifting.
pub(crate) fn of_keywords(matches: &[KeywordMatch<'_>], now: DateTime<Utc>) -> Vec<KeywordEffect> {
    let day = format_paris(now).chars().take(10).collect::<String>();
    let mut effects = Vec::new();
    for found in matches {
        let reply = found.reply;
        let (account, number) = (reply.account, reply.number);
        if found.builtin == Some(BuiltinKeyword::Stop) {
            effects.retain(|effect| *effect != KeywordEffect::Unblacklist { account, number });
            effects.push(KeywordEffect::OptOut { account, number });
        }
        if found.builtin == Some(BuiltinKeyword::Start) {
            effects.push(KeywordEffect::Unblacklist { account, number });
            effects.push(KeywordEffect::OptIn { account, number, proof: reply.text.to_owned() });
        }
        let actions = found.rule.as_ref().map_or(&[][..], |rule| &rule.actions[..]);
        for action in actions {
            // Joining by keyword is consent by keyword: the number asked for the list's
            // messages, and its reply is the proof. Like START, it is the number's later word
            // after a STOP, which it lifts. The STOP keyword itself never consents (the API
            // refuses a join there).
            if let KeywordAction::JoinList { .. } = action
                && found.builtin != Some(BuiltinKeyword::Stop)
            {
                effects.push(KeywordEffect::Unblacklist { account, number });
                effects.push(KeywordEffect::OptIn { account, number, proof: reply.text.to_owned() });
            }
            effects.push(match action {
                KeywordAction::AddToList { list } | KeywordAction::JoinList { list } => {
                    KeywordEffect::AddToList { account, list: *list, number, info: info_of(reply.info.as_deref()) }
                }
                KeywordAction::RemoveFromList { list } => {
                    KeywordEffect::RemoveFromList { account, list: *list, number }
                }
                KeywordAction::Tag { value } => KeywordEffect::Tag { account, number, tag: value.clone() },
                KeywordAction::Blacklist => KeywordEffect::Blacklist(Listing {
                    account,
                    number,
                    info: info_of(reply.info.as_deref()),
                    campaign: reply.campaign,
                }),
                KeywordAction::Unblacklist => KeywordEffect::Unblacklist { account, number },
            });
        }
        if let Some(text) = answer(found) {
            let word = found.rule.as_ref().map_or_else(
                || found.builtin.map_or_else(String::new, |b| b.word().to_owned()),
                |rule| rule.word.as_str().to_owned(),
            );
            effects.push(KeywordEffect::AutoReply(AutoReply {
                account,
                number,
                sender: answer_sender(found.to).unwrap_or_default().to_owned(),
                word,
                day: day.clone(),
                text,
                to_blacklisted: found.builtin == Some(BuiltinKeyword::Stop),
            }));
        }
    }
    effects
}

/// The answer a match calls for, if any: STOP's confirmation only when the account asks for
/// it, HELP's the account's help text, any other the rule's reply.
fn answer(found: &KeywordMatch<'_>) -> Option<String> {
    let own = found.rule.as_ref().map(|rule| rule.reply.trim()).filter(|reply| !reply.is_empty());
    let text = match found.builtin {
        Some(BuiltinKeyword::Stop) if !found.settings.stop_confirmation => None,
        Some(BuiltinKeyword::Stop) => Some(own.unwrap_or(DEFAULT_STOP_CONFIRMATION)),
        Some(BuiltinKeyword::Help) => Some(found.settings.help_text.trim()).filter(|text| !text.is_empty()),
        Some(BuiltinKeyword::Start) | None => own,
    };
    text.map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use chrono::{TimeZone, Utc};
    use texto_core::{BuiltinKeyword, Keyword, KeywordAction};

    use super::{KeywordEffect, KeywordMatch, answer_sender, of_keywords};
    use crate::store::{AccountSettings, KeywordRule, effects::Reply};

    fn reply(text: &str) -> Reply<'_> {
        Reply { account: 7, number: 33612345678, text, last_message: 1, campaign: 2, info: None, contact: None }
    }

    fn found<'a>(reply: &'a Reply<'a>, builtin: Option<BuiltinKeyword>, rule: Option<KeywordRule>) -> KeywordMatch<'a> {
        KeywordMatch { reply, to: "36180", builtin, rule, settings: AccountSettings::default() }
    }

    fn rule(word: &str, reply: &str, actions: Vec<KeywordAction>) -> KeywordRule {
        KeywordRule { id: 1, word: Keyword::parse(word, "w").unwrap(), builtin: None, reply: reply.into(), actions }
    }

    #[test]
    fn a_rule_acts_in_order_then_answers_from_the_number_written_to() {
        let oui = reply("oui");
        let mut matched = found(&oui, None, Some(rule("OUI", "Bienvenue", vec![KeywordAction::AddToList { list: 4 }])));
        matched.to = "0612";
        let now = Utc.with_ymd_and_hms(2026, 11, 26, 23, 30, 0).unwrap();
        let effects = of_keywords(&[matched], now);
        assert!(matches!(effects[0], KeywordEffect::AddToList { list: 4, number: 33612345678, .. }));
        let KeywordEffect::AutoReply(answer) = &effects[1] else { panic!("an answer: {effects:?}") };
        assert_eq!((answer.sender.as_str(), answer.word.as_str(), answer.text.as_str()), ("0612", "OUI", "Bienvenue"));
        assert_eq!(answer.day, "2026-11-27", "the day is Paris's");
        assert_eq!(answer_sender("36180"), None);
    }

    #[test]
    fn joining_a_list_by_keyword_records_the_reply_as_consent() {
        let club = reply("Club Lyon");
        let joins =
            rule("CLUB", "", vec![KeywordAction::JoinList { list: 9 }, KeywordAction::Tag { value: "club".into() }]);
        let effects = of_keywords(&[found(&club, None, Some(joins))], Utc::now());
        let (account, number) = (7, 33612345678);
        assert_eq!(effects[0], KeywordEffect::Unblacklist { account, number }, "a join lifts an earlier STOP");
        assert_eq!(effects[1], KeywordEffect::OptIn { account, number, proof: "Club Lyon".into() });
        assert!(matches!(effects[2], KeywordEffect::AddToList { list: 9, number: 33612345678, .. }), "{effects:?}");
        assert_eq!(effects[3], KeywordEffect::Tag { account, number, tag: "club".into() });
        assert_eq!(effects.len(), 4, "no answer without a reply text: {effects:?}");

        let stop = reply("STOP");
        let joins_on_stop = rule("STOP", "", vec![KeywordAction::JoinList { list: 9 }]);
        let effects = of_keywords(&[found(&stop, Some(BuiltinKeyword::Stop), Some(joins_on_stop))], Utc::now());
        assert!(
            !effects.iter().any(|e| matches!(e, KeywordEffect::OptIn { .. } | KeywordEffect::Unblacklist { .. })),
            "STOP never consents: {effects:?}"
        );
        assert_eq!(
            effects.last(),
            Some(&KeywordEffect::AddToList { account, list: 9, number, info: Default::default() })
        );
    }

    #[test]
    fn stop_is_confirmed_only_when_asked_and_help_only_with_a_text() {
        let stop = reply("STOP");
        let now = Utc::now();
        let quiet = of_keywords(&[found(&stop, Some(BuiltinKeyword::Stop), None)], now);
        assert_eq!(quiet, [KeywordEffect::OptOut { account: 7, number: 33612345678 }], "no answer");
        let mut confirmed = found(&stop, Some(BuiltinKeyword::Stop), None);
        confirmed.settings.stop_confirmation = true;
        let effects = of_keywords(&[confirmed], now);
        assert!(
            matches!(&effects[..], [KeywordEffect::OptOut { .. }, KeywordEffect::AutoReply(answer)] if answer.to_blacklisted)
        );
        let help = reply("aide");
        assert!(of_keywords(&[found(&help, Some(BuiltinKeyword::Help), None)], now).is_empty());
    }

    #[test]
    fn the_last_of_start_and_stop_from_a_number_wins() {
        let (start, stop) = (reply("START"), reply("STOP"));
        let now = Utc::now();
        let lifted = of_keywords(
            &[found(&stop, Some(BuiltinKeyword::Stop), None), found(&start, Some(BuiltinKeyword::Start), None)],
            now,
        );
        let (account, number) = (7, 33612345678);
        assert_eq!(lifted.last(), Some(&KeywordEffect::OptIn { account, number, proof: "START".into() }));
        assert!(lifted.contains(&KeywordEffect::Unblacklist { account, number }), "{lifted:?}");
        let kept = of_keywords(
            &[found(&start, Some(BuiltinKeyword::Start), None), found(&stop, Some(BuiltinKeyword::Stop), None)],
            now,
        );
        assert!(!kept.contains(&KeywordEffect::Unblacklist { account, number }), "{kept:?}");
        assert_eq!(kept.last(), Some(&KeywordEffect::OptOut { account, number }), "the opt-out comes last");
    }
}
