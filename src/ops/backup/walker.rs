//! The walker: a depth-first traversal of the sources in name order. It records each
//! entry's metadata and extended attributes (always read afresh: cheap, unlike contents),
//! decides for each file whether the parent snapshot's blob list can be reused (same
//! size, mtime, ctime and inode) or the file must be read, hands files to read to the
//! readers, and emits an ordered event stream for the tree builder.

use std::collections::HashSet;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::Ordering;

use crossbeam_channel::{Receiver, Sender};

use super::sources::{Excludes, Sources, VirtualDir, VirtualEntry};
use crate::content::fsmeta;
use crate::content::{BlobId, Node, NodeKind, Tree};
use crate::ops::Progress;
use crate::repo::{Indexed, Repository};

/// A file's blob list and the bytes read, or why it could not be read.
/// A file's blob ids and the bytes read, or why it could not be read (named in the
/// backup report; the run goes on and exits 3).
pub type FileResult = crate::error::Result<(Vec<BlobId>, u64)>;

pub struct FileJob {
    pub path: std::path::PathBuf,
    pub reply: Sender<FileResult>,
}

pub enum Content {
    /// Nothing to wait for: not a file, or a file whose content was reused.
    Ready { unchanged: bool },
    /// A reader is working on it; `existed` says whether the parent snapshot had it.
    Pending {
        reply: Receiver<FileResult>,
        existed: bool,
    },
    /// Another hard link to a file already emitted in this run.
    SameInode { device: u64, inode: u64 },
}

pub enum Event {
    Enter(Node),
    Leave,
    Entry(Node, Content),
}

/// Downstream stopped (an error elsewhere); unwind quietly.
pub struct Stopped;

pub struct Walker<'a> {
    pub repo: &'a Repository<Indexed>,
    pub excludes: &'a Excludes,
    pub events: Sender<Event>,
    pub jobs: Sender<FileJob>,
    pub errors: &'a Mutex<Vec<String>>,
    pub seen_inodes: HashSet<(u64, u64)>,
}

impl Walker<'_> {
    pub fn run(mut self, sources: &Sources, parent: Option<&Tree>) -> Result<(), Stopped> {
        match &sources.root {
            Some(root) => self.walk_virtual(root, Path::new("/"), parent),
            None => self.walk_children(Path::new("/"), parent),
        }
    }

    fn error(&self, msg: String) {
        super::note_error(self.errors, msg);
    }

    /// Read an entry's extended attributes; what cannot be read is noted (the entry is
    /// still backed up, with the attributes that could be read).
    fn xattrs(&self, path: &Path, follow: bool, node: &mut Node) {
        if let Err(e) = fsmeta::read_xattrs(path, follow, node) {
            self.error(format!("{}: {e}", path.display()));
        }
    }

    fn emit(&self, e: Event) -> Result<(), Stopped> {
        self.events.send(e).map_err(|_| Stopped)
    }

    fn parent_subtree(&self, parent: Option<&Node>) -> Option<Tree> {
        let id = parent.filter(|n| n.kind == NodeKind::Dir)?.subtree?;
        // An unreadable parent tree only costs re-reading files; not an error.
        self.repo.load_tree(&id).ok()
    }

    fn walk_virtual(
        &mut self,
        dir: &VirtualDir,
        path: &Path,
        parent: Option<&Tree>,
    ) -> Result<(), Stopped> {
        for (name, entry) in &dir.children {
            let child = path.join(std::ffi::OsStr::from_bytes(name));
            let parent_node = parent.and_then(|t| t.find(name));
            match entry {
                VirtualEntry::Source => self.walk(&child, name, parent_node)?,
                VirtualEntry::Dir(sub) => {
                    // Ancestors are followed (a source below a symlinked directory is
                    // still reached), and only their own metadata is recorded.
                    let mut node = match std::fs::metadata(&child)
                        .map_err(crate::Error::from)
                        .and_then(|md| fsmeta::node_from_metadata(name, &child, &md))
                    {
                        Ok(n) => n,
                        Err(e) => {
                            self.error(format!("{}: {e}", child.display()));
                            continue;
                        }
                    };
                    self.xattrs(&child, true, &mut node);
                    self.emit(Event::Enter(node))?;
                    let sub_parent = self.parent_subtree(parent_node);
                    self.walk_virtual(sub, &child, sub_parent.as_ref())?;
                    self.emit(Event::Leave)?;
                }
            }
        }
        Ok(())
    }

    fn walk_children(&mut self, path: &Path, parent: Option<&Tree>) -> Result<(), Stopped> {
        let mut names: Vec<Vec<u8>> = Vec::new();
        match std::fs::read_dir(path) {
            Ok(rd) => {
                for entry in rd {
                    match entry {
                        Ok(e) => names.push(e.file_name().as_bytes().to_vec()),
                        Err(e) => self.error(format!(
                            "{}: error while listing directory: {e}",
                            path.display()
                        )),
                    }
                }
            }
            Err(e) => {
                self.error(format!("{}: cannot list directory: {e}", path.display()));
                return Ok(());
            }
        };
        names.sort();
        for name in names {
            let child = path.join(std::ffi::OsStr::from_bytes(&name));
            self.walk(&child, &name, parent.and_then(|t| t.find(&name)))?;
        }
        Ok(())
    }

    fn walk(&mut self, path: &Path, name: &[u8], parent: Option<&Node>) -> Result<(), Stopped> {
        if self.excludes.excluded(path, name) {
            return Ok(());
        }
        let mut node = match std::fs::symlink_metadata(path)
            .map_err(crate::Error::from)
            .and_then(|md| fsmeta::node_from_metadata(name, path, &md))
        {
            Ok(n) => n,
            Err(e) => {
                self.error(format!("{}: {e}", path.display()));
                return Ok(());
            }
        };
        self.xattrs(path, false, &mut node);
        match node.kind {
            NodeKind::Dir => {
                self.emit(Event::Enter(node))?;
                let sub_parent = self.parent_subtree(parent);
                self.walk_children(path, sub_parent.as_ref())?;
                self.emit(Event::Leave)
            }
            NodeKind::File => self.file(path, node, parent),
            _ => self.emit(Event::Entry(node, Content::Ready { unchanged: false })),
        }
    }

    fn file(&mut self, path: &Path, mut node: Node, parent: Option<&Node>) -> Result<(), Stopped> {
        if node.links > 1 && !self.seen_inodes.insert((node.device, node.inode)) {
            let (device, inode) = (node.device, node.inode);
            return self.emit(Event::Entry(node, Content::SameInode { device, inode }));
        }
        let parent = parent.filter(|p| p.kind == NodeKind::File);
        if let Some(p) = parent {
            if unchanged(p, &node) {
                // Only the contents are reused: the metadata and extended attributes just
                // read are what the new snapshot records.
                node.content = p.content.clone();
                return self.emit(Event::Entry(node, Content::Ready { unchanged: true }));
            }
        }
        let (reply, rx) = crossbeam_channel::bounded(1);
        self.jobs
            .send(FileJob {
                path: path.to_path_buf(),
                reply,
            })
            .map_err(|_| Stopped)?;
        self.emit(Event::Entry(
            node,
            Content::Pending {
                reply: rx,
                existed: parent.is_some(),
            },
        ))
    }
}

/// The file has not changed since the parent snapshot if size, mtime, ctime and inode
/// all agree (ctime catches changes that restore an old mtime).
fn unchanged(old: &Node, new: &Node) -> bool {
    old.size == new.size
        && old.mtime == new.mtime
        && old.mtime_nsec == new.mtime_nsec
        && old.ctime == new.ctime
        && old.ctime_nsec == new.ctime_nsec
        && old.inode == new.inode
        && (old.size == 0 || !old.content.is_empty())
}

/// Count files and bytes ahead of the walker so progress can show totals and an ETA.
pub fn count_totals(sources: &Sources, excludes: &Excludes, progress: &Progress) {
    let mut stack: Vec<std::path::PathBuf> = sources.paths.clone();
    while let Some(p) = stack.pop() {
        let Ok(md) = std::fs::symlink_metadata(&p) else {
            continue;
        };
        if md.is_dir() {
            if let Ok(rd) = std::fs::read_dir(&p) {
                for e in rd.flatten() {
                    let path = e.path();
                    if !excludes.excluded(&path, e.file_name().as_bytes()) {
                        stack.push(path);
                    }
                }
            }
        } else if md.is_file() {
            Progress::add(&progress.files_total, 1);
            Progress::add(&progress.bytes_total, md.len());
        }
    }
    progress.totals_known.store(true, Ordering::Relaxed);
}
