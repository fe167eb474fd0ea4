//! Reed-Solomon over shards, in stripes: every shard is cut into stripes of [`STRIPE`]
//! bytes (the last one shorter) and each stripe is coded on its own, which keeps the
//! working set in cache and is several times faster than one call over whole shards.

use reed_solomon_simd::{ReedSolomonDecoder, ReedSolomonEncoder};

use super::CodecError;
use crate::error::Result;

pub(crate) const STRIPE: usize = 256 * 1024;
/// Shard sizes are multiples of this (reed-solomon-simd needs even sizes; 64 keeps its
/// SIMD paths aligned).
pub(crate) const SHARD_ALIGN: usize = 64;

/// Shard size for `len` bytes of extent data split over `s` data shards.
pub fn shard_size_for(len: usize, s: usize) -> usize {
    crate::util::round_up(len.div_ceil(s).max(1), SHARD_ALIGN)
}

fn rs_err(e: reed_solomon_simd::Error) -> CodecError {
    CodecError::ReedSolomon(e)
}

fn stripes(shard_size: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..shard_size)
        .step_by(STRIPE)
        .map(move |off| (off, (shard_size - off).min(STRIPE)))
}

/// Parity shards for `inputs` (data shards then pointer shards, all `shard_size` long).
pub fn encode_parity(inputs: &[&[u8]], parity: usize) -> Result<Vec<Vec<u8>>> {
    let shard_size = inputs.first().map_or(0, |s| s.len());
    if inputs.iter().any(|s| s.len() != shard_size) {
        return Err(CodecError::BadInputs.into());
    }
    encode_parity_padded(inputs, shard_size, parity)
}

/// Parity shards of `shard_size` bytes for `inputs` that may be shorter, as if each were
/// zero-padded to `shard_size`. The padding is done a stripe at a time, so a short
/// pointer shard is never copied whole (sealing an extent would otherwise hold a padded
/// copy of every short pointer).
pub(crate) fn encode_parity_padded(
    inputs: &[&[u8]],
    shard_size: usize,
    parity: usize,
) -> Result<Vec<Vec<u8>>> {
    let mut inputs = inputs.to_vec();
    let mut sources: Vec<&mut dyn StripeSource> = inputs
        .iter_mut()
        .map(|s| s as &mut dyn StripeSource)
        .collect();
    encode_parity_streamed(&mut sources, shard_size, parity)
}

/// One input of a codeword, handed to the encoder a stripe at a time, so that it need
/// not be in memory whole (a pointer shard read from its remote while an extent seals).
pub(crate) trait StripeSource {
    /// The input's length (at most the codeword's shard size; the rest is zeros).
    fn size(&self) -> usize;
    /// Bytes `off..off + len` of the input, fewer (or none) past its end; the rest of
    /// the stripe counts as zeros. Called for adjacent stripes in increasing order.
    fn stripe(&mut self, off: usize, len: usize) -> &[u8];
    /// Whether every byte handed out was the input's own; asked once all were. An input
    /// read from a remote checks its certified hash here; one in memory was checked
    /// before it got there.
    fn verified(&mut self) -> bool {
        true
    }
}

/// `off..off + len` of `data`, cut short at its end.
fn stripe_of(data: &[u8], off: usize, len: usize) -> &[u8] {
    let end = (off + len).min(data.len());
    data.get(off..end).unwrap_or_default()
}

impl StripeSource for &[u8] {
    fn size(&self) -> usize {
        self.len()
    }

    fn stripe(&mut self, off: usize, len: usize) -> &[u8] {
        stripe_of(self, off, len)
    }
}

impl StripeSource for bytes::Bytes {
    fn size(&self) -> usize {
        self.len()
    }

    fn stripe(&mut self, off: usize, len: usize) -> &[u8] {
        stripe_of(self, off, len)
    }
}

/// [`encode_parity_padded`] over inputs read a stripe at a time.
pub(crate) fn encode_parity_streamed(
    inputs: &mut [&mut dyn StripeSource],
    shard_size: usize,
    parity: usize,
) -> Result<Vec<Vec<u8>>> {
    if shard_size == 0
        || !shard_size.is_multiple_of(SHARD_ALIGN)
        || inputs.is_empty()
        || inputs.iter().any(|s| s.size() > shard_size)
    {
        return Err(CodecError::BadInputs.into());
    }
    // One zeroed allocation each (fresh pages, faulted in as the encoder writes them):
    // `vec![vec![0; n]; k]` would clone the first, writing every byte of the others.
    let mut out: Vec<Vec<u8>> = (0..parity).map(|_| vec![0u8; shard_size]).collect();
    let mut enc =
        ReedSolomonEncoder::new(inputs.len(), parity, STRIPE.min(shard_size)).map_err(rs_err)?;
    let mut padded = Vec::new();
    for (off, len) in stripes(shard_size) {
        enc.reset(inputs.len(), parity, len).map_err(rs_err)?;
        for s in inputs.iter_mut() {
            let part = s.stripe(off, len);
            if part.len() == len {
                enc.add_original_shard(part).map_err(rs_err)?;
            } else {
                padded.clear();
                padded.extend_from_slice(&part[..part.len().min(len)]);
                padded.resize(len, 0);
                enc.add_original_shard(&padded).map_err(rs_err)?;
            }
        }
        let result = enc.encode().map_err(rs_err)?;
        for (i, r) in result.recovery_iter().enumerate() {
            out[i][off..off + len].copy_from_slice(r);
        }
    }
    Ok(out)
}

/// Fill in missing inputs: `shards` holds `originals` inputs followed by the parities,
/// `None` where missing (present ones must already be verified against the certificate).
/// Afterwards every input is `Some` (parities stay as they were: re-encode the inputs
/// with [`encode_parity`] to restore them).
pub fn reconstruct(
    shards: &mut [Option<Vec<u8>>],
    originals: usize,
    shard_size: usize,
) -> Result<()> {
    let parity = shards.len() - originals;
    let present = shards.iter().filter(|s| s.is_some()).count();
    if present < originals {
        return Err(CodecError::TooManyLost {
            present,
            total: shards.len(),
            needed: originals,
        }
        .into());
    }
    let missing: Vec<usize> = (0..originals).filter(|&i| shards[i].is_none()).collect();
    if !missing.is_empty() {
        let mut restored: Vec<Vec<u8>> = vec![vec![0u8; shard_size]; missing.len()];
        let mut dec =
            ReedSolomonDecoder::new(originals, parity, STRIPE.min(shard_size)).map_err(rs_err)?;
        for (off, len) in stripes(shard_size) {
            dec.reset(originals, parity, len).map_err(rs_err)?;
            for (i, s) in shards.iter().enumerate() {
                if let Some(s) = s {
                    if i < originals {
                        dec.add_original_shard(i, &s[off..off + len])
                            .map_err(rs_err)?;
                    } else {
                        dec.add_recovery_shard(i - originals, &s[off..off + len])
                            .map_err(rs_err)?;
                    }
                }
            }
            let result = dec.decode().map_err(rs_err)?;
            for (k, &i) in missing.iter().enumerate() {
                let r = result.restored_original(i).ok_or(CodecError::NotRestored)?;
                restored[k][off..off + len].copy_from_slice(r);
            }
        }
        for (k, i) in missing.into_iter().enumerate() {
            shards[i] = Some(std::mem::take(&mut restored[k]));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_inputs_code_as_zero_padded() {
        let size = 3 * STRIPE + 128;
        let full: Vec<u8> = (0..size).map(|i| (i * 31 % 251) as u8).collect();
        let short: Vec<u8> = full[..STRIPE + 100].to_vec();
        let mut padded = short.clone();
        padded.resize(size, 0);
        let a = encode_parity(&[&full, &padded], 2).unwrap();
        let b = encode_parity_padded(&[&full, &short], size, 2).unwrap();
        assert_eq!(a, b);
        assert!(
            encode_parity_padded(&[&full], size - 64, 1).is_err(),
            "longer than the shard"
        );
        assert!(
            encode_parity(&[&full, &short], 2).is_err(),
            "unequal without padding"
        );
    }

    fn data(n: usize, size: usize) -> Vec<Vec<u8>> {
        (0..n)
            .map(|i| {
                (0..size)
                    .map(|j| (i * 31 + j * 7 + j / 251) as u8)
                    .collect()
            })
            .collect()
    }

    #[test]
    fn encode_then_recover_any_p_losses() {
        for size in [64, 4096, STRIPE + 128] {
            let inputs = data(6, size);
            let refs: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
            let parity = encode_parity(&refs, 3).unwrap();
            let all: Vec<Vec<u8>> = inputs.iter().cloned().chain(parity).collect();
            for lost in [[0, 1, 2], [0, 5, 8], [6, 7, 8], [3, 4, 7]] {
                let mut shards: Vec<Option<Vec<u8>>> = all.iter().cloned().map(Some).collect();
                for &l in &lost {
                    shards[l] = None;
                }
                reconstruct(&mut shards, 6, size).unwrap();
                let got: Vec<Vec<u8>> = shards[..6].iter().map(|s| s.clone().unwrap()).collect();
                assert_eq!(got, all[..6], "size {size} lost {lost:?}");
                let refs: Vec<&[u8]> = got.iter().map(|v| v.as_slice()).collect();
                assert_eq!(
                    encode_parity(&refs, 3).unwrap(),
                    all[6..],
                    "parity re-encodes"
                );
            }
        }
    }

    #[test]
    fn too_many_losses_and_bad_input() {
        let inputs = data(4, 128);
        let refs: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
        let parity = encode_parity(&refs, 2).unwrap();
        let mut shards: Vec<Option<Vec<u8>>> = inputs.into_iter().chain(parity).map(Some).collect();
        shards[0] = None;
        shards[1] = None;
        shards[2] = None;
        assert!(reconstruct(&mut shards, 4, 128).is_err());
        assert!(encode_parity(&[&[1u8; 63][..]], 2).is_err(), "unaligned");
        assert!(
            encode_parity(&[&[1u8; 64][..], &[1u8; 128][..]], 2).is_err(),
            "unequal"
        );
    }
}
