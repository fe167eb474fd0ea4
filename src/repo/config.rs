//! The repository config: identity, owner key, coding parameters and the remotes. It is
//! replicated on every remote and signed by the owner key it contains.

use serde::{Deserialize, Serialize};

use crate::codec::Coding;
use crate::content::ChunkerParams;
use crate::crypto::envelope::{self, ObjectKind};
use crate::crypto::{OwnerPublicKey, Signer};
use crate::error::{Error, Result};

/// What `init` writes. A repository goes to [`FORMAT_VERSION_WRITERS`] at its first
/// `writer add`, never before, so one without writers stays readable by older binaries.
pub(crate) const FORMAT_VERSION: u32 = 1;
/// Version 2: the config carries the owner's KEM public key, that writers seal their run
/// keys to (DESIGN.md §17).
pub(crate) const FORMAT_VERSION_WRITERS: u32 = 2;
/// Target size of the data part of an extent before it is sealed and coded.
pub const DEFAULT_EXTENT_SIZE: u32 = 16 << 20;

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Config {
    pub format_version: u32,
    pub id: [u8; 16],
    pub owner: OwnerPublicKey,
    pub coding: Coding,
    pub(crate) extent_size: u32,
    pub(crate) chunker: ChunkerParams,
    /// Remote URLs; a shard's `remote` field in a certificate indexes this list.
    pub(crate) remotes: Vec<String>,
    pub(crate) created: i64,
    /// Increases with every change (e.g. `remote replace`); the newest signed one wins.
    pub revision: u64,
    /// Version 2 only: the owner's X25519 KEM public key, appended after the version 1
    /// fields (postcard has no optional trailing fields: version 1 has no bytes here).
    #[serde(skip)]
    pub(crate) owner_kem: Option<[u8; 32]>,
}

impl Config {
    pub fn id_hex(&self) -> String {
        hex::encode(self.id)
    }

    pub fn to_object(&self, signer: &Signer) -> Result<Vec<u8>> {
        let mut payload = postcard::to_stdvec(self)?;
        match (self.format_version, self.owner_kem) {
            (FORMAT_VERSION, None) => {}
            (FORMAT_VERSION_WRITERS, Some(kem)) => payload.extend_from_slice(&kem),
            _ => {
                return Err(Error::fatal(
                    "internal: config version and KEM key disagree",
                ));
            }
        }
        Ok(envelope::seal(ObjectKind::Config, &payload, signer))
    }

    /// This config at version 2 with the owner's KEM key (a new revision), unless it has
    /// one already.
    pub(crate) fn with_owner_kem(&self, owner_kem: [u8; 32]) -> Option<Config> {
        if self.owner_kem.is_some() {
            return None;
        }
        Some(Config {
            format_version: FORMAT_VERSION_WRITERS,
            owner_kem: Some(owner_kem),
            revision: self.revision + 1,
            ..self.clone()
        })
    }

    /// Parse and check the self-signature. Nothing pins the owner key yet: a client
    /// trusts the key of the config it first sees (trust on first use).
    pub fn from_object(bytes: &[u8]) -> Result<Config> {
        let payload = envelope::open_unverified(ObjectKind::Config, bytes)?;
        let (mut config, rest): (Config, &[u8]) = postcard::take_from_bytes(payload)?;
        envelope::open(ObjectKind::Config, bytes, &config.owner)?;
        config.owner_kem = match (config.format_version, rest.len()) {
            (FORMAT_VERSION, 0) => None,
            (FORMAT_VERSION_WRITERS, 32) => rest.try_into().ok(),
            (FORMAT_VERSION | FORMAT_VERSION_WRITERS, _) => {
                return Err(Error::corrupt("config has trailing bytes"));
            }
            (v, _) => {
                return Err(Error::corrupt(format!(
                    "repository format version {v} is not supported by this tangle (supports {FORMAT_VERSION} and {FORMAT_VERSION_WRITERS})"
                )));
            }
        };
        config.coding.check(config.remotes.len())?;
        if config.extent_size < 1024 || config.extent_size > 1 << 30 {
            return Err(Error::corrupt("config has an invalid extent size"));
        }
        config.chunker.check()?;
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(signer: &Signer) -> Config {
        Config {
            format_version: FORMAT_VERSION,
            id: [9; 16],
            owner: signer.public(),
            coding: Coding::default_for(3).unwrap(),
            extent_size: DEFAULT_EXTENT_SIZE,
            chunker: ChunkerParams::default(),
            remotes: vec!["/a".into(), "/b".into(), "/c".into()],
            created: 1,
            revision: 0,
            owner_kem: None,
        }
    }

    #[test]
    fn round_trip_and_rejection() {
        let s = Signer::from_seed(&[5; 32]);
        let c = sample(&s);
        let obj = c.to_object(&s).unwrap();
        assert_eq!(Config::from_object(&obj).unwrap(), c);
        assert!(Config::from_object(&obj[..obj.len() - 2]).is_err());
        let mut flipped = obj.clone();
        flipped[20] ^= 1;
        assert!(Config::from_object(&flipped).is_err());
        assert!(
            Config::from_object(
                b"not a config at all, just some garbage bytes here........................"
            )
            .is_err()
        );
    }

    #[test]
    fn version_2_carries_the_kem_key_and_version_1_stays_as_it_was() {
        let s = Signer::from_seed(&[5; 32]);
        let v1 = sample(&s);
        let v1_bytes = v1.to_object(&s).unwrap();
        let v2 = v1.with_owner_kem([7; 32]).unwrap();
        assert_eq!((v2.format_version, v2.revision), (2, 1));
        assert!(v2.with_owner_kem([8; 32]).is_none(), "once");
        let v2_bytes = v2.to_object(&s).unwrap();
        assert_eq!(v2_bytes.len(), v1_bytes.len() + 32);
        assert_eq!(Config::from_object(&v2_bytes).unwrap(), v2);
        // Version 1 with a key appended, or version 2 without one: refused.
        let mut odd = v1.clone();
        odd.owner_kem = Some([7; 32]);
        assert!(odd.to_object(&s).is_err());
        let mut short = postcard::to_stdvec(&v2).unwrap();
        short.extend_from_slice(&[7; 31]);
        let obj = envelope::seal(ObjectKind::Config, &short, &s);
        assert!(Config::from_object(&obj).is_err());
        // A version from the future: "not supported", not a parse error.
        let mut v3 = v1.clone();
        v3.format_version = 3;
        let obj = envelope::seal(ObjectKind::Config, &postcard::to_stdvec(&v3).unwrap(), &s);
        let e = Config::from_object(&obj).unwrap_err().to_string();
        assert!(e.contains("not supported"), "{e}");
    }
}
