//! Command-line interface: one module per subcommand, each parsing its flags, calling an
//! operation from `tangle::ops` and rendering the report (human text or `--json`).

mod backup;
mod completions;
mod dump;
mod init;
mod ls;
mod password;
mod progress;
mod remote;
mod repair;
mod restore;
mod snapshots;
mod verify;

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use tangle::repo::Repository;
use tangle::{Error, Kind, Result};

#[derive(Parser)]
#[command(
    name = "tangle",
    version,
    about = "Archival backups: signed, hash-chained extents entangled across several remotes"
)]
pub struct Cli {
    #[command(flatten)]
    pub global: Global,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Args, Clone)]
pub struct Global {
    /// Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)
    #[arg(short = 'r', long = "repo", env = "TANGLE_REPO", global = true)]
    pub repo: Option<String>,
    /// Profile: defaults and per-remote settings from ~/.config/tangle/NAME.toml
    #[arg(short = 'P', long = "profile", value_name = "NAME", global = true)]
    pub profile: Option<String>,
    /// Read the password from this file (first line)
    #[arg(long, global = true, value_name = "FILE")]
    pub password_file: Option<PathBuf>,
    /// Run this shell command and use its output as the password
    #[arg(long, global = true, value_name = "COMMAND")]
    pub password_command: Option<String>,
    /// Machine-readable output on stdout (and fatal errors as JSON on stderr)
    #[arg(long, global = true)]
    pub json: bool,
    /// Print only errors
    #[arg(short, long, global = true)]
    pub quiet: bool,
    /// More detail (repeat for more)
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
    /// Never draw progress bars
    #[arg(long, global = true)]
    pub no_progress: bool,
    /// Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)
    #[arg(long, global = true, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
}

#[derive(Subcommand)]
pub enum Command {
    /// Create a repository over one or more remotes
    Init(init::InitArgs),
    /// Back up files and directories into a new snapshot
    Backup(backup::BackupArgs),
    /// List snapshots
    Snapshots(snapshots::SnapshotsArgs),
    /// List the files in a snapshot
    Ls(ls::LsArgs),
    /// Restore a snapshot (or a path in it) under a target directory
    Restore(restore::RestoreArgs),
    /// Write one file of a snapshot to standard output
    Dump(dump::DumpArgs),
    /// Check the repository on every remote (needs no password)
    Verify(verify::VerifyArgs),
    /// Rebuild missing or damaged shards and metadata copies (needs no password)
    Repair(repair::RepairArgs),
    /// List, add or replace remotes
    Remote(remote::RemoteArgs),
    /// Print a shell completion script
    Completions(completions::CompletionsArgs),
}

/// Run a command; `Ok(code)` carries non-fatal exit codes such as 3 (some files unreadable).
pub fn run(mut cli: Cli) -> Result<u8> {
    if let Some(name) = cli.global.profile.clone() {
        let p = tangle::profile::Profile::load(&name)?;
        let g = &mut cli.global;
        // The command line and the environment win over the profile.
        g.repo = g.repo.take().or(p.repo.clone());
        if g.password_file.is_none()
            && g.password_command.is_none()
            && std::env::var_os("TANGLE_PASSWORD").is_none()
        {
            g.password_file = p.password_file.clone();
            g.password_command = p.password_command.clone();
        }
        g.cache_dir = g.cache_dir.take().or(p.cache_dir.clone());
        tangle::remote::set_settings(p.remote_settings()?);
    }
    let g = &cli.global;
    match &cli.command {
        Command::Init(a) => init::run(g, a),
        Command::Backup(a) => backup::run(g, a),
        Command::Snapshots(a) => snapshots::run(g, a),
        Command::Ls(a) => ls::run(g, a),
        Command::Restore(a) => restore::run(g, a),
        Command::Dump(a) => dump::run(g, a),
        Command::Verify(a) => verify::run(g, a),
        Command::Repair(a) => repair::run(g, a),
        Command::Remote(a) => remote::run(g, a),
        Command::Completions(a) => completions::run(a),
    }
}

impl Global {
    /// Open the repository named by `-r`/`TANGLE_REPO` and unlock it with the password.
    pub fn open_unlocked(&self) -> Result<Repository> {
        self.open(true, true)
    }

    /// Unlocked, with the index left for the command to load (backup loads only the
    /// committed part).
    pub fn open_unlocked_without_index(&self) -> Result<Repository> {
        self.open(true, false)
    }

    /// Open the repository; unlock it only if a password is given non-interactively
    /// (verify and repair need only the public key and must never prompt).
    pub fn open_maybe_unlocked(&self) -> Result<Repository> {
        let unlock = password::given(self);
        self.open(unlock, unlock)
    }

    fn open(&self, unlock: bool, load_index: bool) -> Result<Repository> {
        let url = self.repo.as_deref().ok_or_else(|| {
            Error::new(
                Kind::RepoNotFound,
                "no repository given: use -r/--repo or set TANGLE_REPO",
            )
        })?;
        let mut repo = Repository::open(url, self.cache_dir.clone())?;
        repo.set_warning_handler(|m| warn(m));
        if unlock {
            let pw = password::read(self, false)?;
            repo.unlock(pw.as_bytes())?;
            if load_index {
                repo.load_index()?;
            }
        }
        Ok(repo)
    }

    pub fn show_progress(&self) -> bool {
        use std::io::IsTerminal;
        !self.no_progress && !self.quiet && !self.json && std::io::stderr().is_terminal()
    }

    /// Print human output unless `--quiet` or `--json`.
    pub fn say(&self, msg: impl std::fmt::Display) {
        if !self.quiet && !self.json {
            println!("{msg}");
        }
    }

    pub fn print_json<T: serde::Serialize>(&self, value: &T) -> Result<()> {
        let s = serde_json::to_string_pretty(value)
            .map_err(|e| Error::fatal(format!("JSON output: {e}")))?;
        println!("{s}");
        Ok(())
    }
}

pub fn warn(msg: impl std::fmt::Display) {
    eprintln!("tangle: warning: {msg}");
}
