//! The walk ahead of the restore, with high-latency remotes (S3, SFTP): the same walk,
//! reading only trees, lists the shard reads the restore will make, in the order it
//! makes them, for the shard cache and the prefetcher (`repo/read_plan.rs`). The same
//! walk counts the files and bytes a restore writes, for a progress display.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::plan::{Admitted, Filter};
use super::test_setting;
use crate::content::{BlobId, Node, NodeKind, Snapshot, Tree};
use crate::error::Result;
use crate::ops::locate::Located;
use crate::repo::{
    Indexed, PLAN_SEGMENT, PlannedReads, Repository, TREE_SHARDS_AHEAD, TREES_AHEAD,
};

/// With a high-latency remote (S3, SFTP), walk the trees ahead of the restore, so the
/// shard cache knows which shards are read again and when, and the prefetcher what
/// comes next: the first segment of reads now, the next ones while the restore runs
/// (the walk returned, if there is more to walk: [`ReadPlanner::keep_ahead`]).
/// Local remotes skip it: a shard read again comes from the page cache, and the walk
/// cost more than it saved (measured on the benchmark tree). A walk that fails only
/// loses (the rest of) the plan: the restore meets the same error.
pub(super) fn plan_ahead<'a>(
    repo: &'a Repository<Indexed>,
    filter: &'a Filter,
    located: &Located,
    start: &Path,
) -> Option<ReadPlanner<'a>> {
    repo.remotes()
        .iter()
        .any(|r| r.high_latency())
        .then(|| ReadPlanner::new(repo, filter, located, start))
        .and_then(|mut read_planner| {
            let more = read_planner.walk(plan_segment()).ok()?;
            repo.follow_read_plan(read_planner.take_reads());
            more.then_some(read_planner)
        })
}

/// Reads the plan holds at a time ([`PLAN_SEGMENT`]; tests with the `testing` feature
/// may set `TANGLE_TEST_PLAN_SEGMENT` to make a small tree take many segments).
fn plan_segment() -> usize {
    test_setting("TANGLE_TEST_PLAN_SEGMENT").unwrap_or(PLAN_SEGMENT)
}

/// The walk ahead of the restore: the same walk, reading only trees, to list the shard
/// reads the restore will make in the order it makes them. It stops after each segment
/// of reads and goes on from there ([`keep_ahead`](Self::keep_ahead)), so the plan's
/// memory stays bounded however large the restore.
pub(super) struct ReadPlanner<'a> {
    repo: &'a Repository<Indexed>,
    filter: &'a Filter,
    reads: PlannedReads,
    /// Hard-linked inodes seen: only the first path's contents are read.
    pub(super) links: std::collections::HashSet<(u64, u64)>,
    /// What looks for include patterns found out below the walk (`Filter::subtree_has_match`).
    memo: HashMap<PathBuf, bool>,
    /// The trees being walked, innermost last: the nodes left, their directory's path as
    /// backed up, and whether it is included.
    stack: Vec<(std::vec::IntoIter<Node>, PathBuf, bool)>,
    /// Only count the files and bytes the restore writes (`files`, `bytes`), listing no
    /// reads: see [`totals`].
    count_only: bool,
    files: u64,
    bytes: u64,
}

/// The files and bytes the restore writes, before it starts, for a progress display:
/// a whole snapshot's own count, else a walk of the trees it restores (the walk the
/// restore makes, reading only trees; `None` if it fails: the totals then grow as the
/// restore goes).
pub(super) fn totals(
    repo: &Repository<Indexed>,
    snap: &Snapshot,
    filter: &Filter,
    located: &Located,
    start: &Path,
    whole: bool,
) -> Option<(u64, u64)> {
    let summary = &snap.summary;
    if whole && (summary.files > 0 || summary.bytes > 0) {
        return Some((summary.files, summary.bytes));
    }
    let mut walk = ReadPlanner::new(repo, filter, located, start);
    walk.count_only = true;
    walk.walk(usize::MAX).ok()?;
    Some((walk.files, walk.bytes))
}

impl<'a> ReadPlanner<'a> {
    fn new(
        repo: &'a Repository<Indexed>,
        filter: &'a Filter,
        located: &Located,
        start: &Path,
    ) -> Self {
        let (nodes, dir) = match located {
            Located::Root(tree) => (tree.nodes.clone(), PathBuf::from("/")),
            Located::Node(node) => (
                vec![node.clone()],
                start.parent().unwrap_or(Path::new("/")).to_path_buf(),
            ),
        };
        Self::starting_at(repo, filter, nodes, dir, false)
    }

    /// The walk of `nodes`, the entries of the directory `dir` (as backed up); `included`
    /// if it or an ancestor matched an include pattern.
    pub(super) fn starting_at(
        repo: &'a Repository<Indexed>,
        filter: &'a Filter,
        nodes: Vec<Node>,
        dir: PathBuf,
        included: bool,
    ) -> Self {
        ReadPlanner {
            repo,
            filter,
            reads: PlannedReads::new(),
            links: Default::default(),
            memo: HashMap::new(),
            stack: vec![(nodes.into_iter(), dir, included)],
            count_only: false,
            files: 0,
            bytes: 0,
        }
    }

    /// The reads listed since the last call.
    pub(super) fn take_reads(&mut self) -> PlannedReads {
        std::mem::take(&mut self.reads)
    }

    /// Walk on until `segment` reads are listed or the walk is over; whether there is
    /// more to walk.
    pub(super) fn walk(&mut self, segment: usize) -> Result<bool> {
        while self.reads.len() < segment {
            let Some((nodes, orig_dir, included)) = self.stack.last_mut() else {
                return Ok(false);
            };
            let Some(node) = nodes.next() else {
                self.stack.pop();
                continue;
            };
            let Admitted::Yes { orig, included } = self.filter.admit(&node, orig_dir, *included)
            else {
                continue;
            };
            match node.kind {
                NodeKind::Dir => {
                    let subtree = match node.subtree {
                        Some(id) => {
                            if !self.count_only {
                                self.repo.plan_blob_read(&mut self.reads, &id);
                            }
                            self.read_trees_ahead(&id);
                            self.repo.load_tree_off_plan(&id)?
                        }
                        None => Tree::default(),
                    };
                    let filter = self.filter;
                    if included
                        || filter.subtree_has_match(self.repo, &subtree, &orig, &mut self.memo)?
                    {
                        self.stack.push((subtree.nodes.into_iter(), orig, included));
                    }
                }
                NodeKind::File if included => {
                    self.files += 1;
                    self.bytes += node.size;
                    if self.count_only
                        || node.links > 1 && !self.links.insert((node.device, node.inode))
                    {
                        continue;
                    }
                    for id in &node.content {
                        self.repo.plan_blob_read(&mut self.reads, id);
                    }
                }
                _ => {}
            }
        }
        Ok(!self.stack.is_empty())
    }

    /// Before reading tree `next`: fetch its shard together with those of the trees
    /// walked after it that are known now (the directories left at each level, innermost
    /// first), while the restore has not started (later, its reads overlap the walk's,
    /// and the shard cache is the restore's).
    fn read_trees_ahead(&self, next: &BlobId) {
        if !self.repo.read_plan_is_over() {
            return;
        }
        let then = || {
            (self.stack.iter().rev())
                .flat_map(|(nodes, _, _)| nodes.as_slice())
                .filter(|node| node.kind == NodeKind::Dir)
                .filter_map(|node| node.subtree)
                .take(TREES_AHEAD)
                .collect()
        };
        self.repo.read_trees_ahead(next, then, TREE_SHARDS_AHEAD);
    }

    /// While the restore runs: add the next segment of reads to the plan whenever fewer
    /// than half a segment are left ahead of the restore, until the walk or the restore
    /// is over. A walk that fails adds what it listed and stops.
    pub(super) fn keep_ahead(&mut self) {
        let segment = plan_segment();
        while self.repo.read_plan_wants_more(segment.div_ceil(2)) {
            let more = self.walk(segment);
            self.repo.extend_read_plan(self.take_reads());
            if !matches!(more, Ok(true)) || self.repo.read_plan_is_over() {
                return;
            }
        }
    }
}
