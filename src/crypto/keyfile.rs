//! A key file wraps the master key with a password-derived key (Argon2id). A repository
//! may hold several (`tangle key add`); any one of them opens it.

use argon2::{Algorithm, Argon2, Params, Version};
use serde::{Deserialize, Serialize};

use super::{CryptoError, MasterKey, open, random_bytes, seal};
use crate::error::Result;

#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct KdfParams {
    /// Memory in KiB.
    pub memory_kib: u32,
    pub iterations: u32,
    pub parallelism: u32,
}

impl Default for KdfParams {
    /// About a quarter of a second on one core of a current machine: slow enough to make
    /// guessing expensive, fast enough for cron jobs that open the repository often.
    fn default() -> Self {
        KdfParams {
            memory_kib: 64 * 1024,
            iterations: 2,
            parallelism: 1,
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct KeyFile {
    pub(crate) kdf: KdfParams,
    pub(crate) salt: [u8; 16],
    /// `seal(argon2id(password, salt), "tangle key", master key bytes)`.
    pub(crate) wrapped: Vec<u8>,
    pub(crate) created: i64,
    pub(crate) host: String,
    pub(crate) user: String,
}

const AAD: &[u8] = b"tangle key";

fn derive(password: &[u8], salt: &[u8; 16], kdf: &KdfParams) -> Result<[u8; 32]> {
    let params = Params::new(kdf.memory_kib, kdf.iterations, kdf.parallelism, Some(32))
        .map_err(CryptoError::InvalidKdfParams)?;
    let mut out = [0u8; 32];
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
        .hash_password_into(password, salt, &mut out)
        .map_err(CryptoError::KeyDerivation)?;
    Ok(out)
}

impl KeyFile {
    pub(crate) fn wrap(master: &MasterKey, password: &[u8], kdf: KdfParams) -> Result<KeyFile> {
        let salt = random_bytes()?;
        let kek = derive(password, &salt, &kdf)?;
        Ok(KeyFile {
            kdf,
            salt,
            wrapped: seal(&kek, AAD, &master.to_bytes())?,
            created: chrono::Utc::now().timestamp(),
            host: crate::util::hostname(),
            user: crate::util::username(),
        })
    }

    /// Unwrap with `password`; a wrong password is [`CryptoError::WrongPassword`]
    /// (of [`Kind::WrongPassword`](crate::error::Kind::WrongPassword)).
    pub(crate) fn unwrap(&self, password: &[u8]) -> Result<MasterKey> {
        self.check_kdf()?;
        let kek = derive(password, &self.salt, &self.kdf)?;
        self.open_wrapped(&kek)
    }

    /// Parameters come from a remote: a key file must not make us allocate or spin
    /// without bound before the password is even checked.
    fn check_kdf(&self) -> Result<()> {
        let k = &self.kdf;
        if k.memory_kib > MAX_MEMORY_KIB
            || k.iterations > MAX_ITERATIONS
            || k.parallelism > MAX_PARALLELISM
        {
            return Err(CryptoError::KeyFileLimits {
                memory_kib: k.memory_kib,
                iterations: k.iterations,
                parallelism: k.parallelism,
            }
            .into());
        }
        Ok(())
    }

    fn open_wrapped(&self, kek: &[u8; 32]) -> Result<MasterKey> {
        let bytes = open(kek, AAD, &self.wrapped).map_err(|_| CryptoError::WrongPassword)?;
        MasterKey::from_bytes(&bytes)
    }
}

/// For the fuzz harness (`crate::testing::fuzzing`): the unwrap path without Argon2, which
/// is far too slow to fuzz.
#[cfg(feature = "testing")]
impl KeyFile {
    /// [`unwrap`](Self::unwrap) with `kek` standing in for the derived key: the same
    /// parameter checks, then the AEAD and the master key.
    pub(crate) fn unwrap_with_kek(&self, kek: &[u8; 32]) -> Result<MasterKey> {
        self.check_kdf()?;
        Params::new(
            self.kdf.memory_kib,
            self.kdf.iterations,
            self.kdf.parallelism,
            Some(32),
        )
        .map_err(CryptoError::InvalidKdfParams)?;
        self.open_wrapped(kek)
    }

    /// Take `wrapped` as a plaintext master key and seal it under `kek`, so that what a
    /// fuzzer wrote there reaches the master-key decoding.
    pub(crate) fn seal_wrapped_for_tests(&mut self, kek: &[u8; 32]) -> Result<()> {
        self.wrapped = seal(kek, AAD, &self.wrapped)?;
        Ok(())
    }
}

/// Upper bounds on Argon2 parameters read from a key file (the defaults are far below).
pub(crate) const MAX_MEMORY_KIB: u32 = 4 * 1024 * 1024;
pub(crate) const MAX_ITERATIONS: u32 = 64;
pub(crate) const MAX_PARALLELISM: u32 = 64;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Kind;

    #[test]
    fn wrap_unwrap() {
        let m = MasterKey::generate().unwrap();
        let kdf = KdfParams {
            memory_kib: 64,
            iterations: 1,
            parallelism: 1,
        };
        let kf = KeyFile::wrap(&m, b"secret", kdf).unwrap();
        assert_eq!(kf.unwrap(b"secret").unwrap().to_bytes(), m.to_bytes());
        assert_eq!(
            kf.unwrap(b"Secret").unwrap_err().kind(),
            Kind::WrongPassword
        );
        let mut greedy = kf.clone();
        greedy.kdf.memory_kib = MAX_MEMORY_KIB + 1;
        assert_eq!(greedy.unwrap(b"secret").unwrap_err().kind(), Kind::Corrupt);
    }
}
