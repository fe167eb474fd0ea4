//! `tangle backup`: archive directories into a new snapshot.
//!
//! Pipeline (all stages run concurrently, every queue bounded so memory stays bounded;
//! `pipeline.rs` wires the threads and channels):
//!
//! ```text
//! walker ──files to read──▶ file readers ──new chunks──▶ compressors ──blobs──▶ appender ──extents──▶ uploads
//!    │ (lstat, excludes,     (read, FastCDC,              (zstd, AEAD;            (extent log,        (a queue per remote;
//!    │  unchanged check)      keyed BLAKE3, dedup)         one per core)           seal + RS code)     shards to their remotes
//!    │  walker.rs             reader.rs                    pipeline.rs             ops/extent_writer    in parallel, then the
//!    │                                                                                                  certificate)
//!    └──events in order──▶ tree builder (this thread: waits for each file's blob list, writes tree blobs; trees.rs)
//! ```
//!
//! A snapshot becomes visible only after every shard, certificate, the index segment and
//! the head that commits them are durable on the remotes; an interrupted run leaves
//! objects nothing commits, or a committed run whose head names a snapshot never written.

mod budget;
pub mod filter;
pub(crate) mod pipeline;
mod reader;
pub(crate) mod sources;
mod stream;
mod trees;
mod walker;

pub use filter::FilterOptions;
pub use sources::{FilesFrom, files_from};
pub use stream::{StdinOptions, StreamSource};

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

use bytes::Bytes;
use serde::Serialize;

use super::Progress;
use crate::content::Snapshot;
use crate::content::snapshot::SnapshotSummary;
use crate::crypto::envelope::{self, ObjectKind};
use crate::error::Result;
use crate::extent::Head;
use crate::ops::extent_writer::sealed_payload;
use crate::repo::{Appends, Indexed, Repository, State, Unlocked};

#[derive(Default)]
pub struct BackupOptions {
    pub paths: Vec<PathBuf>,
    /// What to leave out of the trees below `paths`.
    pub filter: FilterOptions,
    /// Back up one stream instead of `paths` (`--stdin`, `--stdin-from-command`).
    pub stdin: Option<StdinOptions>,
    /// Tags, each a comma-separated list as restic takes `--tag` (`a,b` is two tags).
    pub tags: Vec<String>,
    pub host: Option<String>,
    pub dry_run: bool,
    /// Back up even if the repository looks older than this client last saw it.
    pub allow_stale: bool,
    /// Extents a remote may fall behind by before the backup waits for it (per-remote
    /// `upload_queue` in a profile overrides it); `None`: [`DEFAULT_UPLOAD_QUEUE`].
    pub upload_queue: Option<usize>,
}

#[derive(Serialize, Debug)]
pub struct UploadWait {
    pub remote: String,
    pub seconds: f64,
}

#[derive(Serialize, Default, Debug)]
pub struct BackupReport {
    pub snapshot_id: Option<String>,
    pub short_id: Option<String>,
    pub parent: Option<String>,
    pub(crate) dry_run: bool,
    pub files_new: u64,
    pub files_changed: u64,
    pub files_unchanged: u64,
    pub dirs: u64,
    pub(crate) others: u64,
    /// Bytes of source files read (0 when nothing changed).
    pub bytes_read: u64,
    /// Total size of the files in the snapshot.
    pub bytes_total: u64,
    pub blobs_added: u64,
    /// New data after dedup, compression and encryption, before coding.
    pub bytes_added: u64,
    /// What was written to the remotes for data: data + parity shards.
    pub bytes_stored: u64,
    pub extents: u64,
    /// Pointer shards entangled into the new extents, and the bytes read to get the ones
    /// that were no longer in memory.
    pub(crate) pointers: u64,
    pub(crate) pointer_bytes_fetched: u64,
    pub duration_secs: f64,
    /// Files and directories that could not be read (the backup skipped them).
    pub errors: Vec<String>,
    /// Remotes that could not be written: the backup is complete and recoverable, with
    /// less redundancy there until `repair` runs.
    pub degraded_remotes: Vec<String>,
    /// Remotes the backup had to wait for (their upload queue was full), slowest first.
    pub upload_waits: Vec<UploadWait>,
}

/// Open-time preparation for a backup: load only the index segments some authentic head
/// commits to. A backup builds only on those: blobs and extents of an interrupted run
/// (written, never committed) are neither deduplicated against nor used as pointers (the
/// pointer catalog is limited to extents the loaded index knows), so nothing committed
/// ever depends on them.
pub fn prepare(repo: Repository<Unlocked>) -> Result<Repository<Indexed>> {
    let committed: std::collections::HashSet<String> =
        repo.heads()?.into_iter().filter_map(|h| h.index).collect();
    repo.load_index_where(|id| committed.contains(id))
}

pub fn run<S: Appends>(
    repo: &Repository<S>,
    opts: &BackupOptions,
    progress: &Progress,
) -> Result<BackupReport> {
    let started = Instant::now();
    let start_time = chrono::Utc::now();
    let tree;
    let (input, paths) = match &opts.stdin {
        Some(o) => (pipeline::Input::Stream(o), vec![o.snapshot_path()?]),
        None => {
            tree = (
                sources::Sources::new(&opts.paths)?,
                filter::Filter::new(&opts.filter)?,
            );
            let (sources, filter) = (&tree.0, &tree.1);
            let input = pipeline::Input::Tree { sources, filter };
            (input, sources.display_paths())
        }
    };
    let host = opts.host.clone().unwrap_or_else(crate::util::hostname);
    if !opts.allow_stale {
        refuse_stale(repo)?;
    }

    // Only the owner can read snapshots: a writer's runs have no parent.
    let (parent, parent_tree) = match S::indexed(repo) {
        Some(owner) => find_parent(owner, &host, &paths)?,
        None => (None, None),
    };

    let errors = Mutex::new(Vec::new());
    let mut outcome = pipeline::run(repo, &input, parent_tree.as_ref(), opts, progress, &errors)?;

    let outcome_waits = std::mem::take(&mut outcome.upload_waits);
    let mut report = BackupReport {
        parent: parent.as_ref().map(|(id, _)| id.clone()),
        dry_run: opts.dry_run,
        files_new: outcome.stats.files_new,
        files_changed: outcome.stats.files_changed,
        files_unchanged: outcome.stats.files_unchanged,
        dirs: outcome.stats.dirs,
        others: outcome.stats.others,
        bytes_read: outcome.stats.bytes_read,
        bytes_total: outcome.stats.bytes_total,
        blobs_added: outcome.blobs_added,
        bytes_added: outcome.bytes_added,
        bytes_stored: outcome.bytes_stored,
        extents: outcome.extents_sealed,
        pointers: outcome.pointers,
        pointer_bytes_fetched: outcome.pointer_bytes_fetched,
        errors: errors.into_inner().unwrap_or_else(|p| p.into_inner()),
        ..Default::default()
    };

    if !opts.dry_run {
        let signer = repo.run_signer();
        let snapshot = Snapshot {
            time_ns: start_time.timestamp_nanos_opt().unwrap_or(0),
            tree: outcome.root,
            paths,
            host,
            user: crate::util::username(),
            tags: snapshot_tags(&opts.tags),
            parent: report.parent.clone(),
            program: format!("tangle {}", env!("CARGO_PKG_VERSION")),
            writer: None,
            summary: SnapshotSummary {
                files: report.files_new + report.files_changed + report.files_unchanged,
                dirs: report.dirs,
                bytes: report.bytes_total,
                files_new: report.files_new,
                files_changed: report.files_changed,
                files_unchanged: report.files_unchanged,
                bytes_added: report.bytes_added,
            },
        };
        let obj = Bytes::from(envelope::seal(
            ObjectKind::Snapshot,
            &sealed_payload(repo, snapshot.encrypt(repo.content_keys())?),
            &signer,
        ));
        let id = envelope::content_id(&obj);
        // The heads first: the last commits the run (its extents and index segments,
        // and names the snapshot by its content id). A snapshot object then never exists
        // without a head, so everything a listed snapshot uses is committed: repaired,
        // built on and checked by verify like the rest. A run stopped in between leaves
        // committed data and no snapshot.
        let mut heads = outcome.heads;
        let written =
            heads.commit_extents(repo, outcome.extents, outcome.last_extent, Some(id.clone()))?;
        let head = written
            .last()
            .ok_or_else(|| crate::Error::fatal("internal: the run wrote no head"))?;
        // A writer keeps its files, to tell what changed next time.
        if let (Some(w), Some(files)) = (signer.writer_id(), &outcome.files) {
            repo.cache_writer_files(w, files);
        }
        remember_run_head(repo, head, outcome.continued);
        repo.write_replicated(&format!("snapshots/{id}"), obj)
            .map_err(|e| e.context("writing the snapshot"))?;
        report.short_id = Some(id[..8].to_string());
        report.snapshot_id = Some(id);
    }
    report.degraded_remotes = repo.failed_remotes();
    let mut waits: Vec<UploadWait> = outcome_waits
        .iter()
        .enumerate()
        .filter(|(_, s)| **s > 0.0)
        .map(|(i, &seconds)| UploadWait {
            remote: repo.remotes()[i].url().to_string(),
            seconds,
        })
        .collect();
    waits.sort_by(|a, b| b.seconds.total_cmp(&a.seconds));
    report.upload_waits = waits;
    report.duration_secs = started.elapsed().as_secs_f64();
    Ok(report)
}

/// What this client keeps of a head its run wrote (a checkpoint's or the last): the next
/// run continues this chain, and the previous run's head is now an ancestor of it (losing
/// it shows as a gap), so only this head needs remembering.
pub(super) fn remember_run_head<S: Appends>(
    repo: &Repository<S>,
    head: &Head,
    continued: Option<[u8; 16]>,
) {
    // A writer key's runs are all under its own id, which the cache need not hold.
    if repo.run_signer().writer_id().is_none() {
        repo.set_writer_id(&head.writer);
    }
    repo.remember_heads(&[(hex::encode(head.writer), head.seq)].into_iter().collect());
    if let Some(previous) = continued.filter(|p| *p != head.writer) {
        repo.forget_heads(&[hex::encode(previous)]);
    }
}

/// Refuse to build on a state older than this client has seen: a remote (or all of
/// them) may have been rolled back, and new data would be chained to a stale head.
fn refuse_stale<S: State>(repo: &Repository<S>) -> Result<()> {
    match repo.older_than_seen()? {
        Some(why) => Err(crate::Error::fatal(format!(
            "{why}; pass --allow-stale to back up anyway"
        ))),
        None => Ok(()),
    }
}

/// The newest snapshot of the same host and paths whose root tree is in the loaded
/// (committed) index. A snapshot an interrupted run wrote without its head is skipped:
/// its blobs are not committed, so nothing new may build on them.
#[allow(clippy::type_complexity)]
fn find_parent(
    repo: &Repository<Indexed>,
    host: &str,
    paths: &[String],
) -> Result<(Option<(String, Snapshot)>, Option<crate::content::Tree>)> {
    let mut all = repo.snapshots()?;
    // The owner's own only: a writer's blobs are named in the writer's id space.
    all.retain(|(_, s)| s.host == host && s.paths == paths && s.writer.is_none());
    while let Some((id, snap)) = all.pop() {
        if !repo.index().contains(&snap.tree) {
            continue;
        }
        if let Ok(tree) = repo.load_tree(&snap.tree) {
            return Ok((Some((id, snap)), Some(tree)));
        }
    }
    Ok((None, None))
}

/// Stats gathered by the tree builder.
#[derive(Default, Debug)]
pub(crate) struct TreeStats {
    pub(crate) files_new: u64,
    pub(crate) files_changed: u64,
    pub(crate) files_unchanged: u64,
    pub(crate) dirs: u64,
    pub(crate) others: u64,
    pub(crate) bytes_read: u64,
    pub(crate) bytes_total: u64,
}

/// Note a file or directory the backup skips; the report lists them.
fn note_error(errors: &Mutex<Vec<String>>, msg: String) {
    errors.lock().unwrap_or_else(|p| p.into_inner()).push(msg);
}

/// The snapshot's tags from `--tag` lists: split at commas and trimmed, as restic does,
/// each once, in the order given.
fn snapshot_tags(lists: &[String]) -> Vec<String> {
    let mut tags: Vec<String> = Vec::new();
    for t in lists.iter().flat_map(|l| crate::ops::select::split_tags(l)) {
        if !tags.contains(&t) {
            tags.push(t);
        }
    }
    tags
}
