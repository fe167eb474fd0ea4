//! `tangle ls`: the paths in a snapshot, recursively.

use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use super::listing::{Entry, entry, subtrees};
use super::locate::{Located, locate};
use super::select::{self, SnapshotFilter};
use crate::content::{NodeKind, Tree};
use crate::error::Result;
use crate::repo::{Indexed, Repository, TREE_SHARDS_AHEAD, TREES_AHEAD};

/// Visit every entry at or below `path` in the snapshot `spec` names (`latest`: the
/// newest that `filter` selects), in order.
pub fn walk(
    repo: &Repository<Indexed>,
    spec: &str,
    filter: &SnapshotFilter,
    path: Option<&Path>,
    visit: &mut dyn FnMut(Entry),
) -> Result<()> {
    let (_, snap) = select::find(repo, spec, filter)?;
    let start = path.unwrap_or(Path::new("/"));
    match locate(repo, &snap, start)? {
        Located::Root(tree) => walk_tree(repo, b"", &tree, visit),
        Located::Node(node) => {
            let p = start.as_os_str().as_bytes().to_vec();
            let p = if p.len() > 1 && p.ends_with(b"/") {
                p[..p.len() - 1].to_vec()
            } else {
                p
            };
            visit(entry(&p, &node));
            if let (NodeKind::Dir, Some(id)) = (node.kind, node.subtree) {
                walk_tree(repo, &p, &repo.load_tree(&id)?, visit)?;
            }
            Ok(())
        }
    }
}

fn walk_tree(
    repo: &Repository<Indexed>,
    prefix: &[u8],
    tree: &Tree,
    visit: &mut dyn FnMut(Entry),
) -> Result<()> {
    for (i, n) in tree.nodes.iter().enumerate() {
        let p = [prefix, b"/", &n.name].concat();
        visit(entry(&p, n));
        if let (NodeKind::Dir, Some(id)) = (n.kind, n.subtree) {
            let later = || subtrees(&tree.nodes[i + 1..]).take(TREES_AHEAD).collect();
            repo.read_trees_ahead(&id, later, TREE_SHARDS_AHEAD);
            walk_tree(repo, &p, &repo.load_tree(&id)?, visit)?;
        }
    }
    Ok(())
}
