//! Writers' chains: every extent continues its writer's verifier chain, and no chain
//! position holds two committed extents.

use std::collections::{HashMap, HashSet};

use super::{Finding, FindingKind, Severity};
use crate::extent::{ExtentName, genesis_verifier};
use crate::ops::survey::Survey;
use crate::repo::{Repository, State};

pub(super) fn chains<S: State>(
    repo: &Repository<S>,
    survey: &Survey,
    committed: &HashSet<ExtentName>,
    findings: &mut Vec<Finding>,
) {
    let genesis = genesis_verifier(&repo.config.owner);
    let mut by_position: HashMap<([u8; 16], u64), Vec<ExtentName>> = HashMap::new();
    for c in &survey.certs {
        let name = c.name();
        by_position.entry((c.writer, c.seq)).or_default().push(name);
        let ok = match (c.seq, c.prev) {
            (0, None) => c.start_verifier == genesis,
            (_, Some(prev)) => match survey.cert_pos.get(&prev) {
                Some(&p) => {
                    c.start_verifier == survey.certs[p].verifier
                        && survey.certs[p].seq.checked_add(1) == Some(c.seq)
                }
                // Deleted by the owner: the record keeps its place in the chain.
                None if survey.deleted.extents.contains_key(&prev) => {
                    let d = &survey.deleted.extents[&prev];
                    c.start_verifier == prev.0 && d.seq.checked_add(1) == Some(c.seq)
                }
                None => {
                    findings.push(
                        Finding::new(
                            Severity::Unrecoverable,
                            FindingKind::ChainGap,
                            format!(
                                "extent {} follows extent {}, which no remote has",
                                name.short(),
                                prev.short()
                            ),
                        )
                        .extent(&name, None),
                    );
                    continue;
                }
            },
            _ => false,
        };
        if !ok {
            findings.push(
                Finding::new(
                    Severity::Trust,
                    FindingKind::ChainBroken,
                    format!(
                        "extent {} does not continue its writer's verifier chain",
                        name.short()
                    ),
                )
                .extent(&name, None),
            );
        }
    }
    for ((writer, seq), names) in by_position {
        if names.len() < 2 {
            continue;
        }
        let live: Vec<&ExtentName> = names.iter().filter(|n| committed.contains(n)).collect();
        let (sev, kind, what) = if live.len() > 1 {
            (
                Severity::Trust,
                FindingKind::Fork,
                "several committed extents claim",
            )
        } else {
            (
                Severity::Info,
                FindingKind::Leftover,
                "an interrupted run left another extent at",
            )
        };
        findings.push(Finding::new(
            sev,
            kind,
            format!(
                "{what} position {seq} of writer {}: {}",
                &hex::encode(writer)[..8],
                names
                    .iter()
                    .map(|n| n.short())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
}
