//! Moderation: whether a campaign is held for an operator, and why, and whether an
//! account is suspended. The moderated and suspended accounts and the operator's rules are held in memory and read again each second, so that
//! `texto account moderate` and `texto moderation …` reach every node within a second.

use std::sync::{Arc, RwLock};

use regex::{Regex, RegexBuilder};
use rustc_hash::FxHashSet;
use tokio_util::sync::CancellationToken;

use crate::{
    Error,
    store::{AccountId, ModerationStore, moderation::RuleKind},
};

/// The most a pattern may compile to, so that no rule makes every send slow.
const PATTERN_SIZE_LIMIT: usize = 1 << 20;

/// A pattern as a rule holds it: case does not matter.
pub(crate) fn compile(pattern: &str) -> Result<Regex, String> {
    RegexBuilder::new(pattern)
        .case_insensitive(true)
        .size_limit(PATTERN_SIZE_LIMIT)
        .build()
        .map_err(|e| format!("{pattern:?} is not a pattern: {e}"))
}

/// A rule's value as it is stored, or why it cannot be one: a pattern that compiles, or a domain.
pub(crate) fn rule_value(kind: RuleKind, text: &str) -> Result<String, String> {
    match kind {
        RuleKind::Pattern => compile(text).map(|_| text.to_owned()),
        RuleKind::Domain => domain(text),
    }
}

/// Whether a new account is moderated: as its creation asked, or else as the platform's
/// setting for new accounts (`texto moderation new-accounts on|off`).
pub(crate) fn new_account_moderated(asked: Option<bool>, new_accounts_moderated: bool) -> bool {
    asked.unwrap_or(new_accounts_moderated)
}

/// Whether a sub-account a customer creates is moderated: when new accounts are, and always
/// under a moderated parent (whose campaigns would otherwise go unchecked through it).
pub(crate) fn sub_account_moderated(parent_moderated: bool, new_accounts_moderated: bool) -> bool {
    parent_moderated || new_accounts_moderated
}

/// A domain as a rule holds it: lower case, without a leading dot or `www.`.
pub(crate) fn domain(text: &str) -> Result<String, String> {
    let domain = text.trim().trim_start_matches('.').to_ascii_lowercase();
    let fits = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '.';
    if domain.is_empty() || !domain.contains('.') || !domain.chars().all(fits) {
        return Err(format!("{text:?} is not a domain (such as example.com)"));
    }
    Ok(domain)
}

/// Whether lower-cased `text` names `domain` or one of its subdomains as a whole host (in a
/// link written out, `https://promo.example.com/x`, or bare, `example.com`), not as a part of
/// another name (`notexample.com`, `example.com.evil`).
fn names_domain(text: &str, domain: &str) -> bool {
    let host_char = |c: char| c.is_alphanumeric() || c == '-';
    text.match_indices(domain).any(|(at, _)| {
        let starts = text[..at].chars().next_back().is_none_or(|c| !host_char(c));
        let mut after = text[at + domain.len()..].chars();
        let ends = match after.next() {
            None => true,
            Some('.') => after.next().is_none_or(|c| !host_char(c)),
            Some(c) => !host_char(c),
        };
        starts && ends
    })
}

/// The rules in force.
#[derive(Default)]
struct Rules {
    moderated: FxHashSet<AccountId>,
    suspended: FxHashSet<AccountId>,
    patterns: Vec<(i64, Regex)>,
    domains: Vec<(i64, String)>,
}

/// The moderation rules, as the send path checks them.
#[derive(Default)]
pub(crate) struct Moderation {
    rules: RwLock<Arc<Rules>>,
}

impl Moderation {
    /// Why a campaign of `account` with `text` and `links` is held; `None`: it goes.
    pub(crate) fn hold_reason(&self, account: AccountId, text: &str, links: &[String]) -> Option<String> {
        let rules = Arc::clone(&self.rules.read().unwrap_or_else(|e| e.into_inner()));
        if rules.moderated.contains(&account) {
            return Some("the account is moderated".into());
        }
        if let Some((id, pattern)) = rules.patterns.iter().find(|(_, pattern)| pattern.is_match(text)) {
            return Some(format!("the text matches rule {id} ({})", pattern.as_str()));
        }
        if rules.domains.is_empty() {
            return None;
        }
        let hosts: Vec<String> = links
            .iter()
            .filter_map(|link| url::Url::parse(link).ok()?.host_str().map(str::to_ascii_lowercase))
            .collect();
        let text = text.to_lowercase();
        let listed = |(_, domain): &&(i64, String)| {
            hosts.iter().any(|host| host == domain || host.ends_with(&format!(".{domain}")))
                || names_domain(&text, domain)
        };
        rules.domains.iter().find(listed).map(|(id, domain)| format!("a link points to {domain} (rule {id})"))
    }

    /// Whether every campaign of `account` is held.
    pub(crate) fn is_moderated(&self, account: AccountId) -> bool {
        self.rules.read().unwrap_or_else(|e| e.into_inner()).moderated.contains(&account)
    }

    /// Whether an operator suspended `account` (or the account it is a sub-account of).
    pub(crate) fn is_suspended(&self, account: AccountId) -> bool {
        self.rules.read().unwrap_or_else(|e| e.into_inner()).suspended.contains(&account)
    }

    /// Reads the moderated and suspended accounts and the rules again (a stored pattern that no longer
    /// compiles is left out, and logged).
    pub(crate) async fn refresh(&self, store: &dyn ModerationStore) -> Result<(), Error> {
        let (accounts, stored) = store.moderation().await?;
        let suspended = store.suspended_accounts().await?.into_iter().collect();
        let mut rules = Rules { moderated: accounts.into_iter().collect(), suspended, ..Rules::default() };
        for rule in stored {
            match rule.kind {
                RuleKind::Pattern => match compile(&rule.value) {
                    Ok(pattern) => rules.patterns.push((rule.id, pattern)),
                    Err(why) => tracing::error!(rule = rule.id, %why, "a stored moderation pattern is left out"),
                },
                RuleKind::Domain => rules.domains.push((rule.id, rule.value)),
            }
        }
        *self.rules.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(rules);
        Ok(())
    }
}

/// Refreshes `moderation` every second until stopped.
pub(crate) async fn run(moderation: Arc<Moderation>, store: Arc<dyn ModerationStore>, stop: CancellationToken) {
    crate::operator::settings_reload::run("moderation rules", stop, || moderation.refresh(store.as_ref())).await;
}

/// The status of a campaign created but held for moderation.
pub(crate) const UNDER_MODERATION: i64 = -8;
/// Its message.
const UNDER_MODERATION_MESSAGE: &str = "Campaign under moderation";

/// Marks an answer as that of a campaign held for moderation (status -8, 202).
pub(crate) fn mark_held(answer: &mut texto_core::wire::CampaignResultDto) {
    answer.status = UNDER_MODERATION;
    answer.message = UNDER_MODERATION_MESSAGE.into();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(rules: Rules) -> Moderation {
        Moderation { rules: RwLock::new(Arc::new(rules)) }
    }

    #[test]
    fn an_account_a_pattern_or_a_linked_domain_holds_a_campaign() {
        let moderation = with(Rules {
            moderated: [7].into_iter().collect(),
            suspended: FxHashSet::default(),
            patterns: vec![(1, compile(r"cr[ée]dit\s+rapide").unwrap())],
            domains: vec![(2, domain("Bit.ly").unwrap())],
        });
        assert_eq!(moderation.hold_reason(7, "Bonjour", &[]).as_deref(), Some("the account is moderated"));
        assert!(moderation.hold_reason(8, "Votre CRÉDIT   rapide ici", &[]).unwrap().contains("rule 1"));
        let links = ["https://go.bit.ly/x".to_owned()];
        assert_eq!(
            moderation.hold_reason(8, "Voir <-short->", &links).as_deref(),
            Some("a link points to bit.ly (rule 2)")
        );
        assert_eq!(moderation.hold_reason(8, "Voir <-short->", &["https://notbit.ly/x".to_owned()]), None);
        assert_eq!(moderation.hold_reason(8, "Rendez-vous demain", &[]), None);
        // A link written out in the text, or a bare domain, is held as a short link is.
        for text in ["Voir https://promo.BIT.ly/x", "Allez sur bit.ly/promo", "Offre: www.bit.ly.", "bit.ly"] {
            assert_eq!(
                moderation.hold_reason(8, text, &[]).as_deref(),
                Some("a link points to bit.ly (rule 2)"),
                "{text}"
            );
        }
        for text in ["Voir notbit.ly", "Voir bit.ly.example.com/x", "Voir bit.lyon.fr", "habit.ly-x"] {
            assert_eq!(moderation.hold_reason(8, text, &[]), None, "{text}");
        }
    }

    #[test]
    fn rules_are_checked_when_written() {
        assert!(compile("(unclosed").is_err());
        assert!(domain("not a domain").is_err());
        assert!(domain("localhost").is_err());
        assert_eq!(domain(".Example.COM").unwrap(), "example.com");
    }
}
