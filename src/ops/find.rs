//! `tangle find`: which snapshots hold paths matching glob patterns.
//!
//! Patterns follow the rules of `--exclude` (`pathmatch`): without `/` they match the
//! file name, with `/` the whole absolute path. A subtree whose (tree id, path) found
//! nothing in one snapshot is skipped in every later one, so searching many snapshots
//! of a slowly changing tree reads each unchanged directory once.

use std::collections::HashSet;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::listing::SnapshotInfo;
use super::listing::{Entry, entry, subtrees};
use super::locate::backed_up_names;
use super::select::Selection;
use crate::content::{BlobId, Node, NodeKind, Snapshot, Tree};
use crate::error::{Error, Result};
use crate::pathmatch::PathMatcher;
use crate::repo::{Indexed, Repository, TREE_SHARDS_AHEAD, TREES_AHEAD};

#[derive(Clone, Debug, Default)]
pub struct FindOptions {
    /// The snapshots to search (`--host`, `--tag` only).
    pub selection: Selection,
    /// Glob patterns; an entry matching any of them is reported, ignoring case with
    /// `ignore_case`.
    pub patterns: Vec<String>,
    pub ignore_case: bool,
    /// Search only at or below this path (as backed up).
    pub path: Option<PathBuf>,
}

/// The matches in one snapshot.
#[derive(Serialize, Debug)]
pub struct SnapshotMatches {
    pub snapshot: SnapshotInfo,
    pub matches: Vec<Entry>,
}

#[derive(Serialize, Debug, Default)]
pub struct FindReport {
    /// Snapshots with at least one match, newest first.
    pub snapshots: Vec<SnapshotMatches>,
    /// Snapshots searched.
    pub snapshots_searched: usize,
    /// Matches over all snapshots.
    pub matches: usize,
}

pub fn find(repo: &Repository<Indexed>, opts: &FindOptions) -> Result<FindReport> {
    if opts.patterns.is_empty() {
        return Err(Error::usage("find needs at least one pattern"));
    }
    let matcher = PathMatcher::with_case(&opts.patterns, &[], opts.ignore_case)?;
    let mut snaps: Vec<(String, Snapshot)> = opts.selection.find_all(repo)?;
    // Newest first, as a user looking for a lost file wants.
    snaps.sort_by(|a, b| b.1.time_ns.cmp(&a.1.time_ns).then(b.0.cmp(&a.0)));
    let mut search = Search {
        repo,
        matcher: &matcher,
        barren: HashSet::new(),
    };
    let mut report = FindReport {
        snapshots_searched: snaps.len(),
        ..Default::default()
    };
    for (id, snap) in &snaps {
        let mut matches = Vec::new();
        match &opts.path {
            None => search.tree(&snap.tree, b"", &mut matches)?,
            Some(start) => search.below(snap, start, &mut matches)?,
        }
        if !matches.is_empty() {
            report.matches += matches.len();
            report.snapshots.push(SnapshotMatches {
                snapshot: SnapshotInfo::new(id, snap),
                matches,
            });
        }
    }
    Ok(report)
}

struct Search<'a> {
    repo: &'a Repository<Indexed>,
    matcher: &'a PathMatcher,
    /// (tree id, path of the directory) already searched without a match.
    barren: HashSet<(BlobId, Vec<u8>)>,
}

impl Search<'_> {
    /// Search at and below `start` (as backed up); a snapshot without it has no match.
    fn below(&mut self, snap: &Snapshot, start: &Path, out: &mut Vec<Entry>) -> Result<()> {
        let names = backed_up_names(start)?;
        let mut tree = snap.tree;
        let mut path = Vec::new();
        for (i, name) in names.iter().enumerate() {
            let t = self.repo.load_tree(&tree)?;
            let Some(node) = t.find(name) else {
                return Ok(());
            };
            path.extend_from_slice(b"/");
            path.extend_from_slice(name);
            if i + 1 == names.len() {
                return self.node(&path, node, out);
            }
            match (node.kind, node.subtree) {
                (NodeKind::Dir, Some(id)) => tree = id,
                _ => return Ok(()),
            }
        }
        self.tree(&tree, b"", out)
    }

    /// Search the directory at `prefix` whose tree is `id`.
    fn tree(&mut self, id: &BlobId, prefix: &[u8], out: &mut Vec<Entry>) -> Result<()> {
        let key = (*id, prefix.to_vec());
        if self.barren.contains(&key) {
            return Ok(());
        }
        let before = out.len();
        let tree: Tree = self.repo.load_tree(id)?;
        for (i, n) in tree.nodes.iter().enumerate() {
            let p = [prefix, b"/", &n.name].concat();
            if let (NodeKind::Dir, Some(sub)) = (n.kind, n.subtree) {
                self.read_trees_ahead(&sub, &p, prefix, &tree.nodes[i + 1..]);
            }
            self.node(&p, n, out)?;
        }
        if out.len() == before {
            self.barren.insert(key);
        }
        Ok(())
    }

    /// Before searching the directory at `path` (tree `next`): fetch its tree's shard
    /// with those of the directories after it, `later` (in `prefix`), leaving out those
    /// already searched without a match (they are not read again).
    fn read_trees_ahead(&self, next: &BlobId, path: &[u8], prefix: &[u8], later: &[Node]) {
        let unsearched = |id: &BlobId, path: &[u8]| !self.barren.contains(&(*id, path.to_vec()));
        if !unsearched(next, path) {
            return;
        }
        let later = || {
            let dirs = later.iter().filter(|n| {
                (n.subtree).is_some_and(|id| unsearched(&id, &[prefix, b"/", &n.name].concat()))
            });
            subtrees(dirs).take(TREES_AHEAD).collect()
        };
        self.repo.read_trees_ahead(next, later, TREE_SHARDS_AHEAD);
    }

    fn node(&mut self, path: &[u8], n: &Node, out: &mut Vec<Entry>) -> Result<()> {
        if self
            .matcher
            .matches(Path::new(OsStr::from_bytes(path)), &n.name)
        {
            out.push(entry(path, n));
        }
        if let (NodeKind::Dir, Some(id)) = (n.kind, n.subtree) {
            self.tree(&id, path, out)?;
        }
        Ok(())
    }
}
