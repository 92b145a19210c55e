//! The `texto` command: `texto serve` runs the service.

use clap::Parser;
use texto_server::{App, Cli, Command, Error, shutdown_signal};

#[tokio::main]
async fn main() -> Result<(), Error> {
    texto_server::telemetry::init();
    match Cli::parse().command {
        Command::Serve(config) => {
            let app = App::build(config).await?;
            println!("texto is running at {}/app/", app.base_url());
            app.run_until_stopped(shutdown_signal()).await
        }
    }
}
