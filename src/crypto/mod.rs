//! Cryptography: the repository's secret keys, authenticated encryption of blobs and
//! metadata, keyed blob ids, and owner signatures.
//!
//! * Blob ids are keyed BLAKE3 (`mac_key`) of the plaintext, so equal content dedups
//!   while ids reveal nothing to someone without the password.
//! * Encryption is XChaCha20-Poly1305 with a random 192-bit nonce per object: random
//!   nonces of that size never need coordination between concurrent writers.
//! * The owner key (ed25519) signs everything that a password-less verifier must trust:
//!   config, key files, extent certificates, heads, snapshot and index objects.

mod aead;
pub mod envelope;
mod error;
mod keyfile;
mod owner;
mod signers;
pub mod writer;

pub use aead::{NONCE_LEN, TAG_LEN, open, open_into, seal, seal_in_place};
pub(crate) use error::{CryptoError, EnvelopeProblem};
pub use keyfile::{KdfParams, KeyFile};
pub use owner::{OwnerPublicKey, SIGNATURE_LEN, Signature, fingerprint};
pub use signers::Signers;

use crate::error::Result;

/// 32 random bytes from the operating system.
pub fn random_bytes<const N: usize>() -> Result<[u8; N]> {
    let mut b = [0u8; N];
    getrandom::fill(&mut b).map_err(CryptoError::NoRandomness)?;
    Ok(b)
}

/// The secrets that a password unlocks. Everything else derives from them.
#[derive(Clone)]
pub struct MasterKey {
    /// Encrypts blobs, snapshot and index objects.
    pub encryption: [u8; 32],
    /// Keys the BLAKE3 that names blobs.
    pub(crate) id_key: [u8; 32],
    /// Seed of the owner's ed25519 signing key.
    pub(crate) signing_seed: [u8; 32],
}

impl MasterKey {
    pub fn generate() -> Result<Self> {
        Ok(MasterKey {
            encryption: random_bytes()?,
            id_key: random_bytes()?,
            signing_seed: random_bytes()?,
        })
    }

    pub(crate) fn to_bytes(&self) -> [u8; 96] {
        let mut b = [0u8; 96];
        b[..32].copy_from_slice(&self.encryption);
        b[32..64].copy_from_slice(&self.id_key);
        b[64..].copy_from_slice(&self.signing_seed);
        b
    }

    pub(crate) fn from_bytes(b: &[u8]) -> Result<Self> {
        if b.len() != 96 {
            return Err(CryptoError::MasterKeyLength.into());
        }
        let part = |r: std::ops::Range<usize>| -> [u8; 32] {
            let mut a = [0u8; 32];
            a.copy_from_slice(&b[r]);
            a
        };
        Ok(MasterKey {
            encryption: part(0..32),
            id_key: part(32..64),
            signing_seed: part(64..96),
        })
    }

    pub(crate) fn signer(&self) -> owner::Signer {
        owner::Signer::from_seed(&self.signing_seed)
    }

    /// The content-derived id of a blob.
    pub fn blob_id(&self, plaintext: &[u8]) -> [u8; 32] {
        *blake3::keyed_hash(&self.id_key, plaintext).as_bytes()
    }
}

pub use owner::Signer;

/// The two keys that encrypt and name content (blobs, snapshot and index payloads): the
/// master key's for the owner's runs; a run key and the writer's id key for a writer's
/// run (DESIGN.md §17). The content layer takes either.
pub trait ContentKeys: Send + Sync {
    /// The AEAD key of blobs, snapshot and index payloads.
    fn encryption(&self) -> &[u8; 32];
    /// The content-derived id of a blob.
    fn blob_id(&self, plaintext: &[u8]) -> [u8; 32];
}

impl ContentKeys for MasterKey {
    fn encryption(&self) -> &[u8; 32] {
        &self.encryption
    }
    fn blob_id(&self, plaintext: &[u8]) -> [u8; 32] {
        MasterKey::blob_id(self, plaintext)
    }
}

/// The content keys of one writer's run: its run key and its id key. Held only while
/// the run lasts (by the writer) or while the owner reads it; wiped when dropped.
#[derive(Clone, zeroize::Zeroize, zeroize::ZeroizeOnDrop)]
pub(crate) struct ContentKey {
    pub(crate) encryption: [u8; 32],
    pub(crate) id_key: [u8; 32],
}

impl ContentKey {
    pub(crate) fn new(encryption: [u8; 32], id_key: [u8; 32]) -> ContentKey {
        ContentKey { encryption, id_key }
    }
}

impl ContentKeys for ContentKey {
    fn encryption(&self) -> &[u8; 32] {
        &self.encryption
    }
    fn blob_id(&self, plaintext: &[u8]) -> [u8; 32] {
        *blake3::keyed_hash(&self.id_key, plaintext).as_bytes()
    }
}

impl std::fmt::Debug for ContentKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ContentKey(<redacted>)")
    }
}

impl std::fmt::Debug for MasterKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("MasterKey(<redacted>)")
    }
}
