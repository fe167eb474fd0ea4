//! With the password: every snapshot's trees decode and every blob is indexed. The same
//! walk (each tree once) feeds the [`Tracer`] when data is lost.

use std::collections::HashSet;

use super::finding::{Finding, FindingKind, Severity};
use super::lost::Tracer;
use crate::content::{BlobId, BlobKind, NodeKind};
use crate::error::Result;
use crate::repo::{Indexed, Repository};

/// With the password: every snapshot's trees decode and every blob is indexed. Each tree
/// read goes to `tracer` (if any); a tree it knows to be lost is not read. Returns every
/// snapshot's id and root tree, oldest first.
pub(crate) fn snapshots_reachable(
    repo: &Repository<Indexed>,
    mut tracer: Option<&mut Tracer>,
    findings: &mut Vec<Finding>,
) -> Result<Vec<(String, BlobId)>> {
    let snaps = repo.snapshots()?;
    let mut seen_trees = HashSet::new();
    for (id, snap) in &snaps {
        let mut stack = vec![snap.tree];
        let mut problems = 0usize;
        while let Some(t) = stack.pop() {
            if !seen_trees.insert(t) {
                continue;
            }
            if tracer.as_deref_mut().is_some_and(|tr| tr.tree_lost(&t)) {
                problems += 1;
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
                        // `get`, not `contains`: nothing is reused here, so no match
                        // needs its whole id read back (a `pread` a blob).
                        problems += n
                            .content
                            .iter()
                            .filter(|b| repo.index().get(b).is_none())
                            .count();
                    }
                    if let Some(tr) = tracer.as_deref_mut() {
                        tr.tree_read(&t, &tree);
                    }
                }
                Err(_) => problems += 1,
            }
        }
        if problems > 0 {
            findings.push(Finding::new(
                Severity::Unrecoverable,
                FindingKind::SnapshotIncomplete,
                format!(
                    "snapshot {}: {problems} trees or blobs cannot be read",
                    &id[..8]
                ),
            ));
        }
    }
    Ok(snaps.into_iter().map(|(id, s)| (id, s.tree)).collect())
}
