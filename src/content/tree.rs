//! Trees: one blob per directory, listing its entries (a Merkle tree: a directory names
//! its subdirectories by their tree blob ids, so unchanged subtrees dedup whole).

use serde::{Deserialize, Serialize};

use super::BlobId;
use super::ContentError;
use crate::error::Result;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum NodeKind {
    File,
    Dir,
    Symlink,
    CharDevice,
    BlockDevice,
    Fifo,
    Socket,
}

/// One directory entry with the metadata needed to restore it faithfully.
/// Names and link targets are raw bytes: Unix file names need not be UTF-8.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Node {
    pub name: Vec<u8>,
    pub kind: NodeKind,
    /// Permission bits incl. setuid/setgid/sticky (`st_mode & 0o7777`).
    pub mode: u32,
    pub uid: u32,
    pub gid: u32,
    pub mtime: i64,
    pub mtime_nsec: u32,
    pub atime: i64,
    pub atime_nsec: u32,
    pub ctime: i64,
    pub ctime_nsec: u32,
    pub inode: u64,
    pub device: u64,
    /// Hard link count; files with `links > 1` are re-linked on restore.
    pub links: u64,
    /// Device number for character and block devices.
    pub rdev: u64,
    pub size: u64,
    /// File contents, in order (files only).
    pub content: Vec<BlobId>,
    /// Tree blob of a directory.
    pub subtree: Option<BlobId>,
    /// Symlink target.
    pub target: Vec<u8>,
}

impl Node {
    /// A node with the given name and kind and every other field zero/empty.
    pub fn empty(name: Vec<u8>, kind: NodeKind) -> Node {
        Node {
            name,
            kind,
            mode: 0,
            uid: 0,
            gid: 0,
            mtime: 0,
            mtime_nsec: 0,
            atime: 0,
            atime_nsec: 0,
            ctime: 0,
            ctime_nsec: 0,
            inode: 0,
            device: 0,
            links: 0,
            rdev: 0,
            size: 0,
            content: Vec::new(),
            subtree: None,
            target: Vec::new(),
        }
    }

    pub fn name_lossy(&self) -> String {
        String::from_utf8_lossy(&self.name).into_owned()
    }
}

/// A directory listing, sorted by name (byte order) with unique names.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tree {
    pub nodes: Vec<Node>,
}

const TREE_VERSION: u8 = 1;

impl Tree {
    pub fn sort(&mut self) {
        self.nodes.sort_by(|a, b| a.name.cmp(&b.name));
    }

    pub fn find(&self, name: &[u8]) -> Option<&Node> {
        self.nodes
            .binary_search_by(|n| n.name.as_slice().cmp(name))
            .ok()
            .map(|i| &self.nodes[i])
    }

    /// Serialized form (the plaintext of a tree blob): a version byte, then postcard.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut out = vec![TREE_VERSION];
        out.extend(postcard::to_stdvec(self)?);
        Ok(out)
    }

    pub fn from_bytes(b: &[u8]) -> Result<Tree> {
        match b.split_first() {
            Some((&TREE_VERSION, rest)) => {
                let t: Tree = postcard::from_bytes(rest).map_err(ContentError::Malformed)?;
                if t.nodes.windows(2).any(|w| w[0].name >= w[1].name) {
                    return Err(ContentError::TreeNotSorted.into());
                }
                if t.nodes.iter().any(|n| {
                    n.name.is_empty() || n.name.contains(&b'/') || n.name == b"." || n.name == b".."
                }) {
                    return Err(ContentError::TreeInvalidName.into());
                }
                Ok(t)
            }
            Some((&v, _)) => Err(ContentError::TreeVersion(v).into()),
            None => Err(ContentError::EmptyTree.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Tree {
        let mut a = Node::empty(b"a\xff".to_vec(), NodeKind::File);
        a.content = vec![[1; 32], [2; 32]];
        a.size = 10;
        let mut b = Node::empty(b"b".to_vec(), NodeKind::Symlink);
        b.target = b"/nowhere".to_vec();
        Tree { nodes: vec![a, b] }
    }

    #[test]
    fn round_trip() {
        let t = sample();
        assert_eq!(Tree::from_bytes(&t.to_bytes().unwrap()).unwrap(), t);
    }

    #[test]
    fn rejects_bad_input() {
        let bytes = sample().to_bytes().unwrap();
        assert!(Tree::from_bytes(&[]).is_err());
        assert!(Tree::from_bytes(&bytes[..bytes.len() - 3]).is_err());
        let mut v = bytes.clone();
        v[0] = 9;
        assert!(Tree::from_bytes(&v).is_err());
        let mut unsorted = sample();
        unsorted.nodes.reverse();
        assert!(Tree::from_bytes(&unsorted.to_bytes().unwrap()).is_err());
        let mut slash = sample();
        slash.nodes[0].name = b"../x".to_vec();
        assert!(Tree::from_bytes(&slash.to_bytes().unwrap()).is_err());
    }
}
