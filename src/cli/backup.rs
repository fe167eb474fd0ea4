//! `tangle backup PATH...` (or the sources of the profile's `[backup]`)

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use tangle::crypto::writer::WriterKey;
use tangle::ops::Progress;
use tangle::ops::backup::{
    self, BackupOptions, BackupReport, FilterOptions, StdinOptions, StreamSource,
};
use tangle::repo::{LockGuard, LockKind, Public, Repository, Signs, Unlocked};
use tangle::util::human_bytes;
use tangle::{Error, Result};

use super::open::Purpose;
use super::progress::{Bar, JsonStatus};
use super::settings::{self, Given, Resolved, settings};
use super::{Global, profile_file::parse_upload_queue, warn};

settings! {
    section "backup";
    #[derive(Args, Clone)]
    #[command(
        after_help = "Examples:\n  tangle -r /mnt/usb/tangle backup ~/docs ~/photos --exclude '*.tmp'\n  tangle -P home backup --json\n  tangle -P home backup --exclude-caches -x --exclude-larger-than 1G ~\n  pg_dumpall | tangle -P home backup --stdin --stdin-filename pg/all.sql\n  tangle -P home backup --stdin-from-command --stdin-filename pg/all.sql -- pg_dumpall"
    )]
    pub struct BackupArgs {
        /// Files and directories to back up (default: the profile's [backup] sources);
        /// with --stdin-from-command, the command and its arguments
        #[arg(value_name = "PATH")]
        pub paths: Vec<PathBuf> => key("sources"),
        /// Skip paths matching GLOB (a name like `*.o`, or an absolute path pattern)
        #[arg(long = "exclude", short = 'e', value_name = "GLOB")]
        pub excludes: Vec<String> => key("exclude"),
        /// Read exclude patterns from a file (one per line, # comments)
        #[arg(long = "exclude-file", value_name = "FILE")]
        pub exclude_files: Vec<PathBuf> => key("exclude-file"),
        /// As --exclude, ignoring case
        #[arg(long = "iexclude", value_name = "GLOB")]
        pub iexcludes: Vec<String> => key("iexclude"),
        /// As --exclude-file, ignoring case
        #[arg(long = "iexclude-file", value_name = "FILE")]
        pub iexclude_files: Vec<PathBuf> => key("iexclude-file"),
        /// Skip the contents of directories holding a valid CACHEDIR.TAG (the tag is kept)
        #[arg(long)]
        pub exclude_caches: bool,
        /// Skip the contents of directories holding FILE, or FILE starting with HEADER
        /// (FILE is kept); repeatable
        #[arg(long, value_name = "FILE[:HEADER]", value_parser = parse_tag_spec)]
        pub exclude_if_present: Vec<String>,
        /// Skip files larger than SIZE (bytes, or with K, M, G, T: 500K, 2M, 1G)
        #[arg(long, value_name = "SIZE", value_parser = parse_size_flag)]
        pub exclude_larger_than: Option<u64>,
        /// Stay on the file system of each source: do not descend into mount points
        #[arg(short = 'x', long)]
        pub one_file_system: bool,
        /// Read the paths to back up from FILE (one path or glob pattern a line, #
        /// comments; - is stdin); repeatable
        #[arg(long, value_name = "FILE")]
        pub files_from: Vec<PathBuf>,
        /// Read the paths to back up from FILE, one a line, taken literally; repeatable
        #[arg(long, value_name = "FILE")]
        pub files_from_verbatim: Vec<PathBuf>,
        /// Read the paths to back up from FILE, separated by NUL bytes; repeatable
        #[arg(long, value_name = "FILE")]
        pub files_from_raw: Vec<PathBuf>,
        /// Back up what is read from stdin, as one file
        #[arg(long)]
        pub stdin: bool => cli_only(),
        /// The stdin file's path in the snapshot (default: stdin, recorded as /stdin)
        #[arg(long, value_name = "NAME")]
        pub stdin_filename: Option<String> => cli_only(),
        /// Back up the output of the command given after `--` as one file (the backup
        /// fails if the command does not exit 0)
        #[arg(long)]
        pub stdin_from_command: bool => cli_only(),
        /// Tag the snapshot (comma-separated, as restic's; repeatable)
        #[arg(long = "tag", value_name = "TAG[,TAG]")]
        pub tags: Vec<String> => alias("tag"),
        /// Host name to record (default: this machine's)
        #[arg(long, env = "TANGLE_HOST")]
        pub host: Option<String>,
        /// Do everything except write to the repository
        #[arg(short = 'n', long)]
        pub dry_run: bool => cli_only(),
        /// Back up even if the repository is older than this client last saw it (rollback)
        #[arg(long)]
        pub allow_stale: bool,
        /// Extents a slow remote may fall behind by before the backup waits for it
        /// (1-64, default 1; each holds about 28 MiB of memory with the default coding;
        /// raise it when one remote is much slower than the others)
        #[arg(long, value_name = "N", value_parser = parse_upload_queue)]
        pub upload_queue: Option<usize>,
        /// Back up with this writer key file (from `tangle writer add`) instead of the
        /// password: the run can add history but read none, and delete nothing
        #[arg(long, value_name = "FILE", env = "TANGLE_WRITER_KEY")]
        pub writer_key: Option<std::path::PathBuf>,
    }
}

/// The settings naming what to back up: from the command line, or else from the profile.
const SOURCES: [&str; 4] = [
    "paths",
    "files_from",
    "files_from_verbatim",
    "files_from_raw",
];

/// The arguments with what `given` lacks taken from the profile's `[backup]`, key by
/// key; its `sources` and `files-from*` only when the command line names nothing to back
/// up (no PATH, no --files-from*, no --stdin*).
fn resolve(g: &Global, a: &BackupArgs, given: &Given) -> Result<Resolved<BackupArgs>> {
    let named = (SOURCES.iter().chain(&["stdin", "stdin_from_command"])).any(|id| given.has(id));
    settings::resolve(g.loaded.as_deref(), a, given, |id| {
        !(named && SOURCES.contains(&id))
    })
}

/// `--exclude-if-present FILE[:HEADER]`, checked.
fn parse_tag_spec(text: &str) -> Result<String> {
    backup::filter::parse_tag_spec(text).map_err(Error::usage)?;
    Ok(text.to_string())
}

/// `--exclude-larger-than SIZE`, in restic's size syntax: bytes (`100` or `100B`), or a
/// number with K, M, G or T.
fn parse_size_flag(text: &str) -> Result<u64> {
    let t = text.trim();
    let bytes = (t.strip_suffix(['b', 'B']))
        .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
    tangle::util::parse_size(bytes.unwrap_or(t)).ok_or_else(|| {
        Error::usage(format!(
            "{text:?} is not a size: give bytes, or a number with K, M, G or T (500K, 2M, 1G)"
        ))
    })
}

/// The settings `tangle run` uses: no flags.
pub fn unflagged(g: &Global) -> Result<Resolved<BackupArgs>> {
    let (a, given) = settings::defaults::<BackupArgs>("backup")?;
    resolve(g, &a, &given)
}

pub fn run(g: &Global, a: &BackupArgs) -> Result<u8> {
    let a = resolve(g, a, &g.given)?.args;
    let (_, code) = super::hooks::around(
        g,
        || {
            let r = execute(g, &a)?;
            print(g, &r)?;
            Ok(r)
        },
        outcome,
    )?;
    Ok(code)
}

/// What the profile's after, failed and finally hooks are told of the backup.
pub fn outcome(r: &BackupReport) -> super::hooks::Outcome {
    super::hooks::Outcome {
        exit_code: exit_code(r),
        snapshot_id: r.snapshot_id.clone(),
    }
}

/// 3 when some files could not be read (the snapshot is written), else 0.
pub fn exit_code(r: &BackupReport) -> u8 {
    if r.errors.is_empty() { 0 } else { 3 }
}

/// Back up and warn about what could not be read or written; print nothing else.
pub fn execute(g: &Global, a: &BackupArgs) -> Result<BackupReport> {
    let stdin = stdin_options(a)?;
    let mut paths = a.paths.clone();
    if stdin.is_none() {
        let lists = backup::FilesFrom {
            patterns: a.files_from.clone(),
            verbatim: a.files_from_verbatim.clone(),
            raw: a.files_from_raw.clone(),
        };
        let (listed, warnings) = backup::files_from(&lists)?;
        for w in &warnings {
            warn(format_args!("{w}"));
        }
        paths.extend(listed);
        if paths.is_empty() {
            return Err(Error::usage(
                "nothing to back up: give the PATHs (or --files-from, --stdin), or a profile \
                 (-P) with [backup] sources",
            ));
        }
        // A missing source path is an error before anything else happens (even the
        // password).
        for p in &paths {
            if let Err(e) = std::fs::symlink_metadata(p) {
                return Err(tangle::Error::fatal(format!(
                    "source path {} cannot be backed up: {e}",
                    p.display()
                )));
            }
        }
    }
    let filter = FilterOptions {
        excludes: a.excludes.clone(),
        exclude_files: a.exclude_files.clone(),
        iexcludes: a.iexcludes.clone(),
        iexclude_files: a.iexclude_files.clone(),
        exclude_caches: a.exclude_caches,
        exclude_if_present: a.exclude_if_present.clone(),
        exclude_larger_than: a.exclude_larger_than,
        one_file_system: a.one_file_system,
    };
    // Bad patterns and unreadable pattern files too, before the password is asked for.
    if stdin.is_none() {
        backup::filter::Filter::new(&filter)?;
    }
    let opts = BackupOptions {
        paths,
        filter,
        stdin,
        tags: a.tags.clone(),
        host: a.host.clone(),
        dry_run: a.dry_run,
        allow_stale: a.allow_stale,
        upload_queue: a.upload_queue,
    };
    let progress = Arc::new(Progress::default());
    let bar = Bar::start(g.show_progress(), progress.clone(), "backing up");
    let status = JsonStatus::start(g.json && g.progress, progress.clone());
    let result = match &a.writer_key {
        Some(file) => backup_as_writer(g, file, &opts, &progress),
        None => {
            let repo: Repository<Unlocked> = g.open(Purpose::Writing)?;
            // Shared with other backups, exclusive of a delete: taken before the index is
            // loaded, so nothing this run dedups against or points into can be deleted
            // under it.
            let _lock = lock_unless(&repo, a.dry_run)?;
            let repo = backup::prepare(repo)?;
            backup::run(&repo, &opts, &progress)
        }
    };
    bar.finish();
    status.finish();
    let r = result?;
    for e in &r.errors {
        warn(format_args!("{e}"));
    }
    for d in &r.degraded_remotes {
        warn(format_args!(
            "remote not written, the new data has reduced redundancy there until `tangle repair` runs: {d}"
        ));
    }
    Ok(r)
}

/// A backup run's lock, shared with other backups (none for a dry run).
fn lock_unless<S: Signs>(repo: &Repository<S>, dry_run: bool) -> Result<Option<LockGuard>> {
    Ok(match dry_run {
        true => None,
        false => Some(repo.lock(LockKind::Shared, "backup")?),
    })
}

/// A backup with a writer key: no password; the repository opened with the public key,
/// checked against the owner keys the key file pins, then as the writer.
fn backup_as_writer(
    g: &Global,
    file: &std::path::Path,
    opts: &BackupOptions,
    progress: &Progress,
) -> Result<BackupReport> {
    let text = tangle::util::read_regular_file(file, 64 << 10).map_err(|e| {
        Error::fatal(format!(
            "cannot read the writer key {}: {e}",
            file.display()
        ))
    })?;
    let key = String::from_utf8(text)
        .ok()
        .and_then(|t| WriterKey::from_file_text(&t).ok())
        .ok_or_else(|| {
            Error::usage(format!(
                "{} is not a tangle writer key file (`tangle writer add` makes them)",
                file.display()
            ))
        })?;
    let repo: Repository<Public> = g.open(Purpose::Writing)?;
    let repo = repo.open_as_writer(key)?;
    let _lock = lock_unless(&repo, opts.dry_run)?;
    backup::run(&repo, opts, progress)
}

/// The stream to back up (`--stdin`, `--stdin-from-command`), checked against the rest of
/// the command line: `None` for a backup of paths.
fn stdin_options(a: &BackupArgs) -> Result<Option<StdinOptions>> {
    let source = match (a.stdin, a.stdin_from_command) {
        (true, true) => {
            return Err(Error::usage(
                "--stdin and --stdin-from-command exclude each other: give one",
            ));
        }
        (false, false) => {
            if a.stdin_filename.is_some() {
                return Err(Error::usage(
                    "--stdin-filename names the file of --stdin or --stdin-from-command: give one of them",
                ));
            }
            return Ok(None);
        }
        (true, false) => {
            if !a.paths.is_empty() {
                return Err(Error::usage(
                    "--stdin backs up what is read from stdin: give no PATH with it",
                ));
            }
            if std::io::stdin().is_terminal() {
                return Err(Error::usage(
                    "--stdin backs up what is read from stdin, which is a terminal: pipe the data in",
                ));
            }
            StreamSource::Stdin
        }
        (false, true) => {
            if a.paths.is_empty() {
                return Err(Error::usage(
                    "--stdin-from-command needs the command after `--`: \
                     tangle backup --stdin-from-command -- COMMAND [ARG...]",
                ));
            }
            StreamSource::Command(a.paths.iter().map(|p| p.clone().into_os_string()).collect())
        }
    };
    let flag = if a.stdin {
        "--stdin"
    } else {
        "--stdin-from-command"
    };
    for (given, name) in [
        (!a.files_from.is_empty(), "--files-from"),
        (!a.files_from_verbatim.is_empty(), "--files-from-verbatim"),
        (!a.files_from_raw.is_empty(), "--files-from-raw"),
    ] {
        if given {
            return Err(Error::usage(format!(
                "{flag} and {name} exclude each other: back up either a stream or paths"
            )));
        }
    }
    let o = StdinOptions {
        source,
        filename: a.stdin_filename.clone().unwrap_or_else(|| "stdin".into()),
    };
    o.components()?;
    Ok(Some(o))
}

/// The report: JSON, or the human summary.
pub fn print(g: &Global, r: &BackupReport) -> Result<()> {
    if g.json {
        // One line, as restic's JSON lines: the report plus its message type.
        let mut line = serde_json::to_value(r)
            .map_err(|e| tangle::Error::fatal(format!("JSON output: {e}")))?;
        if let Some(o) = line.as_object_mut() {
            o.insert("message_type".into(), "summary".into());
        }
        super::write_stdout(format!("{line}\n").as_bytes())?;
    } else {
        if let Some(p) = &r.parent {
            g.say(format_args!(
                "using parent snapshot {}",
                &p[..8.min(p.len())]
            ));
        }
        g.say(format_args!(
            "Files:  {:>8} new, {:>8} changed, {:>8} unchanged",
            r.files_new, r.files_changed, r.files_unchanged
        ));
        g.say(format_args!("Dirs:   {:>8}", r.dirs));
        g.say(format_args!(
            "Added to the repository: {} in {} blobs ({} stored with parity, {} extents)",
            human_bytes(r.bytes_added),
            r.blobs_added,
            human_bytes(r.bytes_stored),
            r.extents
        ));
        g.say(format_args!(
            "processed {} files, {} (read {}) in {:.1}s",
            r.files_new + r.files_changed + r.files_unchanged,
            human_bytes(r.bytes_total),
            human_bytes(r.bytes_read),
            r.duration_secs
        ));
        for w in r.upload_waits.iter().filter(|w| w.seconds >= 1.0) {
            g.say(format_args!(
                "waited {:.1}s for {} to take more data (its upload queue was full; see --upload-queue)",
                w.seconds, w.remote
            ));
        }
        match &r.short_id {
            Some(id) => g.say(format_args!("snapshot {id} saved")),
            None => g.say("dry run: nothing was written"),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_as_restic_writes_them() {
        for (text, want) in [
            ("0", 0),
            ("100", 100),
            ("100B", 100),
            ("7b", 7),
            ("2k", 2048),
            ("2M", 2 << 20),
            (" 1G ", 1 << 30),
            ("1T", 1 << 40),
        ] {
            assert_eq!(parse_size_flag(text).ok(), Some(want), "{text}");
        }
        for bad in ["", "B", "1KB", "1.5G", "-1", "2X", "99999999999T"] {
            let e = parse_size_flag(bad).unwrap_err();
            assert!(e.message().contains("is not a size"), "{bad}: {e}");
        }
    }
}
