//! The operator's commands: accounts, top-ups, tokens and operators (and the demo account).

use chrono::Utc;
use texto_core::{Country, Credits};

use crate::{
    Error,
    cli::args::{AccountAction, OperatorAction, TokenAction},
    operator::moderation,
    store::{AccountId, CountryRuleChange, DbLocation, HttpErrors, NewToken, Store, token_hash},
    team::{
        names::{TokenLifetime, TokenName},
        passwords::{self, Password},
        token_mint::mint,
    },
};

/// Name of the account `--demo` creates.
const DEMO_ACCOUNT: &str = "demo";

async fn open(db: impl Into<DbLocation>) -> Result<std::sync::Arc<dyn Store>, Error> {
    crate::store::for_commands(&db.into()).await
}

fn credits(amount: f64) -> Result<Credits, Error> {
    Credits::from_f64(amount)
        .filter(|c| *c >= Credits::ZERO)
        .ok_or_else(|| Error::Command(format!("not an amount of credits: {amount}")))
}

/// `texto account create|credit`; returns what to print.
pub async fn account(path: impl Into<DbLocation>, action: AccountAction) -> Result<String, Error> {
    let store = open(path).await?;
    match action {
        AccountAction::Create { name, credits: amount, moderated } => {
            let moderated = moderation::new_account_moderated(moderated, store.new_accounts_moderated().await?);
            let account = store.create_account(&name, credits(amount)?).await?;
            if moderated {
                store.set_moderated(account, true).await?;
            }
            let held = if moderated { ", its campaigns held for moderation" } else { "" };
            Ok(format!("account {name} created with {} credits{held}", credits(amount)?))
        }
        AccountAction::Limit { name, per_second } => {
            store.set_account_limit(named(&store, &name).await?, per_second.map(i64::from)).await?;
            Ok(match per_second {
                Some(n) => format!("account {name}: at most {n} messages a second handed to carriers"),
                None => format!("account {name}: no throughput limit"),
            })
        }
        AccountAction::Moderate { name, state } => {
            store.set_moderated(named(&store, &name).await?, state).await?;
            Ok(match state {
                true => format!("account {name}: every campaign is held for moderation"),
                false => format!("account {name}: campaigns go without moderation (unless a rule holds them)"),
            })
        }
        AccountAction::Credit { name, credits: amount } => {
            let account = named(&store, &name).await?;
            let balance = store.top_up(account, credits(amount)?).await?;
            Ok(format!("account {name}: {balance} credits"))
        }
        AccountAction::Flood { name, identical_per_hour, any_per_hour } => {
            let limits =
                store.update_flood_limits(named(&store, &name).await?, identical_per_hour, any_per_hour).await?;
            Ok(format!(
                "account {name}: at most {} identical texts and {} texts per number and rolling hour",
                limits.identical_per_hour, limits.any_per_hour
            ))
        }
        AccountAction::Plan { name, plan } => {
            let account = named(&store, &name).await?;
            let chosen = (plan != crate::store::plans::SHIPPED).then_some(plan.as_str());
            match store.set_account_plan(account, chosen).await? {
                true => Ok(format!("account {name}: plan {plan}")),
                false => Err(Error::Command(format!("no plan called {plan:?} (texto plan list)"))),
            }
        }
        AccountAction::Country { name, country, block, allow, monthly_cap, no_cap } => {
            let code = country.to_ascii_uppercase();
            let country =
                Country::from_iso2(&code).ok_or_else(|| Error::Command(format!("unknown country code {code:?}")))?;
            let change = CountryRuleChange {
                allowed: (block || allow).then_some(allow),
                monthly_cap: if no_cap { Some(None) } else { monthly_cap.map(|cap| Some(u64::from(cap))) },
            };
            let rule = store.update_country_rule(named(&store, &name).await?, country, change).await?;
            let cap =
                rule.monthly_cap.map_or("no monthly cap".to_owned(), |cap| format!("at most {cap} messages a month"));
            Ok(format!("account {name}, {code}: {}, {cap}", if rule.allowed { "allowed" } else { "blocked" }))
        }
    }
}

/// The id of the account called `name`.
async fn named(store: &std::sync::Arc<dyn Store>, name: &str) -> Result<AccountId, Error> {
    store.account_by_name(name).await?.ok_or_else(|| Error::Command(format!("no account called {name:?}")))
}

/// `texto token create|revoke`; `create` returns the token alone.
pub async fn token(path: impl Into<DbLocation>, action: TokenAction) -> Result<String, Error> {
    let store = open(path).await?;
    match action {
        TokenAction::Create { account, http_errors, name, ttl, allow_ip, role } => {
            let new = NewToken {
                name: TokenName::parse(&name).map_err(|why| Error::Command(format!("--name: {why}")))?,
                lifetime: ttl
                    .map(TokenLifetime::from_seconds)
                    .transpose()
                    .map_err(|why| Error::Command(format!("--ttl: {why}")))?,
                allowed: allow_ip,
                http_errors,
                role,
                made_by: None,
            };
            let account = named(&store, &account).await?;
            Ok(mint(store.as_ref(), account, &new, Utc::now()).await?.0)
        }
        TokenAction::Revoke { token } => match store.revoke_token(&token_hash(&token)).await? {
            true => Ok("token revoked".to_owned()),
            false => Err(Error::Command("no live token matches".to_owned())),
        },
    }
}

/// `texto operator create` (the operator's token alone, printed once) and `texto operator password`.
pub async fn operator(path: impl Into<DbLocation>, action: OperatorAction) -> Result<String, Error> {
    let store = open(path).await?;
    match action {
        OperatorAction::Create { name } => {
            let name = name.trim().to_owned();
            if name.is_empty() || name.len() > 100 {
                return Err(Error::Command("an operator's name has 1 to 100 characters".into()));
            }
            let token = format!("texto_op_{}", crate::team::token_mint::secret()?);
            match store.create_operator(&name, &token_hash(&token)).await? {
                true => Ok(token),
                false => Err(Error::Command(format!("there is already an operator called {name:?}"))),
            }
        }
        OperatorAction::Password { name } => {
            let mut line = String::new();
            std::io::stdin().read_line(&mut line).map_err(Error::io("reading the password from stdin"))?;
            let password = Password::parse(line.trim_end_matches(['\r', '\n'])).map_err(Error::Command)?;
            match store.set_operator_password(&name, &passwords::hash(password).await?).await? {
                true => Ok(format!("operator {name} signs in to /app/operator with this password")),
                false => Err(Error::Command(format!("no operator called {name:?}"))),
            }
        }
    }
}

/// On first start with `--demo`: the account `demo` with 1,000 credits, and its token printed.
pub(crate) async fn ensure_demo_account(store: &std::sync::Arc<dyn Store>) -> Result<(), Error> {
    if store.account_by_name(DEMO_ACCOUNT).await?.is_some() {
        return Ok(());
    }
    let account = store.create_account(DEMO_ACCOUNT, Credits::whole(1_000)).await?;
    let new = NewToken {
        name: TokenName::parse("Demo").map_err(Error::Command)?,
        lifetime: None,
        allowed: Vec::new(),
        http_errors: HttpErrors::On,
        role: texto_core::Role::Owner,
        made_by: None,
    };
    let (token, _) = mint(store.as_ref(), account, &new, Utc::now()).await?;
    println!("Demo account \"{DEMO_ACCOUNT}\" created with 1000 credits. Its API token (shown once):\n  {token}");
    crate::team::user_commands::ensure_demo_owner(store, account).await?;
    Ok(())
}
