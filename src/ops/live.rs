//! The blobs snapshots need: every tree and content blob under their root trees. Shared
//! by `delete` (an extent that holds none of the kept snapshots' blobs goes) and by the
//! leftovers (`leftovers.rs`: an uncommitted index segment's extents stay while they
//! hold a blob some snapshot needs and no other segment indexes).

use std::collections::HashSet;

use crate::content::{BlobId, NodeKind};
use crate::error::Result;
use crate::repo::{Indexed, Repository};

/// Every tree and content blob under the trees `roots`, read through the loaded index.
/// A tree that cannot be read is an error (the set would be short); a blob the index does
/// not place is in the set all the same (the caller decides what that means).
pub(crate) fn live_blobs(
    repo: &Repository<Indexed>,
    roots: impl Iterator<Item = BlobId>,
) -> Result<HashSet<BlobId>> {
    let mut live = HashSet::new();
    let mut stack: Vec<BlobId> = roots.collect();
    while let Some(t) = stack.pop() {
        if !live.insert(t) {
            continue;
        }
        let tree = repo.load_tree(&t)?;
        for node in &tree.nodes {
            live.extend(node.content.iter().copied());
            if let (NodeKind::Dir, Some(sub)) = (node.kind, node.subtree) {
                stack.push(sub);
            }
        }
    }
    Ok(live)
}
