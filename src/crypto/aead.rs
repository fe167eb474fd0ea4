//! XChaCha20-Poly1305 sealing: `nonce (24) || ciphertext || tag (16)`.

use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};

use super::CryptoError;
use crate::error::Result;

pub const NONCE_LEN: usize = 24;
pub const TAG_LEN: usize = 16;

/// Encrypt `plaintext`; `aad` binds the ciphertext to its purpose (e.g. "snapshot").
pub fn seal(key: &[u8; 32], aad: &[u8], plaintext: &[u8]) -> Result<Vec<u8>> {
    let nonce: [u8; NONCE_LEN] = super::random_bytes()?;
    let cipher = XChaCha20Poly1305::new(key.into());
    let ct = cipher
        .encrypt(
            XNonce::from_slice(&nonce),
            Payload {
                msg: plaintext,
                aad,
            },
        )
        .map_err(|_| CryptoError::Aead)?;
    let mut out = Vec::with_capacity(NONCE_LEN + ct.len());
    out.extend_from_slice(&nonce);
    out.extend_from_slice(&ct);
    Ok(out)
}

/// Encrypt in place: `buf` is `NONCE_LEN` placeholder bytes followed by the plaintext;
/// afterwards it is `nonce || ciphertext || tag`, the same layout [`seal`] produces.
pub fn seal_in_place(key: &[u8; 32], aad: &[u8], buf: &mut Vec<u8>) -> Result<()> {
    use chacha20poly1305::aead::AeadInPlace;
    if buf.len() < NONCE_LEN {
        return Err(CryptoError::NoRoomForNonce.into());
    }
    let nonce: [u8; NONCE_LEN] = super::random_bytes()?;
    buf[..NONCE_LEN].copy_from_slice(&nonce);
    let tag = XChaCha20Poly1305::new(key.into())
        .encrypt_in_place_detached(XNonce::from_slice(&nonce), aad, &mut buf[NONCE_LEN..])
        .map_err(|_| CryptoError::Aead)?;
    buf.extend_from_slice(&tag);
    Ok(())
}

/// Decrypt and authenticate. Any tampering, truncation or wrong key is `Corrupt`.
pub fn open(key: &[u8; 32], aad: &[u8], sealed: &[u8]) -> Result<Vec<u8>> {
    if sealed.len() < NONCE_LEN + TAG_LEN {
        return Err(CryptoError::Truncated.into());
    }
    let (nonce, ct) = sealed.split_at(NONCE_LEN);
    XChaCha20Poly1305::new(key.into())
        .decrypt(XNonce::from_slice(nonce), Payload { msg: ct, aad })
        .map_err(|_| CryptoError::Authentication.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_rejection() {
        let key = [7u8; 32];
        let sealed = seal(&key, b"blob", b"hello world").unwrap();
        assert_eq!(open(&key, b"blob", &sealed).unwrap(), b"hello world");
        assert!(open(&key, b"tree", &sealed).is_err(), "wrong aad");
        assert!(open(&[8u8; 32], b"blob", &sealed).is_err(), "wrong key");
        assert!(
            open(&key, b"blob", &sealed[..sealed.len() - 1]).is_err(),
            "truncated"
        );
        assert!(
            open(&key, b"blob", &sealed[..10]).is_err(),
            "very truncated"
        );
        let mut in_place = vec![0u8; NONCE_LEN];
        in_place.extend_from_slice(b"hello world");
        seal_in_place(&key, b"blob", &mut in_place).unwrap();
        assert_eq!(open(&key, b"blob", &in_place).unwrap(), b"hello world");
        for i in [0, NONCE_LEN, sealed.len() - 1] {
            let mut bad = sealed.clone();
            bad[i] ^= 1;
            assert!(open(&key, b"blob", &bad).is_err(), "flip at {i}");
        }
    }
}
