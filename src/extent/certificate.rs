//! Extent certificates: the signed description of a sealed extent.

use serde::{Deserialize, Serialize};

use super::ExtentError;
use super::ExtentName;
use crate::crypto::envelope::{self, ObjectKind, SignedBy};
use crate::crypto::{Signer, Signers};
use crate::error::Result;

/// At most this many symbols (data, pointers, parity) per codeword, as the config allows.
const MAX_SYMBOLS: usize = 255;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardInfo {
    /// BLAKE3 of the stored shard (the cross-checksum every reader verifies).
    pub hash: [u8; 32],
    /// Index into the config's remote list.
    pub remote: u16,
}

/// A pointer input of the codeword: data shard `shard` of an older extent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pointer {
    pub extent: ExtentName,
    pub shard: u8,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Certificate {
    pub(crate) repo_id: [u8; 16],
    pub(crate) writer: [u8; 16],
    /// Position in the writer's chain (0 for its first extent).
    pub seq: u64,
    pub(crate) prev: Option<ExtentName>,
    /// Verifier before the first block: `prev`'s verifier, or `H(owner key)`.
    pub(crate) start_verifier: [u8; 32],
    /// Verifier after the last block; equals the extent's name.
    pub(crate) verifier: [u8; 32],
    /// Length of every block (stored blob), in order; they tile `[0, size)`.
    pub block_lengths: Vec<u32>,
    pub size: u64,
    pub(crate) timestamp: i64,
    pub data_shards: u8,
    pub parity_shards: u8,
    pub shard_size: u32,
    pub pointers: Vec<Pointer>,
    /// Data shards, then parity shards.
    pub shards: Vec<ShardInfo>,
    /// Placement revision: 0 when sealed, +1 each time rebalancing moves shards (and
    /// re-signs). Of two authentic certificates of one extent, the higher one is current.
    pub placement: u32,
}

impl Certificate {
    pub fn name(&self) -> ExtentName {
        ExtentName(self.verifier)
    }

    /// The bytes of all its shards, data and parity: what reading it whole downloads.
    pub(crate) fn shard_bytes(&self) -> u64 {
        self.shard_size as u64 * self.shards.len() as u64
    }

    pub fn to_object(&self, signer: &Signer) -> Result<Vec<u8>> {
        Ok(envelope::seal(
            ObjectKind::Extent,
            &postcard::to_stdvec(self)?,
            signer,
        ))
    }

    /// Parse, check the signature and internal consistency, and that it is `expected`.
    /// Signed by the owner, or by the writer whose chain it is in.
    pub fn from_object(
        bytes: &[u8],
        signers: &Signers,
        expected: &ExtentName,
    ) -> Result<Certificate> {
        let (payload, by) = signers.open(ObjectKind::Extent, bytes)?;
        let cert: Certificate = postcard::from_bytes(payload).map_err(ExtentError::Malformed)?;
        if let SignedBy::Writer(w) = by
            && cert.writer != w
        {
            return Err(Signers::not_its_own(ObjectKind::Extent, w).into());
        }
        cert.check()?;
        if cert.name() != *expected {
            return Err(ExtentError::Misnamed {
                certified: cert.name(),
                stored_as: *expected,
            }
            .into());
        }
        Ok(cert)
    }

    /// The placement revision of a certificate object already found authentic.
    pub(crate) fn placement_of(bytes: &[u8]) -> Option<u32> {
        let payload = envelope::open_unverified(ObjectKind::Extent, bytes).ok()?;
        postcard::from_bytes::<Certificate>(payload)
            .ok()
            .map(|c| c.placement)
    }

    fn check(&self) -> Result<()> {
        let s = self.data_shards as usize;
        let bad = |what: &'static str| Err(ExtentError::Inconsistent { what }.into());
        if s == 0 || self.parity_shards == 0 || self.shards.len() != s + self.parity_shards as usize
        {
            return bad("shard counts");
        }
        if self.shard_size == 0 || !self.shard_size.is_multiple_of(64) {
            return bad("shard size");
        }
        if self.size > s as u64 * self.shard_size as u64 {
            return bad("size exceeds the data shards");
        }
        if self.block_lengths.iter().map(|&l| l as u64).sum::<u64>() != self.size {
            return bad("block lengths do not add up to the size");
        }
        if self.shards.len() + self.pointers.len() > MAX_SYMBOLS {
            return bad("more symbols than a codeword can have");
        }
        // Pointers name older extents: one naming this extent would have a reader
        // rebuild it from itself.
        if self.pointers.iter().any(|p| p.extent == self.name()) {
            return bad("a pointer names the extent itself");
        }
        if (1..self.pointers.len()).any(|i| self.pointers[..i].contains(&self.pointers[i])) {
            return bad("a pointer is listed twice");
        }
        Ok(())
    }

    /// Which data shards hold bytes `[offset, offset+len)` of the extent, with ranges.
    pub(crate) fn locate(&self, offset: u64, len: u64) -> Vec<(usize, u64, u64)> {
        let ss = self.shard_size as u64;
        let mut out = Vec::new();
        let (mut pos, end) = (offset, offset + len);
        while pos < end {
            let shard = (pos / ss) as usize;
            let within = pos % ss;
            let n = (ss - within).min(end - pos);
            out.push((shard, within, n));
            pos += n;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn sample(owner: &Signer) -> Certificate {
        let _ = owner;
        Certificate {
            repo_id: [1; 16],
            writer: [2; 16],
            seq: 0,
            prev: None,
            start_verifier: [3; 32],
            verifier: [4; 32],
            block_lengths: vec![100, 28],
            size: 128,
            timestamp: 5,
            data_shards: 2,
            parity_shards: 1,
            shard_size: 64,
            pointers: vec![],
            shards: vec![
                ShardInfo {
                    hash: [0; 32],
                    remote: 0
                };
                3
            ],
            placement: 0,
        }
    }

    #[test]
    fn round_trip_and_rejection() {
        let s = Signer::from_seed(&[1; 32]);
        let c = sample(&s);
        let signers = crate::crypto::Signers::owner_only(s.public());
        let open = |obj: &[u8], name: &ExtentName| Certificate::from_object(obj, &signers, name);
        let obj = c.to_object(&s).unwrap();
        assert_eq!(open(&obj, &c.name()).unwrap(), c);
        assert!(open(&obj, &ExtentName([0; 32])).is_err(), "wrong name");
        assert!(open(&obj[..obj.len() - 5], &c.name()).is_err());
        let mut inconsistent = c.clone();
        inconsistent.size = 129;
        let obj = inconsistent.to_object(&s).unwrap();
        assert!(open(&obj, &c.name()).is_err());
    }

    /// Signed by the owner, and still refused: every field that must agree with another.
    #[test]
    fn inconsistent_certificates_are_refused_with_a_reason() {
        let s = Signer::from_seed(&[1; 32]);
        let good = sample(&s);
        let to = |n: u8, shard| Pointer {
            extent: ExtentName([n; 32]),
            shard,
        };
        type Damage = fn(&mut Certificate);
        let cases: Vec<(&str, Damage)> = vec![
            ("shard counts", |c| c.data_shards = 0),
            ("shard counts", |c| c.parity_shards = 0),
            ("shard counts", |c| c.data_shards = 3),
            ("shard counts", |c| c.shards.truncate(2)),
            ("shard size", |c| c.shard_size = 0),
            ("shard size", |c| c.shard_size = 100),
            ("size exceeds", |c| {
                (c.data_shards, c.parity_shards) = (1, 2)
            }),
            ("size exceeds", |c| {
                (c.size, c.block_lengths) = (129, vec![129])
            }),
            ("block lengths", |c| c.block_lengths.push(1)),
            ("block lengths", |c| c.block_lengths = vec![]),
            ("block lengths", |c| c.block_lengths = vec![u32::MAX; 3]),
            ("itself", |c| {
                c.pointers = vec![Pointer {
                    extent: c.name(),
                    shard: 0,
                }]
            }),
            ("twice", |c| {
                let p = Pointer {
                    extent: ExtentName([9; 32]),
                    shard: 1,
                };
                c.pointers = vec![p, p];
            }),
            ("more symbols", |c| {
                c.pointers = (0..=252)
                    .map(|i| Pointer {
                        extent: ExtentName([i; 32]),
                        shard: 1,
                    })
                    .collect();
            }),
        ];
        for (reason, damage) in cases {
            let mut c = good.clone();
            damage(&mut c);
            let obj = c.to_object(&s).unwrap();
            let err = Certificate::from_object(
                &obj,
                &crate::crypto::Signers::owner_only(s.public()),
                &c.name(),
            )
            .expect_err(reason)
            .to_string();
            assert!(
                err.contains("inconsistent") && err.contains(reason),
                "{reason}: {err}"
            );
        }
        // Pointers to other extents, each shard once, are fine.
        let mut c = good.clone();
        c.pointers = vec![to(9, 0), to(9, 1), to(8, 0)];
        Certificate::from_object(
            &c.to_object(&s).unwrap(),
            &crate::crypto::Signers::owner_only(s.public()),
            &c.name(),
        )
        .unwrap();
    }

    #[test]
    fn locate_spans_shards() {
        let c = sample(&Signer::from_seed(&[1; 32]));
        assert_eq!(c.locate(10, 20), vec![(0, 10, 20)]);
        assert_eq!(c.locate(60, 10), vec![(0, 60, 4), (1, 0, 6)]);
    }
}
