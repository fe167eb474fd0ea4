//! The walker: a depth-first traversal of the sources in name order. It records each
//! entry's metadata and extended attributes (always read afresh: cheap, unlike contents),
//! decides for each file whether the parent snapshot's blob list can be reused (same
//! size, mtime, ctime and inode) or the file must be read, hands files to read to the
//! readers, and emits an ordered event stream for the tree builder. What the filters
//! leave out (filter.rs) is never looked at further. A backup of one stream (stream.rs)
//! has no walk: [`Walker::run_stream`] emits the events of its one file.

use std::collections::HashSet;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::Ordering;

use crossbeam_channel::{Receiver, Sender};

use super::filter::Filter;
use super::sources::{Sources, VirtualDir, VirtualEntry};
use super::stream::{self, StdinOptions};
use crate::content::fsmeta;
use crate::content::path_table::Stamp;
use crate::content::{BlobId, Node, NodeKind, PathTable, Tree};
use crate::ops::Progress;

/// A file's blob list and the bytes read, or why it could not be read.
/// A file's blob ids and the bytes read, or why it could not be read (named in the
/// backup report; the run goes on and exits 3).
pub(crate) type FileResult = crate::error::Result<(Vec<BlobId>, u64)>;

pub(crate) struct FileJob {
    pub(crate) input: JobInput,
    pub(crate) reply: Sender<FileResult>,
}

/// What a reader reads.
pub(crate) enum JobInput {
    File(std::path::PathBuf),
    Stream(StdinOptions),
}

pub(crate) enum Content {
    /// Nothing to wait for: not a file, or a file whose content was reused.
    Ready { unchanged: bool },
    /// A reader is working on it; `existed` says whether the parent snapshot had it.
    /// `fatal`: an error reading it fails the backup (a stream: there is nothing else to
    /// save), instead of leaving the file out.
    Pending {
        reply: Receiver<FileResult>,
        existed: bool,
        fatal: bool,
    },
    /// Another hard link to a file already emitted in this run.
    SameInode { device: u64, inode: u64 },
}

pub(crate) enum Event {
    Enter(Node),
    Leave,
    Entry(Node, Content),
}

/// Downstream stopped (an error elsewhere); unwind quietly.
pub(crate) struct Stopped;

pub(crate) struct Walker<'a> {
    /// A tree of the parent snapshot (`None`: unreadable, or no parent can be read).
    pub(crate) load_tree: &'a (dyn Fn(&crate::content::BlobId) -> Option<Tree> + Sync),
    /// A writer's change detection instead of a parent: its last run's files and their
    /// path hash key, and whether a blob is still one it may reuse.
    pub(crate) changes: Option<(&'a PathTable, &'a [u8; 32])>,
    pub(crate) known: &'a (dyn Fn(&BlobId) -> bool + Sync),
    pub(crate) filter: &'a Filter,
    pub(crate) events: Sender<Event>,
    pub(crate) jobs: Sender<FileJob>,
    pub(crate) errors: &'a Mutex<Vec<String>>,
    pub(crate) seen_inodes: HashSet<(u64, u64)>,
    /// With `--one-file-system`: the device of the source being walked.
    pub(crate) device: Option<u64>,
}

impl Walker<'_> {
    pub(crate) fn run(mut self, sources: &Sources, parent: Option<&Tree>) -> Result<(), Stopped> {
        match &sources.root {
            Some(root) => self.walk_virtual(root, Path::new("/"), parent),
            None => {
                self.device = std::fs::symlink_metadata("/").ok().map(|md| md.dev());
                self.walk_children(Path::new("/"), parent)
            }
        }
    }

    /// The events of a backup of one stream: the directories of its path, each made up
    /// (there is nothing to read their metadata from), and the file, read by a reader.
    pub(crate) fn run_stream(self, o: &StdinOptions) -> Result<(), Stopped> {
        let Ok(mut parts) = o.components() else {
            return Ok(());
        };
        let Some(name) = parts.pop() else {
            return Ok(());
        };
        for dir in &parts {
            self.emit(Event::Enter(stream::node(dir, NodeKind::Dir)))?;
        }
        let (reply, rx) = crossbeam_channel::bounded(1);
        let job = FileJob {
            input: JobInput::Stream(o.clone()),
            reply,
        };
        self.jobs.send(job).map_err(|_| Stopped)?;
        let content = Content::Pending {
            reply: rx,
            existed: false,
            fatal: true,
        };
        self.emit(Event::Entry(stream::node(&name, NodeKind::File), content))?;
        for _ in &parts {
            self.emit(Event::Leave)?;
        }
        Ok(())
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
        (self.load_tree)(&id)
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
                VirtualEntry::Source => {
                    // Its own device, the one its walk stays on with --one-file-system.
                    self.device = None;
                    self.walk(&child, name, parent_node)?
                }
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
        let tagged = self.filter.tags_in(path, &names);
        for name in names.iter().filter(|n| !tagged.excludes(n)) {
            let child = path.join(std::ffi::OsStr::from_bytes(name));
            self.walk(&child, name, parent.and_then(|t| t.find(name)))?;
        }
        Ok(())
    }

    fn walk(&mut self, path: &Path, name: &[u8], parent: Option<&Node>) -> Result<(), Stopped> {
        if self.filter.excluded_by_name(path, name) {
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
        if self.filter.excluded_by_size(&node) {
            return Ok(());
        }
        // Another file system below the source: a directory (a mount point) is kept
        // empty, as restic keeps it; anything else is left out.
        let elsewhere =
            self.filter.one_file_system() && *self.device.get_or_insert(node.device) != node.device;
        if elsewhere && node.kind != NodeKind::Dir {
            return Ok(());
        }
        self.xattrs(path, false, &mut node);
        match node.kind {
            NodeKind::Dir if elsewhere => {
                self.emit(Event::Enter(node))?;
                self.emit(Event::Leave)
            }
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
        if let Some(p) = parent
            && unchanged(p, &node)
        {
            // Only the contents are reused: the metadata and extended attributes just
            // read are what the new snapshot records.
            node.content = p.content.clone();
            return self.emit(Event::Entry(node, Content::Ready { unchanged: true }));
        }
        let mut existed = parent.is_some();
        if let (None, Some((table, key))) = (parent, self.changes) {
            let record = table.get(&PathTable::hash(key, path.as_os_str().as_bytes()));
            existed = record.is_some();
            let reusable = (record.and_then(|r| r.unchanged_content(&node)))
                .filter(|ids| ids.iter().all(|id| (self.known)(id)));
            if let Some(ids) = reusable {
                node.content = ids.to_vec();
                return self.emit(Event::Entry(node, Content::Ready { unchanged: true }));
            }
        }
        let (reply, rx) = crossbeam_channel::bounded(1);
        self.jobs
            .send(FileJob {
                input: JobInput::File(path.to_path_buf()),
                reply,
            })
            .map_err(|_| Stopped)?;
        self.emit(Event::Entry(
            node,
            Content::Pending {
                reply: rx,
                existed,
                fatal: false,
            },
        ))
    }
}

/// The file has not changed since the parent snapshot (see [`Stamp`]; a non-empty file
/// must have blobs).
fn unchanged(old: &Node, new: &Node) -> bool {
    Stamp::of(old) == Stamp::of(new) && (old.size == 0 || !old.content.is_empty())
}

/// Count files and bytes ahead of the walker so progress can show totals and an ETA,
/// leaving out what the walker will leave out (near enough: a file may change between).
pub(crate) fn count_totals(sources: &Sources, filter: &Filter, progress: &Progress) {
    let mut stack: Vec<(std::path::PathBuf, Option<u64>)> =
        sources.paths.iter().map(|p| (p.clone(), None)).collect();
    while let Some((p, device)) = stack.pop() {
        let Ok(md) = std::fs::symlink_metadata(&p) else {
            continue;
        };
        let device = device.unwrap_or(md.dev());
        if filter.one_file_system() && md.dev() != device {
            continue;
        }
        if md.is_dir() {
            let Ok(rd) = std::fs::read_dir(&p) else {
                continue;
            };
            let mut names: Vec<Vec<u8>> = rd
                .flatten()
                .map(|e| e.file_name().as_bytes().to_vec())
                .collect();
            names.sort();
            let tagged = filter.tags_in(&p, &names);
            for name in names.iter().filter(|n| !tagged.excludes(n)) {
                let path = p.join(std::ffi::OsStr::from_bytes(name));
                if !filter.excluded_by_name(&path, name) {
                    stack.push((path, Some(device)));
                }
            }
        } else if md.is_file() && !filter.excluded_by_size_of(md.len()) {
            Progress::add(&progress.files_total, 1);
            Progress::add(&progress.bytes_total, md.len());
        }
    }
    progress.totals_known.store(true, Ordering::Relaxed);
}
