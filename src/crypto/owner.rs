//! The owner's ed25519 key pair. Only password holders can sign; anyone with the public
//! key (it is in the config) can verify, which is what password-less CI relies on.

use ed25519_dalek::{Signer as _, SigningKey, Verifier as _, VerifyingKey};

use super::CryptoError;
use crate::error::Result;

pub const SIGNATURE_LEN: usize = 64;
pub type Signature = [u8; SIGNATURE_LEN];

/// A signing key: the owner's, or a writer's ([`Signer::writer`]), whose objects say
/// which writer signed them (envelope version 2).
pub struct Signer {
    key: SigningKey,
    writer: Option<super::writer::WriterId>,
}

impl Signer {
    /// The owner's signing key (from the master key's seed).
    pub fn from_seed(seed: &[u8; 32]) -> Self {
        Signer {
            key: SigningKey::from_bytes(seed),
            writer: None,
        }
    }

    /// A writer's signing key: what it seals names it as the signer.
    pub(crate) fn writer(seed: &[u8; 32]) -> Self {
        let mut signer = Signer::from_seed(seed);
        signer.writer = Some(super::writer::writer_id(&signer.public()));
        signer
    }

    /// The writer this key signs as (`None`: the owner).
    pub(crate) fn writer_id(&self) -> Option<&super::writer::WriterId> {
        self.writer.as_ref()
    }
    pub fn public(&self) -> OwnerPublicKey {
        OwnerPublicKey(self.key.verifying_key().to_bytes())
    }
    pub(crate) fn sign(&self, msg: &[u8]) -> Signature {
        self.key.sign(msg).to_bytes()
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Serialize, serde::Deserialize)]
pub struct OwnerPublicKey(pub [u8; 32]);

impl OwnerPublicKey {
    pub(crate) fn verify(&self, msg: &[u8], sig: &[u8]) -> Result<()> {
        let key = VerifyingKey::from_bytes(&self.0).map_err(|_| CryptoError::InvalidOwnerKey)?;
        let sig: Signature = sig.try_into().map_err(|_| CryptoError::SignatureLength)?;
        key.verify(msg, &ed25519_dalek::Signature::from_bytes(&sig))
            .map_err(|_| CryptoError::BadSignature { object: None }.into())
    }
}

/// Short human-comparable name of a public key: the first 16 bytes of its BLAKE3, hex.
pub fn fingerprint(pk: &OwnerPublicKey) -> String {
    hex::encode(&blake3::hash(&pk.0).as_bytes()[..16])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_verify_and_reject() {
        let s = Signer::from_seed(&[1u8; 32]);
        let sig = s.sign(b"msg");
        s.public().verify(b"msg", &sig).unwrap();
        assert!(s.public().verify(b"msh", &sig).is_err());
        let mut bad = sig;
        bad[3] ^= 0x10;
        assert!(s.public().verify(b"msg", &bad).is_err());
        assert!(s.public().verify(b"msg", &sig[..63]).is_err());
        let other = Signer::from_seed(&[2u8; 32]);
        assert!(other.public().verify(b"msg", &sig).is_err());
    }
}
