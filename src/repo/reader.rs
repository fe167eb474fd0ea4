//! Reading blobs back. The fast path reads the blob's byte range straight from the data
//! shard(s) holding it (systematic code: no decoding). If that fails — shard missing,
//! remote gone, bytes corrupt (the AEAD and the id check catch it) — the whole extent is
//! rebuilt from any `s` shards that match their certified BLAKE3, and kept in a small
//! cache because neighbouring blobs usually need the same extent.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, OnceLock};

use futures::future::join_all;

use super::Repository;
use crate::codec;
use crate::content::{BlobId, BlobKind, Tree, decode_blob};
use crate::error::{Error, Result};
use crate::extent::{Certificate, ExtentName};

type Decoded = Arc<OnceLock<Result<Arc<Vec<u8>>>>>;

/// Recently rebuilt extents; concurrent readers of one extent share one rebuild.
pub(super) struct DecodedCache {
    capacity: usize,
    entries: Mutex<VecDeque<(ExtentName, Decoded)>>,
}

impl DecodedCache {
    pub(super) fn new(capacity: usize) -> Self {
        DecodedCache {
            capacity,
            entries: Mutex::new(VecDeque::new()),
        }
    }

    fn slot(&self, name: &ExtentName) -> Decoded {
        let mut e = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((_, d)) = e.iter().find(|(n, _)| n == name) {
            return d.clone();
        }
        let d: Decoded = Arc::default();
        e.push_back((*name, d.clone()));
        while e.len() > self.capacity {
            e.pop_front();
        }
        d
    }
}

impl Repository {
    /// The plaintext of a blob, checked against its id.
    pub fn read_blob(&self, id: &BlobId, kind: BlobKind) -> Result<Vec<u8>> {
        let (extent, loc) = self.index.get(id).ok_or_else(|| {
            Error::corrupt(format!(
                "blob {} is not in the index",
                hex::encode(&id[..4])
            ))
        })?;
        let key = self.key()?;
        let cert = self.certificate(&extent)?;
        let (offset, len) = (loc.offset as u64, loc.length as u64);
        if offset + len > cert.size {
            return Err(Error::corrupt(format!(
                "index points past the end of extent {}",
                extent.short()
            )));
        }
        if let Ok(stored) = self.read_range_fast(&cert, offset, len) {
            if let Ok(plain) = decode_blob(key, kind, id, &stored, loc.raw_len as usize) {
                return Ok(plain);
            }
        }
        let data = self.rebuilt_extent(&cert)?;
        decode_blob(
            key,
            kind,
            id,
            &data[offset as usize..(offset + len) as usize],
            loc.raw_len as usize,
        )
        .map_err(|e| {
            e.context(format!(
                "blob {} in extent {}",
                hex::encode(&id[..4]),
                extent.short()
            ))
        })
    }

    pub fn load_tree(&self, id: &BlobId) -> Result<Tree> {
        Tree::from_bytes(&self.read_blob(id, BlobKind::Tree)?)
    }

    fn read_range_fast(&self, cert: &Certificate, offset: u64, len: u64) -> Result<Vec<u8>> {
        let name = cert.name();
        let parts = cert.locate(offset, len);
        let reads = parts.iter().map(|&(shard, within, n)| {
            let remote = &self.remotes[cert.shards[shard].remote as usize];
            let path = name.shard_path(shard);
            async move { remote.get_range(&path, within, n).await }
        });
        let mut out = Vec::with_capacity(len as usize);
        for r in self.rt.block_on(join_all(reads)) {
            out.extend_from_slice(&r?);
        }
        Ok(out)
    }

    /// The extent's data, from any `s` shards that pass their certified hash.
    pub fn rebuilt_extent(&self, cert: &Certificate) -> Result<Arc<Vec<u8>>> {
        let slot = self.decoded.slot(&cert.name());
        slot.get_or_init(|| self.rebuild(cert).map(Arc::new))
            .clone()
    }

    fn rebuild(&self, cert: &Certificate) -> Result<Vec<u8>> {
        let name = cert.name();
        let fetches = cert.shards.iter().enumerate().map(|(i, info)| {
            let remote = &self.remotes[info.remote as usize];
            let path = name.shard_path(i);
            async move {
                match remote.get(&path).await {
                    Ok(b) if blake3::hash(&b).as_bytes() == &info.hash => Some(b.to_vec()),
                    _ => None,
                }
            }
        });
        let mut shards: Vec<Option<Vec<u8>>> = self.rt.block_on(join_all(fetches));
        let s = cert.data_shards as usize;
        // Pointer inputs are not stored with this extent; until entanglement reads them,
        // an extent with pointers decodes only from its own shards when no input is lost.
        if !cert.pointers.is_empty() {
            return Err(Error::corrupt(format!(
                "extent {} needs pointer shards to rebuild",
                name.short()
            )));
        }
        codec::reconstruct(&mut shards, s, cert.shard_size as usize)
            .map_err(|e| e.context(format!("extent {} cannot be rebuilt", name.short())))?;
        let mut data = Vec::with_capacity(s * cert.shard_size as usize);
        for sh in shards.iter().take(s) {
            data.extend_from_slice(sh.as_deref().unwrap_or_default());
        }
        data.truncate(cert.size as usize);
        Ok(data)
    }
}
