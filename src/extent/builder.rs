//! Building an extent: append blocks, then seal (pad, split, code, hash, sign).
//!
//! The builder knows blocks, not blobs: what a block is (a blob's id, kind and plaintext
//! length, for the index) is the content layer's business, so the caller keeps that
//! beside the offsets [`ExtentBuilder::append`] returns (the extent log sits below the
//! content layer and never imports it).

use bytes::Bytes;

use super::{BufferPool, Certificate, ExtentName, Pointer, ShardInfo, chain};
use crate::codec::{self, Coding, StripeSource};
use crate::crypto::Signer;
use crate::error::Result;

pub(crate) struct ExtentBuilder {
    data: Vec<u8>,
    block_lengths: Vec<u32>,
    /// Where the buffer comes from and goes back to once sealed, if anywhere.
    pool: Option<BufferPool>,
    /// `data` is a fresh allocation, to be swapped for an idle pooled one.
    fresh: bool,
}

/// Everything sealing needs besides the blocks.
pub(crate) struct SealContext<'a> {
    pub(crate) repo_id: [u8; 16],
    pub(crate) writer: [u8; 16],
    pub(crate) seq: u64,
    pub(crate) prev: Option<ExtentName>,
    /// Where this extent's hash chain starts: the previous extent's name, or the
    /// owner's genesis verifier for a writer's first extent.
    pub(crate) start_verifier: [u8; 32],
    pub(crate) coding: Coding,
    pub(crate) remotes: usize,
    pub(crate) signer: &'a Signer,
}

pub(crate) struct SealedExtent {
    pub(crate) cert: Certificate,
    pub(crate) cert_object: Bytes,
    /// Data shards then parity shards, as stored.
    pub(crate) shards: Vec<Bytes>,
}

/// A pointer as one of the encoder's inputs (for as long as the encoding borrows it).
fn as_input<'s>(b: &'s mut Box<dyn StripeSource + '_>) -> &'s mut dyn StripeSource {
    b.as_mut()
}

impl SealedExtent {
    pub(crate) fn name(&self) -> ExtentName {
        self.cert.name()
    }
}

impl ExtentBuilder {
    /// The chain is computed when the extent is sealed, not as blocks arrive: a writer
    /// may fill two builders at once (data and trees, see the backup's appender) and
    /// seal them in either order.
    pub(crate) fn new(capacity: usize) -> Self {
        ExtentBuilder {
            data: Vec::with_capacity(capacity),
            block_lengths: Vec::new(),
            pool: None,
            fresh: false,
        }
    }

    /// A builder whose data buffer comes from `pool` and returns to it once the sealed
    /// extent's data shards are dropped. While the previous extent is still uploading no
    /// buffer is idle: the builder starts in a fresh one and moves to the pooled one as
    /// soon as it is back (see `append`).
    pub(crate) fn pooled(pool: &BufferPool, capacity: usize) -> Self {
        let (data, fresh) = match pool.reuse(capacity) {
            Some(buf) => (buf, false),
            None => (Vec::with_capacity(capacity), true),
        };
        ExtentBuilder {
            data,
            block_lengths: Vec::new(),
            pool: Some(pool.clone()),
            fresh,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.data.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Append one block (a stored blob); returns its offset in the extent's data.
    pub(crate) fn append(&mut self, block: &[u8]) -> u32 {
        if self.fresh {
            self.adopt_idle_buffer();
        }
        let offset = self.data.len() as u32;
        self.block_lengths.push(block.len() as u32);
        self.data.extend_from_slice(block);
        offset
    }

    /// Swap a fresh buffer for a pooled one that has become idle, copying what is in it
    /// so far (little: uploads finish early in the next extent's filling) and freeing the
    /// fresh one. An idle buffer never sits resident beside the one being filled, and
    /// only the part of the fresh one filled before the swap is newly touched memory.
    fn adopt_idle_buffer(&mut self) {
        let Some(pool) = &self.pool else { return };
        if let Some(mut buf) = pool.reuse(self.data.capacity()) {
            buf.extend_from_slice(&self.data);
            self.data = buf;
            self.fresh = false;
        }
    }

    /// The hash chain over the blocks from `start` (the extent's name once sealed).
    fn verifier(&self, start: [u8; 32]) -> [u8; 32] {
        let mut at = 0usize;
        self.block_lengths.iter().fold(start, |v, &len| {
            let block = &self.data[at..at + len as usize];
            at += len as usize;
            chain(&v, block)
        })
    }

    /// Shard size the extent needs for its own data (pointers may make it larger).
    pub(crate) fn own_shard_size(&self, data_shards: usize) -> usize {
        codec::shard_size_for(self.data.len(), data_shards)
    }

    /// Pad, split, code with `pointers` (data shards of older extents, each at most the
    /// codeword's shard size, zero-padded to it), hash and sign. A pointer that turns
    /// out not to be its certified shard once read through is left out and the codeword
    /// coded again without it: fewer pointers, never a wrong one.
    pub(crate) fn seal(
        self,
        ctx: &SealContext<'_>,
        mut pointers: Vec<(Pointer, Box<dyn StripeSource + '_>)>,
    ) -> Result<SealedExtent> {
        let s = ctx.coding.data_shards as usize;
        let p = ctx.coding.parity_shards as usize;
        let size = self.data.len();
        let own_shard_size = self.own_shard_size(s);
        let verifier = self.verifier(ctx.start_verifier);
        let mut data = self.data;
        let (shard_size, parity) = loop {
            let shard_size = pointers
                .iter()
                .map(|(_, b)| b.size())
                .fold(own_shard_size, usize::max);
            data.resize(shard_size * s, 0);
            let mut own: Vec<&[u8]> = data.chunks(shard_size).collect();
            let mut inputs: Vec<&mut dyn StripeSource> = own
                .iter_mut()
                .map(|b| b as &mut dyn StripeSource)
                .chain(pointers.iter_mut().map(|(_, b)| as_input(b)))
                .collect();
            let parity = codec::encode_parity_streamed(&mut inputs, shard_size, p)?;
            let before = pointers.len();
            pointers.retain_mut(|(_, b)| b.verified());
            if pointers.len() == before {
                break (shard_size, parity);
            }
            data.truncate(size);
        };
        let data = match &self.pool {
            Some(pool) => pool.share(data),
            None => Bytes::from(data),
        };
        let mut shards: Vec<Bytes> = (0..s)
            .map(|i| data.slice(i * shard_size..(i + 1) * shard_size))
            .collect();
        // Parity is fresh memory, not pooled: a pooled buffer for it would sit resident,
        // unused, while the next extent fills (12 MiB more at the backup's peak).
        shards.extend(parity.into_iter().map(Bytes::from));
        let infos = shards
            .iter()
            .enumerate()
            .map(|(i, b)| ShardInfo {
                hash: *blake3::hash(b).as_bytes(),
                remote: codec::place(ctx.seq, i, ctx.remotes) as u16,
            })
            .collect();
        let cert = Certificate {
            repo_id: ctx.repo_id,
            writer: ctx.writer,
            seq: ctx.seq,
            prev: ctx.prev,
            start_verifier: ctx.start_verifier,
            verifier,
            block_lengths: self.block_lengths,
            size: size as u64,
            timestamp: chrono::Utc::now().timestamp(),
            data_shards: s as u8,
            parity_shards: p as u8,
            shard_size: shard_size as u32,
            pointers: pointers.iter().map(|(ptr, _)| *ptr).collect(),
            shards: infos,
            placement: 0,
        };
        let cert_object = Bytes::from(cert.to_object(ctx.signer)?);
        Ok(SealedExtent {
            cert,
            cert_object,
            shards,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 4+3 codeword on 3 remotes, a writer's extent `seq` chained from `start`.
    fn context(signer: &Signer, seq: u64, start: [u8; 32]) -> SealContext<'_> {
        SealContext {
            repo_id: [0; 16],
            writer: [0; 16],
            seq,
            prev: None,
            start_verifier: start,
            coding: Coding {
                data_shards: 4,
                parity_shards: 3,
                pointers: 2,
                strategy: Default::default(),
            },
            remotes: 3,
            signer,
        }
    }

    #[test]
    fn seal_produces_consistent_certificate() {
        let signer = Signer::from_seed(&[1; 32]);
        let mut b = ExtentBuilder::new(0);
        assert_eq!(b.append(b"hello"), 0);
        assert_eq!(b.append(b"abc"), 5);
        let ctx = context(&signer, 1, [0; 32]);
        let sealed = b.seal(&ctx, Vec::new()).unwrap();
        let cert = Certificate::from_object(
            &sealed.cert_object,
            &crate::crypto::Signers::owner_only(signer.public()),
            &sealed.name(),
        )
        .unwrap();
        assert_eq!(cert.size, 8);
        assert_eq!(sealed.shards.len(), 7);
        assert_eq!(cert.verifier, chain(&chain(&[0; 32], b"hello"), b"abc"));
        for (shard, info) in sealed.shards.iter().zip(&cert.shards) {
            assert_eq!(blake3::hash(shard).as_bytes(), &info.hash);
            assert_eq!(shard.len(), cert.shard_size as usize);
        }
        assert_eq!(&sealed.shards[0][..8], b"helloabc");
    }

    /// Seal three blobs appended to `b` (the second one after `between` ran).
    fn seal_three(mut b: ExtentBuilder, between: impl FnOnce()) -> SealedExtent {
        let signer = Signer::from_seed(&[1; 32]);
        b.append(&[3u8; 1000]);
        between();
        b.append(&[4u8; 333]);
        b.append(&[5u8; 77]);
        b.seal(&context(&signer, 1, [0; 32]), Vec::new()).unwrap()
    }

    #[test]
    fn reused_buffers_seal_exactly_as_fresh_ones() {
        let fresh = seal_three(ExtentBuilder::new(0), || ());
        // An idle buffer full of an older extent's bytes: none of them may leak into the
        // new extent's padding.
        let pool = BufferPool::new();
        drop(pool.share(vec![0xAA; 64 << 10]));
        let reused = seal_three(ExtentBuilder::pooled(&pool, 4096), || ());
        // A builder that starts fresh and moves into a buffer that comes back mid-way.
        let pool = BufferPool::new();
        let moved = seal_three(ExtentBuilder::pooled(&pool, 4096), || {
            drop(pool.share(vec![0xAA; 64 << 10]))
        });
        assert_eq!(pool.idle(), 0, "the builder took the buffer that came back");
        for other in [&reused, &moved] {
            assert_eq!(other.shards, fresh.shards);
            assert_eq!(other.cert.shards, fresh.cert.shards);
            assert_eq!(other.name(), fresh.name());
        }
        drop((reused, moved));
        assert_eq!(
            pool.idle(),
            1,
            "the shards' buffer returns once they are dropped"
        );
    }

    #[test]
    fn seal_with_pointers_pads_and_codes_them() {
        let signer = Signer::from_seed(&[1; 32]);
        let mut b = ExtentBuilder::new(0);
        b.append(&[7u8; 100]);
        let ctx = context(&signer, 2, [0; 32]);
        // One pointer larger than the extent's own shards: the codeword grows to it.
        let big = Bytes::from(vec![9u8; 256]);
        let small = Bytes::from(vec![5u8; 64]);
        let ptrs = vec![
            (
                Pointer {
                    extent: ExtentName([8; 32]),
                    shard: 1,
                },
                Box::new(big.clone()) as Box<dyn StripeSource>,
            ),
            (
                Pointer {
                    extent: ExtentName([9; 32]),
                    shard: 0,
                },
                Box::new(small.clone()),
            ),
        ];
        let sealed = b.seal(&ctx, ptrs).unwrap();
        assert_eq!(sealed.cert.shard_size, 256);
        assert_eq!(sealed.cert.pointers.len(), 2);
        assert_eq!(sealed.shards.len(), 7);
        // Lose three own data shards; rebuild from the rest plus the (padded) pointers.
        let mut padded_small = small.to_vec();
        padded_small.resize(256, 0);
        let mut symbols: Vec<Option<Vec<u8>>> =
            vec![None, None, None, Some(sealed.shards[3].to_vec())];
        symbols.push(Some(big.to_vec()));
        symbols.push(Some(padded_small));
        symbols.extend(sealed.shards[4..].iter().map(|s| Some(s.to_vec())));
        codec::reconstruct(&mut symbols, 6, 256).unwrap();
        for (got, want) in symbols.iter().zip(&sealed.shards).take(3) {
            assert_eq!(got.as_deref(), Some(&want[..]));
        }
    }
}
