//! A blob is one chunk of file data or one tree, compressed and encrypted:
//!
//! ```text
//! stored = nonce (24) || AEAD( flag u8 || payload ) || tag (16)      aad = [kind]
//! flag 0: payload is the plaintext; flag 1: payload is zstd(plaintext)
//! ```
//!
//! On read the id is recomputed from the plaintext, so a blob that decrypts but is not
//! the one the index promised is still rejected.

use serde::{Deserialize, Serialize};

use super::BlobId;
use super::ContentError;
use crate::crypto::{self, ContentKeys};
use crate::error::Result;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BlobKind {
    Data,
    Tree,
}

impl BlobKind {
    pub(crate) fn aad(self) -> &'static [u8] {
        match self {
            BlobKind::Data => b"d",
            BlobKind::Tree => b"t",
        }
    }
}

const RAW: u8 = 0;
const ZSTD: u8 = 1;
pub const ZSTD_LEVEL: i32 = 3;

/// Compress if it pays, then encrypt. Returns the stored bytes.
///
/// zstd (with a reused per-thread context) writes straight into the stored blob's own
/// buffer, sized for the input: pages past what zstd writes are never touched, so they
/// cost address space, not memory. The header is slid in front afterwards.
pub fn encode_blob(
    key: &(impl ContentKeys + ?Sized),
    kind: BlobKind,
    plaintext: &[u8],
) -> Result<Vec<u8>> {
    let head = crypto::NONCE_LEN + 1;
    // Compressed output must be smaller than the input to be worth it: give zstd only that
    // much room; if it does not fit, store raw.
    let room = plaintext.len().saturating_sub(1);
    let mut buf = COMPRESSOR
        .with(|cell| {
            let mut slot = cell.borrow_mut();
            let compressor = slot.as_mut()?;
            let mut buf = Vec::with_capacity(head + room + crypto::TAG_LEN);
            let n = compressor.compress_to_buffer(plaintext, &mut buf).ok()?;
            (room > 0 && n <= room).then(|| {
                let mut header = [0u8; crypto::NONCE_LEN + 1];
                header[head - 1] = ZSTD;
                // Within capacity: a move of the compressed bytes, no reallocation.
                buf.splice(0..0, header);
                buf
            })
        })
        .unwrap_or_else(|| {
            let mut buf = Vec::with_capacity(head + plaintext.len() + crypto::TAG_LEN);
            buf.resize(head - 1, 0);
            buf.push(RAW);
            buf.extend_from_slice(plaintext);
            buf
        });
    crypto::seal_in_place(key.encryption(), kind.aad(), &mut buf)?;
    Ok(buf)
}

thread_local! {
    /// Reused across blobs: creating a zstd context per chunk costs time and churn.
    static COMPRESSOR: std::cell::RefCell<Option<zstd::bulk::Compressor<'static>>> =
        std::cell::RefCell::new(zstd::bulk::Compressor::new(ZSTD_LEVEL).ok());
}

/// The same blob under a fresh nonce (same length, same framing): what a repack
/// writes, so its extents never repeat an old extent's bytes, and so never its name
/// (a verifier chain over the same blocks from the same start would give the same one).
pub(crate) fn reseal_blob(
    key: &(impl ContentKeys + ?Sized),
    kind: BlobKind,
    stored: &[u8],
) -> Result<Vec<u8>> {
    let framed = crypto::open(key.encryption(), kind.aad(), stored)?;
    crypto::seal(key.encryption(), kind.aad(), &framed)
}

/// Decrypt, decompress and check that the plaintext really is blob `id`.
pub fn decode_blob(
    key: &(impl ContentKeys + ?Sized),
    kind: BlobKind,
    id: &BlobId,
    stored: &[u8],
    raw_len: usize,
) -> Result<Vec<u8>> {
    let mut buffers = DecodeBuffers::default();
    match decode_into(key, kind, id, stored, raw_len, &mut buffers)? {
        Decoded::Raw => {
            // The flag byte goes: a move within the buffer, no second allocation.
            buffers.framed.remove(0);
            Ok(buffers.framed)
        }
        Decoded::Decompressed => Ok(buffers.plain),
    }
}

/// [`decode_blob`], handing the plaintext to `use_plain` instead of returning it: the
/// blob is decoded in this thread's buffers, reused from blob to blob. A restore decodes
/// every blob of a snapshot, and a fresh buffer per blob (twice: decrypted, then
/// decompressed) cost an allocation, page faults on fresh memory, and a copy of each
/// blob stored uncompressed.
pub(crate) fn decode_blob_then<T>(
    key: &(impl ContentKeys + ?Sized),
    kind: BlobKind,
    id: &BlobId,
    stored: &[u8],
    raw_len: usize,
    use_plain: impl FnOnce(&[u8]) -> T,
) -> Result<T> {
    // Taken out while in use: a `use_plain` that decodes a blob itself gets fresh ones.
    let mut buffers = BUFFERS.with(|b| std::mem::take(&mut *b.borrow_mut()));
    let result = decode_into(key, kind, id, stored, raw_len, &mut buffers).map(|decoded| {
        use_plain(match decoded {
            Decoded::Raw => &buffers.framed[1..],
            Decoded::Decompressed => &buffers.plain,
        })
    });
    // Kept only up to the largest blob the chunker makes, so memory stays bounded.
    if buffers.framed.capacity().max(buffers.plain.capacity()) <= PREALLOC {
        BUFFERS.with(|b| *b.borrow_mut() = buffers);
    }
    result
}

/// Where [`decode_into`] left the plaintext.
enum Decoded {
    /// `framed[1..]`: the blob was stored uncompressed.
    Raw,
    /// `plain`.
    Decompressed,
}

#[derive(Default)]
struct DecodeBuffers {
    /// The decrypted blob: flag byte, then the payload.
    framed: Vec<u8>,
    /// The payload decompressed.
    plain: Vec<u8>,
}

thread_local! {
    static BUFFERS: std::cell::RefCell<DecodeBuffers> =
        std::cell::RefCell::new(DecodeBuffers::default());
}

fn decode_into(
    key: &(impl ContentKeys + ?Sized),
    kind: BlobKind,
    id: &BlobId,
    stored: &[u8],
    raw_len: usize,
    buffers: &mut DecodeBuffers,
) -> Result<Decoded> {
    crypto::open_into(key.encryption(), kind.aad(), stored, &mut buffers.framed)?;
    let (decoded, plaintext) = match buffers.framed.split_first() {
        Some((&RAW, rest)) => (Decoded::Raw, rest),
        Some((&ZSTD, rest)) => {
            decompress_bounded_into(rest, raw_len, &mut buffers.plain)
                .map_err(ContentError::BlobDecompress)?;
            (Decoded::Decompressed, &buffers.plain[..])
        }
        _ => return Err(ContentError::UnknownCompression.into()),
    };
    if key.blob_id(plaintext) != *id {
        return Err(ContentError::BlobIdMismatch.into());
    }
    Ok(decoded)
}

/// Output room set aside before any output exists: every data blob fits in one piece
/// (chunks are at most 16 MiB), and no size merely claimed reserves more.
const PREALLOC: usize = 16 << 20;

/// zstd-decompress `data`, which must come to at most `max` bytes. Memory follows the
/// output actually produced: a length promised by the index, or a frame header, reserves
/// at most [`PREALLOC`] (a signed object may still claim gigabytes).
pub(crate) fn decompress_bounded(data: &[u8], max: usize) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    decompress_bounded_into(data, max, &mut out)?;
    Ok(out)
}

/// [`decompress_bounded`] into `out` (cleared first).
fn decompress_bounded_into(data: &[u8], max: usize, out: &mut Vec<u8>) -> std::io::Result<()> {
    use zstd::stream::raw::{Decoder, Operation};
    out.clear();
    let declared = zstd::zstd_safe::get_frame_content_size(data).ok().flatten();
    if declared.is_some_and(|n| n > max as u64) {
        return Err(too_long(max));
    }
    // With room for the whole declared frame, zstd decodes it in one pass.
    let first = declared.map_or(data.len().saturating_mul(4), |n| n as usize);
    out.reserve_exact(first.min(PREALLOC).min(max));
    DECODER.with(|cell| {
        let mut slot = cell.borrow_mut();
        let decoder = match &mut *slot {
            Some(d) => {
                // A decode that failed half-way leaves the context mid-frame.
                d.reinit()?;
                d
            }
            None => slot.insert(Decoder::new()?),
        };
        decompress_into(decoder, data, max, out)
    })
}

fn too_long(max: usize) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        format!("decompresses to more than the expected {max} bytes"),
    )
}

thread_local! {
    /// Reused across blobs: creating a zstd context per blob was a tenth of restore's
    /// CPU time.
    static DECODER: std::cell::RefCell<Option<zstd::stream::raw::Decoder<'static>>> =
        const { std::cell::RefCell::new(None) };
}

fn decompress_into(
    decoder: &mut zstd::stream::raw::Decoder<'static>,
    data: &[u8],
    max: usize,
    out: &mut Vec<u8>,
) -> std::io::Result<()> {
    use std::io::{Error, ErrorKind};
    use zstd::stream::raw::{InBuffer, Operation, OutBuffer};
    let mut input = InBuffer::around(data);
    loop {
        if out.len() == out.capacity() {
            // Up to max + 1: one byte more than allowed is enough to tell.
            let grow = out.len().max(4096).min(max + 1 - out.len());
            out.reserve_exact(grow);
        }
        let before = (input.pos(), out.len());
        let pending = decoder.run(&mut input, &mut OutBuffer::around_pos(out, before.1))?;
        if out.len() > max {
            return Err(too_long(max));
        }
        if pending == 0 && input.pos() == data.len() {
            return Ok(());
        }
        if (input.pos(), out.len()) == before && out.len() < out.capacity() {
            return Err(Error::new(
                ErrorKind::UnexpectedEof,
                "zstd data is truncated",
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crypto::MasterKey;

    #[test]
    fn round_trip_and_rejection() {
        let key = MasterKey::generate().unwrap();
        for plain in [
            vec![],
            b"abcabcabcabcabcabcabcabc".repeat(100),
            (0..5000u32).map(|i| (i * 7919 % 251) as u8).collect(),
        ] {
            let id = key.blob_id(&plain);
            let stored = encode_blob(&key, BlobKind::Data, &plain).unwrap();
            assert_eq!(
                decode_blob(&key, BlobKind::Data, &id, &stored, plain.len()).unwrap(),
                plain
            );
            assert!(
                decode_blob(&key, BlobKind::Tree, &id, &stored, plain.len()).is_err(),
                "kind is bound"
            );
            assert!(
                decode_blob(&key, BlobKind::Data, &[0; 32], &stored, plain.len()).is_err(),
                "id is checked"
            );
            let mut bad = stored.clone();
            bad[30] ^= 4;
            assert!(decode_blob(&key, BlobKind::Data, &id, &bad, plain.len()).is_err());
            assert!(
                decode_blob(
                    &key,
                    BlobKind::Data,
                    &id,
                    &stored[..stored.len() - 1],
                    plain.len()
                )
                .is_err()
            );
        }
        let repetitive = vec![0u8; 100_000];
        let id = key.blob_id(&repetitive);
        let stored = encode_blob(&key, BlobKind::Data, &repetitive).unwrap();
        for raw_len in [100_000, u32::MAX as usize] {
            assert_eq!(
                decode_blob(&key, BlobKind::Data, &id, &stored, raw_len).unwrap(),
                repetitive
            );
        }
        assert!(
            decode_blob(&key, BlobKind::Data, &id, &stored, 99_999).is_err(),
            "longer than the index promised"
        );
        assert!(
            encode_blob(&key, BlobKind::Data, &repetitive)
                .unwrap()
                .len()
                < 1000,
            "compresses"
        );
    }

    #[test]
    fn reused_buffers_hand_out_each_blob_and_nothing_of_the_last() {
        let key = MasterKey::generate().unwrap();
        let compressible = b"abcabcabcabcabcabcabcabc".repeat(4000);
        let incompressible: Vec<u8> = (0..5000u32).map(|i| (i * 7919 % 251) as u8).collect();
        let short = b"xyz".to_vec();
        let decode = |plain: &Vec<u8>, stored: &[u8], id: &BlobId| {
            decode_blob_then(
                &key,
                BlobKind::Data,
                id,
                stored,
                plain.len(),
                <[u8]>::to_vec,
            )
        };
        // Long then short, stored raw and compressed: each comes out whole and alone.
        for plain in [
            &compressible,
            &incompressible,
            &short,
            &compressible,
            &short,
        ] {
            let id = key.blob_id(plain);
            let stored = encode_blob(&key, BlobKind::Data, plain).unwrap();
            assert_eq!(&decode(plain, &stored, &id).unwrap(), plain);
            let mut bad = stored.clone();
            bad[30] ^= 4;
            assert!(decode(plain, &bad, &id).is_err(), "tampered");
            assert!(decode(plain, &stored, &[0; 32]).is_err(), "wrong id");
        }
        // A blob decoded while another is in use on the same thread.
        let (a, b) = (&compressible, &incompressible);
        let (id_a, id_b) = (key.blob_id(a), key.blob_id(b));
        let (stored_a, stored_b) = (
            encode_blob(&key, BlobKind::Data, a).unwrap(),
            encode_blob(&key, BlobKind::Data, b).unwrap(),
        );
        let both = decode_blob_then(&key, BlobKind::Data, &id_a, &stored_a, a.len(), |outer| {
            let inner = decode(b, &stored_b, &id_b).unwrap();
            (outer.to_vec(), inner)
        })
        .unwrap();
        assert_eq!((&both.0, &both.1), (a, b));
    }
}
