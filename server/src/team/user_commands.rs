//! `texto user create`: the first person of an account, with a one-time link to choose their
//! password (or a password read from stdin); and the demo account's owner.

use chrono::Utc;
use texto_core::Role;

use crate::{
    Error,
    cli::args::UserAction,
    store::{AccountId, DbLocation, OneTimeLink, Store},
    team::{
        names::{Email, PersonName},
        passwords::{self, Password},
        token_mint::{issue_link, secret},
    },
};

/// The demo account's owner, created with `--demo`.
pub(crate) const DEMO_OWNER: &str = "demo@texto.local";

/// `texto user create`; returns what to print.
pub async fn user(path: impl Into<DbLocation>, action: UserAction) -> Result<String, Error> {
    let store = crate::store::for_commands(&path.into()).await?;
    let UserAction::Create { account, email, role, name, password_stdin, public_url } = action;
    let email = Email::parse(&email).map_err(|why| Error::Command(format!("--email: {why}")))?;
    let account = store
        .account_by_name(&account)
        .await?
        .ok_or_else(|| Error::Command(format!("no account called {account:?}")))?;
    if store.user_by_email(&email).await?.is_some() {
        return Err(Error::Command(format!("{} already has a texto sign-in", email.as_str())));
    }
    if password_stdin {
        let mut line = String::new();
        std::io::stdin().read_line(&mut line).map_err(Error::io("reading the password from stdin"))?;
        let password = Password::parse(line.trim_end_matches(['\r', '\n'])).map_err(Error::Command)?;
        let name = PersonName::parse(name.as_deref().unwrap_or(email.as_str())).map_err(Error::Command)?;
        add(&store, account, &email, &name, password, role).await?;
        return Ok(format!("{} can sign in as {role}", email.as_str()));
    }
    let link = OneTimeLink::invitation(account, &email, role, "command line", Utc::now());
    let url = link.url(&public_url, &issue_link(store.as_ref(), &link).await?);
    Ok(format!(
        "{} is invited as {role}; this link (valid 7 days, once) sets their name and password:\n  {url}",
        email.as_str()
    ))
}

async fn add(
    store: &std::sync::Arc<dyn Store>,
    account: AccountId,
    email: &Email,
    name: &PersonName,
    password: Password,
    role: Role,
) -> Result<(), Error> {
    let hash = passwords::hash(password).await?;
    store.add_user(account, email, name, &hash, role, Utc::now()).await?;
    Ok(())
}

/// The demo account's owner with a random password, printed once.
pub(crate) async fn ensure_demo_owner(store: &std::sync::Arc<dyn Store>, account: AccountId) -> Result<(), Error> {
    let email = Email::parse(DEMO_OWNER).map_err(Error::Command)?;
    if store.user_by_email(&email).await?.is_some() {
        return Ok(());
    }
    let password = secret()?[..16].to_owned();
    let name = PersonName::parse("Demo owner").map_err(Error::Command)?;
    add(store, account, &email, &name, Password::parse(&password).map_err(Error::Command)?, Role::Owner).await?;
    println!("Demo owner created: sign in to /app/ as {DEMO_OWNER} with the password (shown once):\n  {password}");
    Ok(())
}
