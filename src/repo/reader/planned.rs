//! The read plan as the reader follows it: a restore lists the shard reads it is about
//! to make (`repo/read_plan.rs`), the shard cache gives up what is needed last and the
//! prefetcher fetches what is needed next; each read through the cache counts as one the
//! plan foresaw.

use std::sync::Arc;

use super::shards_read;
use crate::content::BlobId;
use crate::extent::Certificate;
use crate::repo::read_plan::{PlannedReads, ReadPlan};
use crate::repo::{HasIndex, Repository, State};

impl<S: State> Repository<S> {
    /// Follow the reads a restore is about to make (in order) in the shard cache and
    /// [`prefetch_planned`](Self::prefetch_planned), until
    /// [`forget_read_plan`](Self::forget_read_plan); more may be added later with
    /// [`extend_read_plan`](Self::extend_read_plan).
    pub(crate) fn follow_read_plan(&self, reads: PlannedReads) {
        let plan = Arc::new(ReadPlan::default());
        *self
            .inner
            .read_plan
            .lock()
            .unwrap_or_else(|p| p.into_inner()) = Some(plan.clone());
        self.add_to_read_plan(&plan, reads);
    }

    /// Add the next reads to the plan being followed (nothing without one).
    pub(crate) fn extend_read_plan(&self, reads: PlannedReads) {
        if let Some(plan) = self.read_plan() {
            self.add_to_read_plan(&plan, reads);
        }
    }

    fn add_to_read_plan(&self, plan: &ReadPlan, reads: PlannedReads) {
        let certs = self.certificates_read(&reads);
        reads.resolve_into(plan, |number, offset, len| {
            shards_read(certs.get(number)?.as_ref()?, offset, len)
        });
    }

    /// The certificates of the extents `reads` touches (same order as
    /// [`PlannedReads::extents`]), fetched all at once (one by one they made the plan's
    /// walk take 1.7 s over S3); `None` for one that cannot be had: its reads are left
    /// out of the plan (they meet the error).
    pub(super) fn certificates_read(&self, reads: &PlannedReads) -> Vec<Option<Arc<Certificate>>> {
        use futures::stream::{self, StreamExt};
        self.inner.rt.block_on(
            stream::iter(
                reads
                    .extents()
                    .iter()
                    .map(|n| async move { self.certificate_async(n).await.ok() }),
            )
            .buffered(32)
            .collect(),
        )
    }

    /// For whoever extends the plan: wait until fewer than `ahead` planned reads are
    /// left ahead of the restore. False when there is no plan or it is finished.
    pub(crate) fn read_plan_wants_more(&self, ahead: usize) -> bool {
        self.read_plan()
            .is_some_and(|plan| plan.wait_for_room(ahead as u64))
    }

    /// Whether no plan is being followed (none, or finished).
    pub(crate) fn read_plan_is_over(&self) -> bool {
        self.read_plan().is_none_or(|plan| plan.is_finished())
    }

    pub(crate) fn forget_read_plan(&self) {
        self.finish_read_plan();
        *self
            .inner
            .read_plan
            .lock()
            .unwrap_or_else(|p| p.into_inner()) = None;
    }

    /// No more reads follow the plan: stops [`prefetch_planned`](Self::prefetch_planned).
    pub(crate) fn finish_read_plan(&self) {
        if let Some(plan) = self.read_plan() {
            plan.finish();
        }
    }

    pub(super) fn read_plan(&self) -> Option<Arc<ReadPlan>> {
        self.inner
            .read_plan
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// [`skip_planned_reads`](Self::skip_planned_reads) for reads listed by a walk (of a
    /// directory that could not be made), located exactly as the plan located them.
    pub(crate) fn skip_planned(&self, reads: PlannedReads) {
        let Some(plan) = self.read_plan() else {
            return;
        };
        let certs = self.certificates_read(&reads);
        reads.skip_in(&plan, |number, offset, len| {
            shards_read(certs.get(number)?.as_ref()?, offset, len)
        });
    }
}

impl<S: HasIndex> Repository<S> {
    /// The restore will not make the planned reads of these blobs (the file they belong
    /// to could not be written): they count as made, so that the plan keeps pace.
    pub(crate) fn skip_planned_reads(&self, ids: &[BlobId]) {
        let mut reads = PlannedReads::new();
        for id in ids {
            self.plan_blob_read(&mut reads, id);
        }
        self.skip_planned(reads);
    }

    /// Add to `reads` the read that [`read_blob_with`](Self::read_blob_with) in
    /// [`ReadMode::Shard`](super::ReadMode::Shard) will make for blob `id` (none for a
    /// blob not in the index: its read fails anyway).
    pub(crate) fn plan_blob_read(&self, reads: &mut PlannedReads, id: &BlobId) {
        if let Some((extent, loc)) = self.index().get(id) {
            reads.push(extent, loc.offset, loc.length);
        }
    }
}
