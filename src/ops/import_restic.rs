//! `tangle import restic`: a restic repository's snapshots become tangle snapshots, so
//! moving over keeps the history. restic's format is read through `rustic_core` (the
//! library behind rustic, which reads restic repositories of format 1 and 2): its keys,
//! index, trees and packs, each blob checked against its id as rustic checks it.
//!
//! Each snapshot keeps its time, host, user, paths and tags; each entry its name, kind,
//! mode, owner, times, inode, device, link count, link target and extended attributes.
//! File contents are cut again with this repository's chunker (restic's chunks are cut
//! with restic's secret polynomial), so the next `tangle backup` of the same files finds
//! them here: unchanged files by their metadata against the imported snapshot as its
//! parent, and changed files chunk by chunk. One file's blob is in memory at a time
//! (plus rustic's blob cache and the extents being filled).
//!
//! A restic snapshot is skipped when this repository has a snapshot with the same time
//! (to the nanosecond), host, paths and tags: an earlier import of it. Snapshots are
//! committed one by one as `copy` commits them; an import stopped part way keeps the
//! snapshots imported before it, and running it again goes on from there.

use std::collections::HashMap;
use std::io::Read;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use rustic_core::repofile::{Node as ResticNode, NodeType, SnapshotFile};
use rustic_core::{
    Credentials, IndexedFullStatus, OpenStatus, Repository as ResticRepository, RepositoryOptions,
    RusticError, TreeId,
};
use serde::Serialize;

use super::Progress;
use super::extent_writer::{Brought, SnapshotWriter, Stored};
use super::select::{self, Selection};
use crate::content::chunker::chunk_reader;
use crate::content::snapshot::SnapshotSummary;
use crate::content::tree::Xattr;
use crate::content::{BlobId, BlobKind, Node, NodeKind, Snapshot, Tree};
use crate::error::{Error, Kind, Result};
use crate::repo::{Indexed, Repository};
use crate::util::short_id;

pub struct ImportOptions {
    /// The restic snapshots to import.
    pub selection: Selection,
    /// Say what would be imported; write nothing.
    pub dry_run: bool,
}

/// One restic snapshot imported (or that would be).
#[derive(Serialize, Debug, Clone)]
pub struct Imported {
    /// The snapshot's id in the restic repository.
    pub restic_id: String,
    /// The new tangle snapshot, and the blobs it stored.
    #[serde(flatten)]
    pub snapshot: Brought,
    /// Files and their bytes in the snapshot.
    pub files: u64,
    pub bytes: u64,
}

/// A restic snapshot this repository already has.
#[derive(Serialize, Debug, Clone)]
pub struct Skipped {
    pub restic_id: String,
    /// The tangle snapshot with its time, host, paths and tags.
    pub existing_id: String,
}

#[derive(Serialize, Debug, Default)]
pub struct ImportReport {
    pub dry_run: bool,
    /// The restic repository read.
    pub restic_repository: String,
    /// Snapshots imported (or that would be), oldest first.
    pub imported: Vec<Imported>,
    /// Snapshots imported before, oldest first.
    pub skipped: Vec<Skipped>,
    /// What went to the remotes, and the file contents read from the restic repository.
    #[serde(flatten)]
    pub stored: Stored,
}

/// A restic repository opened with its password.
pub struct ResticSource {
    repo: ResticRepository<OpenStatus>,
    location: String,
}

/// The directory of the restic repository `location` (a path, or `local:PATH` as restic
/// writes it), checked before its password is asked for: a remote URL is refused, and a
/// directory without a restic `config` is no repository.
pub fn local_directory(location: &str) -> Result<&str> {
    let path = location.strip_prefix("local:").unwrap_or(location);
    if let Some((scheme, _)) = path.split_once(':')
        && !scheme.contains('/')
        && scheme.len() > 1
    {
        return Err(Error::usage(format!(
            "restic repository {location:?}: import reads restic repositories in a local \
                 directory; bring a remote one here first (`restic copy` into a local \
                 repository, or `rclone copy`)"
        )));
    }
    if !Path::new(path).join("config").is_file() {
        return Err(Error::new(
            Kind::RepoNotFound,
            format!("no restic repository at {path} (it has no `config` file)"),
        ));
    }
    Ok(path)
}

/// Open the restic repository at `location` (see [`local_directory`]).
pub fn open(location: &str, password: &str) -> Result<ResticSource> {
    let path = local_directory(location)?;
    let backends = rustic_backend::BackendOptions::default()
        .repository(path)
        .to_backends()
        .map_err(|e| restic_error(&e, path))?;
    // No cache: an import reads each pack once, and writes nothing outside this repository.
    let opts = RepositoryOptions::default().no_cache(true);
    let repo = ResticRepository::new(&opts, &backends)
        .and_then(|r| r.open(&Credentials::password(password)))
        .map_err(|e| restic_error(&e, path))?;
    Ok(ResticSource {
        repo,
        location: path.to_string(),
    })
}

/// A rustic error as a tangle error: a wrong password is exit 12, as for tangle's own.
fn restic_error(e: &RusticError, location: &str) -> Error {
    if e.is_incorrect_password() {
        return Error::new(
            Kind::WrongPassword,
            format!("the password does not open any key of the restic repository at {location}"),
        );
    }
    Error::fatal(format!("restic repository at {location}: {}", one_line(e)))
}

/// A rustic error and its causes on one line: each one's message without the kind, the
/// docs link or the backtrace rustic's own display adds.
fn one_line(e: &RusticError) -> String {
    let short = |e: &RusticError| {
        let log = e.display_log();
        let log = log.strip_prefix("Error: ").unwrap_or(&log);
        let end = log.find(" (kind: ").unwrap_or(log.len());
        log[..end].split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let mut parts = vec![short(e)];
    let mut cause = std::error::Error::source(e);
    while let Some(c) = cause {
        // rustic keeps a cause as a `Box<RusticError>`.
        let rustic = (c.downcast_ref::<RusticError>())
            .or_else(|| c.downcast_ref::<Box<RusticError>>().map(|b| &**b));
        let text = match rustic {
            Some(r) => short(r),
            None => c
                .to_string()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" "),
        };
        if !text.is_empty() && parts.last() != Some(&text) {
            parts.push(text);
        }
        cause = c.source();
    }
    parts.join(": ")
}

/// Import the chosen snapshots of `src` into `dst`. The caller holds `dst`'s shared lock
/// (not with `dry_run`) and loaded `dst`'s committed index after taking it, as a backup
/// does.
pub fn run(
    src: ResticSource,
    dst: &Repository<Indexed>,
    opts: &ImportOptions,
    progress: &Progress,
) -> Result<ImportReport> {
    let started = std::time::Instant::now();
    let location = src.location.clone();
    let err = |e: Box<RusticError>| restic_error(&e, &location);
    let mut all: Vec<(String, Snapshot)> = (src.repo.get_all_snapshots().map_err(err)?)
        .iter()
        .map(|s| (s.id.to_hex().to_string(), labels(s)))
        .collect();
    all.sort_by(|a, b| a.1.time_ns.cmp(&b.1.time_ns).then(a.0.cmp(&b.0)));
    let chosen = match opts.selection.snapshots.is_empty() {
        true => opts.selection.filter.select(all.clone()),
        false => {
            let mut out: Vec<(String, Snapshot)> = Vec::new();
            for spec in &opts.selection.snapshots {
                let found = select::resolve(all.clone(), spec, &opts.selection.filter)
                    .map_err(|e| e.context("the restic repository"))?;
                if !out.iter().any(|(id, _)| *id == found.0) {
                    out.push(found);
                }
            }
            out.sort_by(|a, b| a.1.time_ns.cmp(&b.1.time_ns).then(a.0.cmp(&b.0)));
            out
        }
    };
    let existing = dst.snapshots()?;
    let mut report = ImportReport {
        dry_run: opts.dry_run,
        restic_repository: location.clone(),
        ..Default::default()
    };
    let mut todo = Vec::new();
    for (restic_id, s) in chosen {
        match existing.iter().find(|(_, d)| select::same_labels(d, &s)) {
            Some((existing_id, _)) => report.skipped.push(Skipped {
                restic_id,
                existing_id: existing_id.clone(),
            }),
            None => todo.push((restic_id, s)),
        }
    }
    if opts.dry_run || todo.is_empty() {
        report.imported = todo.into_iter().map(|(id, s)| entry(id, &s)).collect();
        report.stored.duration_secs = started.elapsed().as_secs_f64();
        return Ok(report);
    }
    // The full index (which pack holds which blob) only when something is read.
    let repo = src.repo.to_indexed().map_err(err)?;
    let trees: HashMap<String, TreeId> = (repo.get_all_snapshots().map_err(err)?)
        .into_iter()
        .map(|s| (s.id.to_hex().to_string(), s.tree))
        .collect();
    let result = super::on_walker_thread("import", || {
        let mut im = Importer {
            src: &repo,
            location: &location,
            out: SnapshotWriter::new(dst, progress)?,
            dst_chunker: dst.config.chunker,
            progress,
            trees: HashMap::new(),
            bytes_read: 0,
        };
        for (restic_id, s) in todo {
            let root = trees
                .get(&restic_id)
                .ok_or_else(|| Error::fatal(format!("restic snapshot {restic_id} went away")))?;
            let (blobs, bytes) = (im.out.blobs, im.out.bytes);
            let (tree, counts) = im.tree(*root).map_err(|e| {
                e.context(format!(
                    "importing restic snapshot {}",
                    short_id(&restic_id)
                ))
            })?;
            let mut e = entry(restic_id, &s);
            let new = Snapshot {
                tree,
                summary: SnapshotSummary {
                    files: counts.files,
                    dirs: counts.dirs,
                    bytes: counts.bytes,
                    files_new: counts.files,
                    bytes_added: im.out.bytes - bytes,
                    ..Default::default()
                },
                ..s
            };
            e.snapshot.id = Some(im.out.commit(&new)?);
            e.files = counts.files;
            e.bytes = counts.bytes;
            e.snapshot.blobs_added = im.out.blobs - blobs;
            e.snapshot.bytes_added = im.out.bytes - bytes;
            report.imported.push(e);
        }
        report.stored = im.out.stored(im.bytes_read);
        Ok::<_, Error>(())
    });
    result?;
    report.stored.degraded_remotes = dst.failed_remotes();
    report.stored.duration_secs = started.elapsed().as_secs_f64();
    Ok(report)
}

/// A restic snapshot's labels as a tangle snapshot (its tree still to be made).
fn labels(s: &SnapshotFile) -> Snapshot {
    let ns = s.time.timestamp().as_nanosecond();
    Snapshot {
        time_ns: i64::try_from(ns).unwrap_or(if ns < 0 { i64::MIN } else { i64::MAX }),
        // Made when the snapshot is imported.
        tree: [0; 32],
        paths: s.paths.iter().cloned().collect(),
        host: s.hostname.clone(),
        user: s.username.clone(),
        tags: s.tags.iter().cloned().collect(),
        program: format!(
            "tangle {} (imported from {})",
            env!("CARGO_PKG_VERSION"),
            match s.program_version.as_str() {
                "" => "restic",
                v => v,
            }
        ),
        parent: None,
        summary: SnapshotSummary::default(),
        writer: None,
    }
}

fn entry(restic_id: String, s: &Snapshot) -> Imported {
    Imported {
        restic_id,
        snapshot: Brought::labels_of(s),
        files: 0,
        bytes: 0,
    }
}

/// What a tree holds, below it included.
#[derive(Clone, Copy, Default)]
struct Counts {
    files: u64,
    dirs: u64,
    bytes: u64,
}

struct Importer<'a> {
    src: &'a ResticRepository<IndexedFullStatus>,
    location: &'a str,
    out: SnapshotWriter<'a>,
    dst_chunker: crate::content::ChunkerParams,
    progress: &'a Progress,
    /// restic tree → tangle tree and what it holds: a subtree two snapshots share is
    /// imported once.
    trees: HashMap<TreeId, (BlobId, Counts)>,
    bytes_read: u64,
}

impl Importer<'_> {
    fn tree(&mut self, id: TreeId) -> Result<(BlobId, Counts)> {
        if let Some(done) = self.trees.get(&id) {
            return Ok(*done);
        }
        let tree = (self.src.get_tree(&id)).map_err(|e| restic_error(&e, self.location))?;
        let mut counts = Counts::default();
        let mut nodes = Vec::with_capacity(tree.nodes.len());
        for n in &tree.nodes {
            let mut node = convert(n)?;
            match node.kind {
                NodeKind::Dir => {
                    counts.dirs += 1;
                    if let Some(sub) = n.subtree {
                        let (new, c) = self.tree(sub)?;
                        node.subtree = Some(new);
                        counts.files += c.files;
                        counts.dirs += c.dirs;
                        counts.bytes += c.bytes;
                    } else {
                        node.subtree = Some(self.out.store_tree(Tree { nodes: Vec::new() })?);
                    }
                }
                NodeKind::File => {
                    let (content, size) = self.file(n).map_err(|e| {
                        e.context(format!("file {}", crate::util::escape(n.name().as_bytes())))
                    })?;
                    node.content = content;
                    node.size = size;
                    counts.files += 1;
                    counts.bytes += size;
                    (self.progress.files_done).fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
                _ => {}
            }
            nodes.push(node);
        }
        // Raw names in byte order, as backup writes them (restic sorts its escaped names).
        nodes.sort_by(|a, b| a.name.cmp(&b.name));
        let new = self.out.store_tree(Tree { nodes })?;
        self.trees.insert(id, (new, counts));
        Ok((new, counts))
    }

    /// A file's contents, cut with this repository's chunker and stored; its blobs and
    /// size.
    fn file(&mut self, n: &ResticNode) -> Result<(Vec<BlobId>, u64)> {
        let src = self.src;
        let open = src
            .open_file(n)
            .map_err(|e| restic_error(&e, self.location))?;
        let reader = FileReader {
            read: |offset, len| src.read_file_at(&open, offset, len),
            offset: 0,
            pending: bytes::Bytes::new(),
        };
        let mut ids = Vec::new();
        let (out, progress) = (&mut self.out, self.progress);
        let size = chunk_reader(reader, &self.dst_chunker, |chunk| {
            Progress::add(&progress.bytes_done, chunk.len() as u64);
            ids.push(out.store(BlobKind::Data, &chunk)?);
            Ok(())
        })
        .map_err(|e| e.context("reading it from the restic repository"))?;
        self.bytes_read += size;
        Ok((ids, size))
    }
}

/// How much of a file one read asks rustic for.
const READ_SIZE: usize = 4 << 20;

/// A restic file as a reader, in [`READ_SIZE`] pieces.
struct FileReader<F> {
    read: F,
    offset: usize,
    pending: bytes::Bytes,
}

impl<F> Read for FileReader<F>
where
    F: FnMut(usize, usize) -> std::result::Result<bytes::Bytes, Box<RusticError>>,
{
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.pending.is_empty() {
            self.pending = (self.read)(self.offset, READ_SIZE)
                .map_err(|e| std::io::Error::other(one_line(&e)))?;
            self.offset += self.pending.len();
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending.split_to(n));
        Ok(n)
    }
}

/// Go's `os.FileMode` bits restic records, mapped to `st_mode & 0o7777`.
const GO_SETUID: u32 = 1 << 23;
const GO_SETGID: u32 = 1 << 22;
const GO_STICKY: u32 = 1 << 20;

fn mode_from_go(go: u32) -> u32 {
    let mut mode = go & 0o777;
    for (bit, posix) in [
        (GO_SETUID, 0o4000),
        (GO_SETGID, 0o2000),
        (GO_STICKY, 0o1000),
    ] {
        if go & bit != 0 {
            mode |= posix;
        }
    }
    mode
}

/// A restic node's metadata as a tangle node (contents and subtree set by the caller).
fn convert(n: &ResticNode) -> Result<Node> {
    let (kind, rdev, target) = match &n.node_type {
        NodeType::File => (NodeKind::File, 0, Vec::new()),
        NodeType::Dir => (NodeKind::Dir, 0, Vec::new()),
        NodeType::Symlink {
            linktarget,
            linktarget_raw,
        } => (
            NodeKind::Symlink,
            0,
            linktarget_raw
                .clone()
                .unwrap_or_else(|| linktarget.as_bytes().to_vec()),
        ),
        NodeType::Dev { device } => (NodeKind::BlockDevice, *device, Vec::new()),
        NodeType::Chardev { device } => (NodeKind::CharDevice, *device, Vec::new()),
        NodeType::Fifo => (NodeKind::Fifo, 0, Vec::new()),
        NodeType::Socket => (NodeKind::Socket, 0, Vec::new()),
    };
    let name = n.name().as_bytes().to_vec();
    if name.is_empty() || name.contains(&b'/') || name == b"." || name == b".." {
        return Err(Error::fatal(format!(
            "the restic repository holds an entry named {:?}, which no file can have",
            String::from_utf8_lossy(&name)
        )));
    }
    let m = &n.meta;
    let mut node = Node::empty(name, kind);
    node.mode = match m.mode {
        Some(go) => mode_from_go(go),
        None if kind == NodeKind::Dir => 0o755,
        None => 0o644,
    };
    node.uid = m.uid.unwrap_or(0);
    node.gid = m.gid.unwrap_or(0);
    let time = |t: &Option<rustic_core::jiff::Timestamp>| match t {
        Some(t) => (t.as_second(), t.subsec_nanosecond().max(0) as u32),
        None => (0, 0),
    };
    (node.mtime, node.mtime_nsec) = time(&m.mtime);
    (node.atime, node.atime_nsec) = time(&m.atime);
    (node.ctime, node.ctime_nsec) = time(&m.ctime);
    node.inode = m.inode;
    node.device = m.device_id;
    node.links = m.links;
    node.rdev = rdev;
    node.size = m.size;
    node.target = target;
    let mut xattrs: Vec<Xattr> = (m.extended_attributes.iter())
        .map(|x| Xattr {
            name: x.name.as_bytes().to_vec(),
            value: x.value.clone().unwrap_or_default(),
        })
        .collect();
    xattrs.sort_by(|a, b| a.name.cmp(&b.name));
    xattrs.dedup_by(|a, b| a.name == b.name);
    node.xattrs = xattrs;
    Ok(node)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_modes_map_to_posix_permissions() {
        assert_eq!(mode_from_go(0o644), 0o644);
        // os.ModeDir | 0755
        assert_eq!(mode_from_go((1 << 31) | 0o755), 0o755);
        assert_eq!(mode_from_go(GO_SETUID | 0o755), 0o4755);
        assert_eq!(mode_from_go(GO_SETGID | GO_STICKY | 0o770), 0o3770);
    }
}
