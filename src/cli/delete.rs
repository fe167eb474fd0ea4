//! `tangle delete SNAPSHOT... [--dry-run] [--allow-degraded]`

use clap::Args;
use tangle::ops::delete::{self, DeleteOptions};
use tangle::util::human_bytes;
use tangle::{Error, Result};

use super::{Global, line};

#[derive(Args)]
pub struct DeleteArgs {
    /// Snapshots to delete (ids or unique id prefixes, or `latest`)
    #[arg(value_name = "SNAPSHOT")]
    pub snapshots: Vec<String>,
    /// Say what would be removed and freed; change nothing
    #[arg(short = 'n', long)]
    pub dry_run: bool,
    /// Delete even with remotes unreachable (the next repair removes from them what the
    /// deletion names)
    #[arg(long)]
    pub allow_degraded: bool,
}

pub fn run(g: &Global, a: &DeleteArgs) -> Result<u8> {
    let mut repo = g.open_unlocked_without_index()?;
    if a.snapshots.is_empty() {
        return Err(Error::usage(
            "name the snapshots to delete (see `tangle snapshots`)",
        ));
    }
    let mut remove = Vec::new();
    for spec in &a.snapshots {
        let (id, _) = repo.find_snapshot(spec)?;
        if !remove.contains(&id) {
            remove.push(id);
        }
    }
    let r = delete::run(
        &mut repo,
        &DeleteOptions {
            remove,
            dry_run: a.dry_run,
            allow_degraded: a.allow_degraded,
        },
    )?;
    if g.json {
        g.print_json(&r)?;
        return Ok(0);
    }
    let would = if r.dry_run { "would " } else { "" };
    for id in &r.snapshots_removed {
        line(format_args!("{would}remove snapshot {}", &id[..8]))?;
    }
    g.say(format_args!(
        "{would}remove {} snapshots ({} kept), {} extents; {would}re-encode {} extents",
        r.snapshots_removed.len(),
        r.snapshots_kept,
        r.extents_removed,
        r.extents_reencoded
    ));
    for f in &r.freed {
        g.say(format_args!(
            "{would}free {} on {}",
            human_bytes(f.bytes),
            f.remote
        ));
    }
    if !r.dry_run {
        g.say(format_args!(
            "freed {} in all; read {}, wrote {} to re-encode",
            human_bytes(r.bytes_freed),
            human_bytes(r.bytes_read),
            human_bytes(r.bytes_written)
        ));
    }
    Ok(0)
}
