//! Shards: which are missing or damaged, which of those can be rebuilt, and which extents
//! have lost data or have no spare left.

use std::collections::HashSet;

use super::finding::{Finding, FindingKind, LostData, LostUnknown, Severity};
use super::lost::LostExtent;
use crate::codec::peel::{Codeword, peel};
use crate::extent::ExtentName;
use crate::ops::survey::{ShardState, Survey};

/// Every shard of every committed extent: missing or damaged ones, rebuildable or not,
/// and extents whose data is lost or which have no spare left. Returns the lost data
/// shards of each extent with a `data-lost` finding.
pub(crate) fn shards(
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
