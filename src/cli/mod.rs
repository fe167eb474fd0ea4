//! Command-line interface: one module per subcommand, each parsing its flags, calling an
//! operation from `tangle::ops` and rendering the report (human text or `--json`).

mod backup;
mod cat;
mod completions;
mod delete;
mod diff;
mod dump;
mod find;
mod init;
mod key;
mod ls;
mod man;
mod password;
mod profile;
pub(crate) mod progress;
mod prune;
mod remote;
mod render;
mod repair;
mod restic;
mod restore;
mod run;
mod snapshots;
mod stats;
mod unlock;
mod verify;

use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
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
#[command(next_help_heading = "Global options")]
pub struct Global {
    /// Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)
    #[arg(short = 'r', long = "repo", env = "TANGLE_REPO", global = true)]
    pub repo: Option<String>,
    /// Profile: the repository, password, per-remote settings and the settings of
    /// backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and
    /// TANGLE_REPO: the profile `default`, if it exists)
    #[arg(short = 'P', long = "profile", value_name = "NAME", global = true)]
    pub profile: Option<String>,
    /// Read the password from this file (first line)
    #[arg(long, env = "TANGLE_PASSWORD_FILE", global = true, value_name = "FILE")]
    pub password_file: Option<PathBuf>,
    /// Run this shell command and use its output as the password
    #[arg(
        long,
        env = "TANGLE_PASSWORD_COMMAND",
        global = true,
        value_name = "COMMAND"
    )]
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
    #[arg(long, global = true, conflicts_with = "progress")]
    pub no_progress: bool,
    /// Show progress even when stderr is not a terminal; with --json, `backup` prints
    /// status lines (`"message_type": "status"`) on stdout while it runs
    #[arg(long, global = true)]
    pub progress: bool,
    /// Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)
    #[arg(long, env = "TANGLE_CACHE_DIR", global = true, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
    /// Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs
    /// without a cache. Else the owner the cache pinned at init or first open is trusted
    #[arg(long, env = "TANGLE_OWNER", global = true, value_name = "FINGERPRINT")]
    pub owner: Option<String>,
    /// Wait up to this long for a conflicting lock (another command writing) to go, e.g.
    /// `10m` or `1h`; without it a busy repository is an error at once (exit 11)
    #[arg(
        long,
        env = "TANGLE_RETRY_LOCK",
        global = true,
        value_name = "DURATION",
        value_parser = tangle::util::parse_duration
    )]
    pub retry_lock: Option<std::time::Duration>,
    /// Per-remote settings from the profile (passed to every remote opened).
    #[arg(skip)]
    pub remote_settings: tangle::remote::SettingsByUrl,
    /// The profile's `[repository] remotes`: opened (first reachable) when no `-r`.
    #[arg(skip)]
    pub remotes: Vec<String>,
    /// The profile's `[repository] password`, if it keeps one.
    #[arg(skip)]
    pub password: Option<String>,
    /// How long the password command may run: `TANGLE_PASSWORD_COMMAND_TIMEOUT`, else
    /// the profile's `password-command-timeout` (else 60 s).
    #[arg(skip)]
    pub password_command_timeout: Option<std::time::Duration>,
    /// Which arguments the command line or the environment gave (they beat the profile).
    #[arg(skip)]
    pub given: profile::Given,
    /// The profile of `-P`, once loaded.
    #[arg(skip)]
    pub loaded: Option<std::sync::Arc<tangle::profile::Profile>>,
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
    /// Delete snapshots and reclaim their space, re-encoding what pointed into it
    Delete(delete::DeleteArgs),
    /// Remove what interrupted runs left behind (nothing else)
    Prune(prune::PruneArgs),
    /// Remove stale locks (left by a backup or delete that died)
    Unlock(unlock::UnlockArgs),
    /// List, add, remove or change the passwords (key files) of the repository
    Key(key::KeyArgs),
    /// List, add or replace remotes
    Remote(remote::RemoteArgs),
    /// Find files and directories by glob pattern in the snapshots
    Find(find::FindArgs),
    /// Show what changed between two snapshots
    Diff(diff::DiffArgs),
    /// Sizes, dedup and compression of snapshots; storage per remote
    Stats(stats::StatsArgs),
    /// Print a repository object, decoded and checked, as JSON (for debugging)
    Cat(cat::CatArgs),
    /// Print a shell completion script
    Completions(completions::CompletionsArgs),
    /// Write the man pages into a directory
    #[command(hide = true)]
    Man(man::ManArgs),
    /// Show the settings a profile gives (`profile show`)
    Profile(profile::ProfileArgs),
    /// Run the profile's backup, then delete by its policy, then verify (for cron)
    Run(run::RunArgs),
}

/// Parse the command line, noting which arguments it (or the environment) gave, so
/// that a profile fills only the rest.
pub fn parse() -> std::result::Result<Cli, clap::Error> {
    let matches = (Cli::command().try_get_matches())
        .map_err(|e| restic::unknown_command(e, &mut Cli::command()))?;
    let mut cli = Cli::from_arg_matches(&matches)?;
    cli.global.given = profile::Given::from_matches(&matches);
    Ok(cli)
}

/// Run a command; `Ok(code)` carries non-fatal exit codes such as 3 (some files unreadable).
pub fn run(mut cli: Cli) -> Result<u8> {
    let opens_a_repository = !matches!(
        cli.command,
        Command::Init(_) | Command::Completions(_) | Command::Man(_)
    );
    if opens_a_repository {
        profile::default_when_unnamed(&mut cli.global);
    }
    profile::apply(&mut cli.global)?;
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
        Command::Delete(a) => delete::run(g, a),
        Command::Prune(a) => prune::run(g, a),
        Command::Unlock(a) => unlock::run(g, a),
        Command::Key(a) => key::run(g, a),
        Command::Remote(a) => remote::run(g, a),
        Command::Find(a) => find::run(g, a),
        Command::Diff(a) => diff::run(g, a),
        Command::Stats(a) => stats::run(g, a),
        Command::Cat(a) => cat::run(g, a),
        Command::Completions(a) => completions::run(a),
        Command::Man(a) => man::run(a),
        Command::Profile(a) => profile::run(g, a),
        Command::Run(a) => run::run(g, a),
    }
}

impl Global {
    /// Open the repository named by `-r`/`TANGLE_REPO` and unlock it with the password.
    pub fn open_unlocked(&self) -> Result<Repository> {
        self.open(true, true)
    }

    /// [`open_unlocked`](Self::open_unlocked) for a command that writes nothing
    /// (restore, ls, find, diff, stats, dump, snapshots, cat): what opening and finding a
    /// snapshot list, one prefix after another, is listed at once first.
    pub fn open_for_reading(&self) -> Result<Repository> {
        self.open_reading(true)
    }

    /// [`open_for_reading`](Self::open_for_reading) for a command that reads no blob
    /// (`snapshots`): without the index.
    pub fn open_for_reading_without_index(&self) -> Result<Repository> {
        self.open_reading(false)
    }

    fn open_reading(&self, load_index: bool) -> Result<Repository> {
        let mut repo = self.open(false, false)?;
        repo.list_ahead_for_reading(load_index);
        self.unlock(&mut repo, load_index)?;
        Ok(repo)
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

    /// For verify: open with the public key only, then unlock if a password is given
    /// non-interactively. A wrong password is an error (exit 12); key files that cannot
    /// be read are damage for verify to report, so that error is returned beside the
    /// repository instead.
    pub fn open_for_verify(&self) -> Result<(Repository, Option<Error>)> {
        let mut repo = self.open(false, false)?;
        if !password::given(self) {
            return Ok((repo, None));
        }
        let pw = password::read(self, false)?;
        match repo.unlock(pw.as_bytes()) {
            Ok(()) => {
                repo.load_index()?;
                Ok((repo, None))
            }
            Err(e) if e.kind() == Kind::WrongPassword => Err(e),
            Err(e) => Ok((repo, Some(e))),
        }
    }

    /// Open with the public key only (no password needed or asked for).
    pub fn open_locked(&self) -> Result<Repository> {
        self.open(false, false)
    }

    fn open(&self, unlock: bool, load_index: bool) -> Result<Repository> {
        let opts = tangle::repo::OpenOptions {
            cache_dir: self.cache_dir.clone(),
            owner: self
                .owner
                .as_deref()
                .map(tangle::repo::OwnerPin::parse)
                .transpose()?,
            remote_settings: self.remote_settings.clone(),
        };
        let mut repo = profile::open_first(self, &opts)?;
        for f in repo.foreign_configs() {
            warn(format_args!("not trusted: {f}"));
        }
        repo.set_warning_handler(|m| warn(m));
        repo.set_lock_wait(self.retry_lock.unwrap_or_default());
        if unlock {
            self.unlock(&mut repo, load_index)?;
        }
        Ok(repo)
    }

    fn unlock(&self, repo: &mut Repository, load_index: bool) -> Result<()> {
        let pw = password::read(self, false)?;
        if load_index {
            repo.unlock_and_load_index(pw.as_bytes())
        } else {
            repo.unlock(pw.as_bytes())
        }
    }

    pub fn show_progress(&self) -> bool {
        use std::io::IsTerminal;
        !self.no_progress
            && !self.quiet
            && !self.json
            && (self.progress || std::io::stderr().is_terminal())
    }

    /// A human status line, unless `--quiet` or `--json`. Never fails: a write error is
    /// remembered for `main` (a closed pipe ends the run quietly, see [`stdout_closed`]),
    /// so commands need not thread errors through every message.
    pub fn say(&self, msg: impl std::fmt::Display) {
        if !self.quiet && !self.json {
            let _ = line(msg);
        }
    }

    /// The `--json` report: one pretty-printed value and a newline.
    pub fn print_json<T: serde::Serialize>(&self, value: &T) -> Result<()> {
        let mut s = serde_json::to_string_pretty(value)
            .map_err(|e| Error::fatal(format!("JSON output: {e}")))?;
        s.push('\n');
        write_stdout(s.as_bytes())
    }
}

// Standard output. Every byte the commands print goes through the helpers below, so that
// a reader that stops reading (`tangle ls latest --json | head -c 50`) is noticed in one
// place: a write that fails with `BrokenPipe` sets `STDOUT_CLOSED`, later writes are
// skipped, and `main` exits 0 quietly, as ripgrep does. (Rust ignores SIGPIPE, so without
// this `println!` would panic with exit 101.) Any other write error is kept in
// `STDOUT_ERROR` and turns a successful run into exit 1.

static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);
static STDOUT_ERROR: Mutex<Option<String>> = Mutex::new(None);

/// Whether a reader closed standard output during this run.
pub fn stdout_closed() -> bool {
    STDOUT_CLOSED.load(Ordering::Relaxed)
}

/// The first error writing standard output other than a closed pipe, if any.
pub fn stdout_error() -> Option<Error> {
    let msg = STDOUT_ERROR.lock().ok()?.clone()?;
    Some(Error::fatal(format!("writing output: {msg}")))
}

/// Remember a failed write to standard output.
fn note_stdout_error(e: &io::Error) {
    if e.kind() == io::ErrorKind::Interrupted {
        // `write_all` retries these.
    } else if e.kind() == io::ErrorKind::BrokenPipe {
        STDOUT_CLOSED.store(true, Ordering::Relaxed);
    } else if let Ok(mut first) = STDOUT_ERROR.lock() {
        first.get_or_insert_with(|| e.to_string());
    }
}

/// Bytes to standard output. A failure is recorded for `main` and returned, so that the
/// command stops.
pub fn write_stdout(bytes: &[u8]) -> Result<()> {
    Stdout.write_all(bytes).map_err(output_error)
}

fn output_error(e: io::Error) -> Error {
    Error::fatal(format!("writing output: {e}"))
}

/// One line of a command's output (a table row, a listing), printed even with
/// `--quiet`. An error stops the command; `main` decides the exit code.
pub fn line(msg: impl std::fmt::Display) -> Result<()> {
    write_stdout(format!("{msg}\n").as_bytes())
}

/// Standard output as a writer for streamed output (`ls`, `dump`). Errors are recorded
/// as by [`write_stdout`]; once the pipe is closed every write fails at once, so
/// a long listing stops instead of formatting lines nobody reads.
pub struct Stdout;

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if stdout_closed() {
            return Err(io::ErrorKind::BrokenPipe.into());
        }
        io::stdout().write(buf).inspect_err(note_stdout_error)
    }

    fn flush(&mut self) -> io::Result<()> {
        if stdout_closed() {
            return Err(io::ErrorKind::BrokenPipe.into());
        }
        io::stdout().flush().inspect_err(note_stdout_error)
    }
}

/// A warning on stderr. Ignores write errors: a closed stderr must not end the command.
pub fn warn(msg: impl std::fmt::Display) {
    let msg = msg.to_string();
    let _ = writeln!(
        io::stderr(),
        "tangle: warning: {}",
        tangle::util::escape(&msg)
    );
}

/// A fatal error on stderr, as `main` prints it, for a step that fails inside a
/// command that goes on (`tangle run`).
pub fn error(e: &Error) {
    let e = e.to_string();
    let _ = writeln!(io::stderr(), "tangle: error: {}", tangle::util::escape(&e));
}

#[cfg(test)]
mod tests {
    use clap::{CommandFactory, Parser};

    use super::Cli;

    /// Every example in a subcommand's help parses as written (environment assignments
    /// and output redirections aside).
    #[test]
    fn help_examples_parse() {
        let root = Cli::command();
        for cmd in root.get_subcommands().filter(|c| !c.is_hide_set()) {
            assert!(
                cmd.get_after_help().is_some(),
                "`tangle {}` has no examples in its help",
                cmd.get_name()
            );
        }
        let mut checked = 0;
        let mut stack: Vec<clap::Command> = root.get_subcommands().cloned().collect();
        while let Some(cmd) = stack.pop() {
            stack.extend(cmd.get_subcommands().cloned());
            let Some(help) = cmd.get_after_help().map(|h| h.to_string()) else {
                continue;
            };
            for line in help
                .lines()
                .map(str::trim)
                .filter(|l| l.contains("tangle "))
            {
                let line = line.split(" > ").next().unwrap_or(line);
                let line = line.split(" || ").next().unwrap_or(line);
                let words: Vec<String> = line
                    .split_whitespace()
                    .skip_while(|w| w.contains('=') && !w.starts_with('-'))
                    .map(|w| w.trim_matches('\'').to_string())
                    .collect();
                assert_eq!(words.first().map(String::as_str), Some("tangle"), "{line}");
                if let Err(e) = Cli::try_parse_from(&words) {
                    panic!(
                        "example `{line}` in `{}`'s help does not parse: {e}",
                        cmd.get_name()
                    );
                }
                checked += 1;
            }
        }
        assert!(checked >= 20, "only {checked} examples found");
    }
}
