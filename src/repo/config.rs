//! The repository config: identity, owner key, coding parameters and the remotes. It is
//! replicated on every remote and signed by the owner key it contains.

use serde::{Deserialize, Serialize};

use crate::codec::Coding;
use crate::content::ChunkerParams;
use crate::crypto::envelope::{self, ObjectKind};
use crate::crypto::{OwnerPublicKey, Signer};
use crate::error::{Error, Result};

pub const FORMAT_VERSION: u32 = 1;
/// Target size of the data part of an extent before it is sealed and coded.
pub const DEFAULT_EXTENT_SIZE: u32 = 16 << 20;

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Config {
    pub format_version: u32,
    pub id: [u8; 16],
    pub owner: OwnerPublicKey,
    pub coding: Coding,
    pub extent_size: u32,
    pub chunker: ChunkerParams,
    /// Remote URLs; a shard's `remote` field in a certificate indexes this list.
    pub remotes: Vec<String>,
    pub created: i64,
    /// Increases with every change (e.g. `remote replace`); the newest signed one wins.
    pub revision: u64,
}

impl Config {
    pub fn id_hex(&self) -> String {
        hex::encode(self.id)
    }

    pub fn to_object(&self, signer: &Signer) -> Result<Vec<u8>> {
        Ok(envelope::seal(
            ObjectKind::Config,
            &postcard::to_stdvec(self)?,
            signer,
        ))
    }

    /// Parse and check the self-signature. Nothing pins the owner key yet: a client
    /// trusts the key of the config it first sees (trust on first use).
    pub fn from_object(bytes: &[u8]) -> Result<Config> {
        let payload = envelope::open_unverified(ObjectKind::Config, bytes)?;
        let config: Config = postcard::from_bytes(payload)?;
        envelope::open(ObjectKind::Config, bytes, &config.owner)?;
        if config.format_version != FORMAT_VERSION {
            return Err(Error::corrupt(format!(
                "repository format version {} is not supported by this tangle (supports {FORMAT_VERSION})",
                config.format_version
            )));
        }
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
}
