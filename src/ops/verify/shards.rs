//! Shards: which are missing or damaged, which of those can be rebuilt, which extents
//! have lost data or have no spare left, and shard objects no certificate accounts for.

use std::collections::HashSet;

use super::finding::{Finding, FindingKind, LostData, LostUnknown, Severity};
use super::lost::LostExtent;
use crate::codec::peel::{Codeword, peel};
use crate::extent::ExtentName;
use crate::ops::survey::{ShardState, Survey};
use crate::repo::Repository;

/// Every shard of every committed extent: missing or damaged ones, rebuildable or not,
/// and extents whose data is lost or which have no spare left. Returns the lost data
/// shards of each extent with a `data-lost` finding.
pub(super) fn shards(
    survey: &Survey,
    committed: &HashSet<ExtentName>,
    findings: &mut Vec<Finding>,
) -> Vec<LostExtent> {
    let mut lost = Vec::new();
    let (codewords, mut present, offset) = survey.graph();
    let before = present.clone();
    peel(&codewords, &mut present);
    for (e, c) in survey.certs.iter().enumerate() {
        let name = c.name();
        let s = c.data_shards as usize;
        if !committed.contains(&name) {
            // An interrupted run's extent: nothing committed needs it.
            let bad = survey.shards[e]
                .iter()
                .filter(|st| !matches!(st, ShardState::Ok | ShardState::Unreachable))
                .count();
            if bad > 0 {
                findings.push(
                    Finding::new(
                        Severity::Info,
                        FindingKind::Leftover,
                        format!("extent {} was written by an interrupted run; {bad} of its shards are missing or damaged", name.short()),
                    )
                    .extent(&name, None),
                );
            }
            continue;
        }
        for (i, state) in survey.shards[e].iter().enumerate() {
            let what = match state {
                ShardState::Ok | ShardState::Unreachable => continue,
                ShardState::Missing => "is missing".to_string(),
                ShardState::WrongSize(n) => {
                    format!("has the wrong size ({n} bytes, expected {})", c.shard_size)
                }
                ShardState::Corrupt => "is corrupt (does not match its certified hash)".to_string(),
            };
            let url = &survey.urls[c.shards[i].remote as usize];
            let path = name.shard_path(i);
            let recoverable = present[offset[e] + i];
            let f = if recoverable {
                Finding::new(
                    Severity::Repairable,
                    FindingKind::BadShard,
                    format!("{path} on {url} {what}"),
                )
                .repair(format!(
                    "rebuild shard {i} of extent {} and write it to {url}",
                    name.short()
                ))
            } else {
                Finding::new(
                    Severity::Unrecoverable,
                    FindingKind::LostShard,
                    format!("{path} on {url} {what}, and too little is left to rebuild it"),
                )
            };
            findings.push(f.remote(url).path(&path).extent(&name, Some(i)));
        }
        let lost_data: Vec<usize> = (0..s).filter(|&i| !present[offset[e] + i]).collect();
        if !lost_data.is_empty() {
            findings.push(
                Finding::new(
                    Severity::Unrecoverable,
                    FindingKind::DataLost,
                    format!(
                        "extent {}: {} of {s} data shards cannot be recovered",
                        name.short(),
                        lost_data.len()
                    ),
                )
                .extent(&name, None)
                // Named later if the password allows (`lost.rs`).
                .lost(LostData::unknown(LostUnknown::NoPassword)),
            );
            lost.push(LostExtent {
                name,
                shard_size: c.shard_size.into(),
                shards: lost_data,
            });
            continue;
        }
        at_risk(survey, &codewords, &before, &offset, e, findings);
    }
    lost
}

/// An extent that has lost as many symbols as it has parity has no spare left: one more
/// loss in its codeword and it no longer decodes alone. Information, with the dependent
/// codewords that could still rescue it.
fn at_risk(
    survey: &Survey,
    codewords: &[Codeword],
    before: &[bool],
    offset: &[usize],
    e: usize,
    findings: &mut Vec<Finding>,
) {
    let name = survey.certs[e].name();
    let s = survey.certs[e].data_shards as usize;
    let cw = &codewords[e];
    let missing = cw.symbols.iter().filter(|&&x| !before[x]).count();
    if missing == 0 || missing < cw.parity {
        return;
    }
    let rescuers: Vec<String> = codewords
        .iter()
        .enumerate()
        .filter(|(d, other)| {
            *d != e
                && other
                    .symbols
                    .iter()
                    .any(|x| (offset[e]..offset[e] + s).contains(x))
                && other.symbols.iter().filter(|&&x| !before[x]).count() < other.parity
        })
        .map(|(d, _)| survey.certs[d].name().short())
        .collect();
    let rescue = if rescuers.is_empty() {
        "no dependent codeword could rescue it".to_string()
    } else {
        format!(
            "dependent codewords that could still rescue it: {}",
            rescuers.join(", ")
        )
    };
    findings.push(
        Finding::new(
            Severity::Info,
            FindingKind::AtRisk,
            format!(
                "extent {} has lost {missing} of its {} symbols and has no spare left{}; {rescue}",
                name.short(),
                cw.symbols.len(),
                if missing > cw.parity {
                    " (it decodes only with help from other codewords)"
                } else {
                    ""
                }
            ),
        )
        .extent(&name, None),
    );
}

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
pub(super) fn leftovers(repo: &Repository, survey: &Survey, findings: &mut Vec<Finding>) {
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
