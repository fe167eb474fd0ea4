//! What lost data costs in what was backed up. With the password, each `data-lost`
//! finding names the snapshots, files and directories that refer to the blobs its lost
//! data shards held, and the bytes each file loses.
//!
//! The blobs come from the index (extent, offset, length) and the lost shards' byte
//! ranges: data shard `i` holds bytes `[i·shard_size, (i+1)·shard_size)` of the extent
//! data (FORMAT §7.3). The trees come from verify's snapshot walk (`snapshots.rs`), which
//! reads each tree once and hands it to the [`Tracer`]; a tree blob that is itself lost
//! is not read: its directory is lost whole (the snapshot, if it is the root). Only a
//! repository with data loss gets a tracer, so a sound one costs nothing more.

use std::collections::{BTreeSet, HashMap, HashSet};

use super::finding::{Finding, FindingKind, LostData, LostPath, LostPathKind, LostUnknown};
use crate::content::{BlobId, Index, NodeKind, Tree};
use crate::error::Result;
use crate::extent::ExtentName;

/// The data shards of one extent that nothing can rebuild (one `data-lost` finding).
pub(crate) struct LostExtent {
    pub(crate) name: ExtentName,
    pub(crate) shard_size: u64,
    /// Indices of the lost data shards.
    pub(crate) shards: Vec<usize>,
}

impl LostExtent {
    /// Whether the stored bytes `[offset, offset + len)` of the extent data touch a lost
    /// data shard.
    fn holds(&self, offset: u64, len: u64) -> bool {
        let size = self.shard_size.max(1);
        let first = offset / size;
        let last = offset.saturating_add(len.max(1) - 1) / size;
        (self.shards.iter()).any(|&i| (first..=last).contains(&(i as u64)))
    }
}

/// A tree as the walk met it.
enum Walked {
    /// Its blob lay in the lost shards of extent `.0` (a position in
    /// [`Tracer::extents`]): not read, the directory is lost whole.
    Lost(usize),
    /// Read: its files that lose content, and every subdirectory (name, tree), to find
    /// the way down to losses in them.
    Read {
        files: Vec<LostFile>,
        dirs: Vec<(Vec<u8>, BlobId)>,
    },
}

/// A file whose content lost chunks.
struct LostFile {
    name: Vec<u8>,
    size: u64,
    /// (lost extent, bytes of the file in its lost shards), one entry per extent.
    lost: Vec<(usize, u64)>,
}

/// Gathers, during the snapshot walk, which trees and files refer to lost blobs.
pub(crate) struct Tracer {
    extents: Vec<LostExtent>,
    /// Every blob the lost shards held: (its extent in `extents`, plaintext length).
    blobs: HashMap<BlobId, (usize, u64)>,
    /// Every tree the walk met (trees it could not read for other reasons are absent:
    /// `snapshot-incomplete` reports them).
    trees: HashMap<BlobId, Walked>,
    /// Per lost extent: its data blobs some file refers to.
    referenced: Vec<HashSet<BlobId>>,
    /// Per lost extent: whether an index segment names it (else what it held is
    /// unknown: its segment is lost too).
    indexed: Vec<bool>,
}

impl Tracer {
    /// A tracer for these lost extents, or none if no data is lost.
    pub(crate) fn new(index: &Index, extents: Vec<LostExtent>) -> Result<Option<Tracer>> {
        if extents.is_empty() {
            return Ok(None);
        }
        let pos: HashMap<ExtentName, usize> = (extents.iter().enumerate())
            .map(|(e, x)| (x.name, e))
            .collect();
        let blobs = (index.iter()?)
            .filter_map(|(id, extent, loc)| {
                let &e = pos.get(&extent)?;
                extents[e]
                    .holds(loc.offset.into(), loc.length.into())
                    .then_some((id, (e, u64::from(loc.raw_len))))
            })
            .collect();
        let named: HashSet<&ExtentName> = index.extents().iter().collect();
        Ok(Some(Tracer {
            referenced: vec![HashSet::new(); extents.len()],
            indexed: extents.iter().map(|x| named.contains(&x.name)).collect(),
            extents,
            blobs,
            trees: HashMap::new(),
        }))
    }

    /// Whether tree `id` lies in lost shards (then it is noted, and must not be read).
    pub(crate) fn tree_lost(&mut self, id: &BlobId) -> bool {
        match self.blobs.get(id) {
            Some(&(e, _)) => {
                self.trees.insert(*id, Walked::Lost(e));
                true
            }
            None => false,
        }
    }

    /// Tree `id` was read: note its files that lose content and its subdirectories.
    pub(crate) fn tree_read(&mut self, id: &BlobId, tree: &Tree) {
        let mut files = Vec::new();
        let mut dirs = Vec::new();
        for n in &tree.nodes {
            if let (NodeKind::Dir, Some(sub)) = (n.kind, n.subtree) {
                dirs.push((n.name.clone(), sub));
                continue;
            }
            let mut lost: Vec<(usize, u64)> = Vec::new();
            for b in &n.content {
                let Some(&(e, len)) = self.blobs.get(b) else {
                    continue;
                };
                self.referenced[e].insert(*b);
                match lost.iter_mut().find(|(x, _)| *x == e) {
                    Some(l) => l.1 = l.1.saturating_add(len),
                    None => lost.push((e, len)),
                }
            }
            if !lost.is_empty() {
                files.push(LostFile {
                    name: n.name.clone(),
                    size: n.size,
                    lost,
                });
            }
        }
        self.trees.insert(*id, Walked::Read { files, dirs });
    }

    /// Fill in the `data-lost` findings: for each snapshot (id, root tree, oldest
    /// first) the paths that lose something in each lost extent.
    pub(crate) fn finish(self, snapshots: &[(String, BlobId)], findings: &mut [Finding]) {
        let lossy = self.lossy();
        let mut affected: Vec<Affected> = (0..self.extents.len())
            .map(|_| Affected::default())
            .collect();
        for (s, (_, root)) in snapshots.iter().enumerate() {
            self.expand(s, root, &lossy, &mut affected);
        }
        let pos: HashMap<String, usize> = (self.extents.iter().enumerate())
            .map(|(e, x)| (x.name.hex(), e))
            .collect();
        for f in findings.iter_mut() {
            if f.kind != FindingKind::DataLost {
                continue;
            }
            let Some(&e) = f.extent.as_ref().and_then(|x| pos.get(x)) else {
                continue;
            };
            if !self.indexed[e] {
                f.lost = Some(LostData::unknown(LostUnknown::NotIndexed));
                continue;
            }
            let lost_bytes = (self.referenced[e].iter())
                .filter_map(|b| self.blobs.get(b))
                .fold(0u64, |sum, &(_, len)| sum.saturating_add(len));
            f.lost = Some(affected[e].data(snapshots, lost_bytes));
        }
    }

    /// The trees under which something is lost (post-order over what the walk met, each
    /// tree once).
    fn lossy(&self) -> HashSet<BlobId> {
        let mut done: HashMap<BlobId, bool> = HashMap::new();
        let mut started: HashSet<BlobId> = HashSet::new();
        for start in self.trees.keys() {
            let mut stack = vec![(*start, false)];
            while let Some((id, children_done)) = stack.pop() {
                let value = match self.trees.get(&id) {
                    None => false,
                    Some(Walked::Lost(_)) => true,
                    Some(Walked::Read { files, dirs }) if children_done => {
                        !files.is_empty() || dirs.iter().any(|(_, d)| done.get(d) == Some(&true))
                    }
                    Some(Walked::Read { dirs, .. }) => {
                        // A tree met again while its subtrees are still pending would be
                        // its own descendant: impossible for content-addressed trees, and
                        // skipped rather than followed.
                        if done.contains_key(&id) || !started.insert(id) {
                            continue;
                        }
                        stack.push((id, true));
                        stack.extend(
                            (dirs.iter())
                                .filter(|(_, d)| !done.contains_key(d))
                                .map(|(_, d)| (*d, false)),
                        );
                        continue;
                    }
                };
                done.insert(id, value);
            }
        }
        done.into_iter()
            .filter(|(_, v)| *v)
            .map(|(t, _)| t)
            .collect()
    }

    /// Snapshot `s` (root tree `root`): every lost file and directory, down the trees
    /// with something lost under them only.
    fn expand(&self, s: usize, root: &BlobId, lossy: &HashSet<BlobId>, out: &mut [Affected]) {
        let mut stack: Vec<(BlobId, Vec<u8>, usize)> = vec![(*root, Vec::new(), 0)];
        while let Some((id, path, depth)) = stack.pop() {
            match self.trees.get(&id) {
                // Not met, or unreadable for another reason (not this extent's loss).
                None => {}
                Some(Walked::Lost(e)) => {
                    let a = &mut out[*e];
                    a.snapshots.insert(s);
                    if path.is_empty() {
                        a.unrestorable.insert(s);
                    }
                    a.paths.push(Hit {
                        snapshot: s,
                        path: if path.is_empty() { b"/".to_vec() } else { path },
                        kind: LostPathKind::Dir,
                        size: None,
                        lost_bytes: None,
                    });
                }
                Some(Walked::Read { files, dirs }) => {
                    for f in files {
                        let p = join(&path, &f.name);
                        for &(e, bytes) in &f.lost {
                            out[e].snapshots.insert(s);
                            out[e].paths.push(Hit {
                                snapshot: s,
                                path: p.clone(),
                                kind: LostPathKind::File,
                                size: Some(f.size),
                                lost_bytes: Some(bytes),
                            });
                        }
                    }
                    // No path through a finite DAG is longer than its number of trees.
                    if depth < self.trees.len() {
                        for (name, d) in dirs.iter().filter(|(_, d)| lossy.contains(d)) {
                            stack.push((*d, join(&path, name), depth + 1));
                        }
                    }
                }
            }
        }
    }
}

/// `path/name` (the root's path is empty, its entries `/name`).
fn join(path: &[u8], name: &[u8]) -> Vec<u8> {
    let mut p = Vec::with_capacity(path.len() + 1 + name.len());
    p.extend_from_slice(path);
    p.push(b'/');
    p.extend_from_slice(name);
    p
}

/// One lost extent's cost, gathered over the snapshots.
#[derive(Default)]
struct Affected {
    /// Positions of the snapshots that lose something.
    snapshots: BTreeSet<usize>,
    /// Of those, the ones whose root tree is lost.
    unrestorable: BTreeSet<usize>,
    paths: Vec<Hit>,
}

/// A lost path of the snapshot at position `snapshot` (see [`LostPath`]).
#[derive(Clone)]
struct Hit {
    snapshot: usize,
    path: Vec<u8>,
    kind: LostPathKind,
    size: Option<u64>,
    lost_bytes: Option<u64>,
}

impl Affected {
    fn data(&self, snapshots: &[(String, BlobId)], lost_bytes: u64) -> LostData {
        let ids = |set: &BTreeSet<usize>| -> Vec<String> {
            set.iter().map(|&s| snapshots[s].0.clone()).collect()
        };
        let mut paths = self.paths.clone();
        paths.sort_by(|a, b| (a.snapshot, &a.path).cmp(&(b.snapshot, &b.path)));
        LostData {
            snapshots: Some(ids(&self.snapshots)),
            snapshots_unrestorable: Some(ids(&self.unrestorable)),
            paths: Some(
                paths
                    .into_iter()
                    .map(|h| LostPath {
                        snapshot: snapshots[h.snapshot].0.clone(),
                        path: String::from_utf8_lossy(&h.path).into_owned(),
                        raw_path: h.path,
                        kind: h.kind,
                        size: h.size,
                        lost_bytes: h.lost_bytes,
                    })
                    .collect(),
            ),
            lost_bytes: Some(lost_bytes),
            paths_unknown: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blob_is_lost_when_it_touches_a_lost_shard() {
        let x = LostExtent {
            name: ExtentName([1; 32]),
            shard_size: 64,
            shards: vec![1],
        };
        assert!(!x.holds(0, 64));
        assert!(x.holds(0, 65));
        assert!(x.holds(64, 1));
        assert!(x.holds(127, 1));
        assert!(!x.holds(128, 10));
        assert!(x.holds(10, 200));
    }
}
