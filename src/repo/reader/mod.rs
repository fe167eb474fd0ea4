//! Reading blobs back. The fast path reads the blob's byte range straight from the data
//! shard(s) holding it (systematic code: no decoding). If that fails — shard missing,
//! remote gone, bytes corrupt (the AEAD and the id check catch it) — the whole extent is
//! rebuilt from any `s + t` symbols of its codeword that match their certified BLAKE3
//! (else through later codewords, [`super::rebuild`]), and kept in a small cache because
//! neighbouring blobs usually need the same extent.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, OnceLock};

use futures::future::join_all;

use super::Repository;
use super::read_around::ShardDamage;
use super::read_plan::{PlannedReads, ReadPlan};
use crate::codec::{self, StripeSource};
use crate::content::{BlobId, BlobKind, Tree, decode_blob, decode_blob_then};
use crate::error::{Error, Result};
use crate::extent::{Certificate, ExtentName};

/// The data shards a read of `len` bytes at `offset` of `cert`'s extent touches: what the
/// read plan lists for it. None past the extent's end: such a read fails before it
/// reaches the shards.
fn shards_read(cert: &Certificate, offset: u64, len: u64) -> Option<Vec<usize>> {
    if offset.saturating_add(len) > cert.size {
        return None;
    }
    Some(
        cert.locate(offset, len)
            .into_iter()
            .map(|(shard, _, _)| shard)
            .collect(),
    )
}

/// Trees looked at, and tree shards fetched at most, at once by a walk reading ahead
/// ([`Repository::read_trees_ahead`]): half the shard cache.
pub const TREES_AHEAD: usize = 256;
pub const TREE_SHARDS_AHEAD: usize = 8;

/// When a key is read next (`None`: never), from a [`ReadPlan`].
type NextUse<'a, K> = dyn Fn(&K) -> Option<u64> + 'a;

/// A small most-recently-added cache whose entries are computed once: concurrent
/// readers of the same key share one fetch or rebuild. `C` is the once-cell: a
/// `OnceLock` for blocking callers, a tokio `OnceCell` where fetches run concurrently.
pub(super) struct OnceCache<K, C> {
    capacity: usize,
    entries: Mutex<VecDeque<(K, Arc<C>)>>,
}

impl<K: PartialEq + Copy, C: Default> OnceCache<K, C> {
    pub(super) fn new(capacity: usize) -> Self {
        OnceCache {
            capacity,
            entries: Mutex::new(VecDeque::new()),
        }
    }

    fn contains(&self, key: &K) -> bool {
        self.entries
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .any(|(k, _)| k == key)
    }

    fn forget(&self, key: &K) {
        self.entries
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .retain(|(k, _)| k != key);
    }

    /// The entry for `key`, added if missing; a full cache gives up its oldest entry.
    fn slot(&self, key: &K) -> Arc<C> {
        self.slot_planned(key, None)
    }

    /// Whether adding `key` now would give up nothing needed sooner than `key` (by
    /// `next_use`, as in [`slot_planned`](Self::slot_planned)): true if it is in, if
    /// there is room, or if some entry is needed later than it or never.
    fn has_room_for(&self, key: &K, next_use: &NextUse<'_, K>) -> bool {
        let e = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        if e.len() < self.capacity || e.iter().any(|(k, _)| k == key) {
            return true;
        }
        let wanted = next_use(key).unwrap_or(u64::MAX);
        e.iter()
            .any(|(k, _)| next_use(k).is_none_or(|n| n > wanted))
    }

    /// [`slot`](Self::slot), but with `next_use` (when each key is read next, `None` for
    /// never) a full cache gives up the entry not needed again (the oldest of those),
    /// else the one needed last.
    fn slot_planned(&self, key: &K, next_use: Option<&NextUse<'_, K>>) -> Arc<C> {
        let mut e = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((_, d)) = e.iter().find(|(k, _)| k == key) {
            return d.clone();
        }
        let d = Arc::new(C::default());
        e.push_back((*key, d.clone()));
        while e.len() > self.capacity {
            let victim = match next_use {
                None => 0,
                // The entry just added is the one being read: never its own victim.
                Some(next_use) => e
                    .iter()
                    .take(e.len() - 1)
                    .enumerate()
                    .max_by_key(|(i, (k, _))| {
                        // Never needed again ranks first, then the later the need the
                        // higher; ties go to the oldest (the lower index).
                        (next_use(k).unwrap_or(u64::MAX), std::cmp::Reverse(*i))
                    })
                    .map_or(0, |(i, _)| i),
            };
            e.remove(victim);
        }
        d
    }
}

/// Extents rebuilt from their codeword.
pub(super) type DecodedCache = OnceCache<ExtentName, OnceLock<Result<Arc<Vec<u8>>>>>;
/// Whole data shards, hash-checked, for streaming reads (restore, dump); filled by
/// readers and by [`Repository::prefetch_planned`] concurrently, each shard fetched once.
pub(super) type ShardCache =
    OnceCache<(ExtentName, usize), tokio::sync::OnceCell<Option<bytes::Bytes>>>;

impl<K: PartialEq + Copy, T: Clone> OnceCache<K, tokio::sync::OnceCell<T>> {
    /// `key`'s value if its entry is in and filled: a read of it waits for no fetch (and
    /// needs no trip through the async runtime, once per blob a restore reads).
    fn ready(&self, key: &K) -> Option<T> {
        self.entries
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .find(|(k, _)| k == key)
            .and_then(|(_, c)| c.get().cloned())
    }
}

/// Times a reader of this process waited for shards to arrive: once per shard it read
/// that was not in the cache yet (fetched then or already in flight), once per batch
/// fetched ahead. A walk over a high-latency remote costs about a round trip per wait,
/// so this is what the tree read-ahead cuts (`TANGLE_DEBUG_REQUESTS` prints it).
static SHARD_WAITS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// See [`SHARD_WAITS`].
pub fn shard_waits() -> u64 {
    SHARD_WAITS.load(std::sync::atomic::Ordering::Relaxed)
}

fn waited_for_shards() {
    SHARD_WAITS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
}

/// How to fetch the bytes of a blob when nothing is missing.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ReadMode {
    /// Just the blob's byte range: best for scattered reads (trees, single files).
    Range,
    /// For reading in storage order (restore, dump): the whole data shard(s) around the
    /// blob, hash-checked and cached, instead of one request per blob (a round trip on
    /// S3 and SFTP, a thread hand-off on a local disk). A read counts as one the read
    /// plan foresaw (see [`follow_read_plan`](Repository::follow_read_plan)).
    Shard,
    /// As [`Shard`](Self::Shard), for reads that are not the restore's own (the walk
    /// that plans them, a look into a subtree for include patterns): they leave the read
    /// plan as it is.
    ShardOffPlan,
}

impl Repository {
    /// The plaintext of a blob, checked against its id.
    pub fn read_blob(&self, id: &BlobId, kind: BlobKind) -> Result<Vec<u8>> {
        self.read_blob_with(id, kind, ReadMode::Range)
    }

    /// [`read_blob`](Self::read_blob) with a choice of how the bytes are fetched.
    pub fn read_blob_with(&self, id: &BlobId, kind: BlobKind, mode: ReadMode) -> Result<Vec<u8>> {
        let key = self.key()?;
        self.read_blob_checked(id, mode, |stored, raw_len| {
            decode_blob(key, kind, id, stored, raw_len)
        })
    }

    /// [`read_blob_with`](Self::read_blob_with), handing the plaintext to `use_plain`
    /// (called once, if the blob is read: a decode that fails calls nothing) instead of
    /// returning it: decoded in buffers this thread reuses from blob to blob, where a
    /// restore or a dump needs the bytes only long enough to write them.
    pub fn read_blob_then<T>(
        &self,
        id: &BlobId,
        kind: BlobKind,
        mode: ReadMode,
        mut use_plain: impl FnMut(&[u8]) -> T,
    ) -> Result<T> {
        let key = self.key()?;
        self.read_blob_checked(id, mode, |stored, raw_len| {
            decode_blob_then(key, kind, id, stored, raw_len, &mut use_plain)
        })
    }

    /// A blob's stored form (sealed, as in its extent), after checking that it decodes
    /// to its id: what `delete` copies when it repacks an extent.
    pub fn read_blob_stored(&self, id: &BlobId, kind: BlobKind) -> Result<Vec<u8>> {
        let key = self.key()?;
        self.read_blob_checked(id, ReadMode::Range, |stored, raw_len| {
            decode_blob_then(key, kind, id, stored, raw_len, |_| stored.to_vec())
        })
    }

    /// Find blob `id`'s stored bytes and `decode` them (given them and the plaintext
    /// length the index promises): from the shard(s) holding them if that decodes, else
    /// from the extent rebuilt from its codeword.
    fn read_blob_checked<T>(
        &self,
        id: &BlobId,
        mode: ReadMode,
        mut decode: impl FnMut(&[u8], usize) -> Result<T>,
    ) -> Result<T> {
        let (extent, loc) = self.index.get(id).ok_or_else(|| {
            Error::corrupt(format!(
                "blob {} is not in the index",
                hex::encode(&id[..4])
            ))
        })?;
        let cert = self.certificate(&extent)?;
        let (offset, len) = (loc.offset as u64, loc.length as u64);
        if offset + len > cert.size {
            return Err(Error::corrupt(format!(
                "index points past the end of extent {}",
                extent.short()
            )));
        }
        let fast = match mode {
            ReadMode::Shard => self.read_range_from_shards(&cert, offset, len, true),
            ReadMode::ShardOffPlan => self.read_range_from_shards(&cert, offset, len, false),
            ReadMode::Range => self.read_range_fast(&cert, offset, len).map(Into::into),
        };
        if let Ok(stored) = fast {
            if let Ok(decoded) = decode(&stored, loc.raw_len as usize) {
                return Ok(decoded);
            }
        }
        let data = self.rebuilt_extent(&cert)?;
        let stored = &data[offset as usize..(offset + len) as usize];
        decode(stored, loc.raw_len as usize).map_err(|e| {
            e.context(format!(
                "blob {} in extent {}",
                hex::encode(&id[..4]),
                extent.short()
            ))
        })
    }

    /// Trees are read in walk order and cluster in the extents written at the end of
    /// each directory, so whole-shard reads pay off on high-latency remotes.
    pub fn load_tree(&self, id: &BlobId) -> Result<Tree> {
        self.read_blob_then(id, BlobKind::Tree, ReadMode::Shard, Tree::from_bytes)?
    }

    /// [`load_tree`](Self::load_tree) for a read the read plan does not list (the walk
    /// that makes the plan, a look ahead into a subtree): it leaves the plan as it is.
    pub fn load_tree_off_plan(&self, id: &BlobId) -> Result<Tree> {
        self.read_blob_then(id, BlobKind::Tree, ReadMode::ShardOffPlan, Tree::from_bytes)?
    }

    /// Follow the reads a restore is about to make (in order) in the shard cache and
    /// [`prefetch_planned`](Self::prefetch_planned), until
    /// [`forget_read_plan`](Self::forget_read_plan); more may be added later with
    /// [`extend_read_plan`](Self::extend_read_plan).
    pub fn follow_read_plan(&self, reads: PlannedReads) {
        let plan = Arc::new(ReadPlan::default());
        *self.read_plan.lock().unwrap_or_else(|p| p.into_inner()) = Some(plan.clone());
        self.add_to_read_plan(&plan, reads);
    }

    /// Add the next reads to the plan being followed (nothing without one).
    pub fn extend_read_plan(&self, reads: PlannedReads) {
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
    fn certificates_read(&self, reads: &PlannedReads) -> Vec<Option<Arc<Certificate>>> {
        use futures::stream::{self, StreamExt};
        self.rt.block_on(
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
    pub fn read_plan_wants_more(&self, ahead: usize) -> bool {
        self.read_plan()
            .is_some_and(|plan| plan.wait_for_room(ahead as u64))
    }

    /// Whether no plan is being followed (none, or finished).
    pub fn read_plan_is_over(&self) -> bool {
        self.read_plan().is_none_or(|plan| plan.is_finished())
    }

    pub fn forget_read_plan(&self) {
        self.finish_read_plan();
        *self.read_plan.lock().unwrap_or_else(|p| p.into_inner()) = None;
    }

    /// No more reads follow the plan: stops [`prefetch_planned`](Self::prefetch_planned).
    pub fn finish_read_plan(&self) {
        if let Some(plan) = self.read_plan() {
            plan.finish();
        }
    }

    fn read_plan(&self) -> Option<Arc<ReadPlan>> {
        self.read_plan
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Add to `reads` the read that [`read_blob_with`](Self::read_blob_with) in
    /// [`ReadMode::Shard`] will make for blob `id` (none for a blob not in the index: its
    /// read fails anyway).
    pub fn plan_blob_read(&self, reads: &mut PlannedReads, id: &BlobId) {
        if let Some((extent, loc)) = self.index.get(id) {
            reads.push(extent, loc.offset, loc.length);
        }
    }

    /// Before a walk reads tree `next` through the shard cache ([`ReadMode::ShardOffPlan`]):
    /// if a shard it lies in is missing, fetch it together with the other missing data
    /// shards of its extent and of the extents of the trees read after it (`then`, in
    /// walk order, asked for only now), at most `max` shards in all, from high-latency
    /// remotes only. A walk reads one tree at a time, so without this it waits for each
    /// tree shard in turn (5 rounds at the S3 restore's start on the benchmark tree).
    /// Tree extents hold only trees (the backup packs them apart), which a walk reads in
    /// a burst: the whole extent comes along. Failures are left for the read to meet.
    pub fn read_trees_ahead(&self, next: &BlobId, then: impl FnOnce() -> Vec<BlobId>, max: usize) {
        if !self.remotes.iter().any(|r| r.high_latency()) || self.next_tree_is_cached(next) {
            return;
        }
        let mut reads = PlannedReads::new();
        for id in std::iter::once(*next).chain(then()) {
            self.plan_blob_read(&mut reads, &id);
        }
        let certs = self.certificates_read(&reads);
        // `next`'s own shards first, then whole extents in the order the walk meets them.
        let own = self.index.get(next).zip(certs.first().cloned().flatten());
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
                .and_then(|info| self.remotes.get(info.remote as usize))
                .is_some_and(|r| r.high_latency());
            if high_latency
                && !self.shards.contains(&key)
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
        let Some((extent, loc)) = self.index.get(id) else {
            return true;
        };
        let Ok(cert) = self.certificate(&extent) else {
            return true;
        };
        shards_read(&cert, loc.offset.into(), loc.length.into())
            .unwrap_or_default()
            .into_iter()
            .all(|s| self.shards.contains(&(extent, s)))
    }

    /// Fetch these shards into the shard cache, all at once. A shard that cannot be had
    /// leaves no entry: its reader meets the failure (and falls back from it).
    fn fetch_into_cache(&self, wanted: &[(Arc<Certificate>, usize)]) {
        let fetched = self.rt.block_on(join_all(
            wanted
                .iter()
                .map(|(cert, shard)| self.cached_shard(cert, *shard)),
        ));
        for ((cert, shard), data) in wanted.iter().zip(fetched) {
            if data.is_none() {
                self.shards.forget(&(cert.name(), *shard));
            }
        }
    }

    /// The byte range through the shard cache. With `on_plan`, each shard read counts as
    /// one the read plan foresaw, a failed read included (and the shards after it, never
    /// read): a planned read left standing would keep its shard in the cache for good.
    fn read_range_from_shards(
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
                let cached = self.shards.ready(&(name, shard)).unwrap_or_else(|| {
                    waited_for_shards();
                    self.rt.block_on(self.cached_shard(cert, shard))
                });
                match cached {
                    Some(data) if parts.len() == 1 => {
                        whole = Some(data.slice(within as usize..(within + n) as usize))
                    }
                    Some(data) => {
                        out.extend_from_slice(&data[within as usize..(within + n) as usize])
                    }
                    None => {
                        self.shards.forget(&(name, shard));
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

    /// The restore will not make the planned reads of these blobs (the file they belong
    /// to could not be written): they count as made, so that the plan keeps pace.
    pub fn skip_planned_reads(&self, ids: &[BlobId]) {
        let mut reads = PlannedReads::new();
        for id in ids {
            self.plan_blob_read(&mut reads, id);
        }
        self.skip_planned(reads);
    }

    /// [`skip_planned_reads`](Self::skip_planned_reads) for reads listed by a walk (of a
    /// directory that could not be made), located exactly as the plan located them.
    pub fn skip_planned(&self, reads: PlannedReads) {
        let Some(plan) = self.read_plan() else {
            return;
        };
        let certs = self.certificates_read(&reads);
        reads.skip_in(&plan, |number, offset, len| {
            shards_read(certs.get(number)?.as_ref()?, offset, len)
        });
    }

    /// Data shard `shard` through the shard cache (fetched and hash-checked once).
    async fn cached_shard(&self, cert: &Certificate, shard: usize) -> Option<bytes::Bytes> {
        let name = cert.name();
        let slot = match self.read_plan() {
            Some(plan) => self
                .shards
                .slot_planned(&(name, shard), Some(&|k| plan.next_use(k))),
            None => self.shards.slot(&(name, shard)),
        };
        slot.get_or_init(|| async { self.fetch_verified(cert, shard).await })
            .await
            .clone()
    }

    /// Keep the shard cache ahead of a restore that follows a read plan: fetch the
    /// shards of the plan's next `window` runs that live on high-latency remotes, all at
    /// once (so every remote holding one works at the same time), wait until the restore
    /// moves on, and again, until the plan is finished
    /// ([`finish_read_plan`](Self::finish_read_plan)). Failures are left for the reader
    /// to meet (and fall back from).
    pub fn prefetch_planned(&self, window: usize) {
        let Some(plan) = self.read_plan() else {
            return;
        };
        let mut seen = None;
        while let Some((changes, keys)) = plan.upcoming(seen, window) {
            seen = Some(changes);
            // In the order they are read, and only while fetching one would give up no
            // shard needed sooner (that one would just be fetched again). Each is checked
            // against the cache as it is, not counting the ones about to be added: counting
            // them saved 1-8 MB of 500 on the benchmark tree but kept fewer shards ahead
            // (S3 restore 9.0 s against 8.2).
            let next_use = |k: &(ExtentName, usize)| plan.next_use(k);
            let wanted: Vec<(Arc<Certificate>, usize)> = keys
                .iter()
                .take_while(|key| self.shards.has_room_for(key, &next_use))
                .filter_map(|(name, shard)| {
                    let cert = self.certificate(name).ok()?;
                    let remote = self.remotes.get(cert.shards.get(*shard)?.remote as usize)?;
                    remote.high_latency().then_some((cert, *shard))
                })
                .collect();
            self.fetch_into_cache(&wanted);
        }
    }

    fn read_range_fast(&self, cert: &Certificate, offset: u64, len: u64) -> Result<Vec<u8>> {
        let name = cert.name();
        let parts = cert.locate(offset, len);
        let reads = parts.iter().map(|&(shard, within, n)| {
            let i = cert.shards[shard].remote as usize;
            let path = name.shard_path(shard);
            async move { self.get_range_from(i, &path, within, n).await }
        });
        let mut out = Vec::with_capacity(len as usize);
        for r in self.rt.block_on(join_all(reads)) {
            out.extend_from_slice(&r?);
        }
        Ok(out)
    }

    /// The extent's data, from any `s + t` symbols of its codeword that pass their
    /// certified hashes, or, when too few are left, through the later codewords that
    /// point at its data shards (peeling, read only: [`super::rebuild`]). Failures are
    /// not cached: a remote may be back next time.
    pub fn rebuilt_extent(&self, cert: &Certificate) -> Result<Arc<Vec<u8>>> {
        let name = cert.name();
        let slot = self.decoded.slot(&name);
        let result = slot
            .get_or_init(|| {
                self.rebuild(cert, &mut vec![name])
                    .or_else(|own| self.rebuild_through_others(cert, own))
                    .map(Arc::new)
            })
            .clone();
        if result.is_err() {
            self.decoded.forget(&name);
        }
        result
    }

    /// Fetch shard `index` of an extent from its certified remote, reading no more than
    /// its certified size, and accept it only if it has exactly that size and matches
    /// the certified hash (a certificate may vouch for a shorter shard: its writer was
    /// buggy or its key stolen, and the extent must not come out short).
    pub(crate) async fn fetch_verified(
        &self,
        cert: &Certificate,
        index: usize,
    ) -> Option<bytes::Bytes> {
        let info = cert.shards.get(index)?;
        let path = cert.name().shard_path(index);
        match self
            .get_from(info.remote as usize, &path, cert.shard_size as u64)
            .await
        {
            Ok(b)
                if b.len() == cert.shard_size as usize
                    && blake3::hash(&b).as_bytes() == &info.hash =>
            {
                self.note_read_intact(cert, index);
                Some(b)
            }
            Ok(_) => {
                self.note_read_around(cert, index, ShardDamage::Corrupt);
                None
            }
            Err(e) => {
                self.note_read_failed(cert, index, &e);
                None
            }
        }
    }

    /// Shard `index` of an extent as a pointer input for sealing: read from its
    /// certified remote [`SHARD_WINDOW`] bytes at a time as the encoder gets to them,
    /// and hash-checked once read through, so sealing never holds a pointer shard whole.
    /// A remote with a round trip per request gets one whole read instead. `None` if
    /// the first read fails (a shard still uploading, a remote down).
    pub(crate) fn pointer_input(
        &self,
        cert: &Certificate,
        index: usize,
    ) -> Option<Box<dyn StripeSource + '_>> {
        let info = cert.shards.get(index)?;
        let remote = info.remote as usize;
        if self.remotes.get(remote)?.high_latency() {
            let whole = self.rt.block_on(self.fetch_verified(cert, index))?;
            return Some(Box::new(whole));
        }
        let path = cert.name().shard_path(index);
        let fetch = move |at: usize, n: usize| {
            let read = self.get_range_from(remote, &path, at as u64, n as u64);
            self.rt.block_on(read).ok()
        };
        let mut stream = ShardStream::new(Box::new(fetch), cert.shard_size as usize, info.hash);
        stream.next_window();
        (!stream.failed).then(|| Box::new(stream) as Box<dyn StripeSource>)
    }

    /// `path`: the extents whose rebuild is waiting for this one (this one included).
    fn rebuild(&self, cert: &Certificate, path: &mut Vec<ExtentName>) -> Result<Vec<u8>> {
        let name = cert.name();
        let (s, ss) = (cert.data_shards as usize, cert.shard_size as usize);
        let fetch = |range: std::ops::Range<usize>| {
            let futs = range.map(|i| self.fetch_verified(cert, i));
            self.rt
                .block_on(join_all(futs))
                .into_iter()
                .map(|b| b.map(|b| b.to_vec()))
                .collect::<Vec<_>>()
        };
        // Data shards first: if they are all good nothing needs decoding.
        let mut data = fetch(0..s);
        if data.iter().any(|d| d.is_none()) {
            let pointers = self.pointer_inputs_recovering(cert, path);
            let parity = fetch(s..cert.shards.len());
            let originals = s + pointers.len();
            let mut shards: Vec<Option<Vec<u8>>> =
                data.into_iter().chain(pointers).chain(parity).collect();
            codec::reconstruct(&mut shards, originals, ss)
                .map_err(|e| e.context(format!("extent {} cannot be rebuilt", name.short())))?;
            shards.truncate(s);
            data = shards;
        }
        let mut out = Vec::with_capacity(s * ss);
        for d in &data {
            out.extend_from_slice(d.as_deref().unwrap_or_default());
        }
        out.truncate(cert.size as usize);
        Ok(out)
    }

    /// The pointer inputs of a codeword, zero-padded to its shard size (`None` where a
    /// pointer cannot be fetched intact: it then counts as an erasure).
    /// Pointer inputs; one that cannot be fetched intact is rebuilt from its own
    /// extent's codeword (pointers are strictly older, so this recursion ends).
    fn pointer_inputs_recovering(
        &self,
        cert: &Certificate,
        path: &mut Vec<ExtentName>,
    ) -> Vec<Option<Vec<u8>>> {
        let mut inputs = self.pointer_inputs(cert);
        for (slot, p) in inputs.iter_mut().zip(&cert.pointers) {
            if slot.is_some() {
                continue;
            }
            let Ok(pc) = self.certificate(&p.extent) else {
                continue;
            };
            if p.shard >= pc.data_shards || pc.shard_size > cert.shard_size {
                continue;
            }
            // Rebuilt here, not through the decoded-extent cache, whose slots only
            // top-level reads wait on: owner-signed certificates that point at each
            // other (a buggy writer, a stolen key) must not make a rebuild wait on
            // itself. The cycle is cut where it closes; that pointer counts as missing.
            if path.contains(&p.extent) {
                continue;
            }
            path.push(p.extent);
            let rebuilt = self.rebuild(&pc, path);
            path.pop();
            if let Ok(data) = rebuilt {
                let ss = pc.shard_size as usize;
                let start = p.shard as usize * ss;
                let end = (start + ss).min(data.len());
                let mut b = vec![0u8; cert.shard_size as usize];
                if start < end {
                    b[..end - start].copy_from_slice(&data[start..end]);
                }
                *slot = Some(b);
            }
        }
        inputs
    }

    pub(crate) fn pointer_inputs(&self, cert: &Certificate) -> Vec<Option<Vec<u8>>> {
        self.rt.block_on(self.pointer_inputs_async(cert))
    }

    pub(crate) async fn pointer_inputs_async(&self, cert: &Certificate) -> Vec<Option<Vec<u8>>> {
        let futs = cert.pointers.iter().map(|ptr| async move {
            let target = self.certificate_async(&ptr.extent).await.ok()?;
            if ptr.shard >= target.data_shards || target.shard_size > cert.shard_size {
                return None;
            }
            let mut b = self
                .fetch_verified(&target, ptr.shard as usize)
                .await?
                .to_vec();
            b.resize(cert.shard_size as usize, 0);
            Some(b)
        });
        join_all(futs).await
    }
}

/// How much of a pointer shard [`ShardStream`] reads at a time (a whole number of the
/// encoder's stripes, so a stripe never spans two windows).
pub(crate) const SHARD_WINDOW: usize = 4 * codec::STRIPE;
const _: () = assert!(SHARD_WINDOW % codec::STRIPE == 0);

/// Reads `n` bytes at an offset of a shard from its remote; `None` if that fails.
type FetchRange<'a> = Box<dyn FnMut(usize, usize) -> Option<bytes::Bytes> + 'a>;

/// A certified shard read a window at a time (see [`Repository::pointer_input`]).
struct ShardStream<'a> {
    fetch: FetchRange<'a>,
    /// The certified size and hash.
    size: usize,
    hash: [u8; 32],
    hasher: blake3::Hasher,
    window: bytes::Bytes,
    window_at: usize,
    /// A read failed or came back short: what follows is zeros and the shard is refused.
    failed: bool,
}

impl<'a> ShardStream<'a> {
    fn new(fetch: FetchRange<'a>, size: usize, hash: [u8; 32]) -> Self {
        ShardStream {
            fetch,
            size,
            hash,
            hasher: blake3::Hasher::new(),
            window: bytes::Bytes::new(),
            window_at: 0,
            failed: false,
        }
    }

    fn next_window(&mut self) {
        let at = self.window_at + self.window.len();
        let n = SHARD_WINDOW.min(self.size - at);
        match (self.fetch)(at, n) {
            Some(b) if b.len() == n => {
                self.hasher.update(&b);
                self.window = b;
                self.window_at = at;
            }
            _ => {
                self.failed = true;
                self.window = bytes::Bytes::new();
            }
        }
    }
}

impl StripeSource for ShardStream<'_> {
    fn size(&self) -> usize {
        self.size
    }

    fn stripe(&mut self, off: usize, len: usize) -> &[u8] {
        let end = (off + len).min(self.size);
        if off >= end || self.failed {
            return &[];
        }
        if off < self.window_at {
            // Coded again (another pointer was refused): read through from the start.
            self.hasher.reset();
            self.window = bytes::Bytes::new();
            self.window_at = 0;
        }
        if end > self.window_at + self.window.len() {
            self.next_window();
            if self.failed {
                return &[];
            }
        }
        let within = off.saturating_sub(self.window_at);
        let upto = end - self.window_at;
        self.window.get(within..upto).unwrap_or_default()
    }

    fn verified(&mut self) -> bool {
        !self.failed
            && self.window_at + self.window.len() == self.size
            && self.hasher.finalize().as_bytes() == &self.hash
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::STRIPE;

    type Cache = OnceCache<u8, OnceLock<u8>>;

    fn keys(cache: &Cache) -> Vec<u8> {
        let e = cache.entries.lock().unwrap_or_else(|p| p.into_inner());
        e.iter().map(|(k, _)| *k).collect()
    }

    #[test]
    fn a_planned_cache_gives_up_what_is_not_read_again_then_what_is_read_last() {
        // Next reads: 1 at 50, 2 never, 3 at 10, 4 at 70, 5 (being added) at 5.
        let next = |k: &u8| match k {
            1 => Some(50),
            3 => Some(10),
            4 => Some(70),
            5 => Some(5),
            _ => None,
        };
        let cache = Cache::new(3);
        for k in [1, 2, 3] {
            cache.slot_planned(&k, Some(&next));
        }
        cache.slot_planned(&5, Some(&next));
        assert_eq!(keys(&cache), vec![1, 3, 5], "2 is never read again");
        cache.slot_planned(&4, Some(&next));
        assert_eq!(
            keys(&cache),
            vec![3, 5, 4],
            "1 is read last of those in; 4 is being read"
        );
        // Without a plan: the oldest goes.
        cache.slot(&9);
        assert_eq!(keys(&cache), vec![5, 4, 9]);
    }

    #[test]
    fn prefetching_takes_only_the_places_of_shards_needed_later() {
        // Read next: 1 at 10, 2 at 40, 6 at 20, 7 at 30, 8 at 50; 3 never.
        let next = |k: &u8| match k {
            1 => Some(10),
            2 => Some(40),
            6 => Some(20),
            7 => Some(30),
            8 => Some(50),
            _ => None,
        };
        let cache = Cache::new(3);
        cache.slot_planned(&1, Some(&next));
        assert!(cache.has_room_for(&8, &next), "a free place");
        for k in [2, 3] {
            cache.slot_planned(&k, Some(&next));
        }
        assert!(cache.has_room_for(&8, &next), "3 is never read again");
        assert!(cache.has_room_for(&1, &next), "already in");
        cache.slot_planned(&6, Some(&next));
        assert_eq!(keys(&cache), vec![1, 2, 6]);
        assert!(cache.has_room_for(&7, &next), "2 is read after 7");
        assert!(!cache.has_room_for(&8, &next), "all in are read before 8");
    }

    /// A shard served from memory.
    fn stream_over(shard: &[u8], hash: [u8; 32]) -> ShardStream<'static> {
        let data = bytes::Bytes::copy_from_slice(shard);
        let fetch = move |at: usize, n: usize| Some(data.slice(at..(at + n).min(data.len())));
        ShardStream::new(Box::new(fetch), shard.len(), hash)
    }

    fn read_through(s: &mut ShardStream<'_>) -> Vec<u8> {
        let mut out = Vec::new();
        let mut off = 0;
        while off < s.size() {
            let part = s.stripe(off, STRIPE).to_vec();
            out.extend_from_slice(&part);
            off += STRIPE;
        }
        out
    }

    #[test]
    fn shard_stream_hands_out_the_shard_and_checks_it_each_time_through() {
        let shard: Vec<u8> = (0..SHARD_WINDOW * 2 + STRIPE + 64)
            .map(|i| (i % 251) as u8)
            .collect();
        let hash = *blake3::hash(&shard).as_bytes();
        let mut s = stream_over(&shard, hash);
        s.next_window();
        assert_eq!(read_through(&mut s), shard);
        assert!(s.verified());
        // Coded again after another pointer was refused: read through from the start.
        assert_eq!(read_through(&mut s), shard);
        assert!(s.verified(), "the second pass hashes the shard afresh");
        // A shard that is not the certified one is refused once read through.
        let mut other = shard.clone();
        other[SHARD_WINDOW + 5] ^= 1;
        let mut s = stream_over(&other, hash);
        s.next_window();
        assert_eq!(read_through(&mut s), other);
        assert!(!s.verified());
    }

    #[test]
    fn shard_stream_refuses_a_short_read_and_hands_out_nothing_after_it() {
        let shard: Vec<u8> = vec![7; SHARD_WINDOW + 100];
        let hash = *blake3::hash(&shard).as_bytes();
        let served = bytes::Bytes::from(shard[..SHARD_WINDOW + 10].to_vec());
        let fetch = move |at: usize, n: usize| Some(served.slice(at..(at + n).min(served.len())));
        let mut s = ShardStream::new(Box::new(fetch), shard.len(), hash);
        s.next_window();
        assert!(!s.failed);
        assert_eq!(s.stripe(SHARD_WINDOW, STRIPE), &[] as &[u8]);
        assert!(!s.verified());
    }
}
