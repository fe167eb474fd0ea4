//! The signed envelope around every metadata object (config, keys, certificates, heads,
//! snapshots, index segments, deletion records, locks):
//!
//! ```text
//! "TNGL" | kind u8 | version u8 | reserved [0,0] | payload_len u32 LE | payload | ed25519 sig (64)
//! ```
//!
//! The signature covers every byte before it, so a verifier holding only the owner's
//! public key can authenticate an object (the payload of snapshots and index segments is
//! encrypted, the rest is plaintext).

use super::{CryptoError, EnvelopeProblem, OwnerPublicKey, SIGNATURE_LEN, Signer};
use crate::error::Result;

pub const MAGIC: &[u8; 4] = b"TNGL";
pub const VERSION: u8 = 1;
const HEADER_LEN: usize = 12;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum ObjectKind {
    Config = 1,
    Key = 2,
    Extent = 3,
    Head = 4,
    Snapshot = 5,
    Index = 6,
    Deletion = 7,
    Lock = 8,
    Writer = 9,
}

impl ObjectKind {
    pub fn name(self) -> &'static str {
        match self {
            ObjectKind::Config => "config",
            ObjectKind::Key => "key",
            ObjectKind::Extent => "extent certificate",
            ObjectKind::Head => "head",
            ObjectKind::Snapshot => "snapshot",
            ObjectKind::Index => "index",
            ObjectKind::Deletion => "deletion record",
            ObjectKind::Lock => "lock",
            ObjectKind::Writer => "writer record",
        }
    }
}

/// Wrap and sign a payload.
pub fn seal(kind: ObjectKind, payload: &[u8], signer: &Signer) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_LEN + payload.len() + SIGNATURE_LEN);
    out.extend_from_slice(MAGIC);
    out.push(kind as u8);
    out.push(VERSION);
    out.extend_from_slice(&[0, 0]);
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(payload);
    let sig = signer.sign(&out);
    out.extend_from_slice(&sig);
    out
}

/// Check structure and signature; return the payload.
pub fn open<'a>(kind: ObjectKind, bytes: &'a [u8], owner: &OwnerPublicKey) -> Result<&'a [u8]> {
    let (payload, signed, sig) = split(kind, bytes)?;
    owner
        .verify(signed, sig)
        .map_err(|_| CryptoError::BadSignature { object: Some(kind) })?;
    Ok(payload)
}

/// Check structure only and return the payload without verifying the signature: used
/// for the config, whose signature is checked against the public key inside it.
pub fn open_unverified(kind: ObjectKind, bytes: &[u8]) -> Result<&[u8]> {
    split(kind, bytes).map(|(p, _, _)| p)
}

fn split(kind: ObjectKind, bytes: &[u8]) -> Result<(&[u8], &[u8], &[u8])> {
    let malformed = |problem| CryptoError::MalformedEnvelope { kind, problem };
    if bytes.len() < HEADER_LEN + SIGNATURE_LEN || &bytes[..4] != MAGIC {
        return Err(malformed(EnvelopeProblem::NotAnObject).into());
    }
    if bytes[4] != kind as u8 {
        return Err(CryptoError::WrongObjectKind {
            kind,
            found: bytes[4],
        }
        .into());
    }
    if bytes[5] != VERSION {
        return Err(malformed(EnvelopeProblem::UnsupportedVersion(bytes[5])).into());
    }
    let len = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize;
    if bytes.len() != HEADER_LEN + len + SIGNATURE_LEN {
        return Err(malformed(EnvelopeProblem::BadLength).into());
    }
    let signed = &bytes[..HEADER_LEN + len];
    Ok((
        &bytes[HEADER_LEN..HEADER_LEN + len],
        signed,
        &bytes[HEADER_LEN + len..],
    ))
}

/// Content address of an object: hex BLAKE3 of its bytes.
pub fn content_id(bytes: &[u8]) -> String {
    blake3::hash(bytes).to_hex().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_rejection() {
        let s = Signer::from_seed(&[3; 32]);
        let obj = seal(ObjectKind::Head, b"payload", &s);
        assert_eq!(
            open(ObjectKind::Head, &obj, &s.public()).unwrap(),
            b"payload"
        );
        assert!(
            open(ObjectKind::Config, &obj, &s.public()).is_err(),
            "wrong kind"
        );
        assert!(
            open(ObjectKind::Head, &obj[..obj.len() - 1], &s.public()).is_err(),
            "truncated"
        );
        assert!(open(ObjectKind::Head, b"garbage", &s.public()).is_err());
        for i in 0..obj.len() {
            let mut bad = obj.clone();
            bad[i] ^= 0x40;
            assert!(
                open(ObjectKind::Head, &bad, &s.public()).is_err(),
                "flip at {i}"
            );
        }
        let other = Signer::from_seed(&[4; 32]);
        assert!(
            open(ObjectKind::Head, &obj, &other.public()).is_err(),
            "foreign key"
        );
    }
}
