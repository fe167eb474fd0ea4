//! `tangle verify`: find every kind of damage a remote can do and name the culprit.
//! Works with only the public key (the storage layer); with the password it also checks
//! that every snapshot's trees and blobs are reachable.
//!
//! One module per concern: `report` (the report), `metadata` (remotes and metadata
//! copies), `freshness` (rollbacks), `chains` (writers' verifier chains), `strays`
//! (stray shard objects, objects deleted but still there, foreign files), `subset`
//! (`--read-data-subset`). The analyses `repair` and `stats` share are in
//! `ops/analysis/`: the findings themselves, shards, lost data and extents at risk,
//! what the pointers protect, the snapshots (with the password) and the paths that lost
//! data costs.

mod chains;
mod freshness;
mod metadata;
mod report;
mod strays;
mod subset;

use std::collections::HashSet;

pub use self::report::{DetectionRate, SubsetForm, SubsetReport, VerifyReport};
pub use self::subset::{Subset, group};
pub use super::analysis::{
    Finding, FindingKind, LostData, LostPath, LostPathKind, LostUnknown, PointerCoverage,
    RemoteSpare, Severity, Storage, StoredShare,
};
use super::analysis::{coverage, lost, shards, snapshots};
use super::survey::{ShardState, Survey};
use crate::error::Result;
use crate::repo::{Repository, State};

#[derive(Clone, Copy, Debug)]
pub enum ReadData {
    No,
    All,
    /// Part of the extents, and the seed that draws them (unused by `n/t`).
    Subset(Subset, u64),
}

/// Add to `report` that the password was given but no key file could be read (`why`):
/// unrecoverable, since nothing can be decrypted without a key.
pub fn keys_unreadable(report: &mut VerifyReport, why: &str) {
    report.findings.insert(
        0,
        Finding::new(
            Severity::Unrecoverable,
            FindingKind::KeysUnreadable,
            format!("with the password: {why}; the snapshots were not checked"),
        ),
    );
    report.exit_code = report.exit_code.max(Severity::Unrecoverable.exit_code());
}

pub fn run<S: State>(repo: &Repository<S>, read: ReadData) -> Result<VerifyReport> {
    run_with_progress(repo, read, &crate::ops::Progress::default())
}

/// [`run`], counting the extents and shard bytes read in `progress` (for a progress bar).
pub fn run_with_progress<S: State>(
    repo: &Repository<S>,
    read: ReadData,
    progress: &crate::ops::Progress,
) -> Result<VerifyReport> {
    let mut survey = Survey::take(repo)?;
    let mut report = VerifyReport {
        remotes: survey.urls.clone(),
        owner_fingerprint: crate::crypto::fingerprint(&repo.config.owner),
        extents: survey.certs.len(),
        shards: survey.shards.iter().map(|s| s.len()).sum(),
        ..Default::default()
    };
    let mut findings = Vec::new();
    metadata::remotes_reachable(&survey, &mut findings);
    let committed = freshness::freshness(repo, &survey, &mut findings);
    metadata::metadata_replicas(repo, &survey, &committed, &mut findings);
    metadata::locks(&survey, &mut findings);
    chains::chains(repo, &survey, &committed, &mut findings);
    report.pointer_coverage = coverage::coverage(&survey, &committed);
    report.storage = coverage::storage(repo, &survey, &committed);
    if !matches!(read, ReadData::No) {
        read_data(
            repo,
            &mut survey,
            read,
            &mut report,
            &mut findings,
            progress,
        );
    }
    let lost = shards::shards(&survey, &committed, &mut findings);
    strays::leftovers(repo, &survey, &mut findings);
    strays::foreign(&survey, &mut findings);
    strays::reclaimable(&survey, &mut findings);
    if let Some(repo) = repo.indexed() {
        // Only lost data costs a tracer (and the paths it names).
        let mut tracer = lost::Tracer::new(repo.index(), lost)?;
        let roots = snapshots::snapshots_reachable(repo, tracer.as_mut(), &mut findings)?;
        report.snapshots_checked = roots.len();
        if let Some(t) = tracer {
            t.finish(&roots, &mut findings);
        }
    }
    findings.sort_by_key(|f| std::cmp::Reverse(f.severity));
    report.exit_code = findings
        .iter()
        .map(|f| f.severity.exit_code())
        .max()
        .unwrap_or(0);
    report.findings = findings;
    Ok(report)
}

/// Download the chosen extents' shards (marking corrupt ones in the survey), report
/// inconsistent parity, and for a sample state how likely it was to catch corruption.
fn read_data<S: State>(
    repo: &Repository<S>,
    survey: &mut Survey,
    read: ReadData,
    report: &mut VerifyReport,
    findings: &mut Vec<Finding>,
    progress: &crate::ops::Progress,
) {
    let chosen = match read {
        ReadData::Subset(subset, seed) => subset.choose(&survey.certs, seed),
        ReadData::No | ReadData::All => Vec::new(),
    };
    let pick: Box<dyn Fn(usize) -> bool> = match read {
        ReadData::No => Box::new(|_| false),
        ReadData::All => Box::new(|_| true),
        ReadData::Subset(..) => {
            let set: HashSet<usize> = chosen.iter().copied().collect();
            Box::new(move |e| set.contains(&e))
        }
    };
    let (bytes, checked, inconsistent) = survey.read_data(repo, &*pick, progress);
    report.bytes_read = bytes;
    report.shards_read = checked;
    remember_suspects(repo, survey, &*pick);
    for e in inconsistent {
        let name = survey.certs[e].name();
        findings.push(
            Finding::new(
                Severity::Trust,
                FindingKind::ParityInconsistent,
                format!(
                    "extent {}: stored parity is not what its data and pointers encode to",
                    name.short()
                ),
            )
            .extent(&name, None)
            .repair("none: the signed certificate disagrees with its own data (writer bug or stolen key); back up the data again"),
        );
    }
    if let ReadData::Subset(subset, seed) = read {
        report.subset = Some(subset.report(seed, &survey.certs, &chosen, checked, report.shards));
    }
}

/// Remember the extents with a corrupt shard for the next plain `repair` (which cannot
/// see corruption in a listing): those just read replace their old entries, the rest of
/// the list is kept.
fn remember_suspects<S: State>(
    repo: &Repository<S>,
    survey: &Survey,
    read: &dyn Fn(usize) -> bool,
) {
    let read_now: HashSet<String> = (0..survey.certs.len())
        .filter(|&e| read(e))
        .map(|e| survey.certs[e].name().hex())
        .collect();
    let mut suspects: Vec<String> = repo
        .suspect_extents()
        .into_iter()
        .filter(|n| !read_now.contains(n))
        .collect();
    for (e, states) in survey.shards.iter().enumerate() {
        if read(e) && states.contains(&ShardState::Corrupt) {
            suspects.push(survey.certs[e].name().hex());
        }
    }
    suspects.sort();
    suspects.dedup();
    repo.set_suspect_extents(&suspects);
}
