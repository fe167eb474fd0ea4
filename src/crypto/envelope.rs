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
//!
//! Version 2 (writer keys, DESIGN.md §17) names its signer: a writer id, 16 bytes after
//! `payload_len`, signed with the rest. The owner's objects stay version 1 byte for byte;
//! a writer may sign only certificates, heads, snapshots and index segments.

use super::writer::WriterId;
use super::{CryptoError, EnvelopeProblem, OwnerPublicKey, SIGNATURE_LEN, Signer};
use crate::error::Result;

pub(crate) const MAGIC: &[u8; 4] = b"TNGL";
pub(crate) const VERSION: u8 = 1;
/// The version of objects a writer signed: they carry the writer's id.
pub(crate) const VERSION_WRITER: u8 = 2;
const HEADER_LEN: usize = 12;
const SIGNER_LEN: usize = 16;

/// Who signed an object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SignedBy {
    Owner,
    Writer(WriterId),
}

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
    /// What a writer may sign: what a backup writes, nothing that rules the repository.
    pub(crate) fn writer_may_sign(self) -> bool {
        matches!(
            self,
            ObjectKind::Extent
                | ObjectKind::Head
                | ObjectKind::Snapshot
                | ObjectKind::Index
                | ObjectKind::Lock
        )
    }

    pub(crate) fn name(self) -> &'static str {
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

/// Wrap and sign a payload: version 1 for the owner's objects, version 2 (naming the
/// writer) for a writer's ([`Signer::writer`]).
pub fn seal(kind: ObjectKind, payload: &[u8], signer: &Signer) -> Vec<u8> {
    debug_assert!(signer.writer_id().is_none() || kind.writer_may_sign());
    seal_versioned(kind, payload, signer, signer.writer_id())
}

/// For tests playing a forger: [`seal`] without its check, so a writer can sign a kind
/// only the owner signs (a config), as a stolen writer key would.
#[cfg(feature = "testing")]
pub fn seal_forged(kind: ObjectKind, payload: &[u8], signer: &Signer) -> Vec<u8> {
    seal_versioned(kind, payload, signer, signer.writer_id())
}

/// Wrap and sign a payload as writer `writer` (version 2). Only for the kinds a writer
/// may sign. (Writers sign through [`Signer`]; this names the kind for tests.)
#[cfg(test)]
pub(crate) fn seal_as_writer(
    kind: ObjectKind,
    payload: &[u8],
    signer: &Signer,
    writer: &WriterId,
) -> Vec<u8> {
    debug_assert!(kind.writer_may_sign());
    seal_versioned(kind, payload, signer, Some(writer))
}

fn seal_versioned(
    kind: ObjectKind,
    payload: &[u8],
    signer: &Signer,
    writer: Option<&WriterId>,
) -> Vec<u8> {
    let header = HEADER_LEN + writer.map_or(0, |w| w.len());
    let mut out = Vec::with_capacity(header + payload.len() + SIGNATURE_LEN);
    out.extend_from_slice(MAGIC);
    out.push(kind as u8);
    out.push(if writer.is_some() {
        VERSION_WRITER
    } else {
        VERSION
    });
    out.extend_from_slice(&[0, 0]);
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    if let Some(w) = writer {
        out.extend_from_slice(w);
    }
    out.extend_from_slice(payload);
    let sig = signer.sign(&out);
    out.extend_from_slice(&sig);
    out
}

/// Check structure and the owner's signature; return the payload. An object a writer
/// signed is refused here (see [`open_signed`]).
pub fn open<'a>(kind: ObjectKind, bytes: &'a [u8], owner: &OwnerPublicKey) -> Result<&'a [u8]> {
    open_signed(kind, bytes, owner, |_| None).map(|(payload, _)| payload)
}

/// [`open`], also accepting an object signed by a writer whose public key `writer_key`
/// gives (the caller's list of granted, unrevoked writers), if the kind is one a writer
/// may sign. Returns the payload and who signed it.
pub(crate) fn open_signed<'a>(
    kind: ObjectKind,
    bytes: &'a [u8],
    owner: &OwnerPublicKey,
    writer_key: impl Fn(&WriterId) -> Option<OwnerPublicKey>,
) -> Result<(&'a [u8], SignedBy)> {
    let (payload, signed, sig, by) = split(kind, bytes)?;
    let key = match by {
        SignedBy::Owner => *owner,
        SignedBy::Writer(writer) if !kind.writer_may_sign() => {
            let why = "and only the owner signs these";
            return Err(CryptoError::WriterSignature { kind, writer, why }.into());
        }
        SignedBy::Writer(writer) => writer_key(&writer).ok_or(CryptoError::WriterSignature {
            kind,
            writer,
            why: "a writer the owner did not grant (or revoked)",
        })?,
    };
    key.verify(signed, sig)
        .map_err(|_| CryptoError::BadSignature { object: Some(kind) })?;
    Ok((payload, by))
}

/// Check structure only and return the payload without verifying the signature: used
/// for the config, whose signature is checked against the public key inside it.
pub fn open_unverified(kind: ObjectKind, bytes: &[u8]) -> Result<&[u8]> {
    split(kind, bytes).map(|(p, _, _, _)| p)
}

/// Who claims to have signed `bytes` (unverified).
#[cfg(test)]
pub(crate) fn claimed_signer(kind: ObjectKind, bytes: &[u8]) -> Option<SignedBy> {
    split(kind, bytes).ok().map(|(_, _, _, by)| by)
}

/// The payload, the signed bytes, the signature and the signer an object names.
type Parts<'a> = (&'a [u8], &'a [u8], &'a [u8], SignedBy);

fn split(kind: ObjectKind, bytes: &[u8]) -> Result<Parts<'_>> {
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
    let header = match bytes[5] {
        VERSION => HEADER_LEN,
        VERSION_WRITER => HEADER_LEN + SIGNER_LEN,
        v => return Err(malformed(EnvelopeProblem::UnsupportedVersion(v)).into()),
    };
    let len = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize;
    if bytes.len() != header + len + SIGNATURE_LEN {
        return Err(malformed(EnvelopeProblem::BadLength).into());
    }
    let by = match bytes[5] {
        VERSION => SignedBy::Owner,
        _ => {
            let mut writer = [0u8; SIGNER_LEN];
            writer.copy_from_slice(&bytes[HEADER_LEN..header]);
            SignedBy::Writer(writer)
        }
    };
    let signed = &bytes[..header + len];
    Ok((
        &bytes[header..header + len],
        signed,
        &bytes[header + len..],
        by,
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

    #[test]
    fn writers_sign_what_a_backup_writes_and_nothing_else() {
        let owner = Signer::from_seed(&[3; 32]).public();
        let w = Signer::from_seed(&[5; 32]);
        let id = [7u8; 16];
        let known = |x: &WriterId| (*x == id).then(|| w.public());
        let obj = seal_as_writer(ObjectKind::Snapshot, b"payload", &w, &id);
        assert_eq!(obj.len(), 12 + 16 + 7 + 64);
        assert_eq!(obj[5], 2);
        let (payload, by) = open_signed(ObjectKind::Snapshot, &obj, &owner, known).unwrap();
        assert_eq!((payload, by), (&b"payload"[..], SignedBy::Writer(id)));
        assert_eq!(
            claimed_signer(ObjectKind::Snapshot, &obj),
            Some(SignedBy::Writer(id))
        );
        // Not through `open` (the owner's), nor for an unknown writer, nor renamed.
        assert!(open(ObjectKind::Snapshot, &obj, &owner).is_err());
        assert!(open_signed(ObjectKind::Snapshot, &obj, &owner, |_| None).is_err());
        let mut renamed = obj.clone();
        renamed[12] ^= 1;
        let anyone = |_: &WriterId| Some(w.public());
        assert!(open_signed(ObjectKind::Snapshot, &renamed, &owner, anyone).is_err());
        for i in 0..obj.len() {
            let mut bad = obj.clone();
            bad[i] ^= 0x10;
            assert!(
                open_signed(ObjectKind::Snapshot, &bad, &owner, known).is_err(),
                "flip at {i}"
            );
        }
        // A writer's config, key, deletion record or writer record: refused, naming it.
        for kind in [
            ObjectKind::Config,
            ObjectKind::Key,
            ObjectKind::Deletion,
            ObjectKind::Writer,
        ] {
            let mut forged = seal_as_writer(ObjectKind::Head, b"x", &w, &id);
            forged[4] = kind as u8;
            let e = open_signed(kind, &forged, &owner, known)
                .unwrap_err()
                .to_string();
            assert!(e.contains("signed by writer 07070707"), "{e}");
        }
        // Its locks open (the lock's own check then refuses an exclusive one).
        let lock = seal_as_writer(ObjectKind::Lock, b"lock text", &w, &id);
        assert_eq!(
            open_signed(ObjectKind::Lock, &lock, &owner, known).unwrap(),
            (&b"lock text"[..], SignedBy::Writer(id))
        );
        // The owner's objects stay version 1, readable as before.
        let owners = seal(ObjectKind::Head, b"p", &Signer::from_seed(&[3; 32]));
        assert_eq!(owners[5], 1);
        assert_eq!(
            open_signed(ObjectKind::Head, &owners, &owner, known)
                .unwrap()
                .1,
            SignedBy::Owner
        );
    }
}
