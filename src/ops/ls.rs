//! `tangle ls`: the paths in a snapshot, recursively.

use std::collections::BTreeMap;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use base64::Engine;
use serde::Serialize;

use super::snapshots::{Located, locate};
use crate::content::{BlobId, Node, NodeKind, Tree};
use crate::error::Result;
use crate::repo::{Repository, TREE_SHARDS_AHEAD, TREES_AHEAD};

#[derive(Serialize, Debug)]
pub struct Entry {
    pub path: String,
    /// The path's exact bytes (names need not be UTF-8).
    #[serde(skip)]
    pub raw_path: Vec<u8>,
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub size: u64,
    pub mode: u32,
    pub mtime: String,
    pub uid: u32,
    pub gid: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// Extended attributes (POSIX ACLs included): name → value in standard base64 (with
    /// padding). Absent when the entry has none.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub xattrs: BTreeMap<String, String>,
    /// Whether the entry has a POSIX ACL (`ls -l` marks it `+`, other attributes `@`).
    #[serde(skip)]
    pub acl: bool,
}

impl Entry {
    /// The `ls -l` mark after the mode: `+` for a POSIX ACL, `@` for other extended
    /// attributes, a space for none.
    pub fn xattr_mark(&self) -> char {
        if self.acl {
            '+'
        } else if self.xattrs.is_empty() {
            ' '
        } else {
            '@'
        }
    }
}

pub fn kind_name(k: NodeKind) -> &'static str {
    match k {
        NodeKind::File => "file",
        NodeKind::Dir => "dir",
        NodeKind::Symlink => "symlink",
        NodeKind::CharDevice => "chardev",
        NodeKind::BlockDevice => "blockdev",
        NodeKind::Fifo => "fifo",
        NodeKind::Socket => "socket",
    }
}

/// The listing entry of node `n` at `path` (also what `find` prints per match).
pub fn entry(path: &[u8], n: &Node) -> Entry {
    Entry {
        path: String::from_utf8_lossy(path).into_owned(),
        raw_path: path.to_vec(),
        kind: kind_name(n.kind),
        size: n.size,
        mode: n.mode,
        mtime: chrono::DateTime::from_timestamp(n.mtime, n.mtime_nsec)
            .map(|t| {
                t.with_timezone(&chrono::Local)
                    .to_rfc3339_opts(chrono::SecondsFormat::Secs, false)
            })
            .unwrap_or_default(),
        uid: n.uid,
        gid: n.gid,
        target: (n.kind == NodeKind::Symlink)
            .then(|| String::from_utf8_lossy(&n.target).into_owned()),
        xattrs: n
            .xattrs
            .iter()
            .map(|x| {
                (
                    String::from_utf8_lossy(&x.name).into_owned(),
                    base64::engine::general_purpose::STANDARD.encode(&x.value),
                )
            })
            .collect(),
        acl: n
            .xattrs
            .iter()
            .any(|x| x.name.starts_with(b"system.posix_acl_")),
    }
}

/// Visit every entry at or below `path` in the snapshot, in order.
pub fn walk(
    repo: &Repository,
    spec: &str,
    path: Option<&Path>,
    visit: &mut dyn FnMut(Entry),
) -> Result<()> {
    let (_, snap) = repo.find_snapshot(spec)?;
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
    repo: &Repository,
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

/// The subtrees of the directories among `nodes`, in order: the trees a walk reads
/// after the one it is entering (callers take at most [`TREES_AHEAD`]).
pub(super) fn subtrees<'a>(
    nodes: impl IntoIterator<Item = &'a Node> + 'a,
) -> impl Iterator<Item = BlobId> + 'a {
    (nodes.into_iter())
        .filter(|n| n.kind == NodeKind::Dir)
        .filter_map(|n| n.subtree)
}
