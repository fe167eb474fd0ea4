//! Metadata on every remote: is each remote there, and is every copy of every metadata
//! object present and authentic.

use std::collections::HashSet;

use super::{Finding, FindingKind, Severity};
use crate::extent::{ExtentName, Head};
use crate::ops::survey::{BadCopy, CopyState, Survey};
use crate::repo::{Foreign, Repository, State};

pub(super) fn remotes_reachable(survey: &Survey, findings: &mut Vec<Finding>) {
    for (url, l) in survey.urls.iter().zip(&survey.listings) {
        if l.as_ref().is_ok_and(|l| !l.contains_key("config")) {
            findings.push(
                Finding::new(
                    Severity::Repairable,
                    FindingKind::RemoteEmpty,
                    format!("remote {url} does not hold the repository (lost or wiped)"),
                )
                .remote(url)
                .repair(format!(
                    "rewrite all metadata and rebuild every shard that belongs on {url}"
                )),
            );
        }
        if let Err(e) = l {
            findings.push(
                Finding::new(Severity::Repairable, FindingKind::RemoteUnreachable, format!("remote {url} cannot be listed: {e}"))
                    .remote(url)
                    .repair("nothing until the remote is reachable again (or `remote replace` it); then repair rewrites what it lacks"),
            );
        }
    }
}

/// Copies of every metadata object: missing or damaged ones are repairable damage, except
/// for certificates and index segments no head commits to: an interrupted run wrote
/// them, nothing depends on them, and their missing copies are only information.
pub(super) fn metadata_replicas<S: State>(
    repo: &Repository<S>,
    survey: &Survey,
    committed: &HashSet<ExtentName>,
    findings: &mut Vec<Finding>,
) {
    let committed_index: HashSet<String> = survey
        .meta
        .iter()
        .filter(|(p, _)| p.starts_with("heads/"))
        .filter_map(|(p, m)| Head::from_object(m.good.as_ref()?, repo.signers(), p).ok())
        .filter_map(|h| h.index)
        .collect();
    let uncommitted = |path: &str| match path.split_once('/') {
        Some(("extents", name)) => ExtentName::parse(name).is_ok_and(|n| !committed.contains(&n)),
        Some(("index", id)) => !committed_index.contains(id),
        _ => false,
    };
    for (path, m) in &survey.meta {
        // Where no remote holds an authentic copy, the copies that are provably another
        // repository's are no loss: each is reported on its remote, and repair removes it.
        if m.good.is_none() {
            for (r, x) in m.foreign_copies() {
                let url = &survey.urls[r];
                findings.push(
                    foreign_finding(path, url, x)
                        .repair(format!("remove it from {url} (not this repository's)")),
                );
            }
            if m.only_foreign() {
                continue;
            }
        }
        if m.good.is_some() && !m.conflicting && uncommitted(path) {
            let lacking = m.copies.iter().filter(|c| c.needs_rewrite()).count();
            if lacking > 0 {
                findings.push(
                    Finding::new(
                        Severity::Info,
                        FindingKind::Leftover,
                        format!("{path} was written by an interrupted run (no head commits to it); {lacking} copies are missing or damaged"),
                    )
                    .path(path)
                    .repair("none needed (`tangle prune` or the next `tangle delete` removes it)"),
                );
            }
            continue;
        }
        if m.conflicting {
            findings.push(
                Finding::new(
                    Severity::Trust,
                    FindingKind::Fork,
                    format!("{path}: remotes serve different authentic versions"),
                )
                .path(path),
            );
            continue;
        }
        if m.good.is_none() {
            let (sev, kind, what) = if m.forged {
                (
                    Severity::Trust,
                    FindingKind::BadSignature,
                    "well-formed but not signed by the repository owner",
                )
            } else {
                (
                    Severity::Unrecoverable,
                    FindingKind::MetadataLost,
                    "no remote has an authentic copy",
                )
            };
            // Say why the copies that exist were refused (e.g. a signed but
            // inconsistent certificate), once per distinct reason.
            let mut why: Vec<&str> = (m.copies.iter())
                .filter_map(|c| match c {
                    CopyState::Bad(BadCopy::Corrupt(e) | BadCopy::Forged(e)) => Some(e.as_str()),
                    _ => None,
                })
                .collect();
            why.dedup();
            let message = if why.is_empty() {
                format!("{path}: {what}")
            } else {
                format!("{path}: {what} ({})", why.join("; "))
            };
            let mut f = Finding::new(sev, kind, message).path(path);
            // Held by one remote only (a forged or junk object it planted): name it.
            let holders: Vec<usize> = (m.copies.iter().enumerate())
                .filter(
                    |(_, c)| matches!(c, CopyState::Bad(b) if !matches!(b, BadCopy::Foreign(_))),
                )
                .map(|(r, _)| r)
                .collect();
            if let [r] = holders[..] {
                f = f.remote(&survey.urls[r]);
            }
            findings.push(f);
            continue;
        }
        for (r, copy) in m.copies.iter().enumerate() {
            let url = &survey.urls[r];
            let f = match copy {
                CopyState::Missing => Finding::new(
                    Severity::Repairable,
                    FindingKind::MissingMetadata,
                    format!("{path} is missing on {url}"),
                ),
                // Why, which names the writer when a writer signed it.
                CopyState::Bad(BadCopy::Forged(why)) => Finding::new(
                    Severity::Trust,
                    FindingKind::BadSignature,
                    format!("{path} on {url} is not signed by the repository owner ({why})"),
                ),
                CopyState::Bad(stale @ BadCopy::Stale { .. }) => Finding::new(
                    Severity::Repairable,
                    FindingKind::StaleCertificate,
                    format!("{path} on {url} is out of date: {stale}"),
                ),
                CopyState::Bad(BadCopy::Corrupt(e)) => Finding::new(
                    Severity::Repairable,
                    FindingKind::CorruptMetadata,
                    format!("{path} on {url} is damaged: {e}"),
                ),
                CopyState::Bad(BadCopy::Foreign(x)) => foreign_finding(path, url, x),
                CopyState::Good(_) | CopyState::Unreachable => continue,
            };
            findings.push(
                f.remote(url)
                    .path(path)
                    .repair(format!("copy {path} from a remote with an authentic copy")),
            );
        }
    }
}

/// A copy at `path` on `url` that is provably another repository's: planted (or
/// misplaced) by whoever could write there. Signed by another key, it is a trust
/// violation of that remote (`bad-signature`); signed by this owner for another of its
/// repositories, a foreign object repair removes.
fn foreign_finding(path: &str, url: &str, x: &Foreign) -> Finding {
    let (severity, kind) = if x.owner_signed {
        (Severity::Repairable, FindingKind::ForeignObject)
    } else {
        (Severity::Trust, FindingKind::BadSignature)
    };
    Finding::new(
        severity,
        kind,
        format!("{path} on {url} is not this repository's: {}", x.why),
    )
    .remote(url)
    .path(path)
}

/// Lock copies that are not authentic: a remote that serves one could make every backup
/// wait if tangle believed it (it does not: it warns and goes on). Planted ones are trust
/// violations of that remote; damaged ones repair removes.
pub(super) fn locks(survey: &Survey, findings: &mut Vec<Finding>) {
    for bad in &survey.bad_locks {
        let url = &survey.urls[bad.remote];
        let (severity, kind) = match bad.why {
            BadCopy::Forged(_) => (Severity::Trust, FindingKind::BadSignature),
            _ => (Severity::Repairable, FindingKind::CorruptMetadata),
        };
        findings.push(
            Finding::new(
                severity,
                kind,
                format!(
                    "{} on {url} is not an authentic lock ({}); ignored",
                    bad.path, bad.why
                ),
            )
            .remote(url)
            .path(&bad.path)
            .repair("remove it (`tangle repair` or `tangle unlock` does)"),
        );
    }
}
