//! `tangle stats`: how big the snapshots are, how well they dedup and compress, and what
//! the repository costs on each remote (data, parity, metadata), with the pointer
//! coverage `verify` computes.
//!
//! Logical sizes are summed per snapshot (each snapshot as it would be restored); blobs
//! are counted once however many snapshots share them. Each distinct tree is read once:
//! a subtree met again adds its remembered totals without being walked.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use crate::content::{BlobId, BlobKind, NodeKind};
use crate::error::Result;
use crate::ops::analysis::{self, PointerCoverage, Storage};
use crate::ops::listing::subtrees;
use crate::ops::select::{self, SnapshotFilter};
use crate::ops::survey::Survey;
use crate::repo::names::ObjectName;
use crate::repo::{Indexed, Repository, TREE_SHARDS_AHEAD, TREES_AHEAD};

/// What `total_size` and `total_file_count` count, as in `restic stats --mode`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// The files as restored: sizes summed over the snapshots.
    #[default]
    RestoreSize,
    /// The unique blobs the snapshots reference, as stored (compressed, encrypted).
    RawData,
}

impl Mode {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Mode::RestoreSize => "restore-size",
            Mode::RawData => "raw-data",
        }
    }
}

/// One remote's share of the repository, from its listing.
#[derive(Serialize, Debug, Default, Clone)]
pub struct RemoteUsage {
    pub remote: String,
    /// It could be listed (else every number is 0).
    pub reachable: bool,
    pub data_shards: u64,
    pub data_bytes: u64,
    pub parity_shards: u64,
    pub parity_bytes: u64,
    /// Config, keys, snapshots, index segments, heads, certificates, deletion records,
    /// locks and the identity marker.
    pub(crate) metadata_objects: u64,
    pub metadata_bytes: u64,
    /// Shards without an authentic certificate (an interrupted run), objects a deletion
    /// record names (reclaimable), and files that are no object (foreign).
    pub(crate) other_objects: u64,
    pub other_bytes: u64,
    /// Everything the remote holds: the sum of the above.
    pub total_bytes: u64,
}

#[derive(Serialize, Debug)]
pub struct StatsReport {
    pub mode: &'static str,
    /// Full ids of the snapshots counted.
    pub(crate) snapshots: Vec<String>,
    pub snapshots_count: usize,
    /// By `mode`: restore-size → `logical_bytes`, raw-data → `stored_blob_bytes`.
    pub total_size: u64,
    /// By `mode`: restore-size → `files`, raw-data → `unique_blobs`.
    pub total_file_count: u64,
    /// Files and their bytes, summed over the snapshots.
    pub files: u64,
    pub logical_bytes: u64,
    /// Distinct blobs (file contents and trees) the snapshots reference.
    pub unique_blobs: u64,
    /// Their plaintext bytes, and of those the file-content (data) blobs.
    pub unique_raw_bytes: u64,
    pub(crate) unique_data_bytes: u64,
    /// Their bytes as stored in the extents (compressed and encrypted).
    pub stored_blob_bytes: u64,
    /// `logical_bytes / unique_data_bytes` (0 without data).
    pub dedup_ratio: f64,
    /// `unique_raw_bytes / stored_blob_bytes` (0 without blobs).
    pub compression_ratio: f64,
    /// Repository-wide, from the listings of every remote.
    pub repository: RepositoryUsage,
}

#[derive(Serialize, Debug)]
pub struct RepositoryUsage {
    /// Authentic extent certificates, and the shards they place.
    pub extents: usize,
    pub shards: usize,
    /// Bytes of stored blobs the extents hold (before padding and coding).
    pub(crate) extent_bytes: u64,
    pub data_bytes: u64,
    pub parity_bytes: u64,
    pub metadata_bytes: u64,
    pub other_bytes: u64,
    pub total_bytes: u64,
    /// `parity_bytes / data_bytes` (0 without data).
    pub parity_overhead: f64,
    /// `(data_bytes + parity_bytes) / extent_bytes`: what storing a byte costs (0
    /// without extents).
    pub storage_overhead: f64,
    /// Per remote, in config order.
    pub remotes: Vec<RemoteUsage>,
    /// As `verify --json` reports it.
    pub pointer_coverage: PointerCoverage,
    /// As `verify --json` reports it: file data and trees apart.
    pub storage: Storage,
}

/// Totals of one subtree, remembered so a tree shared by snapshots is walked once.
#[derive(Clone, Copy, Default)]
struct Totals {
    files: u64,
    bytes: u64,
}

/// The stats of the snapshots `specs` name (`latest`: the newest that `filter` selects),
/// or with none of every snapshot `filter` selects.
pub fn stats(
    repo: &Repository<Indexed>,
    specs: &[String],
    filter: &SnapshotFilter,
    mode: Mode,
) -> Result<StatsReport> {
    let snaps = select::find_all(repo, specs, filter)?;
    let mut walk = Walk {
        repo,
        seen: HashMap::new(),
        blobs: HashSet::new(),
    };
    let mut logical = Totals::default();
    for (_, s) in &snaps {
        let t = walk.tree(&s.tree)?;
        logical.files += t.files;
        logical.bytes += t.bytes;
    }
    let (mut raw, mut data, mut stored, mut unindexed) = (0u64, 0u64, 0u64, 0u64);
    for id in &walk.blobs {
        let Some((_, loc)) = repo.index().get(id) else {
            unindexed += 1;
            continue;
        };
        raw += loc.raw_len as u64;
        stored += loc.length as u64;
        if loc.kind == BlobKind::Data {
            data += loc.raw_len as u64;
        }
    }
    if unindexed > 0 {
        // Damage verify reports; the sizes here leave those blobs out.
        repo.warn(&format!(
            "{unindexed} blobs the snapshots reference are not in the index and are not \
             counted; run `tangle verify`"
        ));
    }
    let unique = walk.blobs.len() as u64;
    let (total_size, total_file_count) = match mode {
        Mode::RestoreSize => (logical.bytes, logical.files),
        Mode::RawData => (stored, unique),
    };
    Ok(StatsReport {
        mode: mode.name(),
        snapshots: snaps.iter().map(|(id, _)| id.clone()).collect(),
        snapshots_count: snaps.len(),
        total_size,
        total_file_count,
        files: logical.files,
        logical_bytes: logical.bytes,
        unique_blobs: unique,
        unique_raw_bytes: raw,
        unique_data_bytes: data,
        stored_blob_bytes: stored,
        dedup_ratio: ratio(logical.bytes, data),
        compression_ratio: ratio(raw, stored),
        repository: usage(repo)?,
    })
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

struct Walk<'a> {
    repo: &'a Repository<Indexed>,
    seen: HashMap<BlobId, Totals>,
    blobs: HashSet<BlobId>,
}

impl Walk<'_> {
    fn tree(&mut self, id: &BlobId) -> Result<Totals> {
        if let Some(t) = self.seen.get(id) {
            return Ok(*t);
        }
        self.blobs.insert(*id);
        let tree = self.repo.load_tree(id)?;
        let mut t = Totals::default();
        for (i, n) in tree.nodes.iter().enumerate() {
            match (n.kind, n.subtree) {
                (NodeKind::File, _) => {
                    t.files += 1;
                    t.bytes += n.size;
                    self.blobs.extend(n.content.iter().copied());
                }
                (NodeKind::Dir, Some(sub)) => {
                    if !self.seen.contains_key(&sub) {
                        // Trees already counted are not read again.
                        let later = || {
                            (subtrees(&tree.nodes[i + 1..]))
                                .filter(|id| !self.seen.contains_key(id))
                                .take(TREES_AHEAD)
                                .collect()
                        };
                        self.repo.read_trees_ahead(&sub, later, TREE_SHARDS_AHEAD);
                    }
                    let s = self.tree(&sub)?;
                    t.files += s.files;
                    t.bytes += s.bytes;
                }
                _ => {}
            }
        }
        self.seen.insert(*id, t);
        Ok(t)
    }
}

/// What every remote holds, by kind, and the pointer coverage.
pub(crate) fn usage(repo: &Repository<Indexed>) -> Result<RepositoryUsage> {
    let survey = Survey::take(repo)?;
    let mut remotes = Vec::with_capacity(survey.urls.len());
    for (r, listing) in survey.listings.iter().enumerate() {
        let mut u = RemoteUsage {
            remote: survey.urls[r].clone(),
            ..Default::default()
        };
        if let Ok(listing) = listing {
            u.reachable = true;
            for (path, &size) in listing {
                let (count, bytes) = if survey.deleted.names(path) {
                    (&mut u.other_objects, &mut u.other_bytes)
                } else {
                    match ObjectName::parse(path) {
                        Some(ObjectName::Shard(ext, i)) => {
                            match survey.cert_pos.get(&ext).map(|&e| &survey.certs[e]) {
                                Some(c) if i < c.data_shards as usize => {
                                    (&mut u.data_shards, &mut u.data_bytes)
                                }
                                Some(_) => (&mut u.parity_shards, &mut u.parity_bytes),
                                None => (&mut u.other_objects, &mut u.other_bytes),
                            }
                        }
                        _ => (&mut u.metadata_objects, &mut u.metadata_bytes),
                    }
                };
                *count += 1;
                *bytes = bytes.saturating_add(size);
            }
        }
        remotes.push(u);
    }
    // Foreign files are left out of the survey's listings; their sizes still count.
    for (r, path) in &survey.foreign {
        let size = repo
            .block_on(repo.remotes()[*r].stat(path))
            .map_or(0, |o| o.size);
        remotes[*r].other_objects += 1;
        remotes[*r].other_bytes = remotes[*r].other_bytes.saturating_add(size);
    }
    for u in &mut remotes {
        u.total_bytes = crate::util::saturating_sum([
            u.data_bytes,
            u.parity_bytes,
            u.metadata_bytes,
            u.other_bytes,
        ]);
    }
    let sum = |f: fn(&RemoteUsage) -> u64| crate::util::saturating_sum(remotes.iter().map(f));
    let (data, parity) = (sum(|u| u.data_bytes), sum(|u| u.parity_bytes));
    let extent_bytes = survey.certs.iter().map(|c| c.size).sum();
    Ok(RepositoryUsage {
        extents: survey.certs.len(),
        shards: survey.certs.iter().map(|c| c.shards.len()).sum(),
        extent_bytes,
        data_bytes: data,
        parity_bytes: parity,
        metadata_bytes: sum(|u| u.metadata_bytes),
        other_bytes: sum(|u| u.other_bytes),
        total_bytes: sum(|u| u.total_bytes),
        parity_overhead: ratio(parity, data),
        storage_overhead: ratio(data.saturating_add(parity), extent_bytes),
        pointer_coverage: analysis::pointer_coverage(repo, &survey),
        storage: analysis::storage(repo, &survey),
        remotes,
    })
}
