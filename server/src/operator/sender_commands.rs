//! The operator's commands for an account's registered sender IDs (`texto sender …`).
//! Running nodes check sends against them at once (they are read with each send).

use texto_core::Sender;

use crate::{Error, cli::args::SenderAction, store::DbLocation};

/// `texto sender …`; returns what to print.
pub async fn sender(db: impl Into<DbLocation>, action: SenderAction) -> Result<String, Error> {
    let store = crate::store::for_commands(&db.into()).await?;
    let account_of = |name: String| {
        let store = &store;
        async move { store.account_by_name(&name).await?.ok_or_else(|| Error::Command(format!("no account named {name}"))) }
    };
    match action {
        SenderAction::Add { account, name } => {
            let sender = Sender::parse(&name).map_err(|why| Error::Command(format!("sender {name}: {why}")))?;
            let id = account_of(account.clone()).await?;
            Ok(match store.add_sender(id, sender.as_str()).await? {
                true => format!(
                    "sender {} registered for {account}: its sends may only name registered senders",
                    sender.as_str()
                ),
                false => format!("sender {} was already registered for {account}", sender.as_str()),
            })
        }
        SenderAction::Remove { account, name } => {
            let id = account_of(account.clone()).await?;
            match store.remove_sender(id, &name).await? {
                true => Ok(format!("sender {name} no longer registered for {account}")),
                false => Err(Error::Command(format!("{account} has no registered sender {name}"))),
            }
        }
        SenderAction::List { account } => {
            let id = account_of(account.clone()).await?;
            let senders = store.senders(id).await?;
            if senders.is_empty() {
                return Ok(format!("{account} has no registered sender: its sends may name any sender"));
            }
            let names: Vec<String> = senders
                .iter()
                .map(|s| if s.default { format!("{} (default)", s.name) } else { s.name.clone() })
                .collect();
            Ok(names.join("\n"))
        }
    }
}
