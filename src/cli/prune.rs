//! `tangle prune [--dry-run]`: remove the leftovers of interrupted runs (restic's name;
//! snapshots are `delete`'s, which reclaims the same leftovers on every run).

use clap::Args;
use tangle::Result;
use tangle::ops::prune::{self, PruneOptions, PruneReport};
use tangle::repo::{LockKind, Repository, Unlocked};
use tangle::util::human_bytes;

use super::open::Purpose;
use super::{Global, warn};

#[derive(Args)]
#[command(
    after_help = "Examples:\n  tangle prune --dry-run\n  tangle prune\n  tangle prune --json --retry-lock 30m"
)]
pub struct PruneArgs {
    /// Say what would be removed, per remote; change nothing (takes no lock, so a backup
    /// running meanwhile may show in it)
    #[arg(short = 'n', long)]
    pub dry_run: bool,
}

pub fn run(g: &Global, a: &PruneArgs) -> Result<u8> {
    let repo: Repository<Unlocked> = g.open(Purpose::Writing)?;
    // Alone: no run may be writing what is judged dead (docs/DESIGN.md §14b).
    let _lock = if a.dry_run {
        None
    } else {
        Some(repo.lock(LockKind::Exclusive, "prune")?)
    };
    // The index is loaded under the lock: what a backup committed before it counts.
    let mut repo = repo.load_index()?;
    let r = prune::run(&mut repo, &PruneOptions { dry_run: a.dry_run })?;
    for why in &r.kept {
        warn(format_args!("kept: {why}"));
    }
    if !r.remotes_away.is_empty() {
        warn(format_args!(
            "remote {} is away: prune removed nothing (leftovers are judged against every \
             remote; run it again when all are back)",
            r.remotes_away.join(", remote ")
        ));
    }
    if g.json {
        g.print_json(&r)?;
    } else {
        print(g, &r);
    }
    Ok(r.exit_code)
}

/// One line: what was (or would be) removed, per remote; with `-v` also by kind.
fn print(g: &Global, r: &PruneReport) {
    if !r.remotes_away.is_empty() {
        return;
    }
    if r.leftovers_reclaimed == 0 {
        g.say("no leftovers of interrupted runs");
        return;
    }
    let per_remote: Vec<String> = (r.leftovers_by_remote.iter())
        .map(|l| format!("{} ({}) on {}", l.objects, human_bytes(l.bytes), l.remote))
        .collect();
    g.say(format_args!(
        "{} {} leftover objects of interrupted runs ({}): {}",
        if r.dry_run { "would remove" } else { "removed" },
        r.leftovers_reclaimed,
        human_bytes(r.leftover_bytes_reclaimed),
        per_remote.join(", ")
    ));
    if g.verbose > 0 {
        g.say(format_args!(
            "  {} uncommitted extents ({} certificate copies, {} shards), {} uncommitted index \
             segments ({} copies), {} stray shards, {} temp files",
            r.extents_removed,
            r.certificate_objects,
            r.shard_objects,
            r.index_segments_removed,
            r.index_segment_objects,
            r.stray_shards,
            r.temp_files
        ));
    }
}
