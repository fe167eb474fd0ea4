//! A writer's change detection (DESIGN.md §17). A writer cannot read its parent snapshot,
//! so it keeps in its cache what telling an unchanged file takes: per file, under a keyed
//! hash of its path (no names), the size, times, inode and blob ids. A stolen cache lists
//! no names and holds no content; it can confirm a guessed path, as the blob ids can a
//! guessed file.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::{BlobId, Node};

/// What tells a file unchanged since it was last backed up: size, mtime, ctime (which
/// catches changes that restore an old mtime) and inode all agree. The walker compares a
/// parent snapshot's node the same way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Stamp {
    size: u64,
    mtime: i64,
    mtime_nsec: u32,
    ctime: i64,
    ctime_nsec: u32,
    inode: u64,
}

impl Stamp {
    pub(crate) fn of(node: &Node) -> Stamp {
        Stamp {
            size: node.size,
            mtime: node.mtime,
            mtime_nsec: node.mtime_nsec,
            ctime: node.ctime,
            ctime_nsec: node.ctime_nsec,
            inode: node.inode,
        }
    }
}

/// What a file was when it was last backed up, and its blob ids.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct FileRecord {
    stamp: Stamp,
    content: Vec<BlobId>,
}

impl FileRecord {
    pub(crate) fn of(node: &Node) -> FileRecord {
        FileRecord {
            stamp: Stamp::of(node),
            content: node.content.clone(),
        }
    }

    /// Its blob ids, if `node` (just read from the file system) is the same file
    /// unchanged (a non-empty file must have blobs).
    pub(crate) fn unchanged_content(&self, node: &Node) -> Option<&[BlobId]> {
        let same =
            self.stamp == Stamp::of(node) && (self.stamp.size == 0 || !self.content.is_empty());
        same.then_some(&self.content[..])
    }
}

/// The files of a writer's last run, by keyed path hash.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct PathTable {
    files: HashMap<[u8; 32], FileRecord>,
}

impl PathTable {
    /// The key of a path (its bytes, as the walker has it) under `key`.
    pub(crate) fn hash(key: &[u8; 32], path: &[u8]) -> [u8; 32] {
        *blake3::keyed_hash(key, path).as_bytes()
    }

    pub(crate) fn get(&self, hash: &[u8; 32]) -> Option<&FileRecord> {
        self.files.get(hash)
    }

    pub(crate) fn insert(&mut self, hash: [u8; 32], record: FileRecord) {
        self.files.insert(hash, record);
    }
}
