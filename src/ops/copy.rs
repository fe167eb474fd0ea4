//! `tangle copy`: restic's `copy`. Snapshots of another repository (the source) are
//! copied into this one (the destination), each as a new snapshot with the source's
//! time, host, user, paths and tags, signed by the destination's owner.
//!
//! Blob ids are keyed per repository, so nothing of the source's ids carries over: every
//! data blob is read from the source through the checked read path restore uses (each
//! blob verified against its id, rebuilt from parity and pointers where a remote is away
//! or lies), named with the destination's key, and stored unless the destination's
//! committed index (or this run) already has it; the trees are written anew with the new
//! ids. One blob is in memory at a time (plus the shard cache and the extents being
//! filled), so memory does not grow with the snapshot.
//!
//! Each snapshot is committed as a backup commits its run (see
//! [`SnapshotWriter`](super::extent_writer::SnapshotWriter)): a copy stopped part way
//! leaves the snapshots copied before it complete.
//!
//! A source snapshot is skipped when the destination already has one with the same time,
//! host, paths and tags (tags in any order) whose tree holds the same entries: the same
//! names, kinds, metadata, sizes and link targets, directory by directory, and for each
//! file the same number of chunks with the same plaintext lengths (read from the two
//! indexes; see [`Compare`]). The file bytes themselves are not compared: that would read
//! both copies in full. A snapshot `rewrite` changed keeps its time, host, paths and tags
//! but not its entries, so it is copied again.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use super::Progress;
use super::extent_writer::{Brought, SnapshotWriter, Stored};
use super::select::{self, Selection};
use crate::content::{BlobId, BlobKind, Snapshot, Tree, encode_blob};
use crate::error::{Error, Result};
use crate::repo::{Indexed, ReadMode, Repository};
use crate::util::short_id;

pub struct CopyOptions {
    /// The source snapshots to copy.
    pub selection: Selection,
    /// Say what would be copied; write nothing.
    pub dry_run: bool,
}

/// One snapshot copied (or that would be).
#[derive(Serialize, Debug, Clone)]
pub struct Copied {
    /// The snapshot in the source.
    pub source_id: String,
    /// The new snapshot in the destination, and the data and tree blobs it stored.
    #[serde(flatten)]
    pub snapshot: Brought,
}

/// A source snapshot the destination already has.
#[derive(Serialize, Debug, Clone)]
pub struct Skipped {
    pub source_id: String,
    /// The destination's snapshot that matches it.
    pub existing_id: String,
}

#[derive(Serialize, Debug, Default)]
pub struct CopyReport {
    pub dry_run: bool,
    /// Snapshots copied (or that would be), oldest first.
    pub copied: Vec<Copied>,
    /// Snapshots the destination already has, oldest first.
    pub skipped: Vec<Skipped>,
    /// What went to the destination, and the data blobs read from the source.
    #[serde(flatten)]
    pub stored: Stored,
}

/// Copy the chosen snapshots of `src` into `dst`. The caller holds `dst`'s shared lock
/// (not with `dry_run`) and loaded `dst`'s committed index after taking it (as a backup
/// does); `src` needs no lock, as a restore takes none.
pub fn run(
    src: &Repository<Indexed>,
    dst: &Repository<Indexed>,
    opts: &CopyOptions,
    progress: &Progress,
) -> Result<CopyReport> {
    let started = std::time::Instant::now();
    if src.config.id == dst.config.id {
        return Err(same_repository());
    }
    let mut chosen = opts
        .selection
        .find_all(src)
        .map_err(|e| e.context("the source repository (--from-repo)"))?;
    chosen.sort_by(|a, b| a.1.time_ns.cmp(&b.1.time_ns).then(a.0.cmp(&b.0)));
    let existing = dst.snapshots()?;
    let result = super::on_walker_thread("copy", || {
        copy_all(src, dst, chosen, existing, opts, progress)
    });
    // What was read around in the source is remembered for its next `repair`.
    src.remember_damage_read_around();
    let mut report = result?;
    report.stored.degraded_remotes = dst.failed_remotes();
    report.stored.duration_secs = started.elapsed().as_secs_f64();
    Ok(report)
}

/// The error for a source that is the destination.
pub fn same_repository() -> Error {
    Error::usage(
        "the source (--from-repo) and the destination (-r) are the same repository: copy \
         copies between two repositories",
    )
}

fn copy_all(
    src: &Repository<Indexed>,
    dst: &Repository<Indexed>,
    chosen: Vec<(String, Snapshot)>,
    existing: Vec<(String, Snapshot)>,
    opts: &CopyOptions,
    progress: &Progress,
) -> Result<CopyReport> {
    let mut report = CopyReport {
        dry_run: opts.dry_run,
        ..Default::default()
    };
    let mut compare = Compare {
        src,
        dst,
        same: HashSet::new(),
    };
    // Made at the first snapshot to copy: a run that copies nothing reads no catalog.
    let mut copy: Option<Copier> = None;
    // This run's copies: (the source snapshot, the new id), for a source that holds the
    // same snapshot twice.
    let mut done: Vec<(Snapshot, String)> = Vec::new();
    for (src_id, s) in chosen {
        let twin = done
            .iter()
            .find(|(d, _)| select::same_labels(d, &s) && d.tree == s.tree)
            .map(|(_, id)| id.clone());
        let twin = match twin {
            Some(id) => Some(id),
            None => (existing.iter())
                .find(|(_, d)| select::same_labels(d, &s) && compare.same_tree(&s.tree, &d.tree))
                .map(|(id, _)| id.clone()),
        };
        if let Some(existing_id) = twin {
            report.skipped.push(Skipped {
                source_id: src_id,
                existing_id,
            });
            continue;
        }
        let mut entry = Copied {
            source_id: src_id.clone(),
            snapshot: Brought::labels_of(&s),
        };
        if !opts.dry_run {
            let c = match copy.as_mut() {
                Some(c) => c,
                None => copy.insert(Copier::new(src, dst, progress)?),
            };
            let (blobs, bytes) = (c.out.blobs, c.out.bytes);
            let tree = c
                .tree(&s.tree)
                .map_err(|e| e.context(format!("copying snapshot {}", short_id(&src_id))))?;
            entry.snapshot.blobs_added = c.out.blobs - blobs;
            entry.snapshot.bytes_added = c.out.bytes - bytes;
            let new = Snapshot {
                tree,
                // The parent names a snapshot of the source.
                parent: None,
                writer: None,
                ..s.clone()
            };
            let id = c.out.commit(&new)?;
            done.push((s, id.clone()));
            entry.snapshot.id = Some(id);
        }
        report.copied.push(entry);
    }
    if let Some(c) = copy {
        report.stored = c.out.stored(c.bytes_read);
    }
    Ok(report)
}

/// Whether a source tree and a destination tree hold the same entries (see the module
/// comment), walking both.
struct Compare<'a> {
    src: &'a Repository<Indexed>,
    dst: &'a Repository<Indexed>,
    /// Pairs (source tree, destination tree) found the same.
    same: HashSet<(BlobId, BlobId)>,
}

impl Compare<'_> {
    /// A tree that cannot be read, on either side, is not the same: the snapshot is
    /// copied (and a source that cannot be read fails there).
    fn same_tree(&mut self, a: &BlobId, b: &BlobId) -> bool {
        if self.same.contains(&(*a, *b)) {
            return true;
        }
        let (Ok(ta), Ok(tb)) = (self.src.load_tree(a), self.dst.load_tree(b)) else {
            return false;
        };
        if ta.nodes.len() != tb.nodes.len() {
            return false;
        }
        for (na, nb) in ta.nodes.iter().zip(&tb.nodes) {
            let bare = |n: &crate::content::Node| crate::content::Node {
                content: Vec::new(),
                subtree: None,
                ..n.clone()
            };
            if bare(na) != bare(nb)
                || na.content.len() != nb.content.len()
                || na.subtree.is_some() != nb.subtree.is_some()
            {
                return false;
            }
            for (ca, cb) in na.content.iter().zip(&nb.content) {
                let len = |r: &Repository<Indexed>, id| r.index().get(id).map(|(_, l)| l.raw_len);
                match (len(self.src, ca), len(self.dst, cb)) {
                    (Some(x), Some(y)) if x == y => {}
                    _ => return false,
                }
            }
            if let (Some(sa), Some(sb)) = (&na.subtree, &nb.subtree)
                && !self.same_tree(sa, sb)
            {
                return false;
            }
        }
        self.same.insert((*a, *b));
        true
    }
}

/// Copies trees and blobs into the destination, and commits each snapshot.
struct Copier<'a> {
    src: &'a Repository<Indexed>,
    dst: &'a Repository<Indexed>,
    out: SnapshotWriter<'a>,
    progress: &'a Progress,
    /// Source tree id → destination tree id, and likewise for data blobs: what this run
    /// has copied (or found the destination has).
    trees: HashMap<BlobId, BlobId>,
    data: HashMap<BlobId, BlobId>,
    /// Plaintext bytes read.
    bytes_read: u64,
}

impl<'a> Copier<'a> {
    fn new(
        src: &'a Repository<Indexed>,
        dst: &'a Repository<Indexed>,
        progress: &'a Progress,
    ) -> Result<Self> {
        Ok(Copier {
            src,
            dst,
            out: SnapshotWriter::new(dst, progress)?,
            progress,
            trees: HashMap::new(),
            data: HashMap::new(),
            bytes_read: 0,
        })
    }

    /// Copy the source tree `id` and everything below it; the destination's tree id.
    fn tree(&mut self, id: &BlobId) -> Result<BlobId> {
        if let Some(new) = self.trees.get(id) {
            return Ok(*new);
        }
        let mut tree = self.src.load_tree(id)?;
        for node in &mut tree.nodes {
            for blob in &mut node.content {
                *blob = self.data_blob(blob)?;
            }
            if let Some(sub) = node.subtree {
                node.subtree = Some(self.tree(&sub)?);
            }
            if !node.content.is_empty() {
                self.progress
                    .files_done
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
        }
        let new = self.out.store_tree(Tree { nodes: tree.nodes })?;
        self.trees.insert(*id, new);
        Ok(new)
    }

    /// Copy one data blob: read (checked) from the source, named with the destination's
    /// key, stored unless the destination has it.
    fn data_blob(&mut self, id: &BlobId) -> Result<BlobId> {
        if let Some(new) = self.data.get(id) {
            return Ok(*new);
        }
        let (key, out) = (self.dst.key(), &self.out);
        let (new, len, sealed) =
            self.src
                .read_blob_then(id, BlobKind::Data, ReadMode::Shard, |plain| {
                    let new = key.blob_id(plain);
                    let sealed = match out.is_new(&new) {
                        false => None,
                        true => Some(encode_blob(key, BlobKind::Data, plain)),
                    };
                    (new, plain.len(), sealed)
                })?;
        self.bytes_read += len as u64;
        (self.progress.bytes_done).fetch_add(len as u64, std::sync::atomic::Ordering::Relaxed);
        if let Some(sealed) = sealed {
            self.out.append(new, BlobKind::Data, len, sealed?)?;
        }
        self.data.insert(*id, new);
        Ok(new)
    }
}
