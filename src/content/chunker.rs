//! Content-defined chunking (FastCDC): boundaries depend on content, so an insertion
//! early in a file shifts only nearby chunks and the rest still dedups.

use std::io::Read;

use bytes::{Bytes, BytesMut};

use serde::{Deserialize, Serialize};

use super::ContentError;
use crate::error::{Error, Result};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChunkerParams {
    pub min: u32,
    pub avg: u32,
    pub max: u32,
}

impl Default for ChunkerParams {
    /// restic's sizes: big enough to keep the index small, small enough to dedup well.
    fn default() -> Self {
        ChunkerParams {
            min: 512 * 1024,
            avg: 1024 * 1024,
            max: 8 * 1024 * 1024,
        }
    }
}

impl ChunkerParams {
    pub(crate) fn check(&self) -> Result<()> {
        let ok = (64..=1 << 20).contains(&self.min)
            && (256..=4 << 20).contains(&self.avg)
            && (1024..=16 << 20).contains(&self.max)
            && self.min <= self.avg
            && self.avg <= self.max;
        if ok {
            Ok(())
        } else {
            Err(ContentError::ChunkerSizes.into())
        }
    }
}

/// How much a streaming read asks for at a time: each buffer is shared by the chunks
/// cut from it (no copy), so a buffer lives until its last chunk is stored.
const READ_BLOCK: usize = 1 << 20;

/// Split a reader into chunks, calling `sink` with each chunk's bytes in order; the
/// boundaries are those [`chunk_slice`] finds in the whole input.
///
/// Reads only as far ahead as the next cut needs (usually twice the average chunk
/// size, at most `max`), and hands out the chunks as slices of its read buffers.
/// fastcdc's `StreamCDC` kept a buffer of `max` bytes full (8 MiB by default), copied
/// every chunk out of it and moved the rest of the buffer to its front after each one.
pub(crate) fn chunk_reader<R: Read>(
    mut reader: R,
    params: &ChunkerParams,
    mut sink: impl FnMut(Bytes) -> Result<()>,
) -> Result<u64> {
    let (avg, max) = (params.avg as usize, params.max as usize);
    // A cut found before the end of what was read is the whole input's cut too (the
    // scan only looks back at bytes it has); twice the average finds most cuts in one
    // scan, and a longer look only when none was found.
    let first_look = (2 * avg).min(max);
    let mut look = first_look;
    let mut buf = BytesMut::new();
    let mut eof = false;
    let mut total = 0u64;
    loop {
        if !eof && buf.len() < look {
            let mut filled = buf.len();
            if buf.capacity() < look {
                buf.reserve((look - filled).max(READ_BLOCK));
            }
            // Zeroed once per fill, however short the reads that fill it.
            buf.resize(buf.capacity(), 0);
            while !eof && filled < look {
                let n = read_some(&mut reader, &mut buf[filled..])?;
                filled += n;
                eof = n == 0;
            }
            buf.truncate(filled);
        }
        if buf.is_empty() {
            return Ok(total);
        }
        let (_, cut) = fastcdc::v2020::FastCDC::new(&buf, params.min, params.avg, params.max)
            .cut(0, buf.len());
        // No cut short of the buffer's end: the cut may lie in bytes not read yet.
        if cut == buf.len() && cut < max && !eof {
            look = (look + first_look).min(max);
            continue;
        }
        total += cut as u64;
        sink(buf.split_to(cut).freeze())?;
        look = first_look;
    }
}

/// One `read`, retried when interrupted.
fn read_some(reader: &mut impl Read, into: &mut [u8]) -> Result<usize> {
    loop {
        match reader.read(into) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            other => return other.map_err(Error::from),
        }
    }
}

/// Chunk boundaries of an in-memory buffer as `(offset, length)` pairs.
pub fn chunk_slice(data: &[u8], params: &ChunkerParams) -> Vec<(usize, usize)> {
    fastcdc::v2020::FastCDC::new(data, params.min, params.avg, params.max)
        .map(|c| (c.offset, c.length))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hands out at most `step` bytes per read, as a pipe or a network file system may.
    struct ShortReads<'a> {
        data: &'a [u8],
        step: usize,
    }

    impl Read for ShortReads<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = buf.len().min(self.step).min(self.data.len());
            buf[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    fn stream_lengths(data: &[u8], params: &ChunkerParams, step: usize) -> Vec<usize> {
        let mut chunks: Vec<Bytes> = Vec::new();
        let n = chunk_reader(ShortReads { data, step }, params, |c| {
            chunks.push(c);
            Ok(())
        })
        .unwrap();
        assert_eq!(n, data.len() as u64);
        assert_eq!(chunks.concat(), data, "the chunks cover the input in order");
        chunks.iter().map(|c| c.len()).collect()
    }

    #[test]
    fn reader_and_slice_agree_and_cover_input() {
        let params = ChunkerParams {
            min: 4096,
            avg: 16384,
            max: 65536,
        };
        let mut data: Vec<u8> = (0..1_000_000u32)
            .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
            .collect();
        // A run of zeros has no cut point: chunks of exactly `max` there.
        data[300_000..600_000].fill(0);
        let bounds: Vec<usize> = chunk_slice(&data, &params).iter().map(|b| b.1).collect();
        assert!(bounds.len() > 10);
        assert!(bounds.contains(&65536));
        // Reads shorter than `avg`, than `max`, odd sizes and whole blocks must all give
        // the boundaries of the whole input (else a file would dedup differently
        // depending on how it was read).
        for step in [1000, 4097, 16383, 65536, 1 << 22] {
            assert_eq!(
                stream_lengths(&data, &params, step),
                bounds,
                "reads of {step}"
            );
        }
        for len in [0, 1, 4095, 4096, 20_000, 65_537] {
            let part = &data[..len];
            let want: Vec<usize> = chunk_slice(part, &params).iter().map(|b| b.1).collect();
            assert_eq!(stream_lengths(part, &params, 3000), want, "{len} bytes");
        }
    }
}
