//! Whether a copy of a metadata object is authentic: signed by the owner (or, where a
//! writer may sign, by a granted writer), of this repository, at its own name; and, for
//! one that is not, whether it is provably another repository's (`repair` may then remove
//! it). Every write of a metadata copy and every survey asks here first.

use super::names::REMOVED_KEYS;
use super::{Config, Repository, State};
use crate::crypto::envelope::{self, ObjectKind};
use crate::error::{Error, Result};
use crate::extent::{
    Certificate, Deletion, ExtentName, Head, REVOKED_WRITERS, WRITERS, WriterRecord,
};

/// A metadata copy that is provably not this repository's
/// ([`Repository::foreign_copy`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Foreign {
    /// Why, for humans.
    pub(crate) why: String,
    /// It is signed by this repository's owner (an object of another repository of the
    /// same owner), not by another key.
    pub(crate) owner_signed: bool,
}

impl<S: State> Repository<S> {
    /// Whether `bytes` is an authentic copy of metadata object `path` of this repository:
    /// signed by the owner, named by its content where objects are content-addressed, of
    /// this repository, and placing shards only on remotes the config has.
    pub(crate) fn authenticate_metadata(&self, path: &str, bytes: &[u8]) -> Result<()> {
        let owner = self.config.owner;
        let name = path.rsplit('/').next().unwrap_or(path);
        // Writers may sign their runs' snapshots and index segments (the signers check
        // which kinds); everything else content-addressed is the owner's alone.
        let content_addressed = |kind| -> Result<()> {
            self.signers().open(kind, bytes)?;
            if envelope::content_id(bytes) != name {
                return Err(Error::corrupt("does not match its content hash"));
            }
            Ok(())
        };
        if path == "config" {
            let c = Config::from_object(bytes)?;
            if c.owner != owner || c.id != self.config.id {
                return Err(Error::corrupt("config of another repository or owner"));
            }
            if c.revision < self.config.revision {
                return Err(Error::corrupt(format!(
                    "stale config (revision {}, the newest is {})",
                    c.revision, self.config.revision
                )));
            }
            return Ok(());
        }
        match path.split('/').next() {
            Some("keys") => content_addressed(ObjectKind::Key),
            Some("snapshots") => content_addressed(ObjectKind::Snapshot),
            Some("index") => content_addressed(ObjectKind::Index),
            Some("deletions") => {
                content_addressed(ObjectKind::Deletion)?;
                self.deletion_record(path, bytes).map(|_| ())
            }
            Some(REMOVED_KEYS) => self.deletion_record(path, bytes).map(|_| ()),
            Some(WRITERS | REVOKED_WRITERS) => self.writer_record(path, bytes).map(|_| ()),
            Some("heads") => {
                if Head::from_object(bytes, self.signers(), path)?.repo_id != self.config.id {
                    return Err(Error::corrupt("head of another repository"));
                }
                Ok(())
            }
            Some("extents") => {
                let c = Certificate::from_object(bytes, self.signers(), &ExtentName::parse(name)?)?;
                if c.repo_id != self.config.id {
                    return Err(Error::corrupt("certificate of another repository"));
                }
                if c.shards
                    .iter()
                    .any(|s| s.remote as usize >= self.inner.remotes.len())
                {
                    return Err(Error::corrupt(
                        "certificate names remotes the config does not have",
                    ));
                }
                Ok(())
            }
            _ => Err(Error::corrupt("not a metadata object")),
        }
    }

    /// The writer record `bytes` served as `path`, if it is authentic: signed by the
    /// owner, of this repository, at its own path (FORMAT §5.8).
    pub(crate) fn writer_record(&self, path: &str, bytes: &[u8]) -> Result<WriterRecord> {
        let r = WriterRecord::from_object(bytes, &self.config.owner, path)?;
        if r.repo_id != self.config.id {
            return Err(Error::corrupt("writer record of another repository"));
        }
        Ok(r)
    }

    /// The deletion record `bytes` served as `path`, if it is authentic: signed by the
    /// owner, of this repository, and either at `deletions/<its content id>` or at
    /// `removed-keys/<key id>` naming that key (FORMAT §5.7).
    pub(crate) fn deletion_record(&self, path: &str, bytes: &[u8]) -> Result<Deletion> {
        let d = Deletion::from_object(bytes, &self.config.owner)?;
        if d.repo_id != self.config.id {
            return Err(Error::corrupt("deletion record of another repository"));
        }
        match path.split_once('/') {
            Some(("deletions", name)) if envelope::content_id(bytes) == name => Ok(d),
            Some(("deletions", _)) => Err(Error::corrupt(format!(
                "{path} does not match its content hash"
            ))),
            Some((REMOVED_KEYS, id)) if d.keys.iter().any(|k| k == id) => Ok(d),
            Some((REMOVED_KEYS, _)) => Err(Error::corrupt(format!(
                "{path}: the record does not name that key"
            ))),
            _ => Err(Error::corrupt(format!(
                "{path} is not a deletion record's name"
            ))),
        }
    }

    /// Why `bytes`, served as metadata object `path` and not authentic, is provably no
    /// object of this repository; `None` when it could be one of its own, damaged (or a
    /// forgery aimed at it), which is never removed. Proof is what damage cannot do:
    ///
    /// * a content-addressed object (`keys/`, `snapshots/`, `index/`, `deletions/`) whose
    ///   bytes still hash to its name, so they are exactly what was stored under it, and
    ///   that is not signed by the owner (or is a record of another repository);
    /// * a head, certificate or key-removal record, well-formed, that names another
    ///   repository id (signed by whomever);
    /// * a head or certificate that a granted writer signed but may not (another writer's,
    ///   or after its revocation).
    pub(crate) fn foreign_copy(&self, path: &str, bytes: &[u8]) -> Option<Foreign> {
        let Err(refusal) = self.authenticate_metadata(path, bytes) else {
            return None;
        };
        let (dir, name) = path.split_once('/')?;
        let kind = match dir {
            "keys" => ObjectKind::Key,
            "snapshots" => ObjectKind::Snapshot,
            "index" => ObjectKind::Index,
            "deletions" | REMOVED_KEYS => ObjectKind::Deletion,
            WRITERS | REVOKED_WRITERS => ObjectKind::Writer,
            "heads" => ObjectKind::Head,
            "extents" => ObjectKind::Extent,
            _ => return None,
        };
        let payload = envelope::open_unverified(kind, bytes).ok()?;
        let owner_signed = envelope::open(kind, bytes, &self.config.owner).is_ok();
        let repo_id = match kind {
            ObjectKind::Deletion => Deletion::from_payload(payload).ok().map(|d| d.repo_id),
            ObjectKind::Head => postcard::from_bytes::<Head>(payload)
                .ok()
                .map(|h| h.repo_id),
            ObjectKind::Extent => postcard::from_bytes::<Certificate>(payload)
                .ok()
                .map(|c| c.repo_id),
            ObjectKind::Writer => postcard::from_bytes::<WriterRecord>(payload)
                .ok()
                .map(|r| r.repo_id),
            _ => None,
        };
        let other_repo = repo_id.filter(|id| *id != self.config.id);
        let content_addressed = matches!(dir, "keys" | "snapshots" | "index" | "deletions");
        // Damage to a content-addressed object shows as a name its bytes do not hash to.
        if content_addressed && envelope::content_id(bytes) != name {
            return None;
        }
        let why = match other_repo {
            Some(id) => format!(
                "{} object of another repository ({})",
                if owner_signed {
                    "this owner's"
                } else {
                    "another owner's"
                },
                hex::encode(id)
            ),
            None if content_addressed && !owner_signed => {
                "intact (it hashes to its name) but signed by another key than the owner's"
                    .to_string()
            }
            // A granted writer's signature on a head or certificate that is not its own
            // to sign (another writer's, or after its revocation): its lie, provably.
            None if matches!(kind, ObjectKind::Head | ObjectKind::Extent) => {
                let (_, by) = self.signers().open(kind, bytes).ok()?;
                let envelope::SignedBy::Writer(w) = by else {
                    return None;
                };
                format!(
                    "signed by writer {}, but not authentic here: {refusal}",
                    hex::encode(w)
                )
            }
            None => return None,
        };
        Some(Foreign { why, owner_signed })
    }
}
