//! `tangle verify`: find every kind of damage a remote can do and name the culprit.
//! Works with only the public key (the storage layer); with the password it also checks
//! that every snapshot's trees and blobs are reachable.

use std::collections::{HashMap, HashSet};

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde::Serialize;

use super::survey::{Copy, ShardState, Survey};
use crate::codec::peel::peel;
use crate::content::{BlobKind, NodeKind};
use crate::error::Result;
use crate::extent::{ExtentName, Head, genesis_verifier};
use crate::repo::Repository;

#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Not damage: leftovers of interrupted runs, spare-less extents that still decode.
    Info,
    /// `repair` can fix it (exit 20).
    Repairable,
    /// Data is lost (exit 21).
    Unrecoverable,
    /// Bad signature, rollback, fork, foreign key (exit 22).
    Trust,
}

impl Severity {
    pub fn exit_code(self) -> u8 {
        match self {
            Severity::Info => 0,
            Severity::Repairable => 20,
            Severity::Unrecoverable => 21,
            Severity::Trust => 22,
        }
    }
}

#[derive(Serialize, Clone, Debug)]
pub struct Finding {
    pub severity: Severity,
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remote: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extent: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard: Option<usize>,
    pub message: String,
    /// What `repair` would do about it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repair: Option<String>,
}

impl Finding {
    fn new(severity: Severity, kind: &'static str, message: String) -> Finding {
        Finding {
            severity,
            kind,
            remote: None,
            path: None,
            extent: None,
            shard: None,
            message,
            repair: None,
        }
    }
    fn remote(mut self, url: &str) -> Self {
        self.remote = Some(url.to_string());
        self
    }
    fn path(mut self, p: &str) -> Self {
        self.path = Some(p.to_string());
        self
    }
    fn extent(mut self, e: &ExtentName, shard: Option<usize>) -> Self {
        self.extent = Some(e.hex());
        self.shard = shard;
        self
    }
    fn repair(mut self, r: impl Into<String>) -> Self {
        self.repair = Some(r.into());
        self
    }
}

#[derive(Clone, Copy, Debug)]
pub enum ReadData {
    No,
    All,
    /// Percent of extents, and the seed of the sample.
    Subset(f64, u64),
}

#[derive(Serialize, Debug)]
pub struct SubsetReport {
    pub percent: f64,
    pub seed: u64,
    /// (fraction of corrupt shards, probability this sample would have caught it).
    pub detection: Vec<(f64, f64)>,
}

#[derive(Serialize, Debug, Default)]
pub struct VerifyReport {
    pub remotes: Vec<String>,
    pub extents: usize,
    pub shards: usize,
    pub shards_read: u64,
    pub bytes_read: u64,
    pub snapshots_checked: usize,
    pub subset: Option<SubsetReport>,
    pub findings: Vec<Finding>,
    pub exit_code: u8,
}

pub fn run(repo: &Repository, read: ReadData) -> Result<VerifyReport> {
    let mut survey = Survey::take(repo)?;
    let mut report = VerifyReport {
        remotes: survey.urls.clone(),
        extents: survey.certs.len(),
        shards: survey.shards.iter().map(|s| s.len()).sum(),
        ..Default::default()
    };
    let mut findings = Vec::new();
    remotes_reachable(&survey, &mut findings);
    let committed = freshness(repo, &survey, &mut findings);
    metadata_replicas(repo, &survey, &committed, &mut findings);
    chains(repo, &survey, &committed, &mut findings);

    let pick: Box<dyn Fn(usize) -> bool> = match read {
        ReadData::No => Box::new(|_| false),
        ReadData::All => Box::new(|_| true),
        ReadData::Subset(pct, seed) => {
            let mut rng = StdRng::seed_from_u64(seed);
            let chosen: HashSet<usize> = (0..survey.certs.len())
                .filter(|_| rng.random_bool((pct / 100.0).clamp(0.0, 1.0)))
                .collect();
            Box::new(move |e| chosen.contains(&e))
        }
    };
    if !matches!(read, ReadData::No) {
        let (bytes, checked, inconsistent) = survey.read_data(repo, &*pick);
        report.bytes_read = bytes;
        report.shards_read = checked;
        for e in inconsistent {
            let name = survey.certs[e].name();
            findings.push(
                Finding::new(
                    Severity::Trust,
                    "parity-inconsistent",
                    format!(
                        "extent {}: stored parity is not what its data and pointers encode to",
                        name.short()
                    ),
                )
                .extent(&name, None)
                .repair("none: the signed certificate disagrees with its own data (writer bug or stolen key); back up the data again"),
            );
        }
        if let ReadData::Subset(pct, seed) = read {
            let n = report.shards.max(1) as f64;
            let sampled = checked as f64 / n;
            let detection = [0.001, 0.01, 0.05, 0.10]
                .iter()
                .map(|&f| (f, 1.0 - (1.0 - sampled).powf((f * n).max(1.0))))
                .collect();
            report.subset = Some(SubsetReport {
                percent: pct,
                seed,
                detection,
            });
        }
    }
    shards(&survey, &committed, &mut findings);
    leftovers(&survey, &mut findings);
    if repo.key().is_ok() {
        report.snapshots_checked = snapshots_reachable(repo, &mut findings)?;
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

fn remotes_reachable(survey: &Survey, findings: &mut Vec<Finding>) {
    for (url, l) in survey.urls.iter().zip(&survey.listings) {
        if l.as_ref().is_ok_and(|l| !l.contains_key("config")) {
            findings.push(
                Finding::new(
                    Severity::Repairable,
                    "remote-empty",
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
                Finding::new(Severity::Repairable, "remote-unreachable", format!("remote {url} cannot be listed: {e}"))
                    .remote(url)
                    .repair("nothing until the remote is reachable again (or `remote replace` it); then repair rewrites what it lacks"),
            );
        }
    }
}

/// Copies of every metadata object: missing or damaged ones are repairable damage, except
/// for certificates and index segments no head commits to: an interrupted run wrote
/// them, nothing depends on them, and their missing copies are only information.
fn metadata_replicas(
    repo: &Repository,
    survey: &Survey,
    committed: &HashSet<ExtentName>,
    findings: &mut Vec<Finding>,
) {
    let committed_index: HashSet<String> = survey
        .meta
        .iter()
        .filter(|(p, _)| p.starts_with("heads/"))
        .filter_map(|(p, m)| Head::from_object(m.good.as_ref()?, &repo.config.owner, p).ok())
        .filter_map(|h| h.index)
        .collect();
    let uncommitted = |path: &str| match path.split_once('/') {
        Some(("extents", name)) => ExtentName::parse(name).is_ok_and(|n| !committed.contains(&n)),
        Some(("index", id)) => !committed_index.contains(id),
        _ => false,
    };
    for (path, m) in &survey.meta {
        if m.good.is_some() && !m.conflicting && uncommitted(path) {
            let lacking = m
                .copies
                .iter()
                .filter(|c| matches!(c, Copy::Missing | Copy::Bad(_)))
                .count();
            if lacking > 0 {
                findings.push(
                    Finding::new(
                        Severity::Info,
                        "leftover",
                        format!("{path} was written by an interrupted run (no head commits to it); {lacking} copies are missing or damaged"),
                    )
                    .path(path)
                    .repair("none needed (a future prune removes it)"),
                );
            }
            continue;
        }
        if m.conflicting {
            findings.push(
                Finding::new(
                    Severity::Trust,
                    "fork",
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
                    "bad-signature",
                    "well-formed but not signed by the repository owner",
                )
            } else {
                (
                    Severity::Unrecoverable,
                    "metadata-lost",
                    "no remote has an authentic copy",
                )
            };
            findings.push(Finding::new(sev, kind, format!("{path}: {what}")).path(path));
            continue;
        }
        for (r, copy) in m.copies.iter().enumerate() {
            let url = &survey.urls[r];
            let f = match copy {
                Copy::Missing => Finding::new(
                    Severity::Repairable,
                    "missing-metadata",
                    format!("{path} is missing on {url}"),
                ),
                Copy::Bad(e) if e.starts_with("FORGED") => Finding::new(
                    Severity::Trust,
                    "bad-signature",
                    format!("{path} on {url} is not signed by the repository owner"),
                ),
                Copy::Bad(e) if e.starts_with("stale certificate") => Finding::new(
                    Severity::Repairable,
                    "stale-certificate",
                    format!("{path} on {url} is out of date: {e}"),
                ),
                Copy::Bad(e) => Finding::new(
                    Severity::Repairable,
                    "corrupt-metadata",
                    format!("{path} on {url} is damaged: {e}"),
                ),
                Copy::Good(_) | Copy::Unreachable => continue,
            };
            findings.push(
                f.remote(url)
                    .path(path)
                    .repair(format!("copy {path} from a remote with an authentic copy")),
            );
        }
    }
}

/// Heads must never go backwards: not on one remote compared with the others, and not
/// on all of them compared with what this client saw before. Returns the extents that
/// some authentic head commits to (and their ancestors).
fn freshness(
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
                        "rollback",
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
                "rollback",
                format!(
                    "every remote serves an older state than this client has seen: writer {}'s newest head is {} here but {} remotes-wide",
                    &w[..8.min(w.len())],
                    seq,
                    have.map_or("none".to_string(), |h| h.to_string())
                ),
            ));
        }
    }
    if !findings.iter().any(|f| f.kind == "rollback") {
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

fn chains(
    repo: &Repository,
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
                    c.start_verifier == survey.certs[p].verifier && survey.certs[p].seq + 1 == c.seq
                }
                None => {
                    findings.push(
                        Finding::new(
                            Severity::Unrecoverable,
                            "chain-gap",
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
                    "chain-broken",
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
            (Severity::Trust, "fork", "several committed extents claim")
        } else {
            (
                Severity::Info,
                "leftover",
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

fn shards(survey: &Survey, committed: &HashSet<ExtentName>, findings: &mut Vec<Finding>) {
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
                        "leftover",
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
                    "bad-shard",
                    format!("{path} on {url} {what}"),
                )
                .repair(format!(
                    "rebuild shard {i} of extent {} and write it to {url}",
                    name.short()
                ))
            } else {
                Finding::new(
                    Severity::Unrecoverable,
                    "lost-shard",
                    format!("{path} on {url} {what}, and too little is left to rebuild it"),
                )
            };
            findings.push(f.remote(url).path(&path).extent(&name, Some(i)));
        }
        let lost_data = (0..s).filter(|&i| !present[offset[e] + i]).count();
        if lost_data > 0 {
            findings.push(
                Finding::new(
                    Severity::Unrecoverable,
                    "data-lost",
                    format!(
                        "extent {}: {lost_data} of {s} data shards cannot be recovered",
                        name.short()
                    ),
                )
                .extent(&name, None),
            );
            continue;
        }
        // No spare left: one more loss in this codeword and it no longer decodes alone.
        let cw = &codewords[e];
        let missing = cw.symbols.iter().filter(|&&x| !before[x]).count();
        if missing > 0 && missing >= cw.parity {
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
                    "at-risk",
                    format!(
                        "extent {} has lost {missing} of its {} symbols and has no spare left{}; {rescue}",
                        name.short(),
                        cw.symbols.len(),
                        if missing > cw.parity { " (it decodes only with help from other codewords)" } else { "" }
                    ),
                )
                .extent(&name, None),
            );
        }
    }
}

/// Objects no certificate accounts for: unfinished writes and shards on the wrong remote.
fn leftovers(survey: &Survey, findings: &mut Vec<Finding>) {
    for (r, listing) in survey.listings.iter().enumerate() {
        let Ok(l) = listing else { continue };
        let url = &survey.urls[r];
        let mut unknown = 0usize;
        for path in l.keys().filter(|p| p.starts_with("shards/")) {
            let mut parts = path.split('/').skip(1);
            let known = match (
                parts.next().and_then(|n| ExtentName::parse(n).ok()),
                parts.next().and_then(|i| i.parse::<usize>().ok()),
            ) {
                (Some(n), Some(i)) => survey
                    .cert_pos
                    .get(&n)
                    .and_then(|&e| survey.certs[e].shards.get(i))
                    .is_some_and(|info| info.remote as usize == r),
                _ => false,
            };
            unknown += usize::from(!known);
        }
        if unknown > 0 {
            findings.push(
                Finding::new(Severity::Info, "leftover", format!("{unknown} shard objects on {url} belong to no certified extent (left by interrupted runs)"))
                    .remote(url)
                    .repair("none needed (a future prune removes them)"),
            );
        }
    }
}

/// With the password: every snapshot's trees decode and every blob is indexed.
fn snapshots_reachable(repo: &Repository, findings: &mut Vec<Finding>) -> Result<usize> {
    let snaps = repo.snapshots()?;
    let mut seen_trees = HashSet::new();
    for (id, snap) in &snaps {
        let mut stack = vec![snap.tree];
        let mut problems = 0usize;
        while let Some(t) = stack.pop() {
            if !seen_trees.insert(t) {
                continue;
            }
            match repo
                .read_blob(&t, BlobKind::Tree)
                .and_then(|b| crate::content::Tree::from_bytes(&b))
            {
                Ok(tree) => {
                    for n in &tree.nodes {
                        if let (NodeKind::Dir, Some(sub)) = (n.kind, n.subtree) {
                            stack.push(sub);
                        }
                        problems += n
                            .content
                            .iter()
                            .filter(|b| !repo.index().contains(b))
                            .count();
                    }
                }
                Err(_) => problems += 1,
            }
        }
        if problems > 0 {
            findings.push(Finding::new(
                Severity::Unrecoverable,
                "snapshot-incomplete",
                format!(
                    "snapshot {}: {problems} trees or blobs cannot be read",
                    &id[..8]
                ),
            ));
        }
    }
    Ok(snaps.len())
}
