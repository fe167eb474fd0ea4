//! An extent rebuilt from its own codeword: its data shards, else any `s + t` of its
//! symbols that match their certified hashes (data, parity, and the pointer inputs:
//! data shards of older extents, rebuilt in turn from their own codewords when lost).
//! Also the pointer inputs as sealing and `repair` read them.

use futures::future::join_all;

use super::shard_stream::ShardStream;
use crate::codec::{self, StripeSource};
use crate::error::Result;
use crate::extent::{Certificate, ExtentName};
use crate::repo::{Repository, State};

impl<S: State> Repository<S> {
    /// Shards of extents as pointer inputs for sealing: each read from its certified
    /// remote [`SHARD_WINDOW`](super::shard_stream::SHARD_WINDOW) bytes at a time as the
    /// encoder gets to them, and hash-checked once read through, so sealing never holds
    /// a pointer shard whole. A remote with a round trip per request gets one whole read
    /// instead, and those reads run concurrently, so a codeword with `t` pointers waits
    /// about one round trip for them, not `t` (over S3 a 12 + 9 backup with 6 pointers
    /// per extent waited on them one by one). `None` for a shard whose first read fails
    /// (a shard still uploading, a remote down).
    pub(crate) fn pointer_inputs_for_sealing(
        &self,
        wanted: &[(&Certificate, usize)],
    ) -> Vec<Option<Box<dyn StripeSource + '_>>> {
        let high_latency = |cert: &Certificate, index: usize| {
            cert.shards
                .get(index)
                .and_then(|info| self.inner.remotes.get(info.remote as usize))
                .is_some_and(|r| r.high_latency())
        };
        let whole =
            self.inner
                .rt
                .block_on(join_all(wanted.iter().map(|&(cert, index)| async move {
                    match high_latency(cert, index) {
                        true => Some(self.fetch_verified(cert, index).await),
                        false => None,
                    }
                })));
        wanted
            .iter()
            .zip(whole)
            .map(|(&(cert, index), whole)| match whole {
                Some(read) => read.map(|b| Box::new(b) as Box<dyn StripeSource>),
                None => self.streamed_pointer_input(cert, index),
            })
            .collect()
    }

    /// A pointer input read a window at a time (see
    /// [`pointer_inputs_for_sealing`](Self::pointer_inputs_for_sealing)).
    fn streamed_pointer_input(
        &self,
        cert: &Certificate,
        index: usize,
    ) -> Option<Box<dyn StripeSource + '_>> {
        let info = cert.shards.get(index)?;
        let remote = info.remote as usize;
        let path = cert.name().shard_path(index);
        let fetch = move |at: usize, n: usize| {
            let read = self.get_range_from(remote, &path, at as u64, n as u64);
            self.inner.rt.block_on(read).ok()
        };
        let mut stream = ShardStream::new(Box::new(fetch), cert.shard_size as usize, info.hash);
        stream.next_window();
        (!stream.failed).then(|| Box::new(stream) as Box<dyn StripeSource>)
    }

    /// `path`: the extents whose rebuild is waiting for this one (this one included).
    pub(super) fn rebuild(
        &self,
        cert: &Certificate,
        path: &mut Vec<ExtentName>,
    ) -> Result<Vec<u8>> {
        let name = cert.name();
        let (s, ss) = (cert.data_shards as usize, cert.shard_size as usize);
        let fetch = |range: std::ops::Range<usize>| {
            let futs = range.map(|i| self.fetch_verified(cert, i));
            self.inner
                .rt
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
        self.inner.rt.block_on(self.pointer_inputs_async(cert))
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
