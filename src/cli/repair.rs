//! `tangle repair [--dry-run]`

use clap::Args;
use tangle::Result;
use tangle::ops::repair::{self, RepairOptions};
use tangle::util::human_bytes;

use super::{Global, line, warn};

#[derive(Args)]
#[command(after_help = "Examples:\n  tangle repair --dry-run\n  tangle verify || tangle repair")]
pub struct RepairArgs {
    /// Print the plan and the bytes it would move; change nothing
    #[arg(short = 'n', long)]
    pub dry_run: bool,
    /// First download and hash every shard, to also find corruption a listing cannot see
    #[arg(long)]
    pub read_data: bool,
}

pub fn run(g: &Global, a: &RepairArgs) -> Result<u8> {
    let repo = g.open_maybe_unlocked()?;
    // Without the password no lock can be signed: a marker, and writes only while no
    // exclusive lock is live (see `repo::lock`).
    let _marker = if a.dry_run {
        None
    } else {
        Some(repo.repair_marker()?)
    };
    let progress = std::sync::Arc::new(tangle::ops::Progress::default());
    let bar = super::progress::Bar::counting(
        !a.dry_run && g.show_progress(),
        progress.clone(),
        "rebuilding",
        "codewords",
    );
    let result = repair::run_with_progress(
        &repo,
        &RepairOptions {
            dry_run: a.dry_run,
            read_data: a.read_data,
        },
        &progress,
    );
    bar.finish();
    let r = result?;
    if g.json {
        g.print_json(&r)?;
        return Ok(r.exit_code);
    }
    for act in &r.actions {
        if a.dry_run || g.verbose > 0 {
            line(format_args!(
                "{}{}: {} on {} ({})",
                if a.dry_run { "would " } else { "" },
                act.kind,
                act.path,
                act.remote,
                human_bytes(act.bytes)
            ))?;
        }
    }
    for u in r.unrepaired.iter().chain(&r.pending) {
        warn(u);
    }
    let moved: u64 = r.actions.iter().map(|x| x.bytes).sum();
    if r.actions.is_empty() {
        g.say("nothing to repair");
    } else if a.dry_run {
        g.say(format_args!(
            "dry run: {} actions would write {} (nothing changed)",
            r.actions.len(),
            human_bytes(moved)
        ));
    } else {
        g.say(format_args!(
            "repaired: {} objects rewritten or removed ({} written, {} read)",
            r.actions.len(),
            human_bytes(r.bytes_written),
            human_bytes(r.bytes_read)
        ));
    }
    Ok(r.exit_code)
}
