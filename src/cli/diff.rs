//! `tangle diff A B [--metadata]`

use clap::Args;
use tangle::Result;
use tangle::ops::diff::{self, DiffOptions};
use tangle::util::escape;

use super::open::Purpose;
use super::snapshot_filter::SnapshotFilterArgs;
use super::{Global, line};
use tangle::repo::{Indexed, Repository};

#[derive(Args)]
#[command(
    after_help = "Examples:\n  tangle diff 1a2b3c4d latest --metadata\n  tangle diff 1a2b3c4d latest --host laptop"
)]
pub struct DiffArgs {
    /// The older snapshot (id, prefix or `latest`)
    pub a: String,
    /// The newer snapshot (id, prefix or `latest`)
    pub b: String,
    /// Also show entries whose metadata alone changed (U: mode, owner, mtime, xattrs)
    #[arg(long)]
    pub metadata: bool,
    #[command(flatten)]
    pub filter: SnapshotFilterArgs,
}

pub fn run(g: &Global, a: &DiffArgs) -> Result<u8> {
    let filter = a.filter.filter()?;
    let repo: Repository<Indexed> = g.open(Purpose::Reading)?;
    let r = diff::diff(
        &repo,
        &a.a,
        &a.b,
        &filter,
        DiffOptions {
            metadata: a.metadata,
        },
    )?;
    if g.json {
        return g.print_json(&r).map(|_| 0);
    }
    g.say(format_args!(
        "comparing snapshot {} to {}:",
        &r.a[..8.min(r.a.len())],
        &r.b[..8.min(r.b.len())]
    ));
    for c in &r.changes {
        let slash = if c.kind == "dir" { "/" } else { "" };
        let sizes = match (c.old_size, c.new_size, c.modifier.contains('M')) {
            (Some(o), Some(n), true) => format!("  ({o} -> {n} bytes)"),
            _ => String::new(),
        };
        line(format_args!(
            "{:<5}{}{slash}{sizes}",
            c.modifier,
            escape(&c.raw_path)
        ))?;
    }
    let s = &r.stats;
    line(format_args!(
        "files: {} added, {} removed, {} changed; dirs: {} added, {} removed; others: {} added, {} removed; bytes: {} added, {} removed",
        s.files_added,
        s.files_removed,
        s.files_changed,
        s.dirs_added,
        s.dirs_removed,
        s.others_added,
        s.others_removed,
        s.bytes_added,
        s.bytes_removed
    ))?;
    Ok(0)
}
