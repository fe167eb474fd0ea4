//! `tangle tag [SNAPSHOT...] --add T | --remove T | --set T` (restic's `tag`).

use clap::Args;
use tangle::Result;
use tangle::ops::tag::{self, TagChange, TagOptions, TagReport};
use tangle::repo::{LockKind, Repository, Unlocked};

use super::open::Purpose;
use super::snapshot_filter::{SnapshotSelection, help};
use super::{Global, line};

/// What `--help` shows after the options.
const EXAMPLES: &str = "Examples:\n  tangle tag latest --add keep\n  tangle tag 1a2b3c4d --remove daily --add weekly\n  tangle tag --host laptop --set laptop,home\n  tangle tag --tag old --set '' --dry-run";
/// The help of the SNAPSHOT arguments.
const SNAPSHOTS: &str = "Snapshots to change (ids, unique prefixes or `latest`); none: every snapshot the filters select (all of them without filters)";

#[derive(Args)]
#[command(after_help = EXAMPLES, mut_arg("snapshots", help(SNAPSHOTS)))]
pub struct TagArgs {
    /// Add these tags (comma-separated; repeatable)
    #[arg(long, value_name = "TAG[,TAG]")]
    pub add: Vec<String>,
    /// Remove these tags (comma-separated; repeatable)
    #[arg(long, value_name = "TAG[,TAG]")]
    pub remove: Vec<String>,
    /// Replace every tag by these (comma-separated; repeatable; '' for no tags); not with
    /// --add or --remove
    #[arg(long, value_name = "TAG[,TAG]")]
    pub set: Vec<String>,
    /// Say which snapshots would change and how; change nothing
    #[arg(short = 'n', long)]
    pub dry_run: bool,
    #[command(flatten)]
    pub selection: SnapshotSelection,
}

pub fn run(g: &Global, a: &TagArgs) -> Result<u8> {
    let change = TagChange::new(&a.set, &a.add, &a.remove)?;
    let opts = TagOptions {
        selection: a.selection.selection()?,
        change,
        dry_run: a.dry_run,
    };
    let repo: Repository<Unlocked> = g.open(Purpose::Writing)?;
    // Alone, as delete: the old snapshots are deleted by a record.
    let _lock = match a.dry_run {
        true => None,
        false => Some(repo.lock(LockKind::Exclusive, "tag")?),
    };
    let r = tag::run(&repo, &opts)?;
    print(g, &r)?;
    Ok(0)
}

fn tags(t: &[String]) -> String {
    match t.is_empty() {
        true => "(none)".to_string(),
        false => tangle::util::escape(&t.join(",")).into_owned(),
    }
}

fn print(g: &Global, r: &TagReport) -> Result<()> {
    if g.json {
        return g.print_json(r);
    }
    let would = if r.dry_run { "would " } else { "" };
    for c in &r.changed {
        line(format_args!(
            "{}  tags {} -> {}",
            super::render::replaced(&c.old_id, c.new_id.as_deref()),
            tags(&c.tags_before),
            tags(&c.tags_after)
        ))?;
    }
    g.say(format_args!(
        "{would}change {} snapshots ({} unchanged)",
        r.changed.len(),
        r.unchanged.len()
    ));
    Ok(())
}
