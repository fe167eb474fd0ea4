//! The FUSE side of `tangle mount`: a table of inodes, made up (the root, `snapshots/`,
//! `hosts/`, ...) or from snapshot trees, and the kernel's requests answered from it.
//!
//! Inodes are numbered in the order they are first seen and never reused: the mount is
//! read-only and snapshots do not change, so an inode's attributes and entries never do
//! either, and the kernel may cache them for long ([`TTL`]). A directory of a snapshot
//! gets its entries (and their inodes) when it is first looked into.

use std::collections::HashMap;
use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStringExt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use fuser::{
    Errno, FileAttr, FileHandle, FileType, Filesystem, FopenFlags, Generation, INodeNo, LockOwner,
    OpenFlags, ReplyAttr, ReplyData, ReplyDirectory, ReplyEntry, ReplyOpen, Request,
};

use super::layout::{self, Root};
use crate::content::{BlobId, BlobKind, Node, NodeKind};
use crate::repo::{Indexed, ReadMode, Repository};

/// How long the kernel may keep what it was told: nothing in the mount ever changes.
const TTL: Duration = Duration::from_secs(3600);

/// What an inode is.
pub(super) enum What {
    /// A directory with these entries (made up, or a snapshot directory once loaded).
    Dir(Vec<(OsString, u64)>),
    /// A directory of a snapshot whose entries are not loaded yet: its tree (`None`:
    /// empty).
    Tree(Option<BlobId>),
    /// A file of a snapshot: its contents, in order.
    File(Arc<Vec<BlobId>>),
    /// A symbolic link to this target.
    Link(Vec<u8>),
    /// A FIFO, socket or device: shown, never opened.
    Other,
}

pub(super) struct Inode {
    parent: u64,
    name: OsString,
    pub(super) attr: FileAttr,
    pub(super) what: What,
}

/// The inode table: inode `n` is `inodes[n - 1]` (1 is the root).
pub(super) struct Table {
    inodes: Vec<Inode>,
    /// The mounting user, for the made-up directories.
    uid: u32,
    gid: u32,
}

impl Table {
    /// Add an inode under `parent` (0 for the root); returns its number.
    pub(super) fn add(
        &mut self,
        parent: u64,
        name: &OsStr,
        kind: FileType,
        time: SystemTime,
        what: What,
    ) -> u64 {
        let ino = self.inodes.len() as u64 + 1;
        let size = match &what {
            What::Link(target) => target.len() as u64,
            _ => 0,
        };
        let (perm, nlink) = match kind {
            FileType::Directory => (0o555, 2),
            FileType::Symlink => (0o777, 1),
            _ => (0o444, 1),
        };
        let attr = FileAttr {
            ino: INodeNo(ino),
            size,
            blocks: 0,
            atime: time,
            mtime: time,
            ctime: time,
            crtime: time,
            kind,
            perm,
            nlink,
            uid: self.uid,
            gid: self.gid,
            rdev: 0,
            blksize: 4096,
            flags: 0,
        };
        self.inodes.push(Inode {
            parent,
            name: name.to_os_string(),
            attr,
            what,
        });
        ino
    }

    /// Add the inode of a snapshot's `node` under `parent`, with its metadata.
    fn add_node(&mut self, parent: u64, node: &Node) -> u64 {
        let (kind, what) = match node.kind {
            NodeKind::File => (
                FileType::RegularFile,
                What::File(Arc::new(node.content.clone())),
            ),
            NodeKind::Dir => (FileType::Directory, What::Tree(node.subtree)),
            NodeKind::Symlink => (FileType::Symlink, What::Link(node.target.clone())),
            NodeKind::Fifo => (FileType::NamedPipe, What::Other),
            NodeKind::Socket => (FileType::Socket, What::Other),
            NodeKind::CharDevice => (FileType::CharDevice, What::Other),
            NodeKind::BlockDevice => (FileType::BlockDevice, What::Other),
        };
        let name = OsString::from_vec(node.name.clone());
        let ino = self.add(parent, &name, kind, UNIX_EPOCH, what);
        let attr = &mut self.inodes[ino as usize - 1].attr;
        if node.kind == NodeKind::File {
            attr.size = node.size;
        }
        attr.blocks = attr.size.div_ceil(512);
        attr.perm = (node.mode & 0o7777) as u16;
        attr.uid = node.uid;
        attr.gid = node.gid;
        attr.rdev = node.rdev as u32;
        attr.mtime = system_time(node.mtime, node.mtime_nsec);
        attr.atime = system_time(node.atime, node.atime_nsec);
        attr.ctime = system_time(node.ctime, node.ctime_nsec);
        attr.crtime = attr.mtime;
        ino
    }

    /// Make `ino` a directory of these entries, sorted by name (lookups search them).
    pub(super) fn set_entries(&mut self, ino: u64, mut entries: Vec<(OsString, u64)>) {
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        if let Some(inode) = self.inodes.get_mut(ino as usize - 1) {
            inode.what = What::Dir(entries);
        }
    }

    fn get(&self, ino: INodeNo) -> Option<&Inode> {
        (u64::from(ino) as usize)
            .checked_sub(1)
            .and_then(|i| self.inodes.get(i))
    }

    /// The path of `ino` in the mount, for messages.
    fn path(&self, mut ino: u64) -> PathBuf {
        let mut names = Vec::new();
        while let Some(inode) = ino.checked_sub(1).and_then(|i| self.inodes.get(i as usize)) {
            if inode.parent == 0 {
                break;
            }
            names.push(inode.name.clone());
            ino = inode.parent;
        }
        let mut path = PathBuf::from("/");
        path.extend(names.iter().rev());
        path
    }
}

/// `secs` and `nsec` since the epoch (either side of it).
fn system_time(secs: i64, nsec: u32) -> SystemTime {
    let nsec = Duration::from_nanos(nsec.min(999_999_999) as u64);
    if secs >= 0 {
        UNIX_EPOCH + Duration::from_secs(secs as u64) + nsec
    } else {
        UNIX_EPOCH - Duration::from_secs(secs.unsigned_abs()) + nsec
    }
}

/// An open file: where each of its blobs ends, and the blob read last (reads come in
/// pieces of 128 KiB; blobs are about 1 MiB).
struct OpenFile {
    content: Arc<Vec<BlobId>>,
    ends: Vec<u64>,
    last: Mutex<Option<(usize, Arc<Vec<u8>>)>>,
    path: PathBuf,
}

pub(crate) struct SnapshotFs {
    repo: Arc<Repository<Indexed>>,
    table: Mutex<Table>,
    open: Mutex<HashMap<u64, Arc<OpenFile>>>,
    next_handle: AtomicU64,
}

impl SnapshotFs {
    pub(super) fn new(repo: Arc<Repository<Indexed>>, root: Root) -> SnapshotFs {
        let mut table = Table {
            inodes: Vec::new(),
            uid: rustix::process::geteuid().as_raw(),
            gid: rustix::process::getegid().as_raw(),
        };
        layout::build(&mut table, root);
        SnapshotFs {
            repo,
            table: Mutex::new(table),
            open: Mutex::new(HashMap::new()),
            next_handle: AtomicU64::new(1),
        }
    }

    fn table(&self) -> MutexGuard<'_, Table> {
        // A panic elsewhere leaves the table as consistent as before: inodes are only
        // ever appended.
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Call `f` with the table and the entries of directory `ino` (sorted by name),
    /// loading its tree first if needed. The entries are borrowed, not copied: a
    /// lookup in a large directory costs a search, not a copy of the listing.
    fn with_entries<T>(
        &self,
        ino: INodeNo,
        f: impl FnOnce(&Table, &[(OsString, u64)]) -> T,
    ) -> Result<T, Errno> {
        let tree = match self.table().get(ino).map(|i| &i.what) {
            Some(What::Tree(tree)) => Some(*tree),
            Some(What::Dir(_)) => None,
            Some(_) => return Err(Errno::ENOTDIR),
            None => return Err(Errno::ENOENT),
        };
        if let Some(tree) = tree {
            // Read without holding the table: a tree may take a rebuild to read.
            let nodes = match tree {
                None => Vec::new(),
                Some(id) => match self.repo.load_tree_off_plan(&id) {
                    Ok(tree) => tree.nodes,
                    Err(e) => {
                        let path = self.table().path(ino.into());
                        self.repo.warn(&format!("{}: {e}", path.display()));
                        return Err(Errno::EIO);
                    }
                },
            };
            let mut table = self.table();
            // Unless another request loaded it meanwhile.
            if let Some(What::Tree(_)) = table.get(ino).map(|i| &i.what) {
                let entries = (nodes.iter())
                    .map(|n| {
                        let name = OsString::from_vec(n.name.clone());
                        (name, table.add_node(ino.into(), n))
                    })
                    .collect();
                table.set_entries(ino.into(), entries);
            }
        }
        let table = self.table();
        match table.get(ino).map(|i| &i.what) {
            Some(What::Dir(entries)) => Ok(f(&table, entries)),
            _ => Err(Errno::EIO),
        }
    }

    fn attr(&self, ino: u64) -> Option<FileAttr> {
        self.table().get(INodeNo(ino)).map(|i| i.attr)
    }

    /// Bytes `offset..offset + size` of an open file.
    fn read_file(&self, file: &OpenFile, offset: u64, size: u32) -> crate::error::Result<Vec<u8>> {
        let end = offset
            .saturating_add(size as u64)
            .min(file.ends.last().copied().unwrap_or(0));
        let mut out = Vec::with_capacity(end.saturating_sub(offset) as usize);
        let mut at = offset;
        while at < end {
            // The blob holding byte `at`: the first whose end is past it.
            let i = file.ends.partition_point(|&e| e <= at);
            let start = if i == 0 { 0 } else { file.ends[i - 1] };
            let blob = self.blob(file, i)?;
            let from = (at - start) as usize;
            let to = ((end - start) as usize).min(blob.len());
            if from >= to {
                break; // shorter than the index said: the read check failed it already
            }
            out.extend_from_slice(&blob[from..to]);
            at = start + to as u64;
        }
        Ok(out)
    }

    /// Blob `i` of an open file, from the one-blob cache or checked from the remotes.
    fn blob(&self, file: &OpenFile, i: usize) -> crate::error::Result<Arc<Vec<u8>>> {
        let mut last = file.last.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((j, data)) = last.as_ref()
            && *j == i
        {
            return Ok(data.clone());
        }
        let data = Arc::new(self.repo.read_blob_with(
            &file.content[i],
            BlobKind::Data,
            ReadMode::ShardOffPlan,
        )?);
        *last = Some((i, data.clone()));
        Ok(data)
    }
}

impl Filesystem for SnapshotFs {
    fn lookup(&self, _req: &Request, parent: INodeNo, name: &OsStr, reply: ReplyEntry) {
        let found = self.with_entries(parent, |table, entries| {
            (entries
                .binary_search_by(|(n, _)| n.as_os_str().cmp(name))
                .ok())
            .and_then(|i| table.get(INodeNo(entries[i].1)))
            .map(|inode| inode.attr)
        });
        let found = found.and_then(|attr| attr.ok_or(Errno::ENOENT));
        match found {
            Ok(attr) => reply.entry(&TTL, &attr, Generation(0)),
            Err(e) => reply.error(e),
        }
    }

    fn getattr(&self, _req: &Request, ino: INodeNo, _fh: Option<FileHandle>, reply: ReplyAttr) {
        match self.attr(ino.into()) {
            Some(attr) => reply.attr(&TTL, &attr),
            None => reply.error(Errno::ENOENT),
        }
    }

    fn readlink(&self, _req: &Request, ino: INodeNo, reply: ReplyData) {
        match self.table().get(ino).map(|i| &i.what) {
            Some(What::Link(target)) => reply.data(target),
            Some(_) => reply.error(Errno::EINVAL),
            None => reply.error(Errno::ENOENT),
        }
    }

    fn open(&self, _req: &Request, ino: INodeNo, _flags: OpenFlags, reply: ReplyOpen) {
        let (content, path) = {
            let table = self.table();
            match table.get(ino).map(|i| &i.what) {
                Some(What::File(content)) => (content.clone(), table.path(ino.into())),
                Some(What::Other) => return reply.error(Errno::EACCES),
                Some(_) => return reply.error(Errno::EISDIR),
                None => return reply.error(Errno::ENOENT),
            }
        };
        // Where each blob ends, from the sizes the index records.
        let mut ends = Vec::with_capacity(content.len());
        let mut end = 0u64;
        for id in content.iter() {
            let Some((_, loc)) = self.repo.index().get(id) else {
                self.repo.warn(&format!(
                    "{}: blob {} is in no index segment",
                    path.display(),
                    hex::encode(&id[..8])
                ));
                return reply.error(Errno::EIO);
            };
            end += loc.raw_len as u64;
            ends.push(end);
        }
        let handle = self.next_handle.fetch_add(1, Ordering::Relaxed);
        let file = Arc::new(OpenFile {
            content,
            ends,
            last: Mutex::new(None),
            path,
        });
        self.open
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(handle, file);
        // The contents never change: the kernel may keep its page cache across opens.
        reply.opened(FileHandle(handle), FopenFlags::FOPEN_KEEP_CACHE);
    }

    fn read(
        &self,
        _req: &Request,
        _ino: INodeNo,
        fh: FileHandle,
        offset: u64,
        size: u32,
        _flags: OpenFlags,
        _lock_owner: Option<LockOwner>,
        reply: ReplyData,
    ) {
        let file = self
            .open
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&u64::from(fh))
            .cloned();
        let Some(file) = file else {
            return reply.error(Errno::EBADF);
        };
        match self.read_file(&file, offset, size) {
            Ok(data) => reply.data(&data),
            Err(e) => {
                self.repo.warn(&format!("{}: {e}", file.path.display()));
                reply.error(Errno::EIO)
            }
        }
    }

    fn release(
        &self,
        _req: &Request,
        _ino: INodeNo,
        fh: FileHandle,
        _flags: OpenFlags,
        _lock_owner: Option<LockOwner>,
        _flush: bool,
        reply: fuser::ReplyEmpty,
    ) {
        self.open
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&u64::from(fh));
        reply.ok();
    }

    fn readdir(
        &self,
        _req: &Request,
        ino: INodeNo,
        _fh: FileHandle,
        offset: u64,
        mut reply: ReplyDirectory,
    ) {
        let listed = self.with_entries(ino, |table, entries| {
            let parent = match table.get(ino) {
                Some(i) if i.parent != 0 => i.parent,
                _ => 1,
            };
            let dots = [
                (OsString::from("."), u64::from(ino)),
                (OsString::from(".."), parent),
            ];
            let all = dots.iter().chain(entries.iter());
            for (i, (name, child)) in all.enumerate().skip(offset as usize) {
                let Some(inode) = table.get(INodeNo(*child)) else {
                    continue;
                };
                // The offset is that of the next entry.
                if reply.add(INodeNo(*child), i as u64 + 1, inode.attr.kind, name) {
                    break;
                }
            }
        });
        if let Err(e) = listed {
            return reply.error(e);
        }
        reply.ok();
    }
}
