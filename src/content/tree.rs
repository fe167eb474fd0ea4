//! Trees: one blob per directory, listing its entries (a Merkle tree: a directory names
//! its subdirectories by their tree blob ids, so unchanged subtrees dedup whole).
//!
//! Two versions: 1 is the nodes alone; 2 (written only when some node has extended
//! attributes, so trees without any stay byte-identical and keep their ids) appends one
//! list of attributes per node.

use serde::de::{self, SeqAccess, Visitor};
use serde::ser::SerializeTuple;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

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
    pub(crate) name: Vec<u8>,
    pub kind: NodeKind,
    /// Permission bits incl. setuid/setgid/sticky (`st_mode & 0o7777`).
    pub(crate) mode: u32,
    pub(crate) uid: u32,
    pub(crate) gid: u32,
    pub(crate) mtime: i64,
    pub(crate) mtime_nsec: u32,
    pub(crate) atime: i64,
    pub(crate) atime_nsec: u32,
    pub(crate) ctime: i64,
    pub(crate) ctime_nsec: u32,
    pub(crate) inode: u64,
    pub(crate) device: u64,
    /// Hard link count; files with `links > 1` are re-linked on restore.
    pub(crate) links: u64,
    /// Device number for character and block devices.
    pub(crate) rdev: u64,
    pub size: u64,
    /// File contents, in order (files only).
    pub content: Vec<BlobId>,
    /// Tree blob of a directory.
    pub subtree: Option<BlobId>,
    /// Symlink target.
    pub(crate) target: Vec<u8>,
    /// Extended attributes (POSIX ACLs included), sorted by name. Not part of the node's
    /// own encoding: [`Tree::to_bytes`] appends them after the nodes (tree version 2).
    #[serde(skip)]
    pub(crate) xattrs: Vec<Xattr>,
}

/// One extended attribute, raw bytes as the kernel hands them out. POSIX ACLs are the
/// attributes `system.posix_acl_access` and `system.posix_acl_default`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Xattr {
    pub(crate) name: Vec<u8>,
    pub(crate) value: Vec<u8>,
}

/// Longest attribute name (Linux `XATTR_NAME_MAX`).
pub(crate) const XATTR_NAME_MAX: usize = 255;
/// Largest attribute value (Linux `XATTR_SIZE_MAX`).
pub(crate) const XATTR_VALUE_MAX: usize = 64 * 1024;
/// Most attributes one node may carry.
pub(crate) const XATTRS_PER_NODE_MAX: usize = 1024;
/// Most bytes (names plus values) of attributes one node may carry.
pub(crate) const XATTR_BYTES_PER_NODE_MAX: usize = 1024 * 1024;

/// The per-node limits on extended attributes, shared by the backup (which keeps only
/// what fits) and the decoder (which rejects a tree that goes past them, so a hostile
/// tree cannot make a restore allocate without limit).
#[derive(Default)]
pub(crate) struct XattrBudget {
    count: usize,
    bytes: usize,
}

impl XattrBudget {
    /// Whether one more attribute fits (and if so, count it). A name must be 1 to
    /// [`XATTR_NAME_MAX`] bytes without NUL, a value at most [`XATTR_VALUE_MAX`] bytes.
    pub(crate) fn admit(&mut self, name: &[u8], value_len: usize) -> bool {
        let bytes = self.bytes + name.len() + value_len;
        let ok = !name.is_empty()
            && name.len() <= XATTR_NAME_MAX
            && !name.contains(&0)
            && value_len <= XATTR_VALUE_MAX
            && self.count < XATTRS_PER_NODE_MAX
            && bytes <= XATTR_BYTES_PER_NODE_MAX;
        if ok {
            self.count += 1;
            self.bytes = bytes;
        }
        ok
    }
}

/// Encoded as a pair of byte strings (postcard: length-prefixed bytes each).
impl Serialize for Xattr {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        struct Bytes<'a>(&'a [u8]);
        impl Serialize for Bytes<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
                s.serialize_bytes(self.0)
            }
        }
        let mut t = s.serialize_tuple(2)?;
        t.serialize_element(&Bytes(&self.name))?;
        t.serialize_element(&Bytes(&self.value))?;
        t.end()
    }
}

/// One node's attributes as decoded: each name and value is borrowed from the input and
/// checked against [`XattrBudget`] before it is copied.
struct NodeXattrs(Vec<Xattr>);

impl<'de> Deserialize<'de> for NodeXattrs {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Borrowed<'a>(&'a [u8], &'a [u8]);

        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = NodeXattrs;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a list of extended attributes")
            }
            fn visit_seq<A: SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> std::result::Result<NodeXattrs, A::Error> {
                let mut budget = XattrBudget::default();
                let mut out = Vec::new();
                while let Some(Borrowed(name, value)) = seq.next_element::<Borrowed<'de>>()? {
                    if !budget.admit(name, value.len()) {
                        return Err(de::Error::custom("extended attributes beyond the limits"));
                    }
                    out.push(Xattr {
                        name: name.to_vec(),
                        value: value.to_vec(),
                    });
                }
                Ok(NodeXattrs(out))
            }
        }
        d.deserialize_seq(V)
    }
}

impl Node {
    /// A node with the given name and kind and every other field zero/empty.
    pub(crate) fn empty(name: Vec<u8>, kind: NodeKind) -> Node {
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
            xattrs: Vec::new(),
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

/// Nodes only: every tree without extended attributes.
pub(crate) const TREE_VERSION: u8 = 1;
/// Nodes, then one list of extended attributes per node.
pub(crate) const TREE_VERSION_XATTRS: u8 = 2;

impl Tree {
    pub(crate) fn sort(&mut self) {
        self.nodes.sort_by(|a, b| a.name.cmp(&b.name));
    }

    pub(crate) fn find(&self, name: &[u8]) -> Option<&Node> {
        self.nodes
            .binary_search_by(|n| n.name.as_slice().cmp(name))
            .ok()
            .map(|i| &self.nodes[i])
    }

    /// Serialized form (the plaintext of a tree blob): a version byte, then postcard of
    /// the nodes; with version 2 (only when some node has extended attributes), then
    /// postcard of one attribute list per node.
    pub(crate) fn to_bytes(&self) -> Result<Vec<u8>> {
        if self.nodes.iter().all(|n| n.xattrs.is_empty()) {
            let mut out = vec![TREE_VERSION];
            out.extend(postcard::to_stdvec(self)?);
            return Ok(out);
        }
        let mut out = vec![TREE_VERSION_XATTRS];
        out.extend(postcard::to_stdvec(self)?);
        let lists: Vec<&[Xattr]> = self.nodes.iter().map(|n| n.xattrs.as_slice()).collect();
        out.extend(postcard::to_stdvec(&lists)?);
        Ok(out)
    }

    pub fn from_bytes(b: &[u8]) -> Result<Tree> {
        let t = match b.split_first() {
            Some((&TREE_VERSION, rest)) => {
                postcard::from_bytes::<Tree>(rest).map_err(ContentError::Malformed)?
            }
            Some((&TREE_VERSION_XATTRS, rest)) => {
                let (mut t, rest) =
                    postcard::take_from_bytes::<Tree>(rest).map_err(ContentError::Malformed)?;
                let (lists, rest) =
                    postcard::take_from_bytes::<Vec<NodeXattrs>>(rest).map_err(|e| match e {
                        postcard::Error::SerdeDeCustom => ContentError::TreeXattrLimits,
                        e => ContentError::Malformed(e),
                    })?;
                if lists.len() != t.nodes.len() || !rest.is_empty() {
                    return Err(ContentError::TreeXattrCount.into());
                }
                for (n, NodeXattrs(x)) in t.nodes.iter_mut().zip(lists) {
                    n.xattrs = x;
                }
                t
            }
            Some((&v, _)) => return Err(ContentError::TreeVersion(v).into()),
            None => return Err(ContentError::EmptyTree.into()),
        };
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

    fn xattr(name: &[u8], value: &[u8]) -> Xattr {
        Xattr {
            name: name.to_vec(),
            value: value.to_vec(),
        }
    }

    fn message(e: crate::Error) -> String {
        e.to_string()
    }

    #[test]
    fn without_xattrs_the_format_is_version_1_unchanged() {
        // The bytes tangle wrote before extended attributes existed: old trees decode, and
        // a tree without attributes still encodes to them (same blob id, so it dedups).
        let golden = hex::decode(
            "01020261ff00000000000000000000000000000a020101010101010101010101\
             0101010101010101010101010101010101010101010202020202020202020202\
             0202020202020202020202020202020202020202020000016202000000000000\
             00000000000000000000082f6e6f7768657265",
        )
        .unwrap();
        assert_eq!(sample().to_bytes().unwrap(), golden);
        assert_eq!(Tree::from_bytes(&golden).unwrap(), sample());
    }

    #[test]
    fn xattrs_round_trip_as_version_2() {
        let mut t = sample();
        t.nodes[0].xattrs = vec![
            xattr(b"system.posix_acl_access", &[2, 0, 0, 0, 1, 0, 6, 0]),
            xattr(b"user.empty", b""),
            xattr(b"user.x", &[0, 255, 10]),
        ];
        let bytes = t.to_bytes().unwrap();
        assert_eq!(bytes[0], 2);
        let back = Tree::from_bytes(&bytes).unwrap();
        assert_eq!(back, t);
        assert!(back.nodes[1].xattrs.is_empty());
        // Truncated anywhere, or with bytes after the lists: rejected.
        for cut in 1..bytes.len() {
            assert!(Tree::from_bytes(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        let mut long = bytes.clone();
        long.push(0);
        assert!(Tree::from_bytes(&long).is_err());
    }

    #[test]
    fn xattrs_beyond_the_limits_are_rejected() {
        let ok = xattr(&[b'n'; XATTR_NAME_MAX], &vec![7; XATTR_VALUE_MAX]);
        let cases: Vec<Vec<Xattr>> = vec![
            vec![xattr(&[b'n'; XATTR_NAME_MAX + 1], b"")],
            vec![xattr(b"", b"v")],
            vec![xattr(b"user.a\0b", b"v")],
            vec![xattr(b"user.big", &vec![0; XATTR_VALUE_MAX + 1])],
            (0..=XATTRS_PER_NODE_MAX)
                .map(|i| xattr(format!("user.{i}").as_bytes(), b""))
                .collect(),
            vec![ok.clone(); XATTR_BYTES_PER_NODE_MAX / (XATTR_NAME_MAX + XATTR_VALUE_MAX) + 1],
        ];
        for x in cases {
            let mut t = sample();
            t.nodes[1].xattrs = x;
            let err = message(Tree::from_bytes(&t.to_bytes().unwrap()).unwrap_err());
            assert!(err.contains("beyond the limits"), "{err}");
        }
        let mut t = sample();
        t.nodes[1].xattrs = vec![ok; XATTR_BYTES_PER_NODE_MAX / (XATTR_NAME_MAX + XATTR_VALUE_MAX)];
        assert_eq!(Tree::from_bytes(&t.to_bytes().unwrap()).unwrap(), t);
    }

    #[test]
    fn hostile_xattr_lengths_fail_without_allocating() {
        let nodes = postcard::to_stdvec(&sample()).unwrap();
        let huge = [0xff, 0xff, 0xff, 0xff, 0x0f];
        // A list count, an attribute count and a value length of 2^32 - 1: each fails on
        // the missing bytes (nothing is reserved from a length alone).
        for tail in [
            [&huge[..]].concat(),
            [&[2, 0][..], &huge[..]].concat(),
            [&[2, 0, 1, 1, b'u'][..], &huge[..]].concat(),
        ] {
            let bytes = [&[2][..], &nodes[..], &tail[..]].concat();
            assert!(Tree::from_bytes(&bytes).is_err());
        }
        // One list too few or too many.
        for lists in [
            vec![vec![xattr(b"user.x", b"1")]],
            vec![vec![], vec![], vec![]],
        ] {
            let bytes = [&[2][..], &nodes[..], &postcard::to_stdvec(&lists).unwrap()].concat();
            let err = message(Tree::from_bytes(&bytes).unwrap_err());
            assert!(err.contains("do not match"), "{err}");
        }
    }
}
