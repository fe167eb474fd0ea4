//! The crypto layer's own error type: every way sealing, opening, signing or unwrapping a
//! key can fail is a named variant. It converts into the crate's [`Error`] in one place
//! ([`CryptoError::kind`]) and stays reachable as its `source()`.

use super::envelope::ObjectKind;
use crate::error::{Kind, LayerError};

/// What is wrong with the structure of a signed envelope (before its signature).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub(crate) enum EnvelopeProblem {
    #[error("is not a tangle object (bad header or too short)")]
    NotAnObject,
    #[error("has unsupported format version {0}")]
    UnsupportedVersion(u8),
    #[error("is truncated or has trailing bytes")]
    BadLength,
}

/// `"<object> has a bad signature"`, or just `"bad signature"` for a bare message.
fn signature_of(object: &Option<ObjectKind>) -> String {
    match object {
        Some(kind) => format!("{} has a bad signature", kind.name()),
        None => "bad signature".to_string(),
    }
}

#[derive(Debug, thiserror::Error)]
pub(crate) enum CryptoError {
    /// The operating system gave no random bytes.
    #[error("no randomness from the OS: {0}")]
    NoRandomness(#[source] getrandom::Error),
    /// The AEAD refused to encrypt (never expected: the input is too large).
    #[error("encryption failed")]
    Aead,
    /// A caller passed a buffer without the room for the nonce (a bug).
    #[error("internal: seal_in_place without room for the nonce")]
    NoRoomForNonce,
    /// A sealed object shorter than nonce and tag.
    #[error("encrypted object is truncated")]
    Truncated,
    /// Decryption failed: the data was changed, or the key is not the one it was sealed with.
    #[error("authentication failed (corrupt data or wrong key)")]
    Authentication,
    /// A signature that does not verify (of `object`, when known).
    #[error("{}", signature_of(object))]
    BadSignature { object: Option<ObjectKind> },
    /// A signature that is not [`SIGNATURE_LEN`](super::SIGNATURE_LEN) bytes.
    #[error("signature has the wrong length")]
    SignatureLength,
    /// The owner's public key is not a valid ed25519 point.
    #[error("the owner public key is not a valid ed25519 key")]
    InvalidOwnerKey,
    /// A signed envelope whose structure is wrong.
    #[error("{} {problem}", kind.name())]
    MalformedEnvelope {
        kind: ObjectKind,
        problem: EnvelopeProblem,
    },
    /// A signed envelope of another object type than expected (`found` is its type byte).
    #[error("{} has the wrong object type {found}", kind.name())]
    WrongObjectKind { kind: ObjectKind, found: u8 },
    /// An object signed by a writer where only the owner may sign, or by a writer the
    /// reader does not know (never granted, or revoked before it).
    #[error("{} is signed by writer {}, {why}", kind.name(), hex::encode(&writer[..4]))]
    WriterSignature {
        kind: ObjectKind,
        writer: [u8; 16],
        why: &'static str,
    },
    /// Unwrapped key bytes of the wrong length.
    #[error("master key has the wrong length")]
    MasterKeyLength,
    /// A key file asks for Argon2 parameters beyond the limits (see `MAX_MEMORY_KIB`, ...).
    #[error(
        "key file asks for Argon2 parameters beyond the limits (memory {memory_kib} KiB, {iterations} iterations, parallelism {parallelism})"
    )]
    KeyFileLimits {
        memory_kib: u32,
        iterations: u32,
        parallelism: u32,
    },
    /// Argon2 rejects the parameters of a key file.
    #[error("invalid key derivation parameters: {0}")]
    InvalidKdfParams(#[source] argon2::Error),
    /// Argon2 failed while deriving (e.g. memory could not be allocated).
    #[error("key derivation failed: {0}")]
    KeyDerivation(#[source] argon2::Error),
    /// The password does not unwrap this key file.
    #[error("wrong password (no key found for it)")]
    WrongPassword,
    /// A sealed run key that does not open: not sealed to this owner, for this repository
    /// and writer, or changed since.
    #[error("sealed run key does not open (another owner, repository or writer, or corrupt)")]
    SealedKey,
    /// A file given as a writer key that is not one.
    #[error("not a tangle writer key file")]
    WriterKeyFile,
}

impl LayerError for CryptoError {
    /// What the error means to the layers above: the one mapping to [`Kind`].
    fn kind(&self) -> Kind {
        match self {
            CryptoError::NoRandomness(_)
            | CryptoError::Aead
            | CryptoError::NoRoomForNonce
            | CryptoError::KeyDerivation(_) => Kind::Fatal,
            CryptoError::Truncated
            | CryptoError::Authentication
            | CryptoError::BadSignature { .. }
            | CryptoError::SignatureLength
            | CryptoError::InvalidOwnerKey
            | CryptoError::MalformedEnvelope { .. }
            | CryptoError::WrongObjectKind { .. }
            | CryptoError::WriterSignature { .. }
            | CryptoError::MasterKeyLength
            | CryptoError::KeyFileLimits { .. }
            | CryptoError::InvalidKdfParams(_)
            | CryptoError::SealedKey => Kind::Corrupt,
            CryptoError::WrongPassword => Kind::WrongPassword,
            CryptoError::WriterKeyFile => Kind::Usage,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{Error, typed_source};

    #[test]
    fn converts_once_and_keeps_the_variant() {
        let e: Error = CryptoError::BadSignature {
            object: Some(ObjectKind::Head),
        }
        .into();
        assert_eq!(e.kind(), Kind::Corrupt);
        assert_eq!(e.message(), "head has a bad signature");
        let typed = typed_source::<CryptoError>(&e);
        assert!(matches!(typed, CryptoError::BadSignature { .. }));
        let e: Error = CryptoError::WrongPassword.into();
        assert_eq!(e.kind(), Kind::WrongPassword);
        let e: Error = CryptoError::MalformedEnvelope {
            kind: ObjectKind::Extent,
            problem: EnvelopeProblem::UnsupportedVersion(9),
        }
        .into();
        assert_eq!(
            e.message(),
            "extent certificate has unsupported format version 9"
        );
    }
}
