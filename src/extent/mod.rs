//! The extent log (after "Efficiently Binding Data to Owners"): encrypted blobs are
//! appended as blocks to an extent; a running verifier `N(i) = H(N(i-1) || H(D_i))`
//! chains every block to everything its writer wrote before, starting from
//! `N(-1) = H(owner public key)`. The final verifier names the sealed extent, and the
//! owner signs a certificate over it together with the coding and every shard's hash.

mod builder;
mod certificate;
mod deletion;
mod error;
mod head;
pub mod pointers;
mod pool;
mod writer_record;

pub(crate) use builder::{ExtentBuilder, SealContext, SealedExtent};
pub use certificate::{Certificate, Pointer, ShardInfo};
pub use deletion::{DeletedExtent, Deletion, Deletions, head_path};
pub(crate) use error::ExtentError;
pub use head::Head;
pub(crate) use pool::BufferPool;
pub(crate) use writer_record::{REVOKED_WRITERS, Revocation, WRITERS, WriterRecord, valid_label};

use serde::{Deserialize, Serialize};

use crate::crypto::OwnerPublicKey;
use crate::error::Result;

/// An extent's name: its final verifier.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ExtentName(pub [u8; 32]);

impl ExtentName {
    pub fn hex(&self) -> String {
        hex::encode(self.0)
    }
    pub fn parse(s: &str) -> Result<ExtentName> {
        let mut b = [0u8; 32];
        hex::decode_to_slice(s, &mut b).map_err(|source| ExtentError::InvalidName {
            name: s.to_string(),
            source,
        })?;
        Ok(ExtentName(b))
    }
    pub fn short(&self) -> String {
        hex::encode(&self.0[..4])
    }
    pub fn cert_path(&self) -> String {
        format!("extents/{}", self.hex())
    }
    pub fn shard_path(&self, index: usize) -> String {
        format!("shards/{}/{index}", self.hex())
    }
}

impl std::fmt::Debug for ExtentName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ExtentName({})", self.short())
    }
}

/// `N(-1)`: where every writer's chain starts.
pub(crate) fn genesis_verifier(owner: &OwnerPublicKey) -> [u8; 32] {
    *blake3::hash(&owner.0).as_bytes()
}

/// `N(i) = H(N(i-1) || H(D_i))`.
pub(crate) fn chain(prev: &[u8; 32], block: &[u8]) -> [u8; 32] {
    let mut h = blake3::Hasher::new();
    h.update(prev);
    h.update(blake3::hash(block).as_bytes());
    *h.finalize().as_bytes()
}
