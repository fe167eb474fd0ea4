//! The tree builder: runs on the thread that called the backup and consumes the walker's
//! events in walk order. It keeps one list of child nodes per open directory, waits for
//! each file's blob list from its reader, and when a directory is left writes its tree
//! blob (bottom-up, so a directory's id covers all below it) into the same channel the
//! readers use, ending with the root tree.

use std::collections::HashMap;
use std::sync::Mutex;

use crossbeam_channel::{Receiver, Sender};

use super::TreeStats;
use super::note_error;
use super::pipeline::{Dedup, PlainBlob};
use super::walker::{Content, Event};
use crate::content::{BlobId, BlobKind, Node, NodeKind, Tree};
use crate::content::{FileRecord, PathTable};
use crate::crypto::ContentKeys;
use crate::error::{Error, Result};

/// How a file was counted in the stats.
#[derive(Clone, Copy)]
enum FileState {
    New,
    Changed,
    Unchanged,
}

/// Consumes walker events in order and writes one tree blob per directory.
pub(super) struct TreeBuilder<'a> {
    key: &'a dyn ContentKeys,
    dedup: &'a Dedup<'a>,
    out: Sender<PlainBlob>,
    stack: Vec<(Node, Vec<Node>)>,
    root: Vec<Node>,
    stats: TreeStats,
    /// Blob lists of hard-linked files seen in this run, by (device, inode), and how the
    /// first name was counted (further names count the same way).
    inodes: HashMap<(u64, u64), (Vec<BlobId>, FileState)>,
    errors: &'a Mutex<Vec<String>>,
    /// A writer's run: the table of its files being recorded, and the path hash key.
    pub(super) files: Option<(PathTable, [u8; 32])>,
}

impl<'a> TreeBuilder<'a> {
    pub(super) fn new(
        key: &'a dyn ContentKeys,
        dedup: &'a Dedup<'a>,
        out: Sender<PlainBlob>,
        errors: &'a Mutex<Vec<String>>,
    ) -> Self {
        TreeBuilder {
            key,
            dedup,
            out,
            stack: Vec::new(),
            root: Vec::new(),
            stats: TreeStats::default(),
            inodes: HashMap::new(),
            errors,
            files: None,
        }
    }

    /// Build every tree; the stats and the root tree's id.
    pub(super) fn consume(&mut self, events: Receiver<Event>) -> Result<(TreeStats, BlobId)> {
        for event in events {
            match event {
                Event::Enter(node) => self.stack.push((node, Vec::new())),
                Event::Leave => {
                    let (mut dir, children) = self
                        .stack
                        .pop()
                        .ok_or_else(|| Error::fatal("internal: unbalanced walk"))?;
                    dir.subtree = Some(self.store_tree(children)?);
                    self.stats.dirs += 1;
                    self.push(dir);
                }
                Event::Entry(node, content) => {
                    if let Some(node) = self.resolve(node, content)? {
                        self.push(node);
                    }
                }
            }
        }
        if !self.stack.is_empty() {
            return Err(Error::fatal("backup stopped before the walk finished"));
        }
        let root = std::mem::take(&mut self.root);
        let id = self.store_tree(root)?;
        Ok((std::mem::take(&mut self.stats), id))
    }

    fn push(&mut self, node: Node) {
        match self.stack.last_mut() {
            Some((_, children)) => children.push(node),
            None => self.root.push(node),
        }
    }

    /// Fill in a node's content (waiting for its reader if needed) and count it; `None`
    /// if the file could not be read (the error is noted and the file skipped).
    fn resolve(&mut self, mut node: Node, content: Content) -> Result<Option<Node>> {
        let state = match content {
            Content::Ready { .. } if node.kind != NodeKind::File => {
                self.stats.others += 1;
                return Ok(Some(node));
            }
            Content::Ready { unchanged: true } => FileState::Unchanged,
            Content::Ready { unchanged: false } => FileState::New,
            Content::Pending {
                reply,
                existed,
                fatal,
            } => {
                match reply.recv().map_err(|_| Error::fatal("backup stopped"))? {
                    Ok((ids, read)) => {
                        node.content = ids;
                        node.size = read;
                        self.stats.bytes_read += read;
                    }
                    Err(e) if fatal => return Err(e),
                    Err(e) => {
                        note_error(self.errors, e.to_string());
                        return Ok(None);
                    }
                }
                if existed {
                    FileState::Changed
                } else {
                    FileState::New
                }
            }
            Content::SameInode { device, inode } => match self.inodes.get(&(device, inode)) {
                Some((ids, state)) => {
                    node.content = ids.clone();
                    *state
                }
                None => {
                    let msg = format!(
                        "{}: skipped, another link to it could not be read",
                        node.name_lossy()
                    );
                    note_error(self.errors, msg);
                    return Ok(None);
                }
            },
        };
        match state {
            FileState::New => self.stats.files_new += 1,
            FileState::Changed => self.stats.files_changed += 1,
            FileState::Unchanged => self.stats.files_unchanged += 1,
        }
        self.stats.bytes_total += node.size;
        if node.links > 1 {
            self.inodes
                .entry((node.device, node.inode))
                .or_insert_with(|| (node.content.clone(), state));
        }
        if let Some((table, key)) = &mut self.files {
            // The path as the walker has it: `/`, the directories entered, the name.
            let mut path = Vec::new();
            for (dir, _) in &self.stack {
                path.push(b'/');
                path.extend_from_slice(&dir.name);
            }
            path.push(b'/');
            path.extend_from_slice(&node.name);
            table.insert(PathTable::hash(key, &path), FileRecord::of(&node));
        }
        Ok(Some(node))
    }

    fn store_tree(&mut self, mut nodes: Vec<Node>) -> Result<BlobId> {
        nodes.sort_by(|a, b| a.name.cmp(&b.name));
        let tree = Tree { nodes };
        let bytes = tree.to_bytes()?;
        let id = self.key.blob_id(&bytes);
        self.dedup.offer(&self.out, id, BlobKind::Tree, bytes)?;
        Ok(id)
    }
}
