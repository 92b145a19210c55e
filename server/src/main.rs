//! The `texto` command: `texto serve` runs the service; `account` and `token` administer it;
//! `smsc-simulator` runs the SMSC simulator on its own.

use std::process::ExitCode;

use clap::Parser;
use texto_server::{App, Cli, Command, admin, shutdown_signal};

/// mimalloc instead of the system allocator: a send of a million recipients allocates and
/// frees vectors of tens of megabytes, which glibc hands back to the kernel each time.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> ExitCode {
    texto_server::telemetry::init();
    let command = Cli::parse().command;
    let change = texto_server::command_log::change(&command);
    let outcome = match command {
        Command::Serve(config) => match App::build(*config).await {
            Ok(app) => {
                println!("texto is running at {}/app/", app.base_url());
                app.run_until_stopped(shutdown_signal()).await.map(|()| None)
            }
            Err(error) => Err(error),
        },
        Command::SmscSimulator(config) => texto_server::smsc::run(config, shutdown_signal()).await.map(|()| None),
        Command::Account { db, action } => admin::account(&db.db, action).await.map(Some),
        Command::Token { db, action } => admin::token(&db.db, action).await.map(Some),
        Command::Connector { db, action } => texto_server::routing_admin::connector(&db.db, action).await.map(Some),
        Command::Route { db, action } => texto_server::routing_admin::route(&db.db, action).await.map(Some),
        Command::Moderation { db, action } => {
            texto_server::moderation_admin::moderation(&db.db, action).await.map(Some)
        }
        Command::Operator { db, action } => admin::operator(&db.db, action).await.map(Some),
        Command::Plan { db, action } => texto_server::plan_admin::plan(&db.db, action).await.map(Some),
        Command::User { db, action } => texto_server::admin_users::user(&db.db, action).await.map(Some),
    };
    match outcome {
        Ok(output) => {
            if let Some(output) = output {
                println!("{output}");
                if let Some(change) = change
                    && let Err(error) = texto_server::command_log::record(change, &output).await
                {
                    eprintln!("texto: done, but not written in the operators' log: {error}");
                }
            }
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("texto: {error}");
            ExitCode::FAILURE
        }
    }
}
