//! `tangle backup PATH...` (or the sources of the profile's `[backup]`)

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use tangle::ops::Progress;
use tangle::ops::backup::{self, BackupOptions, BackupReport};
use tangle::repo::{LockKind, Repository, Unlocked};
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
        after_help = "Examples:\n  tangle -r /mnt/usb/tangle backup ~/docs ~/photos --exclude '*.tmp'\n  tangle -P home backup --json"
    )]
    pub struct BackupArgs {
        /// Files and directories to back up (default: the profile's [backup] sources)
        #[arg(value_name = "PATH")]
        pub paths: Vec<PathBuf> => key("sources"),
        /// Skip paths matching GLOB (a name like `*.o`, or an absolute path pattern)
        #[arg(long = "exclude", short = 'e', value_name = "GLOB")]
        pub excludes: Vec<String> => key("exclude"),
        /// Read exclude patterns from a file (one per line, # comments)
        #[arg(long = "exclude-file", value_name = "FILE")]
        pub exclude_files: Vec<PathBuf> => key("exclude-file"),
        /// Tag the snapshot (repeatable)
        #[arg(long = "tag", value_name = "TAG")]
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
    }
}

/// The arguments with what `given` lacks taken from the profile's `[backup]`, key by
/// key; its `sources` only when no PATH is given.
fn resolve(g: &Global, a: &BackupArgs, given: &Given) -> Result<Resolved<BackupArgs>> {
    settings::resolve(g.loaded.as_deref(), a, given, |_| true)
}

/// The settings `tangle run` uses: no flags.
pub fn unflagged(g: &Global) -> Result<Resolved<BackupArgs>> {
    let (a, given) = settings::defaults::<BackupArgs>("backup")?;
    resolve(g, &a, &given)
}

pub fn run(g: &Global, a: &BackupArgs) -> Result<u8> {
    let a = resolve(g, a, &g.given)?.args;
    let r = execute(g, &a)?;
    print(g, &r)?;
    Ok(exit_code(&r))
}

/// 3 when some files could not be read (the snapshot is written), else 0.
pub fn exit_code(r: &BackupReport) -> u8 {
    if r.errors.is_empty() { 0 } else { 3 }
}

/// Back up and warn about what could not be read or written; print nothing else.
pub fn execute(g: &Global, a: &BackupArgs) -> Result<BackupReport> {
    if a.paths.is_empty() {
        return Err(Error::usage(
            "nothing to back up: give the PATHs, or a profile (-P) with [backup] sources",
        ));
    }
    // A missing source path is an error before anything else happens (even the password).
    for p in &a.paths {
        if let Err(e) = std::fs::symlink_metadata(p) {
            return Err(tangle::Error::fatal(format!(
                "source path {} cannot be backed up: {e}",
                p.display()
            )));
        }
    }
    let repo: Repository<Unlocked> = g.open(Purpose::Writing)?;
    // Shared with other backups, exclusive of a delete: taken before the index is
    // loaded, so nothing this run dedups against or points into can be deleted under it.
    let _lock = if a.dry_run {
        None
    } else {
        Some(repo.lock(LockKind::Shared, "backup")?)
    };
    let repo = backup::prepare(repo)?;
    let opts = BackupOptions {
        paths: a.paths.clone(),
        excludes: a.excludes.clone(),
        exclude_files: a.exclude_files.clone(),
        tags: a.tags.clone(),
        host: a.host.clone(),
        dry_run: a.dry_run,
        allow_stale: a.allow_stale,
        upload_queue: a.upload_queue,
    };
    let progress = Arc::new(Progress::default());
    let bar = Bar::start(g.show_progress(), progress.clone(), "backing up");
    let status = JsonStatus::start(g.json && g.progress, progress.clone());
    let result = backup::run(&repo, &opts, &progress);
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
