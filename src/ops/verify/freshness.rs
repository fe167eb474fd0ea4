//! Freshness: heads never go backwards, on one remote or on all of them.

use std::collections::{HashMap, HashSet};

use super::{Finding, FindingKind, Severity};
use crate::extent::{ExtentName, Head};
use crate::ops::analysis::heads::{committed_by, heads_by_writer, newest_heads};
use crate::ops::survey::Survey;
use crate::repo::{Repository, State};

/// Heads must never go backwards: not on one remote compared with the others, and not
/// on all of them compared with what this client saw before. Returns the extents that
/// some authentic head commits to (and their ancestors).
pub(super) fn freshness<S: State>(
    repo: &Repository<S>,
    survey: &Survey,
    findings: &mut Vec<Finding>,
) -> HashSet<ExtentName> {
    let heads = heads_by_writer(repo, survey);
    let newest = newest_heads(&heads);
    // A remote that holds heads but lacks a newer one *and* what that one commits to
    // (its newest extent's certificate) serves an older state: a rollback. Every run writes under its own writer id, so
    // "newer" is across writers, by time. Exceptions: the head says the run could not
    // write to that remote (a backup with the remote down), and a remote with no head at
    // all (wiped or new: repairable). Lacking only the head itself is an interrupted write.
    let all: Vec<&Head> = heads.values().flatten().collect();
    for (r, listing) in survey.listings.iter().enumerate() {
        let Ok(listing) = listing else { continue };
        let lacks = |p: &str| !listing.contains_key(p);
        let held: Vec<&&Head> = all.iter().filter(|h| !lacks(&h.path())).collect();
        let Some(newest_held) = held.iter().map(|h| h.time).max() else {
            continue;
        };
        let held_extents: HashSet<ExtentName> = held
            .iter()
            .filter_map(|h| h.extent.map(|(e, _)| e))
            .collect();
        // Newer than what the remote holds: later in time, or building on a head it holds.
        let builds_on_held = |h: &Head| {
            let mut next = h.extent.map(|(e, _)| e);
            let mut steps = 0;
            while let Some(e) = next {
                if held_extents.contains(&e) {
                    return true;
                }
                steps += 1;
                if steps > survey.certs.len() {
                    return false;
                }
                next = survey.cert_pos.get(&e).and_then(|&i| survey.certs[i].prev);
            }
            false
        };
        let culprit = all.iter().find(|h| {
            lacks(&h.path())
                && (h.time > newest_held || builds_on_held(h))
                && !h.skipped.contains(&(r as u16))
                // What it commits: its newest extent's certificate, written before the
                // head. Not its snapshot, written after it: a remote whose head write
                // failed is left out of the snapshot write too, honestly.
                && h
                    .extent
                    .as_ref()
                    .is_some_and(|(e, _)| lacks(&e.cert_path()))
        });
        if let Some(h) = culprit {
            let url = &survey.urls[r];
            let w = hex::encode(h.writer);
            findings.push(
                Finding::new(
                    Severity::Trust,
                    FindingKind::Rollback,
                    format!(
                        "remote {url} serves an older state: writer {}'s head {} and what it commits to are missing",
                        &w[..8],
                        h.seq
                    ),
                )
                .remote(url)
                .path(&h.path()),
            );
        }
    }
    let known = repo.known_heads();
    // Heads a delete consolidated away are gone on purpose.
    let consolidated: Vec<String> = (known.iter())
        .filter(|(w, seq)| {
            let mut id = [0u8; 16];
            hex::decode_to_slice(w, &mut id).is_ok()
                && survey
                    .deleted
                    .heads
                    .contains(&crate::extent::head_path(&id, **seq))
        })
        .map(|(w, _)| w.clone())
        .collect();
    for (w, &seq) in &known {
        if consolidated.contains(w) {
            continue;
        }
        let have = newest.get(w).map(|h| h.seq);
        if have.is_none_or(|h| h < seq) {
            findings.push(Finding::new(
                Severity::Trust,
                FindingKind::Rollback,
                format!(
                    "every remote serves an older state than this client has seen: writer {}'s newest head is {} here but {} remotes-wide",
                    // The cache's keys are not checked to be hex: cut by characters.
                    w.chars().take(8).collect::<String>(),
                    seq,
                    have.map_or("none".to_string(), |h| h.to_string())
                ),
            ));
        }
    }
    let committed = committed_by(survey, &newest);
    if !findings.iter().any(|f| f.kind == FindingKind::Rollback) {
        // Remember the tips only: a head whose extent a later committed run continues
        // from is covered by that run's chain (losing it shows as a gap), so the memory
        // stays as small as the number of runs nothing has built on yet.
        let tips = tips(&newest, survey, &committed);
        let covered: Vec<String> = newest
            .keys()
            .filter(|w| !tips.contains_key(*w))
            .cloned()
            .collect();
        repo.forget_heads(&covered);
        repo.forget_heads(&consolidated);
        repo.remember_heads(&tips);
    }
    committed
}

/// The newest head of each writer that no other committed run builds on: its extent is
/// nobody's predecessor, and no newer head names the same extent (a run that added no
/// data). Writer -> head seq.
fn tips(
    newest: &HashMap<String, Head>,
    survey: &Survey,
    committed: &HashSet<ExtentName>,
) -> HashMap<String, u64> {
    let continued: HashSet<ExtentName> = survey
        .certs
        .iter()
        .filter(|c| committed.contains(&c.name()))
        .filter_map(|c| c.prev)
        .collect();
    let mut latest_per_extent: HashMap<ExtentName, (i64, [u8; 16])> = HashMap::new();
    for h in newest.values() {
        if let Some((e, _)) = h.extent {
            let slot = latest_per_extent.entry(e).or_insert((h.time, h.writer));
            *slot = (*slot).max((h.time, h.writer));
        }
    }
    newest
        .iter()
        .filter(|(_, h)| match h.extent {
            None => true,
            Some((e, _)) => {
                !continued.contains(&e) && latest_per_extent.get(&e) == Some(&(h.time, h.writer))
            }
        })
        .map(|(w, h)| (w.clone(), h.seq))
        .collect()
}
