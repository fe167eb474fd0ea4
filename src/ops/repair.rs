//! `tangle repair`: rewrite missing or damaged metadata copies from authentic ones, and
//! rebuild missing or corrupt shards by peeling (oldest codewords first, so pointers are
//! back before the codewords that need them). Every shard used is checked against its
//! certificate first and every rebuilt shard is checked again before it is written.
//! Needs no password. A second run after a successful one does nothing.

use serde::Serialize;

use super::survey::{BadCopy, CopyState, ShardState, Survey};
pub use super::unrebuildable::DataLost;
use crate::codec::{self, peel::peel};
use crate::error::Result;
use crate::repo::names::MARKER_PATH;
use crate::repo::{Repository, State};

#[derive(Serialize, Debug, Clone)]
pub struct Action {
    pub kind: &'static str,
    pub remote: String,
    pub path: String,
    pub bytes: u64,
}

#[derive(Serialize, Debug, Default)]
pub struct RepairReport {
    pub(crate) dry_run: bool,
    pub actions: Vec<Action>,
    pub bytes_read: u64,
    pub bytes_written: u64,
    /// What could not be repaired (lost data, forks...).
    pub unrepaired: Vec<String>,
    /// What a later run can do once unreachable remotes are back.
    pub pending: Vec<String>,
    pub exit_code: u8,
    /// The extents whose data nothing can rebuild: verify's `data-lost` findings (with
    /// the password, naming the snapshots and paths), each with why.
    pub data_lost: Vec<DataLost>,
}

impl RepairReport {
    /// Add an action: `kind` on `path` at the remote whose URL is `remote`, of `bytes`.
    fn act(&mut self, kind: &'static str, remote: &str, path: String, bytes: u64) {
        self.actions.push(Action {
            kind,
            remote: remote.to_string(),
            path,
            bytes,
        });
    }
}

pub struct RepairOptions {
    pub dry_run: bool,
    /// Hash every shard first (finds corruption a listing cannot see).
    pub read_data: bool,
}

pub fn run<S: State>(repo: &Repository<S>, opts: &RepairOptions) -> Result<RepairReport> {
    run_with_progress(repo, opts, &crate::ops::Progress::default())
}

/// [`run`], counting the codewords decoded and their bytes in `progress` (for a bar).
pub fn run_with_progress<S: State>(
    repo: &Repository<S>,
    opts: &RepairOptions,
    progress: &crate::ops::Progress,
) -> Result<RepairReport> {
    let mut survey = Survey::take(repo)?;
    let mut report = RepairReport {
        dry_run: opts.dry_run,
        ..Default::default()
    };
    // Corruption is invisible in a listing: hash everything (--read-data), or at least
    // the extents the last `verify --read-data` found corrupt shards in.
    let mut suspects: std::collections::HashSet<String> =
        repo.suspect_extents().into_iter().collect();
    // A remote that missed a re-signed certificate (rebalance, or a delete's re-encode
    // while it was down) may hold shards of the old revision: same size, other bytes.
    suspects.extend(
        (survey.meta.iter())
            .filter(|(_, m)| {
                m.copies
                    .iter()
                    .any(|c| matches!(c, CopyState::Bad(BadCopy::Stale { .. })))
            })
            .filter_map(|(p, _)| p.strip_prefix("extents/").map(str::to_string)),
    );
    if opts.read_data || !suspects.is_empty() {
        let certs = survey.certs.clone();
        let pick = |e: usize| opts.read_data || suspects.contains(&certs[e].name().hex());
        let (bytes, _, _) = survey.read_data(repo, &pick, &crate::ops::Progress::default());
        report.bytes_read += bytes;
    }
    for (r, l) in survey.listings.iter().enumerate() {
        match l {
            Err(e) => report.pending.push(format!(
                "remote {} is unreachable ({e}); run repair again when it is back",
                survey.urls[r]
            )),
            // A wiped remote whose directory is gone: repair (unlike a backup) makes it.
            Ok(l) if l.is_empty() && !opts.dry_run && repo.recreate_remote(r)? => {
                report.act("create-remote", &survey.urls[r], String::new(), 0);
            }
            Ok(_) => {}
        }
    }
    let mut steps = Repair {
        repo,
        survey: &survey,
        dry_run: opts.dry_run,
        report,
    };
    steps.repair_markers()?;
    steps.remove_deleted();
    steps.remove_bad_locks();
    steps.remove_foreign();
    steps.repair_metadata()?;
    let unrebuilt = steps.repair_shards(progress)?;
    let mut report = steps.report;
    // Naming what is lost reads the snapshots: if that fails, the repair still reports.
    report.data_lost =
        super::unrebuildable::explain(repo, &survey, &unrebuilt).unwrap_or_else(|e| {
            repo.warn(&format!("what the lost data held cannot be named: {e}"));
            Vec::new()
        });
    report
        .unrepaired
        .extend(unrebuilt.into_iter().map(|(_, line)| line));
    if !opts.dry_run && report.unrepaired.is_empty() && report.pending.is_empty() {
        // Every shard found corrupt was rewritten and checked against its certificate.
        repo.set_suspect_extents(&[]);
    }
    report.exit_code = if !report.unrepaired.is_empty() {
        21
    } else if !report.pending.is_empty() {
        20
    } else {
        0
    };
    Ok(report)
}

/// One repair under way: what its steps share.
struct Repair<'a, S: State> {
    repo: &'a Repository<S>,
    survey: &'a Survey,
    dry_run: bool,
    report: RepairReport,
}

impl<S: State> Repair<'_, S> {
    /// What a deletion record names and a remote still holds (it was down during the
    /// delete, or the delete was interrupted) is removed, never copied back.
    fn remove_deleted(&mut self) {
        for (r, path, size) in &self.survey.reclaimable {
            self.report
                .act("remove-deleted", &self.survey.urls[*r], path.clone(), *size);
            if !self.dry_run
                && let Err(e) = self.repo.remove_deleted_object(*r, path)
            {
                self.report.pending.push(e.to_string());
            }
        }
    }

    /// Lock copies that are not authentic (planted or damaged) are removed from the remote
    /// that serves them; tangle already ignores them.
    fn remove_bad_locks(&mut self) {
        for bad in &self.survey.bad_locks {
            self.report.act(
                "remove-bad-lock",
                &self.survey.urls[bad.remote],
                bad.path.clone(),
                bad.bytes.len() as u64,
            );
            if !self.dry_run
                && let Err(e) = self
                    .repo
                    .remove_bad_lock_copy(bad.remote, &bad.path, &bad.bytes)
            {
                self.report.pending.push(e.to_string());
            }
        }
    }

    /// Copies that are provably another repository's (`BadCopy::Foreign`) of a path no
    /// remote holds authentic are removed from the remote that serves them: nothing of this
    /// repository is lost with them. (Where another remote holds an authentic copy, the copy
    /// is rewritten instead, by `repair_metadata`.) Each is fetched and checked again first
    /// (`Repository::remove_foreign_copy`).
    fn remove_foreign(&mut self) {
        for (path, m) in self.survey.meta.iter().filter(|(_, m)| m.good.is_none()) {
            for (r, _) in m.foreign_copies() {
                let listed = (self.survey.listings[r].as_ref().ok())
                    .and_then(|l| l.get(path).copied())
                    .unwrap_or(0);
                let bytes = if self.dry_run {
                    listed
                } else {
                    match self.repo.remove_foreign_copy(r, path) {
                        Ok(0) => continue,
                        Ok(bytes) => bytes,
                        Err(e) => {
                            self.report.pending.push(e.to_string());
                            continue;
                        }
                    }
                };
                self.report
                    .act("remove-foreign", &self.survey.urls[r], path.clone(), bytes);
            }
        }
    }

    /// Every reachable remote gets an identity marker if it lacks one (a rebuilt remote, or
    /// a repository from before markers). Two remotes of the config that turn out to be one
    /// location are reported, not repaired: the config itself must change.
    fn repair_markers(&mut self) -> Result<()> {
        for (r, l) in self.survey.listings.iter().enumerate() {
            let Ok(l) = l else { continue };
            if l.contains_key(MARKER_PATH) {
                continue;
            }
            self.report.act(
                "write-marker",
                &self.survey.urls[r],
                MARKER_PATH.to_string(),
                0,
            );
            if self.dry_run {
                continue;
            }
            match self.repo.claim_marker(r) {
                Ok(()) => {}
                Err(e) if e.kind() == crate::Kind::Usage => self.report.unrepaired.push(format!(
                    "{e}: remove one of them from the config (`tangle remote replace`)"
                )),
                Err(e) => self.report.pending.push(format!(
                    "remote {}: could not write its identity marker: {e}",
                    self.survey.urls[r]
                )),
            }
        }
        Ok(())
    }

    fn repair_metadata(&mut self) -> Result<()> {
        for (path, m) in &self.survey.meta {
            if m.conflicting {
                self.report.unrepaired.push(format!(
                    "{path}: remotes hold different authentic versions (a fork): not touched"
                ));
                continue;
            }
            let Some(good) = &m.good else {
                // Only another repository's copies: not this repository's object at all
                // (`remove_foreign` took them off).
                if !m.only_foreign() {
                    self.report
                        .unrepaired
                        .push(format!("{path}: no authentic copy anywhere"));
                }
                continue;
            };
            for (r, copy) in m.copies.iter().enumerate() {
                if !copy.needs_rewrite() {
                    continue;
                }
                let remote = &self.repo.remotes()[r];
                self.report.act(
                    "copy-metadata",
                    remote.url(),
                    path.clone(),
                    good.len() as u64,
                );
                if !self.dry_run {
                    self.repo
                        .put_metadata_copy(r, path, good.clone())
                        .map_err(|e| e.context(format!("repairing {path}")))?;
                    self.report.bytes_written += good.len() as u64;
                }
            }
        }
        Ok(())
    }

    /// Rebuild what peeling can; returns the extents left with shards nothing rebuilds
    /// (position and the `unrepaired` line saying so).
    fn repair_shards(&mut self, progress: &crate::ops::Progress) -> Result<Vec<(usize, String)>> {
        use crate::ops::Progress;
        let (codewords, mut present, offset) = self.survey.graph();
        let before = present.clone();
        let plan = peel(&codewords, &mut present);
        let size = |e: usize| {
            let c = &self.survey.certs[e];
            c.shard_size as u64 * (c.data_shards as u64 + c.pointers.len() as u64)
        };
        progress.set_totals(plan.len() as u64, plan.iter().map(|&e| size(e)).sum());
        // Which extent and shard a symbol id is.
        let locate = |sym: usize| -> Option<(usize, usize)> {
            let e = offset.partition_point(|&o| o <= sym).checked_sub(1)?;
            let i = sym - offset[e];
            (i < self.survey.certs[e].shards.len()).then_some((e, i))
        };
        // Symbols written back so far: later codewords may use them.
        let mut rebuilt: std::collections::HashSet<usize> = std::collections::HashSet::new();
        for e in plan {
            Progress::add(&progress.files_done, 1);
            Progress::add(&progress.bytes_done, size(e));
            let cw = &codewords[e];
            let cert = &self.survey.certs[e];
            let (s, t) = (cert.data_shards as usize, cert.pointers.len());
            let missing: Vec<usize> = cw.symbols.iter().copied().filter(|&x| !before[x]).collect();
            // Symbols this codeword will write: each missing one that is a real shard on a
            // reachable remote (pointers belong to their own extent).
            // A shard can be in several codewords (its own, and as a pointer): write it once.
            let targets: Vec<(usize, usize)> = missing
                .iter()
                .filter(|&&x| !rebuilt.contains(&x))
                .filter_map(|&x| locate(x))
                .filter(|&(pe, pi)| self.survey.shards[pe][pi] != ShardState::Unreachable)
                .collect();
            if self.dry_run {
                for &(pe, pi) in &targets {
                    rebuilt.insert(offset[pe] + pi);
                    let c = &self.survey.certs[pe];
                    self.report.act(
                        "rebuild-shard",
                        &self.survey.urls[c.shards[pi].remote as usize],
                        c.name().shard_path(pi),
                        c.shard_size as u64,
                    );
                }
                continue;
            }
            // Gather just enough of the codeword to decode it (s + t intact symbols), in the
            // order own data, pointers, parity; None where lost or not needed.
            let ok = |x: usize| before[x] || rebuilt.contains(&x);
            let mut symbols: Vec<Option<Vec<u8>>> = Vec::with_capacity(cw.symbols.len());
            let mut have = 0;
            for (k, &x) in cw.symbols.iter().enumerate() {
                let got = if !ok(x) || have == s + t {
                    None
                } else if (s..s + t).contains(&k) {
                    let p = cert.pointers[k - s];
                    self.repo
                        .certificate(&p.extent)
                        .ok()
                        .and_then(|pc| self.repo.fetch_shard(&pc, p.shard as usize))
                        .map(|b| {
                            let mut v = b.to_vec();
                            v.resize(cert.shard_size as usize, 0);
                            v
                        })
                } else {
                    let i = if k < s { k } else { k - t };
                    self.repo.fetch_shard(cert, i).map(|b| b.to_vec())
                };
                if let Some(g) = &got {
                    self.report.bytes_read += g.len() as u64;
                    have += 1;
                }
                symbols.push(got);
            }
            let originals = s + t;
            if let Err(e) = codec::reconstruct(&mut symbols, originals, cert.shard_size as usize) {
                self.report
                    .unrepaired
                    .push(format!("extent {}: {e}", cert.name().short()));
                continue;
            }
            let inputs: Vec<&[u8]> = symbols[..originals]
                .iter()
                .map(|v| v.as_deref().unwrap_or_default())
                .collect();
            let parity = codec::encode_parity(&inputs, cert.parity_shards as usize)?;
            for &(pe, pi) in &targets {
                let c = &self.survey.certs[pe];
                let mut bytes: Vec<u8> = if pe == e {
                    if pi < s {
                        symbols[pi].clone().unwrap_or_default()
                    } else {
                        parity[pi - s].clone()
                    }
                } else {
                    // A pointer: data shard `pi` of an older extent, padded here.
                    let k = cert
                        .pointers
                        .iter()
                        .position(|p| p.extent == c.name() && p.shard as usize == pi);
                    match k {
                        Some(k) => symbols[s + k].clone().unwrap_or_default(),
                        None => continue,
                    }
                };
                bytes.truncate(c.shard_size as usize);
                let info = c.shards[pi];
                if blake3::hash(&bytes).as_bytes() != &info.hash {
                    self.report.unrepaired.push(format!(
                        "extent {} shard {pi}: rebuilt bytes do not match the certificate (inputs inconsistent)",
                        c.name().short()
                    ));
                    continue;
                }
                let remote = &self.repo.remotes()[info.remote as usize];
                let path = c.name().shard_path(pi);
                let len = bytes.len() as u64;
                self.repo.put_shard(c, pi, bytes.into())?;
                self.report.bytes_written += len;
                rebuilt.insert(offset[pe] + pi);
                self.report.act("rebuild-shard", remote.url(), path, len);
            }
        }
        let mut unrebuilt = Vec::new();
        for (e, c) in self.survey.certs.iter().enumerate() {
            let lost = (0..c.shards.len())
                .filter(|&i| !present[offset[e] + i])
                .count();
            if lost > 0 {
                unrebuilt.push((
                    e,
                    format!(
                        "extent {}: {lost} shards cannot be rebuilt",
                        c.name().short()
                    ),
                ));
            }
        }
        Ok(unrebuilt)
    }
}
