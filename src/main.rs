//! The `tangle` binary: parse the command line, run the command, map errors to the
//! documented exit codes.

use std::process::ExitCode;

use clap::Parser;

mod cli;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    let json = args.global.json;
    match cli::run(args) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            let code = e.kind().exit_code();
            eprintln!("tangle: error: {e}");
            if json {
                eprintln!(
                    "{}",
                    serde_json::json!({ "error": e.to_string(), "exit_code": code })
                );
            }
            ExitCode::from(code as u8)
        }
    }
}
