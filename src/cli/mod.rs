//! Command-line interface: one module per subcommand, each parsing its flags, calling an
//! operation from `tangle::ops` and rendering the report (human text or `--json`).

mod backup;
mod bring;
mod cat;
mod completions;
mod copy;
mod delete;
mod diff;
mod dump;
mod find;
mod global;
mod hooks;
mod import;
mod init;
mod key;
mod ls;
mod man;
mod mount;
pub mod open;
mod password;
mod profile;
mod profile_file;
pub(crate) mod progress;
mod prune;
mod remote;
mod render;
mod repair;
mod restic;
mod restore;
mod rewrite;
mod run;
pub(crate) mod settings;
mod snapshot_filter;
mod snapshots;
mod stats;
mod tag;
mod unlock;
mod verify;
mod version;
mod writer;

use std::io::{self, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use tangle::{Error, Result};

pub use global::{Global, GlobalArgs};
use settings::Given;

#[derive(Parser)]
#[command(
    name = "tangle",
    version,
    about = "Archival backups: signed, hash-chained extents entangled across several remotes"
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
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
    /// Write a file of a snapshot, or a directory as a tar archive, to standard output
    Dump(dump::DumpArgs),
    /// Mount snapshots as a read-only file system (FUSE) until Ctrl-C or umount
    Mount(mount::MountArgs),
    /// Check the repository on every remote (needs no password)
    Verify(verify::VerifyArgs),
    /// Rebuild missing or damaged shards and metadata copies (needs no password)
    Repair(repair::RepairArgs),
    /// Delete snapshots and reclaim their space, re-encoding what pointed into it
    Delete(delete::DeleteArgs),
    /// Remove what interrupted runs left behind (nothing else)
    Prune(prune::PruneArgs),
    /// Add, remove or set the tags of snapshots (each changed one is replaced by a copy)
    Tag(tag::TagArgs),
    /// Write new snapshots without the paths matching exclude patterns (--forget: delete the old)
    Rewrite(rewrite::RewriteArgs),
    /// Copy snapshots from another repository (--from-repo) into this one
    Copy(copy::CopyArgs),
    /// Import another tool's history: `import restic` brings a restic repository's snapshots
    Import(import::ImportArgs),
    /// Remove stale locks (left by a backup or delete that died)
    Unlock(unlock::UnlockArgs),
    /// List, add, remove or change the passwords (key files) of the repository
    Key(key::KeyArgs),
    /// List, add or replace remotes
    Remote(remote::RemoteArgs),
    /// Add, list or revoke writer keys: backup hosts that may add history, never read or delete it
    Writer(writer::WriterArgs),
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
    /// Show the version, target, features and the repository format versions
    Version(version::VersionArgs),
}

/// The command line as clap parsed it, and which arguments it (or the environment)
/// gave, so that a profile fills only the rest.
pub struct Parsed {
    pub cli: Cli,
    pub given: Given,
}

/// Parse the command line.
pub fn parse() -> std::result::Result<Parsed, clap::Error> {
    let matches = (Cli::command().try_get_matches())
        .map_err(|e| restic::unknown_command(e, &mut Cli::command()))?;
    let cli = Cli::from_arg_matches(&matches)?;
    Ok(Parsed {
        cli,
        given: Given::from_matches(&matches),
    })
}

/// Run a command; `Ok(code)` carries non-fatal exit codes such as 3 (some files unreadable).
pub fn run(parsed: Parsed) -> Result<u8> {
    let Parsed { cli, given } = parsed;
    let reads_default_profile = !matches!(
        cli.command,
        Command::Init(_) | Command::Completions(_) | Command::Man(_) | Command::Version(_)
    );
    let g = &Global::resolve(
        cli.global,
        given,
        reads_default_profile,
        check_profile_tables,
    )?;
    match &cli.command {
        Command::Init(a) => init::run(g, a),
        Command::Backup(a) => backup::run(g, a),
        Command::Snapshots(a) => snapshots::run(g, a),
        Command::Ls(a) => ls::run(g, a),
        Command::Restore(a) => restore::run(g, a),
        Command::Dump(a) => dump::run(g, a),
        Command::Mount(a) => mount::run(g, a),
        Command::Verify(a) => verify::run(g, a),
        Command::Repair(a) => repair::run(g, a),
        Command::Delete(a) => delete::run(g, a),
        Command::Prune(a) => prune::run(g, a),
        Command::Tag(a) => tag::run(g, a),
        Command::Rewrite(a) => rewrite::run(g, a),
        Command::Copy(a) => copy::run(g, a),
        Command::Import(a) => import::run(g, a),
        Command::Unlock(a) => unlock::run(g, a),
        Command::Key(a) => key::run(g, a),
        Command::Remote(a) => remote::run(g, a),
        Command::Writer(a) => writer::run(g, a),
        Command::Find(a) => find::run(g, a),
        Command::Diff(a) => diff::run(g, a),
        Command::Stats(a) => stats::run(g, a),
        Command::Cat(a) => cat::run(g, a),
        Command::Completions(a) => completions::run(a),
        Command::Man(a) => man::run(a),
        Command::Profile(a) => profile::run(g, a),
        Command::Run(a) => run::run(g, a),
        Command::Version(a) => version::run(g, a),
    }
}

// The commands with a profile table. Adding one: its settings struct (`settings!`), a
// field in `profile_file::Profile`, and a line in each of the two functions below.

/// Check a profile's command tables as it is loaded: every key known, every value
/// accepted by its flag.
pub(crate) fn check_profile_tables(p: &profile_file::Profile) -> Result<()> {
    let check = |section: &str, f: fn(&profile_file::CommandTable) -> Result<()>| {
        p.command_table(section).map_or(Ok(()), f)
    };
    check("backup", settings::check::<backup::BackupArgs>)?;
    check("delete", settings::check::<delete::DeleteArgs>)?;
    check("verify", settings::check::<verify::VerifyArgs>)
}

/// The command tables the profile has, as `tangle run` would use them (no flags: the
/// environment, the profile, the defaults), for `profile show`.
pub(crate) fn profile_tables(g: &Global) -> Result<Vec<(&'static str, Vec<settings::Row>)>> {
    let p = g.loaded.as_deref();
    let has = |section: &str| p.is_some_and(|p| p.command_table(section).is_some());
    let mut tables = Vec::new();
    if has("backup") {
        let mut rows = backup::unflagged(g)?.rows();
        rows.extend(p.map(|p| p.hooks.rows()).unwrap_or_default());
        tables.push(("backup", rows));
    }
    if has("delete") {
        tables.push(("delete", delete::unflagged(g)?.rows()));
    }
    if has("verify") {
        tables.push(("verify", verify::unflagged(g)?.rows()));
    }
    Ok(tables)
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

    /// Every example in a subcommand's help parses as written (environment assignments,
    /// output redirections and what pipes into tangle aside).
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
                // A pipe into tangle (`pg_dumpall | tangle backup --stdin`): tangle's part.
                let line = line.rsplit(" | ").next().unwrap_or(line);
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
