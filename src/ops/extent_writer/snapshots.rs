//! Storing blobs and committing snapshots for the commands that make snapshots of
//! another repository's history: `copy` (a tangle repository) and `import restic`. A
//! backup commits its run the same way, through its own pipeline.

use std::collections::HashSet;

use bytes::Bytes;
use serde::Serialize;

use super::{Appender, RunHeads, StoredBlob};
use crate::content::{BlobId, BlobKind, Snapshot, Tree, encode_blob};
use crate::crypto::envelope::{self, ObjectKind};
use crate::error::{Error, Result};
use crate::ops::Progress;
use crate::repo::{Indexed, Repository};

/// A snapshot brought in from another repository (copy, import): the new one and what it
/// stored, with the labels it keeps. Each report's entry flattens it beside the source's
/// id (the JSON keys are the entry's own).
#[derive(Serialize, Debug, Clone)]
pub struct Brought {
    /// The new snapshot (`null` with `dry_run`).
    pub id: Option<String>,
    pub time: String,
    pub host: String,
    pub paths: Vec<String>,
    pub tags: Vec<String>,
    /// Blobs stored for it (not already in the destination), and their size,
    /// compressed and encrypted, before coding.
    pub blobs_added: u64,
    pub bytes_added: u64,
}

impl Brought {
    /// `s`'s labels; nothing stored yet.
    pub(crate) fn labels_of(s: &Snapshot) -> Brought {
        Brought {
            id: None,
            time: s.time().to_rfc3339_opts(chrono::SecondsFormat::Secs, false),
            host: s.host.clone(),
            paths: s.paths.clone(),
            tags: s.tags.clone(),
            blobs_added: 0,
            bytes_added: 0,
        }
    }
}

/// What a run that brings snapshots in stored in all, flattened into its report.
#[derive(Serialize, Debug, Default)]
pub struct Stored {
    /// Plaintext bytes read from the source: data blobs (copy), file contents (import).
    pub bytes_read: u64,
    /// Blobs stored, and their size before coding.
    pub blobs_added: u64,
    pub bytes_added: u64,
    /// What went to the remotes: data and parity shards.
    pub bytes_stored: u64,
    pub extents: u64,
    pub duration_secs: f64,
    /// Remotes that could not be written: the snapshots are complete and recoverable,
    /// with less redundancy there until `repair` runs (as after a backup).
    pub degraded_remotes: Vec<String>,
}

/// Fills extents with the blobs one snapshot needs and commits each snapshot as a backup
/// commits its run: the extents (sealed, uploaded), an index segment, a head naming the
/// snapshot, then the snapshot. A run stopped part way leaves the snapshots committed
/// before it complete, and extents no head commits (the next `delete` or `prune` removes
/// them).
pub(crate) struct SnapshotWriter<'a> {
    dst: &'a Repository<Indexed>,
    appender: Appender<'a, Indexed>,
    /// Blobs this run stored (the loaded index does not know them).
    stored: HashSet<BlobId>,
    /// This run's writer chain and its next head.
    heads: RunHeads,
    /// Extents sealed, blobs stored and their size (compressed and encrypted).
    pub(crate) extents: u64,
    pub(crate) blobs: u64,
    pub(crate) bytes: u64,
}

impl<'a> SnapshotWriter<'a> {
    /// A new writer chain in `dst`, whose committed index the caller loaded under its
    /// shared lock.
    pub(crate) fn new(dst: &'a Repository<Indexed>, progress: &'a Progress) -> Result<Self> {
        let appender = Appender::fresh_chain(dst, progress, &HashSet::new())?;
        Ok(SnapshotWriter {
            dst,
            heads: RunHeads::new(appender.writer(), 0),
            appender,
            stored: HashSet::new(),
            extents: 0,
            blobs: 0,
            bytes: 0,
        })
    }

    /// Whether the destination lacks the blob `id` (neither committed nor stored by
    /// this run).
    pub(crate) fn is_new(&self, id: &BlobId) -> bool {
        !self.dst.index().contains(id) && !self.stored.contains(id)
    }

    /// Store plaintext `plain` as a blob of `kind` unless the destination has it; its id.
    pub(crate) fn store(&mut self, kind: BlobKind, plain: &[u8]) -> Result<BlobId> {
        let id = self.dst.key().blob_id(plain);
        if self.is_new(&id) {
            let sealed = encode_blob(self.dst.key(), kind, plain)?;
            self.append(id, kind, plain.len(), sealed)?;
        }
        Ok(id)
    }

    /// Store a tree (unless the destination has it); its id.
    pub(crate) fn store_tree(&mut self, tree: Tree) -> Result<BlobId> {
        self.store(BlobKind::Tree, &tree.to_bytes()?)
    }

    /// Append a blob already sealed with the destination's key (`raw_len`: its
    /// plaintext length).
    pub(crate) fn append(
        &mut self,
        id: BlobId,
        kind: BlobKind,
        raw_len: usize,
        data: Vec<u8>,
    ) -> Result<()> {
        let raw_len = u32::try_from(raw_len)
            .map_err(|_| Error::fatal("a blob to store is larger than 4 GiB"))?;
        self.stored.insert(id);
        self.blobs += 1;
        self.bytes += data.len() as u64;
        self.appender.append(StoredBlob {
            id,
            kind,
            raw_len,
            data,
        })
    }

    /// What this run stored so far, `bytes_read` from the source.
    pub(crate) fn stored(&self, bytes_read: u64) -> Stored {
        Stored {
            bytes_read,
            blobs_added: self.blobs,
            bytes_added: self.bytes,
            bytes_stored: self.appender.bytes_stored,
            extents: self.extents,
            ..Stored::default()
        }
    }

    /// Commit what the snapshot `s` stored and write it: the extents (sealed, uploaded),
    /// the index segment, the head naming the snapshot, then the snapshot. Returns the
    /// new snapshot's id.
    pub(crate) fn commit(&mut self, s: &Snapshot) -> Result<String> {
        let dst = self.dst;
        self.appender.finish()?;
        let extents = std::mem::take(&mut self.appender.extents);
        self.extents += extents.len() as u64;
        let object = Bytes::from(envelope::seal(
            ObjectKind::Snapshot,
            &s.encrypt(dst.key())?,
            &dst.signer(),
        ));
        let id = envelope::content_id(&object);
        let written =
            self.heads
                .commit_extents(dst, extents, self.appender.last, Some(id.clone()))?;
        if let Some(head) = written.last() {
            dst.remember_heads(&[(hex::encode(head.writer), head.seq)].into_iter().collect());
        }
        dst.write_replicated(&format!("snapshots/{id}"), object)
            .map_err(|e| e.context("writing the snapshot"))?;
        Ok(id)
    }
}
