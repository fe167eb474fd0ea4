//! The concurrent stages of a backup and how they are wired (see the diagram in mod.rs).

use std::collections::{HashMap, HashSet, VecDeque};
use std::fs::File;
use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use crossbeam_channel::{Receiver, Sender, bounded};
use rand::SeedableRng;
use rand::rngs::StdRng;

use super::TreeStats;
use super::sources::{Excludes, Sources};
use super::walker::{Content, Event, FileJob, FileResult, Walker};
use crate::codec;
use crate::codec::pointers::{self, Candidate};
use crate::content::chunker::{chunk_reader, chunk_slice};
use crate::content::index::ExtentBlobs;
use crate::content::{BlobId, BlobKind, ChunkerParams, Index, Node, Tree, encode_blob};
use crate::crypto::MasterKey;
use crate::error::{Error, Result};
use crate::extent::{
    ExtentBuilder, ExtentName, Pointer, SealContext, SealedExtent, genesis_verifier,
};
use crate::ops::Progress;
use crate::remote::DynRemote;
use crate::repo::Repository;

pub struct Outcome {
    pub root: BlobId,
    pub stats: TreeStats,
    pub extents: Vec<ExtentBlobs>,
    pub blobs_added: u64,
    pub bytes_added: u64,
    pub bytes_stored: u64,
    pub writer: [u8; 16],
    pub head_seq: u64,
    pub last_extent: Option<(ExtentName, u64)>,
    pub pointers: u64,
    pub pointer_bytes_fetched: u64,
    /// Per remote: seconds the backup waited for its upload queue.
    pub upload_waits: Vec<f64>,
}

/// A blob ready to be compressed and encrypted.
struct PlainBlob {
    id: BlobId,
    kind: BlobKind,
    /// A slice of the file buffer it came from (no copy).
    data: Bytes,
}

/// A blob ready to be appended to the extent log.
struct StoredBlob {
    id: BlobId,
    kind: BlobKind,
    raw_len: u32,
    data: Vec<u8>,
}

/// Which blobs exist or are being stored in this run; `claim` is true exactly once per
/// new id, so concurrent readers never store the same chunk twice.
struct Dedup<'a> {
    index: &'a Index,
    pending: Mutex<HashSet<BlobId>>,
}

impl Dedup<'_> {
    fn claim(&self, id: &BlobId) -> bool {
        !self.index.contains(id)
            && self
                .pending
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .insert(*id)
    }
}

/// Files smaller than this are read whole and chunked in memory; bigger ones stream.
const WHOLE_FILE_LIMIT: u64 = 4 << 20;

pub fn run(
    repo: &Repository,
    sources: &Sources,
    excludes: &Excludes,
    parent: Option<&Tree>,
    opts: &super::BackupOptions,
    progress: &Progress,
    errors: &Mutex<Vec<String>>,
) -> Result<Outcome> {
    let key = repo.key()?;
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let dedup = Dedup {
        index: repo.index(),
        pending: Mutex::new(HashSet::new()),
    };
    let (job_tx, job_rx) = bounded::<FileJob>(256);
    let (event_tx, event_rx) = bounded::<Event>(4096);
    let (plain_tx, plain_rx) = bounded::<PlainBlob>(cores);
    let (stored_tx, stored_rx) = bounded::<StoredBlob>(cores);
    let fatal: Mutex<Option<Error>> = Mutex::new(None);
    let blobs_added = AtomicU64::new(0);

    let writer = repo.writer_id()?;
    let last_head = repo.latest_head(&writer)?;
    let mut appender = Appender::new(
        repo,
        writer,
        last_head.as_ref().and_then(|h| h.extent),
        opts.dry_run,
        opts.upload_queue.unwrap_or(super::DEFAULT_UPLOAD_QUEUE),
        progress,
    )?;

    let scan = std::thread::scope(|s| -> Result<(TreeStats, BlobId)> {
        // Totals for the progress display, counted ahead by a cheap stat-only pass.
        s.spawn(|| count_totals(sources, excludes, progress));
        s.spawn(|| {
            let walker = Walker {
                repo,
                excludes,
                events: event_tx,
                jobs: job_tx,
                errors,
                seen_inodes: HashSet::new(),
            };
            let _ = walker.run(sources, parent);
        });
        for _ in 0..cores.max(2) {
            let (job_rx, plain_tx) = (job_rx.clone(), plain_tx.clone());
            let (dedup, chunker) = (&dedup, repo.config.chunker);
            s.spawn(move || {
                for job in job_rx {
                    let result = read_file(&job.path, key, &chunker, dedup, &plain_tx, progress);
                    Progress::add(&progress.files_done, 1);
                    let _ = job.reply.send(result);
                }
            });
        }
        drop(job_rx);
        for _ in 0..cores {
            let (plain_rx, stored_tx, fatal) = (plain_rx.clone(), stored_tx.clone(), &fatal);
            s.spawn(move || {
                for b in plain_rx {
                    match encode_blob(key, b.kind, &b.data) {
                        Ok(data) => {
                            let blob = StoredBlob {
                                id: b.id,
                                kind: b.kind,
                                raw_len: b.data.len() as u32,
                                data,
                            };
                            if stored_tx.send(blob).is_err() {
                                return;
                            }
                        }
                        Err(e) => {
                            fatal
                                .lock()
                                .unwrap_or_else(|p| p.into_inner())
                                .get_or_insert(e);
                            return;
                        }
                    }
                }
            });
        }
        drop((plain_rx, stored_tx));
        let appender_thread = s.spawn(|| -> Result<()> {
            for b in stored_rx {
                blobs_added.fetch_add(1, Ordering::Relaxed);
                appender.append(b)?;
            }
            appender.finish()
        });

        let mut builder = TreeBuilder {
            key,
            dedup: &dedup,
            out: plain_tx,
            stack: Vec::new(),
            root: Vec::new(),
            stats: TreeStats::default(),
            inodes: HashMap::new(),
            errors,
        };
        let built = builder.consume(event_rx);
        drop(builder);
        let appended = appender_thread
            .join()
            .map_err(|_| Error::fatal("internal: the extent writer panicked"))?;
        if let Some(e) = fatal.lock().unwrap_or_else(|p| p.into_inner()).take() {
            return Err(e);
        }
        appended?;
        built
    })?;

    let (stats, root) = scan;
    let bytes_added = appender.bytes_added;
    let bytes_stored = appender.bytes_stored;
    let (extents, last_extent) = (std::mem::take(&mut appender.extents), appender.last);
    Ok(Outcome {
        root,
        stats,
        extents,
        blobs_added: blobs_added.into_inner(),
        bytes_added,
        bytes_stored,
        writer,
        head_seq: last_head.map_or(0, |h| h.seq + 1),
        last_extent,
        pointers: appender.pointers_used,
        pointer_bytes_fetched: appender.pointer_bytes_fetched,
        upload_waits: appender.waits.iter().map(|d| d.as_secs_f64()).collect(),
    })
}

fn read_file(
    path: &Path,
    key: &MasterKey,
    chunker: &ChunkerParams,
    dedup: &Dedup<'_>,
    out: &Sender<PlainBlob>,
    progress: &Progress,
) -> FileResult {
    let fail = |e: std::io::Error| format!("{}: {e}", path.display());
    let mut file = File::open(path).map_err(fail)?;
    let size = file.metadata().map_err(fail)?.len();
    let mut ids = Vec::new();
    let mut emit = |chunk: Bytes| -> Result<()> {
        let id = key.blob_id(&chunk);
        ids.push(id);
        Progress::add(&progress.bytes_done, chunk.len() as u64);
        if dedup.claim(&id) {
            out.send(PlainBlob {
                id,
                kind: BlobKind::Data,
                data: chunk,
            })
            .map_err(|_| Error::fatal("backup stopped"))?;
        }
        Ok(())
    };
    let read = if size <= WHOLE_FILE_LIMIT {
        let mut data = Vec::with_capacity(size as usize);
        file.read_to_end(&mut data).map_err(fail)?;
        let data = Bytes::from(data);
        let n = data.len() as u64;
        if data.len() < chunker.min as usize {
            if !data.is_empty() {
                emit(data).map_err(|e| e.to_string())?;
            }
        } else {
            for (off, len) in chunk_slice(&data, chunker) {
                emit(data.slice(off..off + len)).map_err(|e| e.to_string())?;
            }
        }
        n
    } else {
        chunk_reader(file, chunker, |c| emit(Bytes::from(c)))
            .map_err(|e| format!("{}: {e}", path.display()))?
    };
    Ok((ids, read))
}

#[derive(Clone, Copy)]
enum FileState {
    New,
    Changed,
    Unchanged,
}

/// Consumes walker events in order and writes one tree blob per directory.
struct TreeBuilder<'a> {
    key: &'a MasterKey,
    dedup: &'a Dedup<'a>,
    out: Sender<PlainBlob>,
    stack: Vec<(Node, Vec<Node>)>,
    root: Vec<Node>,
    stats: TreeStats,
    /// Blob lists of hard-linked files seen in this run, by (device, inode), and how the
    /// first name was counted (further names count the same way).
    inodes: HashMap<(u64, u64), (Vec<BlobId>, FileState)>,
    errors: &'a Mutex<Vec<String>>,
}

impl TreeBuilder<'_> {
    fn consume(&mut self, events: Receiver<Event>) -> Result<(TreeStats, BlobId)> {
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

    fn resolve(&mut self, mut node: Node, content: Content) -> Result<Option<Node>> {
        use crate::content::NodeKind;
        let state = match content {
            Content::Ready { .. } if node.kind != NodeKind::File => {
                self.stats.others += 1;
                return Ok(Some(node));
            }
            Content::Ready { unchanged: true } => FileState::Unchanged,
            Content::Ready { unchanged: false } => FileState::New,
            Content::Pending { reply, existed } => {
                match reply.recv().map_err(|_| Error::fatal("backup stopped"))? {
                    Ok((ids, read)) => {
                        node.content = ids;
                        node.size = read;
                        self.stats.bytes_read += read;
                    }
                    Err(msg) => {
                        self.errors
                            .lock()
                            .unwrap_or_else(|p| p.into_inner())
                            .push(msg);
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
                    self.errors
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .push(msg);
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
        Ok(Some(node))
    }

    fn store_tree(&mut self, mut nodes: Vec<Node>) -> Result<BlobId> {
        nodes.sort_by(|a, b| a.name.cmp(&b.name));
        let tree = Tree { nodes };
        let bytes = tree.to_bytes()?;
        let id = self.key.blob_id(&bytes);
        if self.dedup.claim(&id) {
            self.out
                .send(PlainBlob {
                    id,
                    kind: BlobKind::Tree,
                    data: Bytes::from(bytes),
                })
                .map_err(|_| Error::fatal("backup stopped"))?;
        }
        Ok(id)
    }
}

/// Appends blobs to the current extent, seals full extents and hands them to uploads.
struct Appender<'a> {
    repo: &'a Repository,
    writer: [u8; 16],
    builder: ExtentBuilder,
    seq: u64,
    prev: Option<ExtentName>,
    dry_run: bool,
    /// One task per extent: waits for its shards, then writes its certificate.
    uploads: Vec<tokio::task::JoinHandle<Result<()>>>,
    /// Per remote: extents it may still be behind by (see `upload`).
    queues: Vec<Arc<tokio::sync::Semaphore>>,
    /// Per remote: time spent waiting for room in its queue.
    waits: Vec<std::time::Duration>,
    progress: &'a Progress,
    extents: Vec<ExtentBlobs>,
    last: Option<(ExtentName, u64)>,
    bytes_added: u64,
    bytes_stored: u64,
    /// Older extents pointers may use, oldest first (grows as this run seals extents).
    catalog: Vec<Candidate>,
    catalog_names: Vec<ExtentName>,
    /// Data shards of the last few extents sealed in this run: pointers to them cost no I/O.
    recent: VecDeque<(ExtentName, Vec<Bytes>)>,
    rng: StdRng,
    pointers_used: u64,
    pointer_bytes_fetched: u64,
}

/// Extents whose data shards stay in memory for cheap pointers.
const RECENT_EXTENTS: usize = 1;

impl<'a> Appender<'a> {
    fn new(
        repo: &'a Repository,
        writer: [u8; 16],
        last: Option<(ExtentName, u64)>,
        dry_run: bool,
        upload_queue: usize,
        progress: &'a Progress,
    ) -> Result<Self> {
        let (start, seq) = match last {
            Some((name, seq)) => (name.0, seq + 1),
            None => (genesis_verifier(&repo.config.owner), 0),
        };
        let certs = if dry_run {
            Vec::new()
        } else {
            // Only extents of the loaded (committed) index may be pointed at (see `prepare`).
            let known: HashSet<ExtentName> = repo.index().extents().iter().copied().collect();
            let mut all = repo.load_catalog()?;
            all.retain(|c| known.contains(&c.name()));
            all
        };
        let s = repo.config.coding.data_shards as usize;
        Ok(Appender {
            catalog: certs
                .iter()
                .map(|c| Candidate {
                    shard_size: c.shard_size,
                    data_remotes: c
                        .shards
                        .iter()
                        .take(s.min(c.data_shards as usize))
                        .map(|i| i.remote)
                        .collect(),
                })
                .collect(),
            catalog_names: certs.iter().map(|c| c.name()).collect(),
            recent: VecDeque::new(),
            rng: StdRng::from_rng(&mut rand::rng()),
            pointers_used: 0,
            pointer_bytes_fetched: 0,
            repo,
            writer,
            builder: ExtentBuilder::new(start, extent_capacity(&repo.config)),
            seq,
            prev: last.map(|(n, _)| n),
            dry_run,
            uploads: Vec::new(),
            queues: repo
                .remotes()
                .iter()
                .map(|r| {
                    let n = crate::remote::settings(r.url()).upload_queue;
                    Arc::new(tokio::sync::Semaphore::new(n.unwrap_or(upload_queue)))
                })
                .collect(),
            waits: vec![std::time::Duration::ZERO; repo.remotes().len()],
            progress,
            extents: Vec::new(),
            last,
            bytes_added: 0,
            bytes_stored: 0,
        })
    }

    /// Extents never grow past the target size (a blob that does not fit starts the
    /// next one), so shard sizes stay uniform and most older shards can be pointers.
    fn append(&mut self, blob: StoredBlob) -> Result<()> {
        self.bytes_added += blob.data.len() as u64;
        let target = self.repo.config.extent_size as usize;
        if !self.builder.is_empty() && self.builder.len() + blob.data.len() > target {
            self.seal()?;
        }
        self.builder
            .append(blob.id, blob.kind, blob.raw_len, &blob.data);
        Ok(())
    }

    fn seal(&mut self) -> Result<()> {
        let next = ExtentBuilder::new([0; 32], 0);
        let builder = std::mem::replace(&mut self.builder, next);
        if self.dry_run {
            return Ok(());
        }
        let signer = self.repo.signer()?;
        let ctx = SealContext {
            repo_id: self.repo.config.id,
            writer: self.writer,
            seq: self.seq,
            prev: self.prev,
            coding: self.repo.config.coding,
            remotes: self.repo.remotes().len(),
            signer: &signer,
        };
        let pointers = self.choose_pointers(&builder);
        let sealed = builder.seal(&ctx, pointers)?;
        let name = sealed.name();
        self.builder = ExtentBuilder::new(name.0, extent_capacity(&self.repo.config));
        self.last = Some((name, self.seq));
        self.prev = Some(name);
        self.seq += 1;
        self.bytes_stored += sealed.shards.iter().map(|s| s.len() as u64).sum::<u64>();
        self.pointers_used += sealed.cert.pointers.len() as u64;
        self.extents.push(sealed.blobs.clone());
        let s = sealed.cert.data_shards as usize;
        self.catalog.push(Candidate {
            shard_size: sealed.cert.shard_size,
            data_remotes: sealed.cert.shards[..s].iter().map(|i| i.remote).collect(),
        });
        self.catalog_names.push(name);
        self.recent.push_back((name, sealed.shards[..s].to_vec()));
        if self.recent.len() > RECENT_EXTENTS {
            self.recent.pop_front();
        }
        self.upload(sealed)
    }

    /// Entangle: pick up to `t` data shards of older extents under the remote rule and
    /// get their bytes (from memory if recent, else from their remote, hash-checked).
    /// A pointer that cannot be read is dropped: fewer pointers, never a wrong one.
    fn choose_pointers(&mut self, builder: &ExtentBuilder) -> Vec<(Pointer, Bytes)> {
        let coding = self.repo.config.coding;
        let (s, p, t) = (
            coding.data_shards as usize,
            coding.parity_shards as usize,
            coding.pointers as usize,
        );
        let remotes = self.repo.remotes().len();
        if t == 0 {
            return Vec::new();
        }
        let mut symbols_on = vec![0usize; remotes];
        for i in 0..s + p {
            symbols_on[codec::place(self.seq, i, remotes)] += 1;
        }
        let own = builder.own_shard_size(s) as u32;
        let chosen = pointers::choose(
            &mut self.rng,
            coding.strategy,
            t,
            p,
            own,
            &mut symbols_on,
            &self.catalog,
        );
        let mut out = Vec::with_capacity(chosen.len());
        for c in chosen {
            let extent = self.catalog_names[c.extent];
            let shard = c.shard as usize;
            let in_memory = self
                .recent
                .iter()
                .find(|(n, _)| *n == extent)
                .and_then(|(_, d)| d.get(shard).cloned());
            let data = match in_memory {
                Some(d) => Some(d),
                None => {
                    let fetched = self
                        .repo
                        .certificate(&extent)
                        .ok()
                        .and_then(|cert| self.repo.fetch_shard(&cert, shard));
                    if let Some(d) = &fetched {
                        self.pointer_bytes_fetched += d.len() as u64;
                    }
                    fetched
                }
            };
            if let Some(d) = data {
                out.push((
                    Pointer {
                        extent,
                        shard: c.shard,
                    },
                    d,
                ));
            }
        }
        out
    }

    /// Queue an extent's shards, each to its remote, and a task that writes its
    /// certificate to every remote once the shards are stored.
    ///
    /// Each remote has its own queue of `upload_queue` extents: a slow remote only holds
    /// up the backup once it is that many extents behind, while the others carry on.
    /// Queued extents share one buffer per extent, so memory stays below
    /// `(max queue + 1) * extent size * (s + p) / s`.
    fn upload(&mut self, sealed: SealedExtent) -> Result<()> {
        // Fail fast: surface an earlier upload's error instead of queueing more work.
        self.reap(false)?;
        let remotes: Vec<DynRemote> = self.repo.remotes().to_vec();
        let mut by_remote: Vec<Vec<usize>> = vec![Vec::new(); remotes.len()];
        for (i, info) in sealed.cert.shards.iter().enumerate() {
            by_remote[info.remote as usize].push(i);
        }
        // Take every permit before starting anything, so the fast remotes never run
        // more than their queue ahead of a blocked one.
        let mut permits = Vec::new();
        for (r, shards) in by_remote.iter().enumerate() {
            if !shards.is_empty() {
                permits.push((r, self.queue_slot(r)?));
            }
        }
        let health = self.repo.health();
        let name = sealed.name();
        let sealed = Arc::new(sealed);
        let per_remote: Vec<_> = permits
            .into_iter()
            .map(|(r, permit)| {
                let (remote, health, sealed) = (remotes[r].clone(), health.clone(), sealed.clone());
                let shards = std::mem::take(&mut by_remote[r]);
                self.repo.runtime().spawn(async move {
                    let puts = shards.iter().map(|&i| {
                        let data = sealed.shards[i].clone();
                        let (health, remote, path) = (&health, &remote, name.shard_path(i));
                        async move { health.put(r, remote, &path, data).await }
                    });
                    let failed = futures::future::join_all(puts)
                        .await
                        .iter()
                        .filter(|ok| !**ok)
                        .count();
                    drop(permit);
                    failed
                })
            })
            .collect();
        let (parity, tolerated) = (
            sealed.cert.parity_shards as usize,
            self.repo.losses_tolerated(),
        );
        let commit = async move {
            let mut failed = 0;
            for task in per_remote {
                failed += task
                    .await
                    .map_err(|e| Error::fatal(format!("internal: upload task failed: {e}")))?;
            }
            // Decodable as long as no more than `p` of its own shards are missing.
            if failed > parity {
                return Err(Error::fatal(format!(
                    "extent {}: {failed} of its shards could not be written, more than the {parity} it can lose ({})",
                    name.short(),
                    health.describe(&remotes)
                )));
            }
            let cert_puts = remotes.iter().enumerate().map(|(i, r)| {
                let (path, data, health) = (name.cert_path(), sealed.cert_object.clone(), &health);
                async move { health.put(i, r, &path, data).await }
            });
            let failed = futures::future::join_all(cert_puts)
                .await
                .iter()
                .filter(|ok| !**ok)
                .count();
            if failed > tolerated {
                return Err(Error::fatal(format!(
                    "extent {}: its certificate reached too few remotes ({})",
                    name.short(),
                    health.describe(&remotes)
                )));
            }
            Ok(())
        };
        self.uploads.push(self.repo.runtime().spawn(commit));
        Ok(())
    }

    /// A place in remote `r`'s upload queue, waiting (and saying so) if it is full.
    fn queue_slot(&mut self, r: usize) -> Result<tokio::sync::OwnedSemaphorePermit> {
        let queue = self.queues[r].clone();
        if let Ok(permit) = queue.clone().try_acquire_owned() {
            return Ok(permit);
        }
        let started = std::time::Instant::now();
        let _ = self.progress.remote_urls.set(
            self.repo
                .remotes()
                .iter()
                .map(|r| r.url().to_string())
                .collect(),
        );
        self.progress
            .waiting_for_remote
            .store(r as u64 + 1, Ordering::Relaxed);
        let permit = self.repo.block_on(queue.acquire_owned());
        self.progress.waiting_for_remote.store(0, Ordering::Relaxed);
        self.waits[r] += started.elapsed();
        permit.map_err(|_| Error::fatal("internal: upload queue closed"))
    }

    /// Collect finished uploads (all of them if `wait`), returning the first error.
    fn reap(&mut self, wait: bool) -> Result<()> {
        let mut pending = Vec::new();
        for h in self.uploads.drain(..) {
            if wait || h.is_finished() {
                self.repo
                    .block_on(h)
                    .map_err(|e| Error::fatal(format!("internal: upload task failed: {e}")))?
                    .map_err(|e| e.context("uploading an extent"))?;
            } else {
                pending.push(h);
            }
        }
        self.uploads = pending;
        Ok(())
    }

    fn finish(&mut self) -> Result<()> {
        if !self.builder.is_empty() {
            self.seal()?;
        }
        self.reap(true)
    }
}

/// Count files and bytes ahead of the walker so progress can show totals and an ETA.
fn count_totals(sources: &Sources, excludes: &Excludes, progress: &Progress) {
    let mut stack: Vec<std::path::PathBuf> = sources.paths.clone();
    while let Some(p) = stack.pop() {
        let Ok(md) = std::fs::symlink_metadata(&p) else {
            continue;
        };
        if md.is_dir() {
            if let Ok(rd) = std::fs::read_dir(&p) {
                for e in rd.flatten() {
                    let path = e.path();
                    use std::os::unix::ffi::OsStrExt;
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

/// Room for a full extent plus the zero padding sealing adds, so sealing never has to
/// reallocate (and briefly double) the extent buffer.
fn extent_capacity(config: &crate::repo::Config) -> usize {
    config.extent_size as usize + config.coding.data_shards as usize * crate::codec::SHARD_ALIGN
}
