//! What several commands conclude from a [`Survey`] of the remotes, computed once here
//! for all of them: which extents the heads commit to (`heads`), the state of every
//! shard and which data is lost (`shards`), what the loss costs in snapshots and paths
//! (`lost`, fed by the walk of every snapshot in `snapshots`), and what the pointers
//! protect and the extents store (`coverage`), all said as findings and numbers
//! (`finding`). `verify` reports all of it, `repair` the data it cannot rebuild, `stats`
//! the coverage and storage.

pub(crate) mod coverage;
mod finding;
pub(crate) mod heads;
pub(crate) mod lost;
pub(crate) mod shards;
pub(crate) mod snapshots;

pub use self::finding::{
    Finding, FindingKind, LostData, LostPath, LostPathKind, LostUnknown, PointerCoverage,
    RemoteSpare, Severity, Storage, StoredShare,
};
use crate::error::Result;
use crate::ops::survey::Survey;
use crate::repo::{Repository, State};

/// Pointer coverage of the extents the survey's heads commit to, as `verify` reports it
/// (no findings, and the cache's memory of heads is left alone).
pub(crate) fn pointer_coverage<S: State>(repo: &Repository<S>, survey: &Survey) -> PointerCoverage {
    coverage::coverage(survey, &heads::committed(repo, survey))
}

/// Stored bytes of the extents the survey's heads commit to, as `verify` reports them.
pub(crate) fn storage<S: State>(repo: &Repository<S>, survey: &Survey) -> Storage {
    coverage::storage(repo, survey, &heads::committed(repo, survey))
}

/// The `data-lost` findings `verify` would report for the survey as it stands (the
/// committed extents whose data shards peeling cannot restore), each naming, when the
/// repository is unlocked, the snapshots and paths the loss costs: for `repair`, which
/// says what it cannot rebuild. Reads every snapshot's trees, and only when data is lost.
pub(crate) fn data_lost<S: State>(repo: &Repository<S>, survey: &Survey) -> Result<Vec<Finding>> {
    let mut findings = Vec::new();
    let lost = shards::shards(survey, &heads::committed(repo, survey), &mut findings);
    findings.retain(|f| f.kind == FindingKind::DataLost);
    if let Some(repo) = repo.indexed().filter(|_| !lost.is_empty()) {
        let mut tracer = lost::Tracer::new(repo.index(), lost)?;
        // What else the walk finds (unreadable trees) is verify's to report.
        let roots = snapshots::snapshots_reachable(repo, tracer.as_mut(), &mut Vec::new())?;
        if let Some(t) = tracer {
            t.finish(&roots, &mut findings);
        }
    }
    Ok(findings)
}
