//! Freshness: heads never go backwards, on one remote or on all of them.

use std::collections::{HashMap, HashSet};

use super::finding::{Finding, FindingKind, Severity};
use crate::extent::{ExtentName, Head};
use crate::ops::survey::Survey;
use crate::repo::Repository;

/// Heads must never go backwards: not on one remote compared with the others, and not
/// on all of them compared with what this client saw before. Returns the extents that
/// some authentic head commits to (and their ancestors).
pub(super) fn freshness(
    repo: &Repository,
    survey: &Survey,
    findings: &mut Vec<Finding>,
) -> HashSet<ExtentName> {
    let owner = repo.config.owner;
    // Every authentic head, by writer.
    let mut heads: HashMap<String, Vec<Head>> = HashMap::new();
    for (path, m) in survey.meta.range("heads/".to_string()..) {
        if !path.starts_with("heads/") {
            break;
        }
        let Some(b) = &m.good else { continue };
        if let Ok(h) = Head::from_object(b, &owner, path) {
            heads.entry(hex::encode(h.writer)).or_default().push(h);
        }
    }
    let mut newest: HashMap<String, Head> = HashMap::new();
    for (w, list) in &heads {
        if let Some(h) = list.iter().max_by_key(|h| h.seq) {
            newest.insert(w.clone(), h.clone());
        }
    }
    // A remote that has some head of a writer but lacks a newer one *and* what that one
    // commits to serves an older state: a rollback. Exceptions: the head says the run
    // could not write to that remote (a backup with the remote down), and a remote with
    // no head of the writer at all (wiped or new: repairable). Lacking only the head
    // itself is an interrupted write.
    let mut rolled_back: HashSet<usize> = HashSet::new();
    for (w, list) in &heads {
        for (r, listing) in survey.listings.iter().enumerate() {
            let Ok(listing) = listing else { continue };
            let prefix = format!("heads/{w}/");
            if !listing.keys().any(|p| p.starts_with(&prefix)) || rolled_back.contains(&r) {
                continue;
            }
            let lacks = |p: &str| !listing.contains_key(p);
            let culprit = list.iter().find(|h| {
                lacks(&h.path())
                    && !h.skipped.contains(&(r as u16))
                    && (h
                        .snapshot
                        .as_ref()
                        .is_some_and(|s| lacks(&format!("snapshots/{s}")))
                        || h.extent
                            .as_ref()
                            .is_some_and(|(e, _)| lacks(&e.cert_path())))
            });
            if let Some(h) = culprit {
                rolled_back.insert(r);
                let url = &survey.urls[r];
                findings.push(
                    Finding::new(
                        Severity::Trust,
                        FindingKind::Rollback,
                        format!(
                            "remote {url} serves an older state: writer {}'s head {} and what it commits to are missing",
                            &w[..8.min(w.len())],
                            h.seq
                        ),
                    )
                    .remote(url)
                    .path(&h.path()),
                );
            }
        }
    }
    let known = repo.known_heads();
    for (w, &seq) in &known {
        let have = newest.get(w).map(|h| h.seq);
        if have.is_none_or(|h| h < seq) {
            findings.push(Finding::new(
                Severity::Trust,
                FindingKind::Rollback,
                format!(
                    "every remote serves an older state than this client has seen: writer {}'s newest head is {} here but {} remotes-wide",
                    &w[..8.min(w.len())],
                    seq,
                    have.map_or("none".to_string(), |h| h.to_string())
                ),
            ));
        }
    }
    if !findings.iter().any(|f| f.kind == FindingKind::Rollback) {
        repo.remember_heads(&newest.iter().map(|(w, h)| (w.clone(), h.seq)).collect());
    }
    // Extents committed by heads, and their ancestors.
    let mut committed = HashSet::new();
    for head in newest.values() {
        let mut next = head.extent.map(|(e, _)| e);
        while let Some(e) = next {
            if !committed.insert(e) {
                break;
            }
            next = survey.cert_pos.get(&e).and_then(|&i| survey.certs[i].prev);
        }
    }
    committed
}
