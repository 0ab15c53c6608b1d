//! `fedblog-server`: parse the command line, set up logging, run.

use clap::Parser;
use fedblog_server::cli::{Cli, run};

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("FEDBLOG_LOG").unwrap_or_else(|_| {
                tracing_subscriber::EnvFilter::new("info,sqlx=warn,sea_orm=warn")
            }),
        )
        .with_writer(std::io::stderr)
        .init();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("fedblog-server: cannot start the runtime: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(cli)) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fedblog-server: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
