//! The `texto` command: `texto serve` runs the service; `account` and `token` administer it;
//! `smsc-simulator` runs the SMSC simulator on its own.

use std::process::ExitCode;

use clap::Parser;
use texto_server::{App, Cli, Command, shutdown_signal};

/// mimalloc instead of the system allocator: a send of a million recipients allocates and
/// frees vectors of tens of megabytes, which glibc hands back to the kernel each time.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> ExitCode {
    texto_server::telemetry::init();
    let outcome = match Cli::parse().command {
        Command::Serve(config) => match App::build(*config).await {
            Ok(app) => {
                println!("texto is running at {}/app/", app.base_url());
                app.run_until_stopped(shutdown_signal()).await.map(|()| None)
            }
            Err(error) => Err(error),
        },
        Command::SmscSimulator(config) => texto_server::smsc::run(config, shutdown_signal()).await.map(|()| None),
        administration => texto_server::administer(administration).await.map(Some),
    };
    match outcome {
        Ok(output) => {
            if let Some(output) = output {
                println!("{output}");
            }
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("texto: {error}");
            ExitCode::FAILURE
        }
    }
}
