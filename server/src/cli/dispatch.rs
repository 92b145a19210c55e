//! The operators' log of what the command line changed: a command that changes accounts,
//! connectors, routes, plans, moderation rules, operators, tokens or people leaves a line in the
//! operators' log (`GET /operator/audit`, the console's Log), and in the account's own log when
//! it is about one account, as the same change made from the console does. [`administer`]
//! runs such a command and records it.

use std::sync::Arc;

use chrono::Utc;

use crate::{
    Error,
    account::audit_log::PLATFORM_LOG,
    cli::args::{
        AccountAction, Command, ConnectorAction, ModerationAction, OperatorAction, PlanAction, RouteAction,
        SenderAction, TokenAction, UserAction,
    },
    operator::{account_commands, moderation_commands, plan_commands, routing_commands, sender_commands},
    store::{AuditEntry, DbLocation},
    team::user_commands,
};

/// Runs an administration command (any but `serve` and `smsc-simulator`) against its database,
/// records what it changed, and returns what to print.
pub async fn administer(command: Command) -> Result<String, Error> {
    let change = change(&command);
    let output = match command {
        Command::Serve(_) | Command::SmscSimulator(_) => {
            return Err(Error::Command("serve and smsc-simulator are not administration commands".into()));
        }
        Command::Account { db, action } => account_commands::account(&db.db, action).await?,
        Command::Token { db, action } => account_commands::token(&db.db, action).await?,
        Command::Connector { db, action } => routing_commands::connector(&db.db, action).await?,
        Command::Route { db, action } => routing_commands::route(&db.db, action).await?,
        Command::Moderation { db, action } => moderation_commands::moderation(&db.db, action).await?,
        Command::Operator { db, action } => account_commands::operator(&db.db, action).await?,
        Command::Plan { db, action } => plan_commands::plan(&db.db, action).await?,
        Command::Sender { db, action } => sender_commands::sender(&db.db, action).await?,
        Command::User { db, action } => user_commands::user(&db.db, action).await?,
    };
    if let Some(change) = change
        && let Err(error) = record(change, &output).await
    {
        tracing::warn!(%error, "done, but not written in the operators' log");
    }
    Ok(output)
}

/// What a command changes, to record once it succeeded.
#[derive(Debug, Clone)]
struct Change {
    db: DbLocation,
    action: &'static str,
    object: String,
    /// The account it is about, by name.
    account: Option<String>,
    /// What to record instead of the command's output, when that output is a secret.
    summary: Option<String>,
}

/// The change `command` makes, or `None` for `serve`, the simulator and what only reads.
fn change(command: &Command) -> Option<Change> {
    let change = |db: &DbLocation, action, object: String, account: Option<&String>, summary: Option<String>| {
        Some(Change { db: db.clone(), action, object, account: account.cloned(), summary })
    };
    match command {
        Command::Serve(_) | Command::SmscSimulator(_) => None,
        Command::Account { db, action } => {
            let (verb, name) = match action {
                AccountAction::Create { name, .. } => ("account.create", name),
                AccountAction::Limit { name, .. } => ("account.limit", name),
                AccountAction::Moderate { name, .. } => ("account.moderate", name),
                AccountAction::Credit { name, .. } => ("account.credit", name),
                AccountAction::Flood { name, .. } => ("account.flood", name),
                AccountAction::Plan { name, .. } => ("account.plan", name),
                AccountAction::Country { name, .. } => ("account.country", name),
            };
            change(&db.db, verb, format!("account {name}"), Some(name), None)
        }
        Command::Token { db, action } => match action {
            TokenAction::Create { account, name, role, .. } => {
                let summary = format!("token {name:?} created for account {account} ({role})");
                change(&db.db, "token.create", format!("account {account}"), Some(account), Some(summary))
            }
            TokenAction::Revoke { .. } => {
                change(&db.db, "token.revoke", String::new(), None, Some("token revoked".into()))
            }
        },
        Command::Connector { db, action } => {
            let (verb, name) = match action {
                ConnectorAction::List => return None,
                ConnectorAction::Add { name, .. } => ("connector.save", name),
                ConnectorAction::Enable { name } => ("connector.enable", name),
                ConnectorAction::Disable { name } => ("connector.disable", name),
                ConnectorAction::Remove { name } => ("connector.remove", name),
            };
            change(&db.db, verb, format!("connector {name}"), None, None)
        }
        Command::Route { db, action } => match action {
            RouteAction::List => None,
            RouteAction::Add { .. } => change(&db.db, "route.add", String::new(), None, None),
            RouteAction::Remove { id } => change(&db.db, "route.remove", format!("route {id}"), None, None),
        },
        Command::Operator { db, action } => {
            let (verb, name, done) = match action {
                OperatorAction::Create { name } => ("operator.create", name, "created"),
                OperatorAction::Password { name } => ("operator.password", name, "given a new password"),
            };
            change(&db.db, verb, format!("operator {name}"), None, Some(format!("operator {name} {done}")))
        }
        Command::Moderation { db, action } => match action {
            ModerationAction::List => None,
            ModerationAction::AddPattern { .. } | ModerationAction::AddDomain { .. } => {
                change(&db.db, "moderation.rule", String::new(), None, None)
            }
            ModerationAction::Remove { id } => change(&db.db, "moderation.remove", format!("rule {id}"), None, None),
            ModerationAction::NewAccounts { .. } => {
                change(&db.db, "moderation.new_accounts", String::new(), None, None)
            }
        },
        Command::Sender { db, action } => match action {
            SenderAction::List { .. } => None,
            SenderAction::Add { account, name } => {
                change(&db.db, "sender.add", format!("sender {name}"), Some(account), None)
            }
            SenderAction::Remove { account, name } => {
                change(&db.db, "sender.remove", format!("sender {name}"), Some(account), None)
            }
        },
        Command::Plan { db, action } => match action {
            PlanAction::List => None,
            PlanAction::Set { name, .. } => change(&db.db, "plan.set", format!("plan {name}"), None, None),
        },
        Command::User { db, action } => match action {
            UserAction::Create { account, email, role, .. } => {
                let summary = format!("{email} added to account {account} as {role}");
                change(&db.db, "user.create", format!("account {account}"), Some(account), Some(summary))
            }
        },
    }
}

/// Writes the line of `change`, which printed `output`: in the operators' log, and in the
/// account's log when it is about one (by `USER`, from the command line).
async fn record(change: Change, output: &str) -> Result<(), Error> {
    let store = crate::store::for_commands(&change.db).await?;
    let user = std::env::var("USER").unwrap_or_default();
    let entry = AuditEntry {
        account: PLATFORM_LOG,
        at: Utc::now(),
        actor: if user.is_empty() { "command line".into() } else { format!("command line ({user})") },
        address: "command line".into(),
        action: change.action.to_owned(),
        object: change.object,
        summary: change.summary.unwrap_or_else(|| output.lines().next().unwrap_or_default().to_owned()),
    };
    let mut entries = vec![entry.clone()];
    if let Some(name) = change.account
        && let Some(account) = store.account_by_name(&name).await?
    {
        entries.push(AuditEntry { account, ..entry });
    }
    store.record_audit(Arc::new(entries)).await
}
