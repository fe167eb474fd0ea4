//! `tangle remote rebalance` (run by `remote add` too): move shards of existing extents
//! onto the remotes that lack their share, typically one just added, so that old extents
//! get the spread (and the fault tolerance) a newly written extent gets.
//!
//! Per extent, the target is the number of shards per remote that [`codec::place`] gives
//! a new extent with the same `seq` over today's remotes. Shards move from remotes above
//! their count to remotes below it, parity first (no other codeword depends on parity).
//! A move is made only if every codeword the shard is a symbol of (its own, and each one
//! that points at it) still has at most `p` symbols on any remote afterwards: the remote
//! rule holds for pointers as it did when they were chosen.
//!
//! Order, per extent ([`Repository::copy_shard`], [`Repository::commit_placement`]): copy
//! each moving shard to its new remote (read back from the old one and checked against
//! the certificate first), then write the re-signed certificate (`placement + 1`) to every
//! remote, then delete the old copies. Interrupted, this
//! leaves at worst extra shard copies (verify: leftovers) or stale certificates (verify:
//! repairable; repair overwrites them with the current one). Decisions are made on the
//! placement as it is after every earlier move, one extent at a time, oldest first.
//! Needs the password (certificates are re-signed) and every remote reachable.

use std::collections::HashMap;

use serde::Serialize;

use super::survey::{ShardState, Survey};
use crate::codec;
use crate::error::{Error, Result};
use crate::extent::Certificate;
use crate::repo::{Repository, State};

pub struct RebalanceOptions {
    /// Plan only: assume every listed shard reads back intact.
    pub dry_run: bool,
}

#[derive(Serialize, Debug, Default)]
pub struct RebalanceReport {
    pub dry_run: bool,
    /// Extents whose certificate was re-signed with a new placement.
    pub extents_moved: u64,
    pub shards_moved: u64,
    pub bytes_moved: u64,
    /// Shards per remote before and after.
    pub remotes: Vec<RemoteShare>,
    /// Moves not made, and why (a damaged shard: run `repair` first).
    pub skipped: Vec<String>,
}

#[derive(Serialize, Debug)]
pub struct RemoteShare {
    pub url: String,
    pub shards_before: u64,
    pub shards_after: u64,
    pub bytes_before: u64,
    pub bytes_after: u64,
}

/// Where every shard of every certified extent is, as moves are decided.
struct Placement<'a> {
    survey: &'a Survey,
    remotes: Vec<Vec<usize>>,
    /// (extent, data shard) -> the codewords that take it as a pointer.
    pointed_by: HashMap<(usize, usize), Vec<usize>>,
}

impl<'a> Placement<'a> {
    fn new(survey: &'a Survey) -> Self {
        let mut pointed_by: HashMap<(usize, usize), Vec<usize>> = HashMap::new();
        for (c, cert) in survey.certs.iter().enumerate() {
            for p in &cert.pointers {
                if let Some(&e) = survey.cert_pos.get(&p.extent) {
                    pointed_by.entry((e, p.shard as usize)).or_default().push(c);
                }
            }
        }
        Placement {
            survey,
            remotes: survey
                .certs
                .iter()
                .map(|c| c.shards.iter().map(|s| s.remote as usize).collect())
                .collect(),
            pointed_by,
        }
    }

    /// Whether codeword `c` has at most `p` symbols (own shards and pointers) per remote.
    fn rule_holds(&self, c: usize, remote_count: usize) -> bool {
        let cert = &self.survey.certs[c];
        let mut on = vec![0usize; remote_count];
        for &r in &self.remotes[c] {
            on[r] += 1;
        }
        for p in &cert.pointers {
            if let Some(&e) = self.survey.cert_pos.get(&p.extent)
                && let Some(&r) = self.remotes[e].get(p.shard as usize)
            {
                on[r] += 1;
            }
        }
        on.iter().all(|&n| n <= cert.parity_shards as usize)
    }

    /// Put shard `i` of extent `e` on remote `to` if every codeword it belongs to keeps
    /// the remote rule; returns whether it did.
    fn try_move(&mut self, e: usize, i: usize, to: usize, remote_count: usize) -> bool {
        let from = self.remotes[e][i];
        self.remotes[e][i] = to;
        let holds = self.rule_holds(e, remote_count)
            && self
                .pointed_by
                .get(&(e, i))
                .is_none_or(|cs| cs.iter().all(|&c| self.rule_holds(c, remote_count)));
        if !holds {
            self.remotes[e][i] = from;
        }
        holds
    }
}

/// Shards per remote that a new extent with this `seq` would get.
fn target_counts(seq: u64, shards: usize, remote_count: usize) -> Vec<usize> {
    let mut t = vec![0usize; remote_count];
    for i in 0..shards {
        t[codec::place(seq, i, remote_count)] += 1;
    }
    t
}

/// Move shards so that every extent is placed over the current remotes, counting the
/// extents gone through and their shard bytes in `progress`.
pub fn run_with_progress<S: State>(
    repo: &Repository<S>,
    opts: &RebalanceOptions,
    progress: &crate::ops::Progress,
) -> Result<RebalanceReport> {
    use crate::ops::Progress;
    let survey = Survey::take(repo)?;
    let remote_count = repo.remotes().len();
    for (r, l) in survey.listings.iter().enumerate() {
        if let Err(e) = l {
            return Err(Error::fatal(format!(
                "remote {} is unreachable ({e}); rebalancing needs every remote",
                survey.urls[r]
            )));
        }
    }
    let signer = match (opts.dry_run, repo.master_key()) {
        (true, _) => None,
        (false, Some(key)) => Some(key.signer()),
        (false, None) => return Err(Error::usage("rebalancing writes: give the password")),
    };
    let mut report = RebalanceReport {
        dry_run: opts.dry_run,
        ..Default::default()
    };
    let mut shards_on = vec![0u64; remote_count];
    let mut bytes_on = vec![0u64; remote_count];
    for c in &survey.certs {
        for s in &c.shards {
            shards_on[s.remote as usize] += 1;
            bytes_on[s.remote as usize] += c.shard_size as u64;
        }
    }
    let (shards_before, bytes_before) = (shards_on.clone(), bytes_on.clone());

    let mut placement = Placement::new(&survey);
    let extent_bytes = |c: &crate::extent::Certificate| c.shard_size as u64 * c.shards.len() as u64;
    progress.set_totals(
        survey.certs.len() as u64,
        survey.certs.iter().map(|c| extent_bytes(c)).sum(),
    );
    for (e, cert) in survey.certs.iter().enumerate() {
        Progress::add(&progress.files_done, 1);
        Progress::add(&progress.bytes_done, extent_bytes(cert));
        let n = cert.shards.len();
        let s = cert.data_shards as usize;
        let target = target_counts(cert.seq, n, remote_count);
        let mut have = vec![0usize; remote_count];
        for &r in &placement.remotes[e] {
            have[r] += 1;
        }
        // (shard, from, to) of the moves made for this extent.
        let mut moves: Vec<(usize, usize, usize)> = Vec::new();
        for i in (s..n).chain(0..s) {
            let from = placement.remotes[e][i];
            if have[from] <= target[from] {
                continue;
            }
            let mut wanting: Vec<usize> =
                (0..remote_count).filter(|&r| have[r] < target[r]).collect();
            wanting.sort_by_key(|&r| std::cmp::Reverse(target[r] - have[r]));
            let Some(to) = wanting
                .into_iter()
                .find(|&to| placement.try_move(e, i, to, remote_count))
            else {
                continue;
            };
            let path = cert.name().shard_path(i);
            let moved = if survey.shards[e][i] != ShardState::Ok {
                Err(format!(
                    "it is {:?} on {}",
                    survey.shards[e][i], survey.urls[from]
                ))
            } else if opts.dry_run {
                Ok(())
            } else {
                repo.copy_shard(cert, i, from, to)
                    .map_err(|e| e.to_string())
            };
            match moved {
                Ok(()) => {
                    have[from] -= 1;
                    have[to] += 1;
                    moves.push((i, from, to));
                }
                Err(why) => {
                    placement.remotes[e][i] = from;
                    report.skipped.push(format!(
                        "{path}: not moved, {why}; run `tangle repair` first"
                    ));
                }
            }
        }
        if moves.is_empty() {
            continue;
        }
        for &(_, from, to) in &moves {
            shards_on[from] -= 1;
            shards_on[to] += 1;
            bytes_on[from] -= cert.shard_size as u64;
            bytes_on[to] += cert.shard_size as u64;
        }
        report.extents_moved += 1;
        report.shards_moved += moves.len() as u64;
        report.bytes_moved += moves.len() as u64 * cert.shard_size as u64;
        if let Some(signer) = &signer {
            let mut next: Certificate = (**cert).clone();
            for &(i, _, to) in &moves {
                next.shards[i].remote = to as u16;
            }
            next.placement = next.placement.checked_add(1).ok_or_else(|| {
                Error::corrupt(format!(
                    "extent {}: placement revision at its limit",
                    cert.name().short()
                ))
            })?;
            let moved_from: Vec<(usize, usize)> =
                moves.iter().map(|&(i, from, _)| (i, from)).collect();
            repo.commit_placement(&next, signer, &moved_from)?;
        }
    }
    report.remotes = (0..remote_count)
        .map(|r| RemoteShare {
            url: survey.urls[r].clone(),
            shards_before: shards_before[r],
            shards_after: shards_on[r],
            bytes_before: bytes_before[r],
            bytes_after: bytes_on[r],
        })
        .collect();
    Ok(report)
}
