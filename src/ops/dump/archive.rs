//! `tangle dump SNAPSHOT DIR`: the directory's subtree as a tar archive (GNU format).
//!
//! Entries are named relative to the dumped directory (for `/`: the snapshot's paths
//! without the leading slash). Directories, regular files, symlinks, FIFOs and device
//! nodes become tar entries of their type, with the node's mode, mtime and numeric
//! uid/gid (the snapshot records no user or group names). Hard links are written as
//! regular files, each with its contents; sockets are left out, as GNU tar does.
//!
//! File contents are streamed blob by blob through the same checked reads as a file
//! dump; a blob that no remote serves and no codeword rebuilds ends the archive with
//! data lost (exit 21), and nothing more is written after it.

use std::ffi::OsStr;
use std::io::{self, Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use ::tar::{Builder, EntryType, Header};

use super::with_read_plan;
use crate::content::{BlobKind, Node, NodeKind, Tree};
use crate::error::{Error, Result, ResultExt};
use crate::repo::{Indexed, ReadMode, Repository};

/// One node of the subtree and its path relative to the dumped directory.
pub(super) struct Entry {
    pub(super) rel: PathBuf,
    pub(super) node: Node,
}

/// Write `entries` (of the directory at `root`, as backed up; see [`with_entries`]) as a
/// tar archive to `out`; returns the file bytes written.
pub(super) fn write_tar(
    repo: &Repository<Indexed>,
    entries: &[Entry],
    root: &Path,
    out: &mut dyn Write,
) -> Result<u64> {
    let mut tar = Builder::new(Gate { out, shut: false });
    let mut written = 0u64;
    for e in entries {
        match append(repo, &mut tar, e, root) {
            Ok(n) => written += n,
            Err(err) => {
                // Dropping the builder writes the end-of-archive blocks: not after
                // a cut entry, which must not look like a complete archive.
                tar.get_mut().shut = true;
                return Err(err);
            }
        }
    }
    let gate = tar.into_inner().ctx("writing output")?;
    gate.out.flush().ctx("writing output")?;
    Ok(written)
}

/// The subtree's nodes (see [`collect`]), written by `write` while the reads of their
/// file contents are planned and prefetched: what tar and zip share.
pub(super) fn with_entries<T>(
    repo: &Repository<Indexed>,
    tree: &Tree,
    root: &Path,
    write: impl FnOnce(&[Entry]) -> Result<T>,
) -> Result<T> {
    let mut entries = Vec::new();
    collect(repo, tree, Path::new(""), root, &mut entries)?;
    let plan = entries
        .iter()
        .filter(|e| e.node.kind == NodeKind::File)
        .flat_map(|e| e.node.content.iter());
    with_read_plan(repo, plan, || write(&entries))
}

/// The subtree's nodes, depth first, each directory before its contents.
fn collect(
    repo: &Repository<Indexed>,
    tree: &Tree,
    prefix: &Path,
    root: &Path,
    out: &mut Vec<Entry>,
) -> Result<()> {
    for node in &tree.nodes {
        let rel = prefix.join(OsStr::from_bytes(&node.name));
        let subtree = match (node.kind, node.subtree) {
            (NodeKind::Dir, Some(id)) => Some(id),
            _ => None,
        };
        out.push(Entry {
            rel: rel.clone(),
            node: node.clone(),
        });
        if let Some(id) = subtree {
            // A directory listing that cannot be read is data lost (exit 21).
            let sub = repo
                .load_tree(&id)
                .map_err(|e| e.into_data_lost().context(root.join(&rel).display()))?;
            collect(repo, &sub, &rel, root, out)?;
        }
    }
    Ok(())
}

/// One entry into the archive; returns the file bytes written.
fn append(
    repo: &Repository<Indexed>,
    tar: &mut Builder<Gate<'_>>,
    e: &Entry,
    root: &Path,
) -> Result<u64> {
    let node = &e.node;
    let mut h = Header::new_gnu();
    h.set_mode(node.mode & 0o7777);
    h.set_uid(u64::from(node.uid));
    h.set_gid(u64::from(node.gid));
    h.set_mtime(u64::try_from(node.mtime).unwrap_or(0));
    h.set_size(0);
    let written = |r: io::Result<()>| r.ctx("writing output");
    match node.kind {
        NodeKind::Dir => {
            h.set_entry_type(EntryType::Directory);
            written(tar.append_data(&mut h, &e.rel, io::empty()))?;
        }
        NodeKind::Symlink => {
            h.set_entry_type(EntryType::Symlink);
            written(tar.append_link(&mut h, &e.rel, OsStr::from_bytes(&node.target)))?;
        }
        NodeKind::Fifo => {
            h.set_entry_type(EntryType::Fifo);
            written(tar.append_data(&mut h, &e.rel, io::empty()))?;
        }
        NodeKind::CharDevice | NodeKind::BlockDevice => {
            h.set_entry_type(if node.kind == NodeKind::CharDevice {
                EntryType::Char
            } else {
                EntryType::Block
            });
            let (major, minor) = split_rdev(node.rdev);
            written(h.set_device_major(major))?;
            written(h.set_device_minor(minor))?;
            written(tar.append_data(&mut h, &e.rel, io::empty()))?;
        }
        // Tar has no entry type for a socket.
        NodeKind::Socket => {}
        NodeKind::File => {
            h.set_entry_type(EntryType::Regular);
            h.set_size(node.size);
            let path = root.join(&e.rel);
            let mut contents = Contents::new(repo, node, &path);
            let r = tar.append_data(&mut h, &e.rel, &mut contents);
            if let Some(lost) = contents.lost {
                return Err(lost);
            }
            written(r)?;
            return Ok(node.size);
        }
    }
    Ok(0)
}

/// Linux's `major()` and `minor()` of a device number.
fn split_rdev(rdev: u64) -> (u32, u32) {
    let major = ((rdev >> 32) & 0xffff_f000) | ((rdev >> 8) & 0xfff);
    let minor = ((rdev >> 12) & 0xffff_ff00) | (rdev & 0xff);
    (major as u32, minor as u32)
}

/// The output, shut once an entry is cut short so that nothing follows it.
struct Gate<'a> {
    out: &'a mut dyn Write,
    shut: bool,
}

impl Write for Gate<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.shut {
            return Err(io::ErrorKind::BrokenPipe.into());
        }
        self.out.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.shut {
            return Ok(());
        }
        self.out.flush()
    }
}

/// A file's contents as a reader, one checked blob read at a time (never the whole
/// file in memory). Exactly `node.size` bytes: contents of another length are
/// damage, reported as lost data rather than an archive whose header lies.
pub(super) struct Contents<'a> {
    repo: &'a Repository<Indexed>,
    node: &'a Node,
    path: &'a Path,
    next: usize,
    buf: Vec<u8>,
    pos: usize,
    left: u64,
    pub(super) lost: Option<Error>,
}

impl<'a> Contents<'a> {
    pub(super) fn new(repo: &'a Repository<Indexed>, node: &'a Node, path: &'a Path) -> Self {
        Contents {
            repo,
            node,
            path,
            next: 0,
            buf: Vec::new(),
            pos: 0,
            left: node.size,
            lost: None,
        }
    }

    fn fail(&mut self, e: Error) -> io::Error {
        let msg = e.to_string();
        self.lost = Some(e);
        io::Error::other(msg)
    }

    fn wrong_length(&mut self) -> io::Error {
        let e = Error::fatal(format!(
            "{}: contents differ in length from the {} bytes the snapshot records",
            self.path.display(),
            self.node.size
        ))
        .into_data_lost();
        self.fail(e)
    }
}

impl Read for Contents<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        while self.pos == self.buf.len() {
            let Some(id) = self.node.content.get(self.next) else {
                if self.left > 0 {
                    return Err(self.wrong_length());
                }
                return Ok(0);
            };
            self.next += 1;
            let mut buf = std::mem::take(&mut self.buf);
            let read = self
                .repo
                .read_blob_then(id, BlobKind::Data, ReadMode::Shard, |data| {
                    buf.clear();
                    buf.extend_from_slice(data);
                })
                // Not served by any remote, not rebuilt by any codeword: exit 21.
                .map_err(|e| e.into_data_lost().context(self.path.display()));
            if let Err(e) = read {
                return Err(self.fail(e));
            }
            if buf.len() as u64 > self.left {
                return Err(self.wrong_length());
            }
            self.left -= buf.len() as u64;
            self.buf = buf;
            self.pos = 0;
        }
        let n = out.len().min(self.buf.len() - self.pos);
        out[..n].copy_from_slice(&self.buf[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}
