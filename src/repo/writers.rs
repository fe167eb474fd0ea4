//! The writers the owner granted and revoked (DESIGN.md §17): read with the public key,
//! written with the master key.

use std::sync::Arc;

use bytes::Bytes;

use super::{HasKey, Repository, State};
use crate::content::{IndexSegment, OpenedSegment};
use crate::crypto::envelope::{ObjectKind, SignedBy};
use crate::crypto::writer::{OwnerKem, RunKeys, SEALED_KEY_LEN, WriterId, writer_id_key};
use crate::crypto::{ContentKey, CryptoError, Signers};
use crate::error::{Error, Result};
use crate::extent::{REVOKED_WRITERS, Revocation, WRITERS, WriterRecord};

/// A writer as the owner's records say: its grant, and its revocation if there is one.
#[derive(Clone, Debug)]
pub(crate) struct Writer {
    pub(crate) grant: WriterRecord,
    pub(crate) revoked: Option<Revocation>,
}

impl<S: State> Repository<S> {
    /// Every writer the owner granted, oldest first, each with its revocation if any
    /// remote serves one. A record no remote serves authentically is skipped with a
    /// warning (`verify` reports it); a repository without writers (config version 1)
    /// lists nothing.
    pub(crate) fn writers(&self) -> Result<Vec<Writer>> {
        if self.config.owner_kem.is_none() {
            return Ok(Vec::new());
        }
        let read = |dir: &str| -> Result<Vec<WriterRecord>> {
            let paths = self.list_union(dir)?;
            let records = self.read_objects(&paths, |p, b| self.writer_record(p, b));
            Ok((records.into_iter())
                .filter_map(|r| {
                    r.map_err(|e| self.warn(&format!("skipping writer record: {e}")))
                        .ok()
                })
                .collect())
        };
        let revocations = read(REVOKED_WRITERS)?;
        let mut writers: Vec<Writer> = (read(WRITERS)?.into_iter())
            .map(|grant| Writer {
                revoked: (revocations.iter())
                    .find(|r| r.writer == grant.writer && r.public == grant.public)
                    .and_then(|r| r.revoked),
                grant,
            })
            .collect();
        writers.sort_by(|a, b| {
            (a.grant.created, &a.grant.label).cmp(&(b.grant.created, &b.grant.label))
        });
        Ok(writers)
    }
}

impl<S: State> Repository<S> {
    /// Who may sign this repository's objects: the owner and the writers it granted,
    /// read once per process (with a warning, the owner alone if the records cannot be
    /// listed: a writer's objects then fail their checks and are reported).
    pub(crate) fn signers(&self) -> &Signers {
        self.inner.signers.get_or_init(|| {
            // Listing and reading the records needs the runtime: from a thread of its own
            // when this one is inside it (a read whose checks are the first to need them).
            if tokio::runtime::Handle::try_current().is_err() {
                return self.read_signers();
            }
            std::thread::scope(|s| s.spawn(|| self.read_signers()).join())
                .unwrap_or_else(|p| std::panic::resume_unwind(p))
        })
    }

    fn read_signers(&self) -> Signers {
        let mut signers = Signers::owner_only(self.config.owner);
        match self.writers() {
            Ok(writers) => {
                for w in writers {
                    let revoked = w.revoked.map(|r| r.last_head);
                    signers.grant(w.grant.writer, w.grant.public, revoked);
                }
            }
            Err(e) => self.warn(&format!("cannot read the writer records: {e}")),
        }
        signers
    }
}

impl<S: HasKey> Repository<S> {
    /// Sign a writer's grant or revocation and write it to every remote.
    pub(crate) fn write_writer_record(&self, record: &WriterRecord) -> Result<()> {
        let object = record.to_object(&self.signer())?;
        self.write_replicated(&record.path(), Bytes::from(object))
            .map_err(|e| e.context("writing the writer record"))
    }
}

/// What writers wrote is sealed to the owner: opening it needs the master key.
impl<S: HasKey> Repository<S> {
    /// The keys of a signed snapshot or index payload, and its sealed content: the
    /// owner's own (`None`: the master key), or for a writer's, the run key its first
    /// [`SEALED_KEY_LEN`] bytes seal to the owner, with that writer's id key.
    pub(crate) fn payload_keys<'a>(
        &self,
        signed_by: SignedBy,
        payload: &'a [u8],
    ) -> Result<(Option<Arc<RunKeys>>, &'a [u8])> {
        let SignedBy::Writer(writer) = signed_by else {
            return Ok((None, payload));
        };
        let (sealed, rest) = payload
            .split_first_chunk::<SEALED_KEY_LEN>()
            .ok_or(CryptoError::SealedKey)?;
        Ok((Some(self.run_keys(sealed, &writer)?), rest))
    }

    /// An index segment's payload decrypted, with the keys its blobs are under. Only the
    /// owner's segments may list writers' extents (each group with the run key its
    /// writer sealed: opened here, so a group that does not open fails the segment).
    pub(crate) fn decrypt_segment(
        &self,
        signed_by: SignedBy,
        payload: &[u8],
    ) -> Result<OpenedSegment> {
        let (keys, sealed) = self.payload_keys(signed_by, payload)?;
        let segment = match &keys {
            Some(k) => IndexSegment::decrypt(&k.content, sealed)?,
            None => IndexSegment::decrypt(self.key(), sealed)?,
        };
        if keys.is_some() && !segment.writers.is_empty() {
            return Err(Error::corrupt(
                "a writer's index segment that lists other runs' extents",
            ));
        }
        let groups = (segment.writers.iter())
            .map(|g| {
                let sealed: &[u8; SEALED_KEY_LEN] =
                    (g.sealed_key.as_slice().try_into()).map_err(|_| CryptoError::SealedKey)?;
                self.run_keys(sealed, &g.writer)
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(OpenedSegment {
            segment,
            keys,
            groups,
        })
    }

    /// An index segment object checked (signature of the owner or a granted writer) and
    /// decrypted.
    pub(crate) fn open_index_segment(&self, object: &[u8]) -> Result<OpenedSegment> {
        let (payload, signed_by) = self.signers().open(ObjectKind::Index, object)?;
        self.decrypt_segment(signed_by, payload)
    }

    /// The content keys of a writer's run from its sealed run key, opened once per
    /// process (every certificate and payload of a run carries the same sealed key).
    pub(crate) fn run_keys(
        &self,
        sealed: &[u8; SEALED_KEY_LEN],
        writer: &WriterId,
    ) -> Result<Arc<RunKeys>> {
        let mut opened = (self.inner.run_keys.lock()).unwrap_or_else(|p| p.into_inner());
        if let Some((_, k)) = opened.iter().find(|(s, _)| s == sealed) {
            return Ok(k.clone());
        }
        let master = self.key();
        let kem = self
            .inner
            .owner_kem
            .get_or_init(|| OwnerKem::derive(master));
        let run = kem.open_run_key(sealed, &self.config.id, writer)?;
        let keys = Arc::new(RunKeys {
            content: ContentKey::new(*run.encryption_key(), writer_id_key(&master.id_key, writer)),
            writer: *writer,
            sealed: *sealed,
        });
        opened.push((*sealed, keys.clone()));
        Ok(keys)
    }
}
