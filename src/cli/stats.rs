//! `tangle stats [SNAPSHOT...] [--mode restore-size|raw-data]`

use clap::{Args, ValueEnum};
use tangle::Result;
use tangle::ops::stats::{self, Mode};
use tangle::util::escape;

use super::open::Purpose;
use super::snapshot_filter::{SnapshotSelection, help};
use super::{Global, line};
use tangle::repo::{Indexed, Repository};

#[derive(Clone, Copy, ValueEnum)]
pub enum ModeArg {
    /// The files as restored, summed over the snapshots
    RestoreSize,
    /// The unique blobs the snapshots reference, as stored
    RawData,
}

/// What `--help` shows after the options.
const EXAMPLES: &str = "Examples:\n  tangle stats\n  tangle stats latest --mode raw-data --json\n  tangle stats --host laptop";
/// The help of the SNAPSHOT arguments.
const SNAPSHOTS: &str = "Snapshots to count (ids, prefixes or `latest`); default: all";

#[derive(Args)]
#[command(after_help = EXAMPLES, mut_arg("snapshots", help(SNAPSHOTS)))]
pub struct StatsArgs {
    /// What `total_size` counts
    #[arg(long, value_enum, default_value = "restore-size")]
    pub mode: ModeArg,
    #[command(flatten)]
    pub selection: SnapshotSelection,
}

pub fn run(g: &Global, a: &StatsArgs) -> Result<u8> {
    let filter = a.selection.filter.filter()?;
    let repo: Repository<Indexed> = g.open(Purpose::Reading)?;
    let mode = match a.mode {
        ModeArg::RestoreSize => Mode::RestoreSize,
        ModeArg::RawData => Mode::RawData,
    };
    let r = stats::stats(&repo, &a.selection.snapshots, &filter, mode)?;
    if g.json {
        return g.print_json(&r).map(|_| 0);
    }
    let u = &r.repository;
    let lines = [
        format!("snapshots:           {}", r.snapshots_count),
        format!(
            "{:<21}{} in {} {}",
            format!("total ({}):", r.mode),
            size(r.total_size),
            r.total_file_count,
            if mode == Mode::RawData {
                "blobs"
            } else {
                "files"
            },
        ),
        format!(
            "logical size:        {} in {} files",
            size(r.logical_bytes),
            r.files
        ),
        format!(
            "unique blobs:        {} ({} plaintext, {} stored)",
            r.unique_blobs,
            size(r.unique_raw_bytes),
            size(r.stored_blob_bytes)
        ),
        format!("dedup ratio:         {:.2}", r.dedup_ratio),
        format!("compression ratio:   {:.2}", r.compression_ratio),
        format!(
            "repository:          {} extents, {} shards, {} stored ({} data, {} parity, {} metadata, {} other)",
            u.extents,
            u.shards,
            size(u.total_bytes),
            size(u.data_bytes),
            size(u.parity_bytes),
            size(u.metadata_bytes),
            size(u.other_bytes)
        ),
        format!(
            "parity overhead:     {:.1}%; storage per stored byte {:.2}",
            u.parity_overhead * 100.0,
            u.storage_overhead
        ),
        format!(
            "storage:             {}",
            super::render::storage_split(&u.storage)
        ),
        format!(
            "pointer coverage:    {:.1}% of data shards ({} of {})",
            u.pointer_coverage.share * 100.0,
            u.pointer_coverage.pointed,
            u.pointer_coverage.data_shards
        ),
    ];
    for l in lines {
        line(l)?;
    }
    for (rem, spare) in u.remotes.iter().zip(&u.pointer_coverage.spare_after_losing) {
        if !rem.reachable {
            line(format_args!("  {}: unreachable", escape(&rem.remote)))?;
            continue;
        }
        line(format_args!(
            "  {}: {} ({} data in {} shards, {} parity in {} shards, {} metadata, {} other); losing it leaves {:.1}% of extents a spare",
            escape(&rem.remote),
            size(rem.total_bytes),
            size(rem.data_bytes),
            rem.data_shards,
            size(rem.parity_bytes),
            rem.parity_shards,
            size(rem.metadata_bytes),
            size(rem.other_bytes),
            spare.share * 100.0
        ))?;
    }
    Ok(0)
}

/// Bytes for humans: `1.5 MiB` style, binary units up to TiB.
fn size(b: u64) -> String {
    tangle::util::human_bytes_in(b, &tangle::util::BINARY_UNITS[..5], 1)
}
