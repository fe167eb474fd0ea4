//! Content-defined chunking (FastCDC): boundaries depend on content, so an insertion
//! early in a file shifts only nearby chunks and the rest still dedups.

use std::io::Read;

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
    pub fn check(&self) -> Result<()> {
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

/// Split a reader into chunks, calling `sink` with each chunk's bytes in order.
/// Reads in large blocks; memory stays at about `max` plus one read buffer.
pub fn chunk_reader<R: Read>(
    reader: R,
    params: &ChunkerParams,
    mut sink: impl FnMut(Vec<u8>) -> Result<()>,
) -> Result<u64> {
    let mut total = 0u64;
    let cdc = fastcdc::v2020::StreamCDC::new(reader, params.min, params.avg, params.max);
    for chunk in cdc {
        let chunk = chunk.map_err(|e| match e {
            fastcdc::v2020::Error::IoError(io) => Error::from(io),
            other => ContentError::Chunker(other).into(),
        })?;
        total += chunk.length as u64;
        sink(chunk.data)?;
    }
    Ok(total)
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

    #[test]
    fn reader_and_slice_agree_and_cover_input() {
        let params = ChunkerParams {
            min: 4096,
            avg: 16384,
            max: 65536,
        };
        let data: Vec<u8> = (0..1_000_000u32)
            .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
            .collect();
        let mut chunks = Vec::new();
        let n = chunk_reader(&data[..], &params, |c| {
            chunks.push(c);
            Ok(())
        })
        .unwrap();
        assert_eq!(n, data.len() as u64);
        assert_eq!(chunks.concat(), data);
        let bounds = chunk_slice(&data, &params);
        assert_eq!(
            bounds.iter().map(|b| b.1).collect::<Vec<_>>(),
            chunks.iter().map(|c| c.len()).collect::<Vec<_>>()
        );
        assert!(chunks.len() > 10);
    }
}
