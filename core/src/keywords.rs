//! Keywords: the first word of a reply, matched without regard to case or accents,
//! and what an account's rule for it does. STOP, START and HELP are built in; an account adds
//! its own ("reply OUI to join").

use serde::{Deserialize, Serialize};
use unicode_normalization::{UnicodeNormalization, char::is_combining_mark};

use crate::{FieldError, is_stop_word};

/// The longest keyword, in characters.
pub const MOST_KEYWORD_CHARS: usize = 20;

/// The longest automatic reply, in characters (six concatenated GSM parts).
pub const MOST_REPLY_CHARS: usize = 918;

/// The longest tag, in characters.
pub const MOST_TAG_CHARS: usize = 40;

/// The most actions one keyword takes.
pub const MOST_ACTIONS: usize = 10;

/// A keyword as matched: letters and digits, upper case, without accents (`Été` is `ETE`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Keyword(String);

impl Keyword {
    /// The keyword `word` stands for; an error (at `path`) when it is not one word of letters and
    /// digits, or is longer than [`MOST_KEYWORD_CHARS`].
    pub fn parse(word: &str, path: &str) -> Result<Keyword, FieldError> {
        let folded = fold(word.trim());
        if folded.is_empty() || folded.chars().count() > MOST_KEYWORD_CHARS {
            return Err(FieldError::new(path, format!("a keyword is 1 to {MOST_KEYWORD_CHARS} letters or digits")));
        }
        if !folded.chars().all(char::is_alphanumeric) {
            return Err(FieldError::new(path, "a keyword is one word of letters and digits, without spaces or signs"));
        }
        Ok(Keyword(folded))
    }

    /// The first word of `reply` (what comes before a space or a sign), if it starts with one.
    pub fn first_of(reply: &str) -> Option<Keyword> {
        let word: String = reply
            .trim_start_matches(|c: char| !c.is_alphanumeric())
            .chars()
            .take_while(|c| c.is_alphanumeric())
            .collect();
        let folded = fold(&word);
        (!folded.is_empty() && folded.chars().count() <= MOST_KEYWORD_CHARS).then_some(Keyword(folded))
    }

    /// The keyword as stored and shown.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// `word` upper case, its accents dropped.
fn fold(word: &str) -> String {
    word.nfd().filter(|c| !is_combining_mark(*c)).flat_map(char::to_uppercase).collect()
}

/// A keyword every account has; its words and its own effect cannot be changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BuiltinKeyword {
    /// The stop words (docs/interface.md §7.2): the number is blacklisted, and told so when the
    /// account asks for a confirmation.
    Stop,
    /// START, UNSTOP, RESUME: the number leaves the blacklist.
    Start,
    /// HELP, AIDE: the account's help text is sent back.
    Help,
}

impl BuiltinKeyword {
    /// The three of them.
    pub const ALL: [BuiltinKeyword; 3] = [BuiltinKeyword::Stop, BuiltinKeyword::Start, BuiltinKeyword::Help];

    /// The word it is listed and stored under.
    pub fn word(self) -> &'static str {
        match self {
            BuiltinKeyword::Stop => "STOP",
            BuiltinKeyword::Start => "START",
            BuiltinKeyword::Help => "HELP",
        }
    }

    /// Every first word it answers to (STOP's replies are told by [`is_stop_word`] instead).
    pub fn words(self) -> &'static [&'static str] {
        match self {
            BuiltinKeyword::Stop => &["STOP", "ARRET", "UNSUBSCRIBE"],
            BuiltinKeyword::Start => &["START", "UNSTOP", "RESUME"],
            BuiltinKeyword::Help => &["HELP", "AIDE"],
        }
    }

    /// Its name on the wire and in the database: `stop`, `start`, `help`.
    pub fn name(self) -> &'static str {
        match self {
            BuiltinKeyword::Stop => "stop",
            BuiltinKeyword::Start => "start",
            BuiltinKeyword::Help => "help",
        }
    }

    /// The built-in keyword named `name`.
    pub fn from_name(name: &str) -> Option<BuiltinKeyword> {
        BuiltinKeyword::ALL.into_iter().find(|builtin| builtin.name() == name)
    }

    /// The built-in keyword that answers to `word`, if one does.
    pub fn answering(word: &Keyword) -> Option<BuiltinKeyword> {
        BuiltinKeyword::ALL.into_iter().find(|builtin| builtin.words().contains(&word.as_str()))
    }
}

/// The rule a reply calls for: the word of the account's rule to look up, and the built-in
/// keyword it is, if it is one. A reply that only starts with a stop word ("stop it") calls for
/// none: only a stop word on its own unsubscribes.
pub fn keyword_of_reply(reply: &str) -> Option<(Keyword, Option<BuiltinKeyword>)> {
    if is_stop_word(reply) {
        return Some((Keyword(BuiltinKeyword::Stop.word().to_owned()), Some(BuiltinKeyword::Stop)));
    }
    let word = Keyword::first_of(reply)?;
    match BuiltinKeyword::answering(&word) {
        Some(BuiltinKeyword::Stop) => None,
        Some(builtin) => Some((Keyword(builtin.word().to_owned()), Some(builtin))),
        None => Some((word, None)),
    }
}

/// Something a keyword does to the number that wrote it, besides answering.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum KeywordAction {
    /// Adds the number to one of the account's lists.
    AddToList {
        /// The list.
        list: i64,
    },
    /// Adds the number to one of the account's lists and records its opt-in (consent by
    /// keyword, the reply as its proof): "text CLUB to join".
    JoinList {
        /// The list.
        list: i64,
    },
    /// Takes the number out of one of the account's lists.
    RemoveFromList {
        /// The list.
        list: i64,
    },
    /// Adds a tag to the number's contact.
    Tag {
        /// The tag.
        value: String,
    },
    /// Puts the number on the blacklist.
    Blacklist,
    /// Takes the number off the blacklist.
    Unblacklist,
}

impl KeywordAction {
    /// The action of the wire's `type` (`add_to_list`, …) with its `list` or `value`; an error
    /// at `path`.
    pub fn parse(kind: &str, list: Option<&str>, value: Option<&str>, path: &str) -> Result<KeywordAction, FieldError> {
        let list_id = || {
            list.and_then(|list| list.trim().parse::<i64>().ok()).filter(|id| *id > 0).ok_or_else(|| {
                FieldError::new(format!("{path}.list"), "the id of one of the account's lists is needed")
            })
        };
        match kind.trim() {
            "add_to_list" => Ok(KeywordAction::AddToList { list: list_id()? }),
            "join_list" => Ok(KeywordAction::JoinList { list: list_id()? }),
            "remove_from_list" => Ok(KeywordAction::RemoveFromList { list: list_id()? }),
            "blacklist" => Ok(KeywordAction::Blacklist),
            "unblacklist" => Ok(KeywordAction::Unblacklist),
            "tag" => match value.map(str::trim).filter(|v| !v.is_empty() && v.chars().count() <= MOST_TAG_CHARS) {
                Some(tag) => Ok(KeywordAction::Tag { value: tag.to_owned() }),
                None => {
                    Err(FieldError::new(format!("{path}.value"), format!("the tag: 1 to {MOST_TAG_CHARS} characters")))
                }
            },
            other => Err(FieldError::new(
                format!("{path}.type"),
                format!(
                    "{other:?} is not an action: add_to_list, join_list, remove_from_list, tag, blacklist or unblacklist"
                ),
            )),
        }
    }

    /// Its `type` on the wire.
    pub fn kind(&self) -> &'static str {
        match self {
            KeywordAction::AddToList { .. } => "add_to_list",
            KeywordAction::JoinList { .. } => "join_list",
            KeywordAction::RemoveFromList { .. } => "remove_from_list",
            KeywordAction::Tag { .. } => "tag",
            KeywordAction::Blacklist => "blacklist",
            KeywordAction::Unblacklist => "unblacklist",
        }
    }

    /// The list it names, if it names one.
    pub fn list(&self) -> Option<i64> {
        match self {
            KeywordAction::AddToList { list }
            | KeywordAction::JoinList { list }
            | KeywordAction::RemoveFromList { list } => Some(*list),
            KeywordAction::Tag { .. } | KeywordAction::Blacklist | KeywordAction::Unblacklist => None,
        }
    }

    /// The tag it adds, if it adds one.
    pub fn tag(&self) -> Option<&str> {
        match self {
            KeywordAction::Tag { value } => Some(value),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{BuiltinKeyword, Keyword, KeywordAction, keyword_of_reply};

    #[test]
    fn the_first_word_matches_whatever_its_case_and_accents() {
        for reply in ["oui", "OUI", "Oui !", "  oui, merci", "OUÏ"] {
            assert_eq!(keyword_of_reply(reply).map(|(word, _)| word.0), Some("OUI".to_owned()), "{reply:?}");
        }
        assert_eq!(Keyword::parse("Été", "w").unwrap().as_str(), "ETE");
        assert!(Keyword::parse("two words", "w").is_err());
        assert!(Keyword::parse("", "w").is_err());
        assert!(keyword_of_reply("!!!").is_none());
    }

    #[test]
    fn builtin_words_call_their_rule_and_a_stop_word_must_stand_alone() {
        assert_eq!(keyword_of_reply("Stop").unwrap().1, Some(BuiltinKeyword::Stop));
        assert_eq!(keyword_of_reply("arrêt").unwrap().1, Some(BuiltinKeyword::Stop));
        assert_eq!(keyword_of_reply("stop it"), None);
        assert_eq!(keyword_of_reply("unstop please").unwrap().0.as_str(), "START");
        assert_eq!(keyword_of_reply("Aide").unwrap().1, Some(BuiltinKeyword::Help));
    }

    #[test]
    fn actions_need_their_list_or_tag() {
        assert_eq!(
            KeywordAction::parse("add_to_list", Some("12"), None, "a").unwrap(),
            KeywordAction::AddToList { list: 12 }
        );
        assert!(KeywordAction::parse("add_to_list", None, None, "a").is_err());
        assert_eq!(KeywordAction::parse("tag", None, Some(" vip "), "a").unwrap().tag(), Some("vip"));
        assert!(KeywordAction::parse("tag", None, None, "a").unwrap_err().path.ends_with(".value"));
        let stored = serde_json::to_string(&[KeywordAction::Blacklist, KeywordAction::RemoveFromList { list: 3 }]);
        assert_eq!(stored.unwrap(), r#"[{"type":"blacklist"},{"type":"remove_from_list","list":3}]"#);
    }
}
