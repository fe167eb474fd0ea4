//! With the password: every snapshot's trees decode and every blob is indexed.

use std::collections::HashSet;

use super::finding::{Finding, FindingKind, Severity};
use crate::content::{BlobKind, NodeKind};
use crate::error::Result;
use crate::repo::Repository;

/// With the password: every snapshot's trees decode and every blob is indexed.
pub(super) fn snapshots_reachable(repo: &Repository, findings: &mut Vec<Finding>) -> Result<usize> {
    let snaps = repo.snapshots()?;
    let mut seen_trees = HashSet::new();
    for (id, snap) in &snaps {
        let mut stack = vec![snap.tree];
        let mut problems = 0usize;
        while let Some(t) = stack.pop() {
            if !seen_trees.insert(t) {
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
                        problems += n
                            .content
                            .iter()
                            .filter(|b| !repo.index().contains(b))
                            .count();
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
    Ok(snaps.len())
}
