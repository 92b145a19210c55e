//! The operator's commands for moderation rules (`texto moderation …`). Running nodes pick a
//! change up within a second.

use std::fmt::Write as _;

use crate::{
    Error,
    cli::args::ModerationAction,
    operator::moderation::rule_value,
    store::{DbLocation, moderation::RuleKind},
};

/// `texto moderation …`; returns what to print.
pub async fn moderation(db: impl Into<DbLocation>, action: ModerationAction) -> Result<String, Error> {
    let store = crate::store::for_commands(&db.into()).await?;
    match action {
        ModerationAction::AddPattern { pattern } => {
            let pattern = rule_value(RuleKind::Pattern, &pattern).map_err(Error::Command)?;
            let id = store.add_moderation_rule(RuleKind::Pattern, &pattern).await?;
            Ok(rule_added(id, RuleKind::Pattern, &pattern))
        }
        ModerationAction::AddDomain { domain } => {
            let domain = rule_value(RuleKind::Domain, &domain).map_err(Error::Command)?;
            let id = store.add_moderation_rule(RuleKind::Domain, &domain).await?;
            Ok(rule_added(id, RuleKind::Domain, &domain))
        }
        ModerationAction::NewAccounts { state } => {
            store.set_new_accounts_moderated(state).await?;
            Ok(match state {
                true => "new accounts are moderated unless created with --moderated off".into(),
                false => "new accounts are not moderated unless created with --moderated".into(),
            })
        }
        ModerationAction::List => {
            let (accounts, rules) = store.moderation().await?;
            let mut out = String::new();
            for rule in rules {
                let _ = writeln!(out, "{:>4} {:<8} {}", rule.id, rule.kind.as_str(), rule.value);
            }
            let mut names = Vec::new();
            for account in accounts {
                names.push(store.account_name(account).await?);
            }
            let _ = writeln!(
                out,
                "moderated accounts: {}",
                if names.is_empty() { "none".into() } else { names.join(", ") }
            );
            let new = if store.new_accounts_moderated().await? { "on" } else { "off" };
            let _ = write!(out, "new accounts moderated: {new}");
            Ok(out)
        }
        ModerationAction::Remove { id } => match store.remove_moderation_rule(id).await? {
            true => Ok(format!("rule {id} removed")),
            false => Err(Error::Command(format!("no rule {id}"))),
        },
    }
}

/// What adding rule `id` means, for the command line and the operators' log.
pub(crate) fn rule_added(id: i64, kind: RuleKind, value: &str) -> String {
    match kind {
        RuleKind::Pattern => format!("rule {id}: campaigns whose text matches {value:?} are held"),
        RuleKind::Domain => format!("rule {id}: campaigns with a link to {value} are held"),
    }
}
