//! `tangle diff A B`: what changed between two snapshots, as `restic diff` shows it.
//!
//! Trees are Merkle trees: a directory whose tree blob id is the same in both snapshots
//! holds the same entries, so it is not walked at all. Bytes added and removed are counted
//! over content blobs (deduplicated, plaintext sizes), like restic: a file moved or copied
//! adds nothing.

use std::collections::HashSet;

use serde::Serialize;

use super::listing::{kind_name, subtrees};
use super::select::{self, SnapshotFilter};
use crate::content::{BlobId, Node, NodeKind, Tree};
use crate::error::Result;
use crate::repo::{Indexed, Repository, TREE_SHARDS_AHEAD, TREES_AHEAD};

#[derive(Clone, Copy, Debug, Default)]
pub struct DiffOptions {
    /// Also list entries whose metadata alone changed (`U`).
    pub metadata: bool,
}

/// One changed path.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub(crate) path: String,
    /// The path's exact bytes (names need not be UTF-8), for human output.
    #[serde(skip)]
    pub raw_path: Vec<u8>,
    /// `+` added, `-` removed, or a combination of `T` (type changed), `M` (content
    /// changed) and `U` (metadata changed, only with `--metadata`).
    pub modifier: String,
    /// The entry's type in B (in A for a removed entry).
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Type in A, for `T`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) old_type: Option<&'static str>,
    /// Sizes in A and B, for files present in both.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_size: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_size: Option<u64>,
    /// What changed besides the type: `content`, `mode`, `owner`, `mtime`, `xattrs`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) what: Vec<&'static str>,
}

#[derive(Serialize, Debug, Default, Clone, PartialEq, Eq)]
pub struct DiffStats {
    pub files_added: u64,
    pub files_removed: u64,
    /// Files present in both whose content changed.
    pub files_changed: u64,
    pub dirs_added: u64,
    pub dirs_removed: u64,
    /// Symlinks, devices, FIFOs and sockets.
    pub others_added: u64,
    pub others_removed: u64,
    /// Symlinks and devices whose target or device number changed.
    pub(crate) others_changed: u64,
    /// Paths whose type changed (each also counted as removed and added).
    pub(crate) type_changed: u64,
    /// Entries whose metadata alone changed (counted with or without `--metadata`).
    pub(crate) metadata_changed: u64,
    /// Content blobs referenced in B but not in A, and their plaintext bytes.
    pub(crate) blobs_added: u64,
    pub bytes_added: u64,
    /// Content blobs referenced in A but not in B, and their plaintext bytes.
    pub(crate) blobs_removed: u64,
    pub bytes_removed: u64,
}

#[derive(Serialize, Debug)]
pub struct DiffReport {
    /// Full ids of the two snapshots.
    pub a: String,
    pub b: String,
    pub changes: Vec<Change>,
    pub stats: DiffStats,
}

/// Compare snapshot `a` with `b` (either may be `latest`: the newest that `filter`
/// selects).
pub fn diff(
    repo: &Repository<Indexed>,
    a: &str,
    b: &str,
    filter: &SnapshotFilter,
    opts: DiffOptions,
) -> Result<DiffReport> {
    let (id_a, snap_a) = select::find(repo, a, filter)?;
    let (id_b, snap_b) = select::find(repo, b, filter)?;
    let mut d = Differ {
        repo,
        opts,
        changes: Vec::new(),
        stats: DiffStats::default(),
        blobs_a: HashSet::new(),
        blobs_b: HashSet::new(),
    };
    if snap_a.tree != snap_b.tree {
        d.trees(b"", &snap_a.tree, &snap_b.tree)?;
    }
    let mut stats = d.stats;
    for (set, other, count, bytes) in [
        (
            &d.blobs_b,
            &d.blobs_a,
            &mut stats.blobs_added,
            &mut stats.bytes_added,
        ),
        (
            &d.blobs_a,
            &d.blobs_b,
            &mut stats.blobs_removed,
            &mut stats.bytes_removed,
        ),
    ] {
        for id in set.difference(other) {
            *count += 1;
            *bytes += repo.index().get(id).map_or(0, |(_, l)| l.raw_len as u64);
        }
    }
    Ok(DiffReport {
        a: id_a,
        b: id_b,
        changes: d.changes,
        stats,
    })
}

struct Differ<'a> {
    repo: &'a Repository<Indexed>,
    opts: DiffOptions,
    changes: Vec<Change>,
    stats: DiffStats,
    /// Content blobs of the files visited on each side (not of unchanged subtrees, and
    /// not of files whose content is equal on both sides).
    blobs_a: HashSet<BlobId>,
    blobs_b: HashSet<BlobId>,
}

#[derive(Clone, Copy, PartialEq)]
enum Side {
    Added,
    Removed,
}

fn sorted(mut t: Tree) -> Tree {
    t.sort();
    t
}

impl Differ<'_> {
    fn trees(&mut self, prefix: &[u8], a: &BlobId, b: &BlobId) -> Result<()> {
        self.repo
            .read_trees_ahead(a, || vec![*b], TREE_SHARDS_AHEAD);
        let ta = sorted(self.repo.load_tree(a)?);
        let tb = sorted(self.repo.load_tree(b)?);
        let pairs: Vec<_> = side_by_side(&ta.nodes, &tb.nodes).collect();
        for (k, pair) in pairs.iter().enumerate() {
            self.read_trees_ahead(walked(*pair), &pairs[k + 1..]);
            match *pair {
                (Some(x), None) => self.whole(&path_of(prefix, x), x, Side::Removed)?,
                (None, Some(y)) => self.whole(&path_of(prefix, y), y, Side::Added)?,
                (Some(x), Some(y)) => self.both(&path_of(prefix, x), x, y)?,
                (None, None) => {}
            }
        }
        Ok(())
    }

    /// Before the walk reads the trees `next` (the entries it is at): fetch their
    /// shards with those of the trees it reads after them, in `later` entries.
    fn read_trees_ahead(&self, mut next: impl Iterator<Item = BlobId>, later: &[Pair<'_>]) {
        if let Some(first) = next.next() {
            let then = || {
                (next.chain(later.iter().flat_map(|p| walked(*p))))
                    .take(TREES_AHEAD)
                    .collect()
            };
            self.repo.read_trees_ahead(&first, then, TREE_SHARDS_AHEAD);
        }
    }

    /// An entry (and everything below it) present on one side only.
    fn whole(&mut self, path: &[u8], n: &Node, side: Side) -> Result<()> {
        let (modifier, blobs) = match side {
            Side::Added => ("+", &mut self.blobs_b),
            Side::Removed => ("-", &mut self.blobs_a),
        };
        blobs.extend(n.content.iter().copied());
        self.count(n.kind, side);
        self.changes.push(Change {
            path: String::from_utf8_lossy(path).into_owned(),
            raw_path: path.to_vec(),
            modifier: modifier.into(),
            kind: kind_name(n.kind),
            old_type: None,
            old_size: None,
            new_size: None,
            what: Vec::new(),
        });
        match (n.kind, n.subtree) {
            (NodeKind::Dir, Some(id)) => self.below(path, &id, side),
            _ => Ok(()),
        }
    }

    fn count(&mut self, kind: NodeKind, side: Side) {
        let s = &mut self.stats;
        let c = match (kind, side) {
            (NodeKind::File, Side::Added) => &mut s.files_added,
            (NodeKind::File, Side::Removed) => &mut s.files_removed,
            (NodeKind::Dir, Side::Added) => &mut s.dirs_added,
            (NodeKind::Dir, Side::Removed) => &mut s.dirs_removed,
            (_, Side::Added) => &mut s.others_added,
            (_, Side::Removed) => &mut s.others_removed,
        };
        *c += 1;
    }

    /// An entry present in both snapshots.
    fn both(&mut self, path: &[u8], a: &Node, b: &Node) -> Result<()> {
        let mut modifier = String::new();
        let mut what = Vec::new();
        let type_changed = a.kind != b.kind;
        if type_changed {
            modifier.push('T');
            self.stats.type_changed += 1;
            self.count(a.kind, Side::Removed);
            self.count(b.kind, Side::Added);
            self.blobs_a.extend(a.content.iter().copied());
            self.blobs_b.extend(b.content.iter().copied());
        } else {
            let content_changed = match a.kind {
                NodeKind::File => a.content != b.content,
                NodeKind::Symlink => a.target != b.target,
                NodeKind::CharDevice | NodeKind::BlockDevice => a.rdev != b.rdev,
                _ => false,
            };
            if content_changed {
                modifier.push('M');
                what.push("content");
                if a.kind == NodeKind::File {
                    self.stats.files_changed += 1;
                    self.blobs_a.extend(a.content.iter().copied());
                    self.blobs_b.extend(b.content.iter().copied());
                } else {
                    self.stats.others_changed += 1;
                }
            }
            let meta = metadata_changes(a, b);
            if !meta.is_empty() {
                if !content_changed {
                    self.stats.metadata_changed += 1;
                }
                if self.opts.metadata {
                    modifier.push('U');
                    what.extend(meta);
                }
            }
        }
        if !modifier.is_empty() {
            let files = a.kind == NodeKind::File && b.kind == NodeKind::File;
            self.changes.push(Change {
                path: String::from_utf8_lossy(path).into_owned(),
                raw_path: path.to_vec(),
                modifier,
                kind: kind_name(b.kind),
                old_type: type_changed.then(|| kind_name(a.kind)),
                old_size: files.then_some(a.size),
                new_size: files.then_some(b.size),
                what,
            });
        }
        match (a.kind, a.subtree, b.kind, b.subtree) {
            // Same tree id: same entries below, nothing to walk.
            (NodeKind::Dir, Some(x), NodeKind::Dir, Some(y)) if x == y => Ok(()),
            (NodeKind::Dir, Some(x), NodeKind::Dir, Some(y)) => self.trees(path, &x, &y),
            (NodeKind::Dir, Some(x), _, _) => self.below(path, &x, Side::Removed),
            (_, _, NodeKind::Dir, Some(y)) => self.below(path, &y, Side::Added),
            _ => Ok(()),
        }
    }

    /// Everything below a directory whose path changed type.
    fn below(&mut self, path: &[u8], tree: &BlobId, side: Side) -> Result<()> {
        let t = sorted(self.repo.load_tree(tree)?);
        for (k, c) in t.nodes.iter().enumerate() {
            if let (NodeKind::Dir, Some(id)) = (c.kind, c.subtree) {
                let later = || subtrees(&t.nodes[k + 1..]).take(TREES_AHEAD).collect();
                self.repo.read_trees_ahead(&id, later, TREE_SHARDS_AHEAD);
            }
            self.whole(&path_of(path, c), c, side)?;
        }
        Ok(())
    }
}

/// An entry of tree a and of tree b: one of them, or both with the same name.
type Pair<'a> = (Option<&'a Node>, Option<&'a Node>);

/// The entries of two trees sorted by name, side by side: each name once, with the entry
/// of each tree that has it.
fn side_by_side<'a>(a: &'a [Node], b: &'a [Node]) -> impl Iterator<Item = Pair<'a>> + 'a {
    let (mut i, mut j) = (0, 0);
    std::iter::from_fn(move || {
        let pair = match (a.get(i), b.get(j)) {
            (None, None) => return None,
            (Some(x), Some(y)) => match x.name.cmp(&y.name) {
                std::cmp::Ordering::Less => (Some(x), None),
                std::cmp::Ordering::Greater => (None, Some(y)),
                std::cmp::Ordering::Equal => (Some(x), Some(y)),
            },
            pair => pair,
        };
        i += usize::from(pair.0.is_some());
        j += usize::from(pair.1.is_some());
        Some(pair)
    })
}

/// The trees the walk reads for a pair of entries, in order: the subtree of each side
/// that is a directory, none when both sides are the same directory.
fn walked(pair: Pair<'_>) -> impl Iterator<Item = BlobId> {
    let dir = |n: Option<&Node>| {
        n.filter(|n| n.kind == NodeKind::Dir)
            .and_then(|n| n.subtree)
    };
    let (a, b) = (dir(pair.0), dir(pair.1));
    let same = a.is_some() && a == b;
    [a, b].into_iter().flatten().filter(move |_| !same)
}

/// Which metadata differs: mode, owner (uid, gid), mtime, extended attributes.
fn metadata_changes(a: &Node, b: &Node) -> Vec<&'static str> {
    let mut v = Vec::new();
    if a.mode != b.mode {
        v.push("mode");
    }
    if (a.uid, a.gid) != (b.uid, b.gid) {
        v.push("owner");
    }
    if (a.mtime, a.mtime_nsec) != (b.mtime, b.mtime_nsec) {
        v.push("mtime");
    }
    if a.xattrs != b.xattrs {
        v.push("xattrs");
    }
    v
}

fn path_of(prefix: &[u8], n: &Node) -> Vec<u8> {
    [prefix, b"/", &n.name].concat()
}
