//! Fetching before reading: the shards of the trees a walk reads next, and the shards a
//! restore's read plan reads next, all at once from the high-latency remotes, so that
//! every remote holding one transfers at the same time.

use std::sync::Arc;

use futures::future::join_all;

use super::fast::waited_for_shards;
use super::shards_read;
use crate::content::BlobId;
use crate::extent::{Certificate, ExtentName};
use crate::repo::read_plan::{PlannedReads, ReadPlan};
use crate::repo::{HasIndex, Repository};

/// Trees looked at, and tree shards fetched at most, at once by a walk reading ahead
/// ([`Repository::read_trees_ahead`]): half the shard cache.
pub(crate) const TREES_AHEAD: usize = 256;
pub(crate) const TREE_SHARDS_AHEAD: usize = 8;

impl<S: HasIndex> Repository<S> {
    /// Before a walk reads tree `next` through the shard cache ([`ReadMode::ShardOffPlan`](super::ReadMode::ShardOffPlan)):
    /// if a shard it lies in is missing, fetch it together with the other missing data
    /// shards of its extent and of the extents of the trees read after it (`then`, in
    /// walk order, asked for only now), at most `max` shards in all, from high-latency
    /// remotes only. A walk reads one tree at a time, so without this it waits for each
    /// tree shard in turn (5 rounds at the S3 restore's start on the benchmark tree).
    /// Tree extents hold only trees (the backup packs them apart), which a walk reads in
    /// a burst: the whole extent comes along. Failures are left for the read to meet.
    pub(crate) fn read_trees_ahead(
        &self,
        next: &BlobId,
        then: impl FnOnce() -> Vec<BlobId>,
        max: usize,
    ) {
        if !self.inner.remotes.iter().any(|r| r.high_latency()) || self.next_tree_is_cached(next) {
            return;
        }
        let mut reads = PlannedReads::new();
        for id in std::iter::once(*next).chain(then()) {
            self.plan_blob_read(&mut reads, &id);
        }
        let certs = self.certificates_read(&reads);
        // `next`'s own shards first, then whole extents in the order the walk meets them.
        let own = self.index().get(next).zip(certs.first().cloned().flatten());
        let own = own.into_iter().flat_map(|((_, loc), cert)| {
            let shards = shards_read(&cert, loc.offset.into(), loc.length.into());
            shards
                .unwrap_or_default()
                .into_iter()
                .map(move |s| (cert.clone(), s))
        });
        let extents = certs.into_iter().flatten().flat_map(|cert| {
            let shards = shards_read(&cert, 0, cert.size).unwrap_or_default();
            shards.into_iter().map(move |s| (cert.clone(), s))
        });
        let mut wanted: Vec<(Arc<Certificate>, usize)> = Vec::new();
        for (cert, shard) in own.chain(extents) {
            if wanted.len() == max {
                break;
            }
            let key = (cert.name(), shard);
            let high_latency = (cert.shards.get(shard))
                .and_then(|info| self.inner.remotes.get(info.remote as usize))
                .is_some_and(|r| r.high_latency());
            if high_latency
                && !self.inner.shards.contains(&key)
                && !wanted.iter().any(|(c, s)| (c.name(), *s) == key)
            {
                wanted.push((cert, shard));
            }
        }
        if !wanted.is_empty() {
            waited_for_shards();
        }
        self.fetch_into_cache(&wanted);
    }

    /// Whether the shards holding tree `id` are all in the shard cache (or it cannot be
    /// located: its read meets that).
    fn next_tree_is_cached(&self, id: &BlobId) -> bool {
        let Some((extent, loc)) = self.index().get(id) else {
            return true;
        };
        let Ok(cert) = self.certificate(&extent) else {
            return true;
        };
        shards_read(&cert, loc.offset.into(), loc.length.into())
            .unwrap_or_default()
            .into_iter()
            .all(|s| self.inner.shards.contains(&(extent, s)))
    }

    /// Fetch these shards into the shard cache, all at once. A shard that cannot be had
    /// leaves no entry: its reader meets the failure (and falls back from it).
    fn fetch_into_cache(&self, wanted: &[(Arc<Certificate>, usize)]) {
        let fetched = self.inner.rt.block_on(join_all(
            wanted
                .iter()
                .map(|(cert, shard)| self.cached_shard(cert, *shard)),
        ));
        for ((cert, shard), data) in wanted.iter().zip(fetched) {
            if data.is_none() {
                self.inner.shards.forget(&(cert.name(), *shard));
            }
        }
    }

    /// Keep the shard cache ahead of a restore that follows a read plan: fetch the
    /// shards of the plan's next runs (two extents' worth of data shards,
    /// [`PREFETCH_EXTENTS`](crate::repo::read_plan::PREFETCH_EXTENTS)) that live on
    /// high-latency remotes, each as soon as the restore has moved close enough to it,
    /// until the plan is finished ([`finish_read_plan`](Self::finish_read_plan)).
    /// Fetches run side by side with the next look at the plan: waiting for a whole batch
    /// before starting the next left the remotes idle behind its slowest shard, which
    /// cost a 12 + 9 restore (three times the shards of 4 + 3) the most. Failures are
    /// left for the reader to meet (and fall back from).
    pub(crate) fn prefetch_planned(&self) {
        use futures::stream::{FuturesUnordered, StreamExt};
        let window = super::super::read_plan::PREFETCH_EXTENTS
            * (self.config.coding.data_shards as usize).max(1);
        let Some(plan) = self.read_plan() else {
            return;
        };
        self.inner.rt.block_on(async {
            let mut fetching = FuturesUnordered::new();
            let mut seen = None;
            loop {
                tokio::select! {
                    biased;
                    Some(()) = fetching.next(), if !fetching.is_empty() => {}
                    next = plan.upcoming(seen, window) => {
                        let Some((changes, keys)) = next else {
                            // The restore is over: what is still being fetched is not needed.
                            return;
                        };
                        seen = Some(changes);
                        for (cert, shard) in self.to_prefetch(&plan, &keys).await {
                            fetching.push(async move {
                                if self.cached_shard(&cert, shard).await.is_none() {
                                    self.inner.shards.forget(&(cert.name(), shard));
                                }
                            });
                        }
                    }
                }
            }
        });
    }

    /// Of the next shards the plan reads (`keys`, in order), those to fetch now: on a
    /// high-latency remote, not in the cache (nor being fetched), and only while fetching
    /// one would give up no shard needed sooner (that one would just be fetched again).
    /// Each is checked against the cache as it is, not counting the ones about to be
    /// added: counting them saved 1-8 MB of 500 on the benchmark tree but kept fewer
    /// shards ahead (S3 restore 9.0 s against 8.2).
    async fn to_prefetch(
        &self,
        plan: &ReadPlan,
        keys: &[(ExtentName, usize)],
    ) -> Vec<(Arc<Certificate>, usize)> {
        let next_use = |k: &(ExtentName, usize)| plan.next_use(k);
        let missing: Vec<&(ExtentName, usize)> = keys
            .iter()
            .take_while(|key| self.inner.shards.has_room_for(key, &next_use))
            .filter(|key| !self.inner.shards.contains(key))
            .collect();
        let mut wanted = Vec::with_capacity(missing.len());
        for (name, shard) in missing {
            // The plan fetched its extents' certificates: these come from memory.
            let Ok(cert) = self.certificate_async(name).await else {
                continue;
            };
            let high_latency = (cert.shards.get(*shard))
                .and_then(|info| self.inner.remotes.get(info.remote as usize))
                .is_some_and(|r| r.high_latency());
            if high_latency {
                wanted.push((cert, *shard));
            }
        }
        wanted
    }
}
