//! Who may sign a repository's objects: its owner, and the writers the owner granted
//! (DESIGN.md §17). Readers check every signed object against this, so a writer's
//! signature counts only where a writer may sign, and only while its grant stands.

use std::collections::HashMap;

use super::envelope::{self, ObjectKind, SignedBy};
use super::writer::WriterId;
use super::{CryptoError, OwnerPublicKey};
use crate::error::Result;

#[derive(Clone, Debug)]
pub struct Signers {
    owner: OwnerPublicKey,
    writers: HashMap<WriterId, GrantedWriter>,
}

#[derive(Clone, Copy, Debug)]
struct GrantedWriter {
    key: OwnerPublicKey,
    /// `Some(last)` once revoked: its heads after `last` (any, if `None`) are refused.
    revoked_after: Option<Option<u64>>,
}

impl Signers {
    /// The owner alone (a repository without writers).
    pub fn owner_only(owner: OwnerPublicKey) -> Signers {
        Signers {
            owner,
            writers: HashMap::new(),
        }
    }

    /// Add a writer the owner granted; `revoked_after` as in its revocation, if any
    /// (`Some(None)`: revoked before it wrote a head).
    pub(crate) fn grant(
        &mut self,
        id: WriterId,
        key: OwnerPublicKey,
        revoked_after: Option<Option<u64>>,
    ) {
        self.writers
            .insert(id, GrantedWriter { key, revoked_after });
    }

    /// Check an object's structure and signature against the owner or a granted writer
    /// (for the kinds a writer may sign); the payload and who signed it.
    pub(crate) fn open<'a>(
        &self,
        kind: ObjectKind,
        bytes: &'a [u8],
    ) -> Result<(&'a [u8], SignedBy)> {
        envelope::open_signed(kind, bytes, &self.owner, |w| {
            self.writers.get(w).map(|g| g.key)
        })
    }

    /// Whether head `seq` of `writer` comes after the writer's revocation.
    pub(crate) fn head_after_revocation(&self, writer: &WriterId, seq: u64) -> bool {
        match self.writers.get(writer).and_then(|g| g.revoked_after) {
            Some(Some(last)) => seq > last,
            Some(None) => true,
            None => false,
        }
    }

    /// The error for an object signed by `writer` that claims to be another writer's.
    pub(crate) fn not_its_own(kind: ObjectKind, writer: WriterId) -> CryptoError {
        CryptoError::WriterSignature {
            kind,
            writer,
            why: "but names another writer",
        }
    }
}
