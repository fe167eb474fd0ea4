//! Uploads of sealed extents, in two parts:
//!
//! * [`Uploads`] schedules: the appender thread hands it each sealed extent; it takes a
//!   place in the upload queue of every remote that gets shards of the extent (waiting,
//!   and saying so in the progress display, when one is full), starts the upload and
//!   collects finished ones, failing the backup on the first error.
//! * [`Repository::store_extent`] makes one sealed extent durable: its shards to their
//!   remotes, then its certificate everywhere. It runs as tokio tasks on the
//!   repository's runtime, so the appender goes on filling the next extent meanwhile.
//!
//! Each remote has its own queue of `upload_queue` extents: a slow remote only holds up
//! the backup once it is that many extents behind, while the others carry on. Queued
//! extents share one buffer per extent, so memory stays below
//! `(max queue + 1) * extent size * (s + p) / s`.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::task::{JoinError, JoinHandle};

use crate::error::{Error, Result};
use crate::extent::SealedExtent;
use crate::ops::Progress;
use crate::repo::{Repository, State};

/// Places in the upload queues, one per remote that gets shards of an extent.
pub(super) struct Permits(Vec<Option<OwnedSemaphorePermit>>);

/// The upload queues of one backup and the uploads under way.
pub(super) struct Uploads<'a, S: State> {
    repo: &'a Repository<S>,
    progress: &'a Progress,
    /// One task per extent: waits for its shards, then writes its certificate.
    tasks: Vec<JoinHandle<Result<()>>>,
    /// Per remote: extents it may still be behind by.
    queues: Vec<Arc<Semaphore>>,
    /// Per remote: time spent waiting for room in its queue.
    waits: Vec<Duration>,
}

impl<'a, S: State> Uploads<'a, S> {
    /// Queues of `upload_queue` extents, unless a remote's own settings say otherwise.
    pub(super) fn new(
        repo: &'a Repository<S>,
        upload_queue: usize,
        progress: &'a Progress,
    ) -> Self {
        Uploads {
            repo,
            progress,
            tasks: Vec::new(),
            queues: repo
                .remotes()
                .iter()
                .map(|r| {
                    let n = repo.remote_settings(r.url()).upload_queue;
                    Arc::new(Semaphore::new(n.unwrap_or(upload_queue)))
                })
                .collect(),
            waits: vec![Duration::ZERO; repo.remotes().len()],
        }
    }

    /// A place in the upload queue of every remote `gets_shards` names, waiting while
    /// one is full. Taken before the extent is sealed, so a sealed extent never sits in
    /// memory beside the uploads it waits for (its parity is only computed once it can go).
    pub(super) fn reserve(&mut self, gets_shards: impl Fn(usize) -> bool) -> Result<Permits> {
        // Fail fast: surface an earlier upload's error instead of queueing more work.
        self.reap(false)?;
        // Take every permit before starting anything, so the fast remotes never run
        // more than their queue ahead of a blocked one.
        let mut permits = Vec::with_capacity(self.queues.len());
        for r in 0..self.queues.len() {
            permits.push(if gets_shards(r) {
                Some(self.queue_slot(r)?)
            } else {
                None
            });
        }
        Ok(Permits(permits))
    }

    /// Start uploading a sealed extent with the places [`reserve`](Self::reserve) took.
    pub(super) fn start(&mut self, sealed: SealedExtent, permits: Permits) {
        debug_assert!(
            (sealed.cert.shards.iter()).all(|i| permits.0[i.remote as usize].is_some()),
            "an upload without its queue place"
        );
        self.tasks.push(self.repo.store_extent(sealed, permits.0));
    }

    /// A place in remote `r`'s upload queue, waiting (and saying so) if it is full.
    fn queue_slot(&mut self, r: usize) -> Result<OwnedSemaphorePermit> {
        let queue = self.queues[r].clone();
        if let Ok(permit) = queue.clone().try_acquire_owned() {
            return Ok(permit);
        }
        let started = Instant::now();
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
        for h in self.tasks.drain(..) {
            if wait || h.is_finished() {
                self.repo
                    .block_on(h)
                    .map_err(task_failed)?
                    .map_err(|e| e.context("uploading an extent"))?;
            } else {
                pending.push(h);
            }
        }
        self.tasks = pending;
        Ok(())
    }

    /// Wait for every upload; the first error if one failed.
    pub(super) fn finish(&mut self) -> Result<()> {
        self.reap(true)
    }

    /// Per remote: seconds spent waiting for room in its queue.
    pub(super) fn waits_secs(&self) -> Vec<f64> {
        self.waits.iter().map(|d| d.as_secs_f64()).collect()
    }
}

fn task_failed(e: JoinError) -> Error {
    Error::fatal(format!("internal: upload task failed: {e}"))
}
