//! Finding a node inside a snapshot by path (`SNAPSHOT[:PATH]`, `ls SNAPSHOT PATH`):
//! shared by the commands that start from a path (`ls`, `restore`, `dump`).

use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path};

use crate::content::{Node, NodeKind, Snapshot, Tree};
use crate::error::{Error, Result};
use crate::repo::{Indexed, Repository};

/// Split `SNAPSHOT[:PATH]`.
pub(crate) fn split_spec(spec: &str) -> (&str, Option<&str>) {
    match spec.split_once(':') {
        Some((s, p)) if !p.is_empty() => (s, Some(p)),
        Some((s, _)) => (s, None),
        None => (spec, None),
    }
}

/// What a path in a snapshot names: the virtual root, or a node.
pub(crate) enum Located {
    Root(Tree),
    Node(Node),
}

/// The names of `path`'s components, as the trees from the root down name them (`/` and
/// `.` dropped).
pub(crate) fn names(path: &Path) -> Vec<&[u8]> {
    (path.components())
        .filter_map(|c| match c {
            Component::Normal(n) => Some(n.as_bytes()),
            _ => None,
        })
        .collect()
}

/// [`names`] of a path given as backed up, refusing `..`: the lookup would drop it but
/// callers that build a destination from the path (restore) would keep it, so it is
/// refused rather than resolved.
pub(crate) fn backed_up_names(path: &Path) -> Result<Vec<&[u8]>> {
    if path.components().any(|c| c == Component::ParentDir) {
        return Err(Error::usage(format!(
            "path {} contains `..`: give the path as it was backed up",
            path.display()
        )));
    }
    Ok(names(path))
}

/// Find the node at absolute `path` (as backed up) in the snapshot.
pub(crate) fn locate(repo: &Repository<Indexed>, snap: &Snapshot, path: &Path) -> Result<Located> {
    let comps = backed_up_names(path)?;
    // A directory listing that cannot be read is data lost (exit 21), not a failure.
    let mut tree = repo.load_tree(&snap.tree).map_err(Error::into_data_lost)?;
    let not_found = || Error::fatal(format!("path {} is not in the snapshot", path.display()));
    for (i, name) in comps.iter().enumerate() {
        let node = tree.find(name).ok_or_else(not_found)?.clone();
        if i + 1 == comps.len() {
            return Ok(Located::Node(node));
        }
        match (node.kind, node.subtree) {
            (NodeKind::Dir, Some(id)) => {
                tree = repo.load_tree(&id).map_err(Error::into_data_lost)?
            }
            _ => return Err(not_found()),
        }
    }
    Ok(Located::Root(tree))
}
