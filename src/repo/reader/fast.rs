//! The fast path: a blob's byte range read straight from the data shard(s) holding it
//! (systematic code: no decoding), one ranged request per shard, or through the shard
//! cache of whole, hash-checked shards for reads in storage order.

use futures::future::join_all;

use crate::error::{Error, Result};
use crate::extent::Certificate;
use crate::repo::{Repository, State};

/// A reader waited for shards to arrive (counted in [`crate::debug::SHARD_WAITS`]).
pub(super) fn waited_for_shards() {
    crate::debug::SHARD_WAITS.add(1);
}

impl<S: State> Repository<S> {
    pub(super) fn read_range_fast(
        &self,
        cert: &Certificate,
        offset: u64,
        len: u64,
    ) -> Result<Vec<u8>> {
        let name = cert.name();
        let parts = cert.locate(offset, len);
        let reads = parts.iter().map(|&(shard, within, n)| {
            let i = cert.shards[shard].remote as usize;
            let path = name.shard_path(shard);
            async move { self.get_range_from(i, &path, within, n).await }
        });
        let mut out = Vec::with_capacity(len as usize);
        for r in self.inner.rt.block_on(join_all(reads)) {
            out.extend_from_slice(&r?);
        }
        Ok(out)
    }

    /// The byte range through the shard cache. With `on_plan`, each shard read counts as
    /// one the read plan foresaw, a failed read included (and the shards after it, never
    /// read): a planned read left standing would keep its shard in the cache for good.
    pub(super) fn read_range_from_shards(
        &self,
        cert: &Certificate,
        offset: u64,
        len: u64,
        on_plan: bool,
    ) -> Result<bytes::Bytes> {
        let name = cert.name();
        let parts = cert.locate(offset, len);
        // A blob within one shard (most) is a view of the cached shard, not a copy.
        let mut whole = None;
        let mut out = Vec::with_capacity(if parts.len() > 1 { len as usize } else { 0 });
        let plan = self.read_plan().filter(|_| on_plan);
        let mut failed = None;
        for &(shard, within, n) in &parts {
            if failed.is_none() {
                let cached = self.inner.shards.ready(&(name, shard)).unwrap_or_else(|| {
                    waited_for_shards();
                    self.inner.rt.block_on(self.cached_shard(cert, shard))
                });
                match cached {
                    Some(data) if parts.len() == 1 => {
                        whole = Some(data.slice(within as usize..(within + n) as usize))
                    }
                    Some(data) => {
                        out.extend_from_slice(&data[within as usize..(within + n) as usize])
                    }
                    None => {
                        self.inner.shards.forget(&(name, shard));
                        failed = Some(shard);
                    }
                }
            }
            if let Some(plan) = &plan {
                plan.consumed(&(name, shard));
            }
        }
        match failed {
            None => Ok(whole.unwrap_or_else(|| out.into())),
            Some(shard) => Err(Error::corrupt(format!(
                "shard {shard} of extent {} is unavailable",
                name.short()
            ))),
        }
    }

    /// Data shard `shard` through the shard cache (fetched and hash-checked once).
    pub(super) async fn cached_shard(
        &self,
        cert: &Certificate,
        shard: usize,
    ) -> Option<bytes::Bytes> {
        let name = cert.name();
        let slot = match self.read_plan() {
            Some(plan) => self
                .inner
                .shards
                .slot_planned(&(name, shard), Some(&|k| plan.next_use(k))),
            None => self.inner.shards.slot(&(name, shard)),
        };
        slot.get_or_init(|| async { self.fetch_verified(cert, shard).await })
            .await
            .clone()
    }
}
