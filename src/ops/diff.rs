//! `tangle diff A B`: what changed between two snapshots, as `restic diff` shows it.
//!
//! Trees are Merkle trees: a directory whose tree blob id is the same in both snapshots
//! holds the same entries, so it is not walked at all. Bytes added and removed are counted
//! over content blobs (deduplicated, plaintext sizes), like restic: a file moved or copied
//! adds nothing.

use std::collections::HashSet;

use serde::Serialize;

use super::ls::kind_name;
use crate::content::{BlobId, Node, NodeKind, Tree};
use crate::error::Result;
use crate::repo::Repository;

#[derive(Clone, Copy, Debug, Default)]
pub struct DiffOptions {
    /// Also list entries whose metadata alone changed (`U`).
    pub metadata: bool,
}

/// One changed path.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub path: String,
    /// `+` added, `-` removed, or a combination of `T` (type changed), `M` (content
    /// changed) and `U` (metadata changed, only with `--metadata`).
    pub modifier: String,
    /// The entry's type in B (in A for a removed entry).
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Type in A, for `T`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_type: Option<&'static str>,
    /// Sizes in A and B, for files present in both.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_size: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_size: Option<u64>,
    /// What changed besides the type: `content`, `mode`, `owner`, `mtime`, `xattrs`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub what: Vec<&'static str>,
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
    pub others_changed: u64,
    /// Paths whose type changed (each also counted as removed and added).
    pub type_changed: u64,
    /// Entries whose metadata alone changed (counted with or without `--metadata`).
    pub metadata_changed: u64,
    /// Content blobs referenced in B but not in A, and their plaintext bytes.
    pub blobs_added: u64,
    pub bytes_added: u64,
    /// Content blobs referenced in A but not in B, and their plaintext bytes.
    pub blobs_removed: u64,
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

pub fn diff(repo: &Repository, a: &str, b: &str, opts: DiffOptions) -> Result<DiffReport> {
    let (id_a, snap_a) = repo.find_snapshot(a)?;
    let (id_b, snap_b) = repo.find_snapshot(b)?;
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
    repo: &'a Repository,
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
        let ta = sorted(self.repo.load_tree(a)?);
        let tb = sorted(self.repo.load_tree(b)?);
        let (mut i, mut j) = (0, 0);
        while i < ta.nodes.len() || j < tb.nodes.len() {
            let order = match (ta.nodes.get(i), tb.nodes.get(j)) {
                (Some(x), Some(y)) => x.name.cmp(&y.name),
                (Some(_), None) => std::cmp::Ordering::Less,
                _ => std::cmp::Ordering::Greater,
            };
            match order {
                std::cmp::Ordering::Less => {
                    let n = &ta.nodes[i];
                    self.whole(&path_of(prefix, n), n, Side::Removed)?;
                    i += 1;
                }
                std::cmp::Ordering::Greater => {
                    let n = &tb.nodes[j];
                    self.whole(&path_of(prefix, n), n, Side::Added)?;
                    j += 1;
                }
                std::cmp::Ordering::Equal => {
                    self.both(&path_of(prefix, &ta.nodes[i]), &ta.nodes[i], &tb.nodes[j])?;
                    i += 1;
                    j += 1;
                }
            }
        }
        Ok(())
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
            modifier: modifier.into(),
            kind: kind_name(n.kind),
            old_type: None,
            old_size: None,
            new_size: None,
            what: Vec::new(),
        });
        if let (NodeKind::Dir, Some(id)) = (n.kind, n.subtree) {
            let t = sorted(self.repo.load_tree(&id)?);
            for c in &t.nodes {
                self.whole(&path_of(path, c), c, side)?;
            }
        }
        Ok(())
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
        for c in &t.nodes {
            self.whole(&path_of(path, c), c, side)?;
        }
        Ok(())
    }
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
