//! Reading blobs back. The fast path reads the blob's byte range straight from the data
//! shard(s) holding it (systematic code: no decoding). If that fails — shard missing,
//! remote gone, bytes corrupt (the AEAD and the id check catch it) — the whole extent is
//! rebuilt from any `s + t` symbols of its codeword that match their certified BLAKE3
//! (else through later codewords, [`super::rebuild`]), and kept in a small cache because
//! neighbouring blobs usually need the same extent.
//!
//! One file per job: this one reads blobs (and says how, [`ReadMode`]); `fast.rs` is
//! the fast path (a blob's byte range straight from its shards, or through the shard
//! cache), `once_cache.rs` the caches (whole shards, rebuilt extents), `planned.rs` the
//! read plan a restore has the shard cache follow (`read_plan.rs` holds the plan itself),
//! `ahead.rs` what is fetched before it is read (tree shards, the plan's next shards),
//! `codeword.rs` an extent rebuilt from its own codeword and its pointer inputs, and
//! `shard_stream.rs` a pointer shard read a window at a time for sealing.

mod ahead;
mod codeword;
mod fast;
mod once_cache;
mod planned;
mod shard_stream;

use std::sync::{Arc, OnceLock};

pub(crate) use self::ahead::{TREE_SHARDS_AHEAD, TREES_AHEAD};
use self::once_cache::OnceCache;
use super::read_around::ShardDamage;
use super::{HasIndex, Repository, State};
use crate::content::{BlobId, BlobKind, Tree, decode_blob, decode_blob_then};
use crate::crypto::ContentKeys;
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

/// Extents rebuilt from their codeword.
pub(super) type DecodedCache = OnceCache<ExtentName, OnceLock<Result<Arc<Vec<u8>>>>>;
/// Whole data shards, hash-checked, for streaming reads (restore, dump); filled by
/// readers and by [`Repository::prefetch_planned`] concurrently, each shard fetched once.
pub(super) type ShardCache =
    OnceCache<(ExtentName, usize), tokio::sync::OnceCell<Option<bytes::Bytes>>>;

/// How to fetch the bytes of a blob when nothing is missing.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum ReadMode {
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

/// Blobs are found through the index and decrypted with the key.
impl<S: HasIndex> Repository<S> {
    /// The plaintext of a blob, checked against its id.
    pub fn read_blob(&self, id: &BlobId, kind: BlobKind) -> Result<Vec<u8>> {
        self.read_blob_with(id, kind, ReadMode::Range)
    }

    /// [`read_blob`](Self::read_blob) with a choice of how the bytes are fetched.
    pub(crate) fn read_blob_with(
        &self,
        id: &BlobId,
        kind: BlobKind,
        mode: ReadMode,
    ) -> Result<Vec<u8>> {
        self.read_blob_checked(id, mode, |key, stored, raw_len| {
            decode_blob(key, kind, id, stored, raw_len)
        })
    }

    /// [`read_blob_with`](Self::read_blob_with), handing the plaintext to `use_plain`
    /// (called once, if the blob is read: a decode that fails calls nothing) instead of
    /// returning it: decoded in buffers this thread reuses from blob to blob, where a
    /// restore or a dump needs the bytes only long enough to write them.
    pub(crate) fn read_blob_then<T>(
        &self,
        id: &BlobId,
        kind: BlobKind,
        mode: ReadMode,
        mut use_plain: impl FnMut(&[u8]) -> T,
    ) -> Result<T> {
        self.read_blob_checked(id, mode, |key, stored, raw_len| {
            decode_blob_then(key, kind, id, stored, raw_len, &mut use_plain)
        })
    }

    /// A blob's stored form (sealed, as in its extent), after checking that it decodes
    /// to its id: what `delete` copies when it repacks an extent.
    pub(crate) fn read_blob_stored(&self, id: &BlobId, kind: BlobKind) -> Result<Vec<u8>> {
        self.read_blob_checked(id, ReadMode::Range, |key, stored, raw_len| {
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
        mut decode: impl FnMut(&dyn ContentKeys, &[u8], usize) -> Result<T>,
    ) -> Result<T> {
        let (extent, loc) = self.index().get(id).ok_or_else(|| {
            Error::corrupt(format!(
                "blob {} is not in the index",
                hex::encode(&id[..4])
            ))
        })?;
        // A writer's extent: its run's keys; else the master key.
        let key: &dyn ContentKeys = match self.index().keys_of(&loc) {
            Some(keys) => keys,
            None => self.key(),
        };
        let mut decode = |stored: &[u8], raw_len| decode(key, stored, raw_len);
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
        if let Ok(stored) = fast
            && let Ok(decoded) = decode(&stored, loc.raw_len as usize)
        {
            return Ok(decoded);
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
    pub(crate) fn load_tree(&self, id: &BlobId) -> Result<Tree> {
        self.read_blob_then(id, BlobKind::Tree, ReadMode::Shard, Tree::from_bytes)?
    }

    /// [`load_tree`](Self::load_tree) for a read the read plan does not list (the walk
    /// that makes the plan, a look ahead into a subtree): it leaves the plan as it is.
    pub(crate) fn load_tree_off_plan(&self, id: &BlobId) -> Result<Tree> {
        self.read_blob_then(id, BlobKind::Tree, ReadMode::ShardOffPlan, Tree::from_bytes)?
    }
}

impl<S: State> Repository<S> {
    /// The extent's data, from any `s + t` symbols of its codeword that pass their
    /// certified hashes, or, when too few are left, through the later codewords that
    /// point at its data shards (peeling, read only: [`super::rebuild`]). Failures are
    /// not cached: a remote may be back next time.
    pub(crate) fn rebuilt_extent(&self, cert: &Certificate) -> Result<Arc<Vec<u8>>> {
        let name = cert.name();
        let slot = self.inner.decoded.slot(&name);
        let result = slot
            .get_or_init(|| {
                self.rebuild(cert, &mut vec![name])
                    .or_else(|own| self.rebuild_through_others(cert, own))
                    .map(Arc::new)
            })
            .clone();
        if result.is_err() {
            self.inner.decoded.forget(&name);
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
            .get_shard_from(info.remote as usize, &path, cert.shard_size as u64)
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
}
