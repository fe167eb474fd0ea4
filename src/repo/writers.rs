//! The writers the owner granted and revoked (DESIGN.md §17): read with the public key,
//! written with the master key.

use bytes::Bytes;

use super::{HasKey, Repository, State};
use crate::crypto::Signers;
use crate::error::Result;
use crate::extent::{REVOKED_WRITERS, Revocation, WRITERS, WriterRecord};

/// A writer as the owner's records say: its grant, and its revocation if there is one.
#[derive(Clone, Debug)]
pub struct Writer {
    pub grant: WriterRecord,
    pub revoked: Option<Revocation>,
}

impl<S: State> Repository<S> {
    /// Every writer the owner granted, oldest first, each with its revocation if any
    /// remote serves one. A record no remote serves authentically is skipped with a
    /// warning (`verify` reports it); a repository without writers (config version 1)
    /// lists nothing.
    pub fn writers(&self) -> Result<Vec<Writer>> {
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
    pub fn signers(&self) -> &Signers {
        self.inner.signers.get_or_init(|| {
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
        })
    }
}

impl<S: HasKey> Repository<S> {
    /// Sign a writer's grant or revocation and write it to every remote.
    pub fn write_writer_record(&self, record: &WriterRecord) -> Result<()> {
        let object = record.to_object(&self.signer())?;
        self.write_replicated(&record.path(), Bytes::from(object))
            .map_err(|e| e.context("writing the writer record"))
    }
}
