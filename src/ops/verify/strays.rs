//! Objects that are not the repository's live data: shard objects no certificate
//! accounts for (interrupted runs), objects a deletion record names that a remote still
//! holds, and files that are no object's name.

use std::collections::HashSet;

use super::{Finding, FindingKind, Severity};
use crate::ops::survey::Survey;
use crate::repo::{Repository, State};

/// Objects a deletion record names that a remote still holds: information, per remote;
/// except removed keys' files, repairable damage each: a copy of the master key under a
/// password the owner took back (it opens nothing, but a removal is meant to leave
/// none behind).
pub(super) fn reclaimable(survey: &Survey, findings: &mut Vec<Finding>) {
    for (r, path, _) in &survey.reclaimable {
        let Some(id) = path.strip_prefix("keys/") else {
            continue;
        };
        let url = &survey.urls[*r];
        findings.push(
            Finding::new(
                Severity::Repairable,
                FindingKind::RemovedKey,
                format!(
                    "{url} still holds {path}, a key the owner removed (a deletion record \
                     names it): it opens nothing, but it wraps the master key under the \
                     removed password"
                ),
            )
            .remote(url)
            .path(path)
            .repair(format!(
                "remove it (`tangle repair`, or `tangle key remove {}`)",
                &id[..8.min(id.len())]
            )),
        );
    }
    for (r, url) in survey.urls.iter().enumerate() {
        let (n, bytes) = (survey.reclaimable.iter())
            .filter(|(fr, p, _)| *fr == r && !p.starts_with("keys/"))
            .fold((0usize, 0u64), |(n, b), (_, _, size)| {
                (n + 1, b.saturating_add(*size))
            });
        if n > 0 {
            findings.push(
                Finding::new(
                    Severity::Info,
                    FindingKind::Leftover,
                    format!(
                        "{n} objects ({bytes} bytes) on {url} were deleted by the owner (a \
                         deletion record names them) and remain"
                    ),
                )
                .remote(url)
                .repair("remove them (`tangle repair` or the next `tangle delete`)"),
            );
        }
    }
}

/// Files that are no object's canonical name, one finding each (up to
/// [`FOREIGN_SHOWN`] per remote, then one that counts the rest).
pub(super) fn foreign(survey: &Survey, findings: &mut Vec<Finding>) {
    for (r, url) in survey.urls.iter().enumerate() {
        let paths: Vec<&str> = (survey.foreign.iter())
            .filter(|(fr, _)| *fr == r)
            .map(|(_, p)| p.as_str())
            .collect();
        for p in paths.iter().take(FOREIGN_SHOWN) {
            findings.push(
                Finding::new(
                    Severity::Info,
                    FindingKind::ForeignObject,
                    format!("{url} holds {p}, which is not a tangle object name (ignored)"),
                )
                .remote(url)
                .path(p)
                .repair("none (never copied; remove it by hand if it is not yours)"),
            );
        }
        if paths.len() > FOREIGN_SHOWN {
            findings.push(
                Finding::new(
                    Severity::Info,
                    FindingKind::ForeignObject,
                    format!(
                        "{url} holds {} more files that are not tangle object names",
                        paths.len() - FOREIGN_SHOWN
                    ),
                )
                .remote(url),
            );
        }
    }
}

/// Foreign objects named one by one per remote; more are counted.
const FOREIGN_SHOWN: usize = 20;

/// Objects no certificate accounts for: unfinished writes and shards on the wrong remote
/// (what `prune` removes as stray shards: `ops::leftovers::stray_shards`).
pub(super) fn leftovers<S: State>(
    repo: &Repository<S>,
    survey: &Survey,
    findings: &mut Vec<Finding>,
) {
    let strays =
        crate::ops::leftovers::stray_shards(repo, survey, &survey.deleted, &HashSet::new());
    for (r, url) in survey.urls.iter().enumerate() {
        let (unknown, bytes) = (strays.iter())
            .filter(|o| o.remote == r)
            .fold((0usize, 0u64), |(n, b), o| {
                (n + 1, b.saturating_add(o.bytes))
            });
        if unknown > 0 {
            findings.push(
                Finding::new(Severity::Info, FindingKind::Leftover, format!("{unknown} shard objects ({bytes} bytes) on {url} belong to no certified extent (left by interrupted runs)"))
                    .remote(url)
                    .repair("none needed (`tangle prune` or the next `tangle delete` removes them)"),
            );
        }
    }
}
