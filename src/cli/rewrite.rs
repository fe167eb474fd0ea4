//! `tangle rewrite [SNAPSHOT...] --exclude PATTERN | --exclude-file FILE [--forget]`
//! (restic's `rewrite`).

use std::path::PathBuf;

use clap::Args;
use tangle::Result;
use tangle::ops::rewrite::{self, Excludes, RewriteOptions, RewriteReport};
use tangle::repo::{Indexed, LockKind, Repository, Unlocked};
use tangle::util::human_bytes;

use super::open::Purpose;
use super::snapshot_filter::{SnapshotSelection, help};
use super::{Global, line};

/// What `--help` shows after the options.
const EXAMPLES: &str = "Examples:\n  tangle rewrite latest --exclude '*.iso'\n  tangle rewrite --host laptop --exclude /home/me/.cache --forget\n  tangle rewrite 1a2b3c4d --exclude-file excludes.txt --dry-run";
/// The help of the SNAPSHOT arguments.
const SNAPSHOTS: &str = "Snapshots to rewrite (ids, unique prefixes or `latest`); none: every snapshot the filters select (all of them without filters)";

#[derive(Args)]
#[command(after_help = EXAMPLES, mut_arg("snapshots", help(SNAPSHOTS)))]
pub struct RewriteArgs {
    /// Leave out paths matching PATTERN, as backup's --exclude (repeatable)
    #[arg(short = 'e', long = "exclude", value_name = "PATTERN")]
    pub excludes: Vec<String>,
    /// Read exclude patterns from FILE, one per line, as backup's --exclude-file (repeatable)
    #[arg(long = "exclude-file", value_name = "FILE")]
    pub exclude_files: Vec<PathBuf>,
    /// Delete each rewritten snapshot's original (its data stays until `tangle delete`
    /// finds it unused)
    #[arg(long)]
    pub forget: bool,
    /// Say which snapshots would be rewritten and what would be left out; write nothing
    #[arg(short = 'n', long)]
    pub dry_run: bool,
    #[command(flatten)]
    pub selection: SnapshotSelection,
}

pub fn run(g: &Global, a: &RewriteArgs) -> Result<u8> {
    let excludes = Excludes::new(&a.excludes, &a.exclude_files)?;
    let opts = RewriteOptions {
        selection: a.selection.selection()?,
        excludes,
        forget: a.forget,
        dry_run: a.dry_run,
    };
    let repo: Repository<Unlocked> = g.open(Purpose::Writing)?;
    // Alone, as delete: the index is loaded under the lock, so the new trees dedup
    // against every committed run, and --forget deletes by a record.
    let _lock = match a.dry_run {
        true => None,
        false => Some(repo.lock(LockKind::Exclusive, "rewrite")?),
    };
    let repo: Repository<Indexed> = repo.load_index()?;
    let r = rewrite::run(&repo, &opts)?;
    print(g, &r)?;
    Ok(0)
}

fn print(g: &Global, r: &RewriteReport) -> Result<()> {
    if g.json {
        return g.print_json(r);
    }
    let would = if r.dry_run { "would " } else { "" };
    for c in &r.rewritten {
        line(format_args!(
            "{}  {} entries left out ({} files, {})",
            super::render::replaced(&c.old_id, c.new_id.as_deref()),
            c.entries_removed,
            c.files_removed,
            human_bytes(c.bytes_removed)
        ))?;
    }
    g.say(format_args!(
        "{would}rewrite {} snapshots ({} unchanged){}",
        r.rewritten.len(),
        r.unchanged.len(),
        match (r.forget, r.rewritten.is_empty()) {
            (true, false) => format!("; {would}delete the originals"),
            _ => String::new(),
        }
    ));
    Ok(())
}
