//! What snapshots and their tree nodes look like to a user: the record `snapshots`,
//! `find` and `cat` print for a snapshot, the entry `ls`, `find` and `cat` print for a
//! node, and the subtrees a walk reads ahead. Shared by the commands that list (`ls`,
//! `find`, `diff`, `stats`, `cat`, `snapshots`), so none imports another.

use std::collections::BTreeMap;

use base64::Engine;
use serde::Serialize;

use crate::content::{BlobId, Node, NodeKind, Snapshot};

/// The JSON shape promised by the command-line contract (plus a few extras).
#[derive(Serialize, Debug, Clone)]
pub struct SnapshotInfo {
    pub(crate) id: String,
    pub short_id: String,
    pub time: String,
    pub host: String,
    pub(crate) user: String,
    pub paths: Vec<String>,
    pub tags: Vec<String>,
    pub(crate) parent: Option<String>,
    pub(crate) tree: String,
    pub(crate) files: u64,
    pub(crate) bytes: u64,
    /// The writer key that made it (hex id; null for the owner's), and its label.
    pub(crate) writer: Option<String>,
    pub writer_label: Option<String>,
    /// The remotes serve an older state than this client last saw (the same on every
    /// entry of a listing; a warning says why).
    pub(crate) repository_stale: bool,
}

impl SnapshotInfo {
    pub(crate) fn new(id: &str, s: &Snapshot) -> SnapshotInfo {
        SnapshotInfo {
            id: id.to_string(),
            short_id: id[..8.min(id.len())].to_string(),
            time: s.time().to_rfc3339_opts(chrono::SecondsFormat::Secs, false),
            host: s.host.clone(),
            user: s.user.clone(),
            paths: s.paths.clone(),
            tags: s.tags.clone(),
            parent: s.parent.clone(),
            tree: hex::encode(s.tree),
            files: s.summary.files,
            bytes: s.summary.bytes,
            writer: s.writer.map(hex::encode),
            writer_label: None,
            repository_stale: false,
        }
    }
}

#[derive(Serialize, Debug)]
pub struct Entry {
    pub(crate) path: String,
    /// The path's exact bytes (names need not be UTF-8).
    #[serde(skip)]
    pub raw_path: Vec<u8>,
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub size: u64,
    pub mode: u32,
    pub mtime: String,
    pub(crate) uid: u32,
    pub(crate) gid: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) target: Option<String>,
    /// Extended attributes (POSIX ACLs included): name → value in standard base64 (with
    /// padding). Absent when the entry has none.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) xattrs: BTreeMap<String, String>,
    /// Whether the entry has a POSIX ACL (`ls -l` marks it `+`, other attributes `@`).
    #[serde(skip)]
    pub(crate) acl: bool,
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

pub(crate) fn kind_name(k: NodeKind) -> &'static str {
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
pub(crate) fn entry(path: &[u8], n: &Node) -> Entry {
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

/// The subtrees of the directories among `nodes`, in order: the trees a walk reads
/// after the one it is entering (callers take at most
/// [`crate::repo::TREES_AHEAD`]).
pub(crate) fn subtrees<'a>(
    nodes: impl IntoIterator<Item = &'a Node> + 'a,
) -> impl Iterator<Item = BlobId> + 'a {
    (nodes.into_iter())
        .filter(|n| n.kind == NodeKind::Dir)
        .filter_map(|n| n.subtree)
}
