//! Wires the stages of a backup together: which threads run, the channels between them
//! and the bounds that keep memory flat however large the sources are.
//!
//! ```text
//! counter thread   stat-only pass for progress totals (walker.rs)
//! walker thread    ──FileJob (256)──▶ reader threads (max(cores, 2); reader.rs)
//!                  ──Event (4096)──▶ tree builder (the calling thread; trees.rs)
//! readers          ──PlainBlob (64, 4 MiB)──▶ compressor threads (cores; `compress`)
//!                  ──FileResult (1 per file)──▶ tree builder (blob list, in walk order)
//! tree builder     ──PlainBlob (same channel)──▶ compressors (one tree blob per directory)
//! compressors      ──StoredBlob (64, same 4 MiB)──▶ appender thread (ops/extent_writer)
//! appender         ──sealed extent──▶ uploads: tokio tasks on the repository's runtime,
//!                  at most `upload_queue` extents queued per remote (ops/extent_writer)
//! ```
//!
//! Every channel is bounded, so a slow stage holds up the ones before it instead of
//! buffering: in flight are at most the readers' files (whole below
//! [`super::reader::WHOLE_FILE_LIMIT`], else streamed), 4 MiB of new blobs between the
//! readers and the appender (a byte budget, [`Budget`], one blob past it if it is
//! bigger), the extent being built and the sealed extents waiting in the upload queues.
//! [`Dedup`] makes sure each new blob id is compressed and stored once even when several
//! readers meet it.

use std::collections::HashSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use crossbeam_channel::{Receiver, Sender, bounded};

use super::TreeStats;
use super::budget::Budget;
use super::filter::Filter;
use super::reader::Reader;
use super::sources::Sources;
use super::stream::StdinOptions;
use super::trees::TreeBuilder;
use super::walker::{Event, FileJob, JobInput, Walker, count_totals};
use crate::content::index::ExtentBlobs;
use crate::content::{BlobId, BlobKind, Index, PathTable, Tree, encode_blob};
use crate::crypto::ContentKeys;
use crate::error::{Error, Result};
use crate::extent::ExtentName;
use crate::ops::Progress;
use crate::ops::extent_writer::{Appender, DEFAULT_UPLOAD_QUEUE, RunHeads, StoredBlob};
use crate::repo::{Appends, Repository};

/// Bytes of new blobs between the readers and the appender (see [`Budget`]): a few of
/// big files' 1 MiB chunks, or hundreds of small files. 8 and 16 MiB were no faster on
/// the benchmark tree and raised the peak memory by 8 and 20 MiB.
const BYTES_IN_FLIGHT: usize = 4 << 20;

/// Blobs the channels into and out of the compressors hold. Most blobs are small files
/// of a few KiB: with room for only a few, every blob was a hand-off that put a thread
/// to sleep and woke it (half a million context switches in a backup of the 2 GiB
/// benchmark tree). The byte budget bounds their memory instead.
const BLOBS_IN_FLIGHT: usize = 64;

/// A long run commits what it has stored every so often (a checkpoint: the sealed
/// extents' index segment and a head, no snapshot), so that an interrupted backup keeps
/// it: the next run dedups against it instead of uploading it again, as restic's
/// intermediate index does. Also whenever the sealed extents hold half a segment's
/// worth of blobs, so that each checkpoint is one segment and none outgrows what
/// readers accept.
const CHECKPOINT_INTERVAL: Duration = Duration::from_secs(15 * 60);

struct Checkpoints {
    every: Duration,
    since: Instant,
    max_blobs: usize,
    /// The sealed blob count last looked at: only a newly sealed extent can make one due.
    seen: usize,
}

impl Checkpoints {
    fn new() -> Checkpoints {
        #[cfg(feature = "testing")]
        let every = std::env::var("TANGLE_TEST_CHECKPOINT_SECS")
            .ok()
            .and_then(|v| v.trim().parse::<f64>().ok())
            .filter(|s| s.is_finite() && *s >= 0.0)
            .map_or(CHECKPOINT_INTERVAL, Duration::from_secs_f64);
        #[cfg(not(feature = "testing"))]
        let every = CHECKPOINT_INTERVAL;
        Checkpoints {
            every,
            since: Instant::now(),
            // Half a segment: the extent sealed last may add up to 400,000 blobs (16 MiB of
            // one-byte files), and a checkpoint should still fit one segment.
            max_blobs: (crate::ops::extent_writer::segment_blobs() / 2).max(1),
            seen: 0,
        }
    }

    /// Whether to commit the `sealed` blobs now (and start counting again if so).
    fn due(&mut self, sealed: usize) -> bool {
        if sealed == self.seen {
            return false;
        }
        self.seen = sealed;
        let due = sealed > 0 && (sealed >= self.max_blobs || self.since.elapsed() >= self.every);
        if due {
            self.since = Instant::now();
            self.seen = 0;
        }
        due
    }
}

pub(crate) struct Outcome {
    pub(crate) root: BlobId,
    pub(crate) stats: TreeStats,
    /// Blob lists of the extents no checkpoint committed yet.
    pub(crate) extents: Vec<ExtentBlobs>,
    /// Extents sealed in the run, committed by a checkpoint or not.
    pub(crate) extents_sealed: u64,
    pub(crate) blobs_added: u64,
    pub(crate) bytes_added: u64,
    pub(crate) bytes_stored: u64,
    /// The run's writer and the number of its next head (checkpoints wrote the ones
    /// before).
    pub(crate) heads: RunHeads,
    /// The writer of this client's previous run, whose chain this run continues.
    pub(crate) continued: Option<[u8; 16]>,
    pub(crate) last_extent: Option<(ExtentName, u64)>,
    pub(crate) pointers: u64,
    pub(crate) pointer_bytes_fetched: u64,
    /// Per remote: seconds the backup waited for its upload queue.
    pub(crate) upload_waits: Vec<f64>,
    /// A writer's run: its files, to keep once a head commits the run.
    pub(crate) files: Option<PathTable>,
}

/// A blob ready to be compressed and encrypted.
pub(super) struct PlainBlob {
    pub(super) id: BlobId,
    pub(super) kind: BlobKind,
    /// A slice of the file buffer it came from (no copy).
    pub(super) data: Bytes,
}

/// Which blobs exist or are being stored in this run; `claim` is true exactly once per
/// new id, so concurrent readers never store the same chunk twice.
pub(super) struct Dedup<'a> {
    index: &'a Index,
    pending: Mutex<HashSet<BlobId>>,
    /// Bytes of new blobs on their way to the appender (see [`Budget`]).
    in_flight: Budget,
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

    /// Claim `id` and, if it is new, send the blob on to be stored (converting `data`
    /// only then: a known tree's buffer is dropped as it is).
    pub(super) fn offer(
        &self,
        out: &Sender<PlainBlob>,
        id: BlobId,
        kind: BlobKind,
        data: impl Into<Bytes>,
    ) -> Result<()> {
        if self.claim(&id) {
            let data = data.into();
            self.in_flight
                .acquire(data.len())
                .map_err(|_| Error::fatal("backup stopped"))?;
            out.send(PlainBlob { id, kind, data })
                .map_err(|_| Error::fatal("backup stopped"))?;
        }
        Ok(())
    }
}

/// What a backup reads: trees below source paths, or one stream.
pub(crate) enum Input<'a> {
    Tree {
        sources: &'a Sources,
        filter: &'a Filter,
    },
    Stream(&'a StdinOptions),
}

pub(crate) fn run<S: Appends>(
    repo: &Repository<S>,
    input: &Input<'_>,
    parent: Option<&Tree>,
    opts: &super::BackupOptions,
    progress: &Progress,
    errors: &Mutex<Vec<String>>,
) -> Result<Outcome> {
    let key = repo.content_keys();
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let dedup = Dedup {
        index: repo.known_blobs(),
        pending: Mutex::new(HashSet::new()),
        in_flight: Budget::new(BYTES_IN_FLIGHT),
    };
    let (job_tx, job_rx) = bounded::<FileJob>(256);
    let (event_tx, event_rx) = bounded::<Event>(4096);
    let (plain_tx, plain_rx) = bounded::<PlainBlob>(BLOBS_IN_FLIGHT);
    let (stored_tx, stored_rx) = bounded::<StoredBlob>(BLOBS_IN_FLIGHT);
    let fatal: Mutex<Option<Error>> = Mutex::new(None);
    // One big file streams at a time (see `Reader::streaming`).
    let streaming = Mutex::new(());
    let blobs_added = AtomicU64::new(0);

    // Every run writes under a writer id of its own, so two runs from one host at once
    // never share a chain position or a head path (one would overwrite the other's head
    // and leave its extents uncommitted). It continues the chain of this client's
    // previous run: the same verifier chain, across writer ids.
    // A writer key's runs all go under its own id, one after the other (heads under
    // `heads/<writer>/` are the only ones it may sign).
    let fixed = repo.run_signer().writer_id().copied();
    let previous = match fixed {
        Some(w) => w,
        None => repo.writer_id()?,
    };
    let last_head = repo.latest_head(&previous)?;
    let writer: [u8; 16] = match fixed {
        Some(w) => w,
        None if opts.dry_run => previous,
        None => crate::crypto::random_bytes()?,
    };
    let mut heads = RunHeads::new(
        writer,
        match &last_head {
            Some(h) if writer == previous => h.seq.saturating_add(1),
            _ => 0,
        },
    );
    let continued = last_head.is_some().then_some(previous);
    let mut checkpoints = Checkpoints::new();
    let mut appender = Appender::new(
        repo,
        writer,
        last_head.as_ref().and_then(|h| h.extent),
        opts.dry_run,
        opts.upload_queue.unwrap_or(DEFAULT_UPLOAD_QUEUE),
        progress,
        &HashSet::new(),
    )?;

    let mut files = None;
    let scan = std::thread::scope(|s| -> Result<(TreeStats, BlobId)> {
        // Totals for the progress display, counted ahead by a cheap stat-only pass (it
        // still lstats every entry a second time: skipped when nothing shows them).
        if let Input::Tree { sources, filter } = input
            && progress.watched.load(Ordering::Relaxed)
        {
            s.spawn(|| count_totals(sources, filter, progress));
        }
        // The walker recurses once per directory level. Its paths are full paths, which
        // the kernel refuses beyond PATH_MAX (4096 bytes), so at most 2048 levels: about
        // 3 MiB of stack, more than the 2 MiB a thread gets by default (a 2040-deep
        // tree overflowed it). The stack is reserved, not touched, until used.
        let walker_thread = std::thread::Builder::new()
            .name("walker".into())
            .stack_size(crate::ops::WALKER_STACK);
        let walker = walker_thread.spawn_scoped(s, || {
            let none = Filter::none();
            // Only the owner can read the parent's trees (a writer has no parent).
            let load_tree = |id: &BlobId| S::indexed(repo).and_then(|r| r.load_tree(id).ok());
            let known = |id: &BlobId| repo.known_blobs().contains(id);
            let walker = Walker {
                load_tree: &load_tree,
                changes: repo.change_table(),
                known: &known,
                filter: match input {
                    Input::Tree { filter, .. } => filter,
                    Input::Stream(_) => &none,
                },
                events: event_tx,
                jobs: job_tx,
                errors,
                seen_inodes: HashSet::new(),
                device: None,
            };
            let _ = match input {
                Input::Tree { sources, .. } => walker.run(sources, parent),
                Input::Stream(o) => walker.run_stream(o),
            };
        });
        if let Err(e) = walker {
            return Err(Error::fatal(format!("cannot start the walker thread: {e}")));
        }
        for _ in 0..cores.max(2) {
            let job_rx = job_rx.clone();
            let reader = Reader {
                key,
                chunker: repo.config.chunker,
                dedup: &dedup,
                out: plain_tx.clone(),
                progress,
                streaming: &streaming,
            };
            s.spawn(move || {
                for job in job_rx {
                    let result = match &job.input {
                        JobInput::File(path) => reader.read_file(path),
                        JobInput::Stream(o) => reader.read_stream(o),
                    };
                    Progress::add(&progress.files_done, 1);
                    let _ = job.reply.send(result);
                }
            });
        }
        drop(job_rx);
        for _ in 0..cores {
            let (plain_rx, stored_tx, fatal) = (plain_rx.clone(), stored_tx.clone(), &fatal);
            let in_flight = &dedup.in_flight;
            s.spawn(move || compress(key, plain_rx, stored_tx, fatal, in_flight));
        }
        drop((plain_rx, stored_tx));
        let appender_thread = s.spawn(|| -> Result<()> {
            let in_flight = &dedup.in_flight;
            let appended = (|| {
                for b in stored_rx {
                    let raw_len = b.raw_len as usize;
                    blobs_added.fetch_add(1, Ordering::Relaxed);
                    appender.append(b)?;
                    in_flight.release(raw_len);
                    if checkpoints.due(appender.sealed_blobs()) {
                        let stored = appender.take_stored()?;
                        let written = heads.commit_extents(repo, stored, appender.last, None)?;
                        if let Some(head) = written.last() {
                            super::remember_run_head(repo, head, continued);
                        }
                    }
                }
                appender.finish()
            })();
            // Nothing is released from here on: readers waiting for room must stop.
            in_flight.close();
            appended
        });

        let mut builder = TreeBuilder::new(key, &dedup, plain_tx, errors);
        builder.files = repo.change_table().map(|(_, k)| (PathTable::default(), *k));
        let built = builder.consume(event_rx);
        files = builder.files.take().map(|(table, _)| table);
        // Closes the blob channel, so compressors and then the appender run dry and end.
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
    Ok(Outcome {
        root,
        stats,
        extents: std::mem::take(&mut appender.extents),
        extents_sealed: appender.extents_sealed,
        blobs_added: blobs_added.into_inner(),
        bytes_added: appender.bytes_added,
        bytes_stored: appender.bytes_stored,
        heads,
        continued,
        last_extent: appender.last,
        pointers: appender.pointers_used,
        pointer_bytes_fetched: appender.pointer_bytes_fetched,
        upload_waits: appender.upload_waits(),
        files,
    })
}

/// A compressor thread: compress and encrypt blobs until the channel closes. An error
/// stops this thread; the first one is kept in `fatal` and fails the run at its end.
fn compress(
    key: &dyn ContentKeys,
    plain: Receiver<PlainBlob>,
    stored: Sender<StoredBlob>,
    fatal: &Mutex<Option<Error>>,
    in_flight: &Budget,
) {
    for b in plain {
        match encode_blob(key, b.kind, &b.data) {
            Ok(data) => {
                let blob = StoredBlob {
                    id: b.id,
                    kind: b.kind,
                    raw_len: b.data.len() as u32,
                    data,
                };
                if stored.send(blob).is_err() {
                    return;
                }
            }
            Err(e) => {
                fatal
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .get_or_insert(e);
                // This blob's bytes never reach the appender to be given back.
                in_flight.close();
                return;
            }
        }
    }
}
