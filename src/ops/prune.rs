//! `tangle prune` (restic's name): remove the leftovers of interrupted runs and nothing
//! else ([`super::leftovers`] says what they are and why they are dead). The caller holds
//! the exclusive lock (none for a dry run). Snapshots, and what deletion records name,
//! are `delete`'s; `delete` reclaims the same leftovers on every run too.

use serde::Serialize;

use super::leftovers::{self, LeftoverKind, RemoteLeftovers};
use super::survey::Survey;
use crate::error::Result;
use crate::repo::{Indexed, Repository};

pub struct PruneOptions {
    pub dry_run: bool,
}

#[derive(Serialize, Debug, Default)]
pub struct PruneReport {
    pub dry_run: bool,
    /// Leftover objects removed (with `dry_run`, that would be), counting every remote's
    /// copy, and their bytes.
    pub leftovers_reclaimed: usize,
    pub leftover_bytes_reclaimed: u64,
    /// Per remote, in config order.
    pub leftovers_by_remote: Vec<RemoteLeftovers>,
    /// Uncommitted extents (certificate and shards) and index segments removed, each
    /// once however many remotes held it.
    pub extents_removed: usize,
    pub index_segments_removed: usize,
    /// Of `leftovers_reclaimed`: copies of those segments and certificates, shards of
    /// those extents, shard objects no certificate accounts for, and temp files.
    pub index_segment_objects: usize,
    pub certificate_objects: usize,
    pub shard_objects: usize,
    pub stray_shards: usize,
    pub temp_files: usize,
    /// Remotes that did not answer with the repository (`URL (why)`): then nothing is
    /// removed anywhere, and the exit code is 20.
    pub remotes_away: Vec<String>,
    /// Why objects no head commits to were kept (a segment or snapshot that cannot be
    /// read): `verify` says more.
    pub kept: Vec<String>,
    pub exit_code: u8,
}

pub fn run(repo: &mut Repository<Indexed>, opts: &PruneOptions) -> Result<PruneReport> {
    let survey = Survey::take(repo)?;
    let mut report = PruneReport {
        dry_run: opts.dry_run,
        remotes_away: leftovers::away(&survey),
        ..Default::default()
    };
    if !report.remotes_away.is_empty() {
        report.leftovers_by_remote = leftovers::Found::default().by_remote(&survey);
        report.exit_code = 20;
        return Ok(report);
    }
    let found = leftovers::find(repo, &survey)?;
    report.leftovers_reclaimed = found.objects.len();
    report.leftover_bytes_reclaimed = found.bytes();
    report.leftovers_by_remote = found.by_remote(&survey);
    report.extents_removed = found.extents;
    report.index_segments_removed = found.index_segments;
    report.index_segment_objects = found.count(LeftoverKind::IndexSegment);
    report.certificate_objects = found.count(LeftoverKind::Certificate);
    report.shard_objects = found.count(LeftoverKind::Shard);
    report.stray_shards = found.count(LeftoverKind::StrayShard);
    report.temp_files = found.count(LeftoverKind::TempFile);
    report.kept = found.kept.clone();
    if !opts.dry_run {
        leftovers::remove(repo, &found.objects)?;
    }
    Ok(report)
}
