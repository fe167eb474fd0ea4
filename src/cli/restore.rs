//! `tangle restore SNAPSHOT[:PATH] --target DIR`

use std::path::PathBuf;
use std::sync::Arc;

use clap::{Args, ValueEnum};
use tangle::ops::Progress;
use tangle::ops::restore::{self, Overwrite, RestoreOptions, RestoreReport};
use tangle::repo::{Indexed, Repository};
use tangle::util::human_bytes;
use tangle::{Error, Kind, Result};

use super::open::Purpose;
use super::snapshot_filter::SnapshotFilterArgs;
use super::{Global, progress::Bar, warn};

#[derive(Args)]
#[command(
    after_help = "Examples:\n  tangle restore latest --target /tmp/restore\n  tangle restore latest --host laptop --target /tmp/restore\n  tangle restore 1a2b3c4d --target /tmp/restore --include /home/me/docs"
)]
pub struct RestoreArgs {
    /// Snapshot id (prefix) or `latest`, optionally with `:PATH` to restore only that path
    #[arg(value_name = "SNAPSHOT[:PATH]")]
    pub snapshot: String,
    /// Directory to restore into; paths are recreated below it as they were backed up
    #[arg(short, long, value_name = "DIR")]
    pub target: PathBuf,
    /// Restore only paths matching GLOB (repeatable)
    #[arg(short = 'i', long = "include", value_name = "GLOB")]
    pub includes: Vec<String>,
    /// Skip paths matching GLOB (repeatable)
    #[arg(short = 'e', long = "exclude", value_name = "GLOB")]
    pub excludes: Vec<String>,
    /// Read the restored files back and check them against the snapshot
    #[arg(long)]
    pub verify: bool,
    /// Say how many files and bytes would be restored (and kept, and deleted); write nothing
    #[arg(short = 'n', long)]
    pub dry_run: bool,
    /// What to do with a file, symlink or special file already at a restored path:
    /// always replace it; if-changed: replace a file unless it has the snapshot's size and
    /// mtime (then set only its metadata); if-newer: replace it if the snapshot's mtime is
    /// later; never: keep it
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = OverwriteArg::Always)]
    pub overwrite: OverwriteArg,
    /// Delete what is in the target but not in the snapshot, below the restored paths
    /// (with --include/--exclude, only what they select); never outside the target
    #[arg(long)]
    pub delete: bool,
    #[command(flatten)]
    pub filter: SnapshotFilterArgs,
}

/// `--overwrite`, as restic 0.17 spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OverwriteArg {
    Always,
    IfChanged,
    IfNewer,
    Never,
}

impl From<OverwriteArg> for Overwrite {
    fn from(a: OverwriteArg) -> Self {
        match a {
            OverwriteArg::Always => Overwrite::Always,
            OverwriteArg::IfChanged => Overwrite::IfChanged,
            OverwriteArg::IfNewer => Overwrite::IfNewer,
            OverwriteArg::Never => Overwrite::Never,
        }
    }
}

pub fn run(g: &Global, a: &RestoreArgs) -> Result<u8> {
    let filter = a.filter.filter()?;
    let repo: Repository<Indexed> = g.open(Purpose::Reading)?;
    let opts = RestoreOptions {
        spec: a.snapshot.clone(),
        filter,
        target: a.target.clone(),
        includes: a.includes.clone(),
        excludes: a.excludes.clone(),
        verify: a.verify,
        dry_run: a.dry_run,
        overwrite: a.overwrite.into(),
        delete: a.delete,
    };
    let progress = Arc::new(Progress::default());
    let bar = Bar::start(g.show_progress(), progress.clone(), "restoring");
    let result = restore::run(&repo, &opts, &progress);
    bar.finish();
    super::render::warn_read_around(g, &repo.damage_read_around());
    let r = result?;
    // Lost files are listed below, each once, then why; every other error as a warning.
    let others = (r.errors.iter()).filter(|e| !r.lost.iter().any(|l| e.ends_with(&l.error)));
    for e in others {
        warn(format_args!("{e}"));
    }
    let mut causes: Vec<(&str, usize)> = vec![];
    for l in &r.lost {
        match l.kind {
            "dir" => warn(format_args!(
                "not restored: {}/ (its listing is lost: nothing under it)",
                l.path.trim_end_matches('/')
            )),
            _ => warn(format_args!(
                "not restored: {} ({})",
                l.path,
                human_bytes(l.size)
            )),
        }
        match causes.iter_mut().find(|(c, _)| *c == l.error) {
            Some((_, n)) => *n += 1,
            None => causes.push((&l.error, 1)),
        }
    }
    for (cause, n) in causes {
        warn(format_args!("{n} of these because {cause}"));
    }
    if g.json {
        g.print_json(&r)?;
    } else if r.dry_run {
        g.say(format_args!(
            "would restore {} files ({}) of snapshot {} to {}{}",
            r.files,
            human_bytes(r.bytes),
            &r.snapshot_id[..8],
            a.target.display(),
            existing_summary(&r)
        ));
    } else {
        g.say(format_args!(
            "restored snapshot {} to {}: {} files, {} dirs, {} others, {} in {:.1}s",
            &r.snapshot_id[..8],
            a.target.display(),
            r.files,
            r.dirs,
            r.others,
            human_bytes(r.bytes),
            r.duration_secs
        ));
        let existing = existing_summary(&r);
        if !existing.is_empty() {
            g.say(format_args!("{}", existing.trim_start_matches("; ")));
        }
        if !r.lost.is_empty() {
            g.say(format_args!(
                "not restored: {} of them ({}), their data lost",
                r.lost.len(),
                human_bytes(r.lost_bytes)
            ));
        }
        if let Some(n) = r.verified {
            g.say(format_args!("verified {n} files"));
        }
    }
    if !r.lost.is_empty() {
        let (files, dirs) = (
            r.lost.iter().filter(|l| l.kind == "file").count(),
            r.lost.iter().filter(|l| l.kind == "dir").count(),
        );
        let mut what = vec![];
        if files > 0 {
            what.push(format!(
                "{files} file{} ({})",
                plural(files),
                human_bytes(r.lost_bytes)
            ));
        }
        if dirs > 0 {
            what.push(format!(
                "{dirs} director{}",
                if dirs == 1 { "y" } else { "ies" }
            ));
        }
        let others = r.errors.len().saturating_sub(r.lost.len());
        return Err(Error::new(
            Kind::DataLost,
            format!(
                "{} not restored: their data is lost on every remote (listed above; everything else was restored{}); `tangle verify` says what the repository lost",
                what.join(" and "),
                match others {
                    0 => String::new(),
                    n => format!(", but for {n} other error{}", plural(n)),
                }
            ),
        ));
    }
    if r.errors.is_empty() {
        Ok(0)
    } else {
        Err(Error::fatal(format!(
            "{} errors while restoring (see warnings above)",
            r.errors.len()
        )))
    }
}

/// What the restore did with what was in the target (with `--dry-run`: would do), as
/// `; ...`, or nothing if it met nothing there.
fn existing_summary(r: &RestoreReport) -> String {
    let verb = |dry: &'static str, done: &'static str| if r.dry_run { dry } else { done };
    let mut parts = vec![];
    if r.files_overwritten > 0 {
        let v = verb("would replace", "replaced");
        parts.push(format!("{v} {} existing files", r.files_overwritten));
    }
    let kept = r.files_skipped + r.others_skipped;
    if kept > 0 {
        let v = verb("would keep", "kept");
        let how = r.overwrite.name();
        parts.push(format!("{v} {kept} existing entries (--overwrite {how})"));
    }
    if r.files_deleted + r.dirs_deleted > 0 {
        let v = verb("would delete", "deleted");
        parts.push(format!(
            "{v} {} files and {} directories not in the snapshot",
            r.files_deleted, r.dirs_deleted
        ));
    }
    match parts.is_empty() {
        true => String::new(),
        false => format!("; {}", parts.join(", ")),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
