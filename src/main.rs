//! The `tangle` binary: parse the command line, run the command, map errors to the
//! documented exit codes.

use std::process::ExitCode;

use clap::Parser;

mod cli;

fn main() -> ExitCode {
    limit_malloc_arenas();
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

/// glibc gives every thread that allocates its own arena and keeps freed chunk-sized
/// buffers in each, which costs a backup about a third more peak memory for no speed.
/// One arena keeps peak RSS at restic's level; measured in docs/PERFORMANCE.md.
fn limit_malloc_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only adjusts allocator tuning; called before any thread starts.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}
