//! Every write to and delete from a remote goes through here: operations decide *what*
//! to write, this module decides how it is made durable, and writes a metadata copy only
//! once `authentic.rs` accepts it. The rules, enforced once:
//!
//! * metadata is replicated to every remote that takes writes, and succeeds while no more
//!   remotes failed than the coding tolerates;
//! * a metadata copy is only ever written if it is authentic under this repository's
//!   owner key (signature, content address, repository id);
//! * a shard is only ever written if its bytes match the hash in a certificate signed by
//!   the owner, and only to the remote that certificate places it on;
//! * a shard moves copy-first: the new copy is checked and written, then the re-signed
//!   certificate reaches every remote, and only then is the old copy deleted, so an
//!   interrupted move leaves extra copies or stale certificates, never a hole.

use std::sync::Arc;

use bytes::Bytes;
use futures::future::join_all;

use super::names::removed_key_path;
use super::{Config, HasKey, Repository, State, WriteHealth};
use crate::crypto::Signer;
use crate::crypto::envelope;
use crate::error::{Error, Result};
use crate::extent::SealedExtent;
use crate::extent::{Certificate, Deletion};
use crate::remote::DynRemote;
use tokio::task::JoinHandle;

/// This module writes to remotes (see [`crate::remote::WriteAccess`]).
const WRITE: crate::remote::WriteAccess = crate::remote::WriteAccess::repository();

/// What [`Repository::publish_config`] reached.
pub(crate) struct ConfigPublished {
    /// Remotes that took the new config.
    pub(crate) written: usize,
    /// `url: error` of the remotes that did not (they adopt it on their next open, or
    /// `repair` copies it).
    pub(crate) not_updated: Vec<String>,
}

impl<S: State> Repository<S> {
    /// Write a metadata object to every remote that still takes writes; succeed if no
    /// more remotes failed than the coding tolerates (the rest is for `repair` later).
    pub(crate) fn write_replicated(&self, path: &str, bytes: Bytes) -> Result<()> {
        let health = &self.inner.health;
        let oks = self.inner.rt.block_on(join_all(
            self.inner
                .remotes
                .iter()
                .enumerate()
                .map(|(i, r)| health.put(i, r, path, bytes.clone())),
        ));
        let failed = oks.iter().filter(|ok| !**ok).count();
        if failed > self.losses_tolerated() {
            return Err(Error::fatal(format!(
                "could not write {path} to enough remotes ({failed} of {} failed): {}",
                self.inner.remotes.len(),
                health.describe(&self.inner.remotes)
            )));
        }
        Ok(())
    }

    /// Whole remotes that can be lost without losing data, with this coding.
    pub(crate) fn losses_tolerated(&self) -> usize {
        super::init::remote_losses_tolerated(&self.config.coding, self.inner.remotes.len())
    }

    /// Which remotes failed writes in this process (shared with upload tasks).
    pub(crate) fn health(&self) -> Arc<WriteHealth> {
        self.inner.health.clone()
    }

    /// The remotes writes failed on in this process, each as `URL: why`: what reports
    /// call `degraded_remotes` or `not_written`.
    pub(crate) fn failed_remotes(&self) -> Vec<String> {
        let remotes = &self.inner.remotes;
        (self.inner.health.failures().into_iter())
            .map(|(i, e)| format!("{}: {e}", remotes.get(i).map_or("?", |r| r.url())))
            .collect()
    }

    fn remote(&self, i: usize) -> Result<&DynRemote> {
        self.inner
            .remotes
            .get(i)
            .ok_or_else(|| Error::corrupt(format!("no remote {i} in the config")))
    }

    /// Remove remote `r`'s copy of metadata object `path` (repair) if it is provably not
    /// this repository's ([`Self::foreign_copy`]): it is fetched again and checked first,
    /// so an authentic copy (or one that cannot be read) is never removed. Returns its
    /// size, 0 if it was gone already.
    pub(crate) fn remove_foreign_copy(&self, r: usize, path: &str) -> Result<u64> {
        let remote = self.remote(r)?;
        let bytes = match self.block_on(remote.get_max(path, super::metadata_limit(path))) {
            Ok(b) => b,
            Err(e) if e.kind() == crate::Kind::NotFound => return Ok(0),
            Err(e) => {
                return Err(e.context(format!(
                    "not removing {path} from {}: it cannot be read to check it",
                    remote.url()
                )));
            }
        };
        if self.foreign_copy(path, &bytes).is_none() {
            return Err(Error::fatal(format!(
                "refusing to remove {path} from {}: it may be this repository's",
                remote.url()
            )));
        }
        self.delete_copy(r, path)?;
        Ok(bytes.len() as u64)
    }

    /// Create remote `r`'s location if it is missing (repair of a wiped remote); `true`
    /// if it was. Writes never create a remote's root on their own: a vanished directory
    /// (an unmounted disk) is a remote that is down until someone runs repair.
    pub(crate) fn recreate_remote(&self, r: usize) -> Result<bool> {
        let remote = self.remote(r)?;
        if self.block_on(remote.exists())? {
            return Ok(false);
        }
        self.block_on(remote.create(WRITE))
            .map_err(|e| e.context(format!("creating {}", remote.url())))?;
        Ok(true)
    }

    /// Give remote `r` a fresh identity marker (repair of a remote without one: rebuilt,
    /// or from before markers), refused with a usage error if it is the same location as
    /// another remote of the config.
    pub(crate) fn claim_marker(&self, r: usize) -> Result<()> {
        let remote = self.remote(r)?;
        let others: Vec<&DynRemote> = (self.inner.remotes.iter().enumerate())
            .filter(|(k, _)| *k != r)
            .map(|(_, o)| o)
            .collect();
        self.block_on(super::marker::claim(remote, &others, self.config.id))
    }

    fn write_deletion_object(&self, object: Bytes) -> Result<String> {
        let path = format!("deletions/{}", envelope::content_id(&object));
        self.write_replicated(&path, object)
            .map_err(|e| e.context("writing the deletion record"))?;
        Ok(path)
    }

    /// Remove object `path` from remote `r`: only for what an authentic deletion record
    /// names (delete, and repair on a remote that missed a delete). Deleting an object
    /// that is already gone is not an error.
    pub(crate) fn remove_deleted_object(&self, r: usize, path: &str) -> Result<()> {
        self.delete_copy(r, path)
    }

    /// Remove remote `r`'s copy of `path`, a leftover of an interrupted run (prune, and
    /// every delete: see `ops::leftovers`, which proves it dead). Only a shard, a
    /// certificate or an index segment can be one: anything else (config, keys, heads,
    /// snapshots, deletion records, locks) is refused, whatever the caller decided.
    pub(crate) fn remove_leftover(&self, r: usize, path: &str) -> Result<()> {
        use super::names::ObjectName;
        match ObjectName::parse(path) {
            Some(ObjectName::Shard(..) | ObjectName::Certificate(_) | ObjectName::Index) => {
                self.delete_copy(r, path)
            }
            _ => Err(Error::fatal(format!(
                "internal: refusing to remove {path}: not a shard, certificate or index segment"
            ))),
        }
    }

    /// Remove remote `r`'s temp file `path` (`.tmp-*`), left by a write that was cut
    /// short. Never one under `locks/` or `repairs/`, where other processes write at any
    /// moment (a command taking its lock while this one holds the exclusive lock).
    pub(crate) fn remove_temp_file(&self, r: usize, path: &str) -> Result<()> {
        let name = path.rsplit('/').next().unwrap_or(path);
        if !name.starts_with(crate::remote::TEMP_PREFIX)
            || path.starts_with("locks/")
            || path.starts_with("repairs/")
        {
            return Err(Error::fatal(format!(
                "internal: refusing to remove {path}: not a temp file outside locks/ and repairs/"
            )));
        }
        self.delete_copy(r, path)
    }

    /// Remove remote `r`'s copy of lock `path` (repair): refused if it is authentic.
    pub(crate) fn remove_bad_lock_copy(&self, r: usize, path: &str, copy: &[u8]) -> Result<()> {
        if self.lock_copy_is_authentic(r, path, copy) {
            return Err(Error::fatal(format!(
                "refusing to remove {path}: authentic"
            )));
        }
        self.delete_copy(r, path)
    }

    /// Delete remote `r`'s copy of `path`; deleting what is already gone is no error.
    fn delete_copy(&self, r: usize, path: &str) -> Result<()> {
        let remote = self.remote(r)?;
        self.block_on(remote.delete(WRITE, path))
            .map_err(|e| e.context(format!("removing {path} from {}", remote.url())))
    }

    /// Rewrite remote `r`'s copy of metadata object `path` (repair): refused unless the
    /// object is authentic for this repository.
    pub(crate) fn put_metadata_copy(&self, r: usize, path: &str, object: Bytes) -> Result<()> {
        self.authenticate_metadata(path, &object)
            .map_err(|e| e.context(format!("refusing to write {path}")))?;
        let remote = self.remote(r)?;
        self.block_on(remote.put(WRITE, path, object))
            .map_err(|e| e.context(format!("writing {path} to {}", remote.url())))
    }

    /// Write shard `index` of an extent to the remote its certificate places it on:
    /// refused unless the bytes match the certified hash.
    pub(crate) fn put_shard(&self, cert: &Certificate, index: usize, data: Bytes) -> Result<()> {
        let path = cert.name().shard_path(index);
        let info = cert
            .shards
            .get(index)
            .ok_or_else(|| Error::corrupt(format!("{path}: no such shard")))?;
        if blake3::hash(&data).as_bytes() != &info.hash {
            return Err(Error::corrupt(format!(
                "{path}: refusing to write bytes that do not match the certificate"
            )));
        }
        let remote = self.remote(info.remote as usize)?;
        self.block_on(remote.put(WRITE, &path, data))
            .map_err(|e| e.context(format!("writing {path} to {}", remote.url())))
    }

    /// First half of a shard move: read shard `index` from remote `from`, check it
    /// against the certificate, and write it to remote `to`. The old copy stays until
    /// [`Self::commit_placement`] has made the new placement current.
    pub(crate) fn copy_shard(
        &self,
        cert: &Certificate,
        index: usize,
        from: usize,
        to: usize,
    ) -> Result<()> {
        let path = cert.name().shard_path(index);
        let (source, target) = (self.remote(from)?, self.remote(to)?);
        let hash = cert
            .shards
            .get(index)
            .map(|s| s.hash)
            .ok_or_else(|| Error::corrupt(format!("{path}: no such shard")))?;
        let data = self
            .block_on(source.get_sized(&path, cert.shard_size as u64))
            .map_err(|e| e.context("it cannot be read"))?;
        if blake3::hash(&data).as_bytes() != &hash {
            return Err(Error::corrupt(format!(
                "its copy on {} does not match the certificate",
                source.url()
            )));
        }
        self.block_on(target.put(WRITE, &path, data))
            .map_err(|e| e.context("it cannot be written"))
    }

    /// Second half of shard moves: write the re-signed certificate (`placement`
    /// raised) to every remote, and only once all took it delete the old copies of the
    /// moved shards (`(shard, old remote)`). Any failure stops before a delete.
    pub(crate) fn commit_placement(
        &self,
        cert: &Certificate,
        signer: &Signer,
        moved_from: &[(usize, usize)],
    ) -> Result<()> {
        let name = cert.name();
        for &(i, from) in moved_from {
            if cert.shards.get(i).is_none_or(|s| s.remote as usize == from) {
                return Err(Error::fatal(format!(
                    "internal: shard {i} of extent {} is not moved away from remote {from}",
                    name.short()
                )));
            }
        }
        let object = Bytes::from(cert.to_object(signer)?);
        let path = name.cert_path();
        self.authenticate_metadata(&path, &object)?;
        let puts = self
            .inner
            .remotes
            .iter()
            .map(|r| r.put(WRITE, &path, object.clone()));
        for (r, result) in self.inner.remotes.iter().zip(self.block_on(join_all(puts))) {
            // Stop before deleting anything: the old copies keep the old placement whole.
            result.map_err(|e| {
                e.context(format!(
                    "writing the new placement of extent {} to {}",
                    name.short(),
                    r.url()
                ))
            })?;
        }
        let deletes = moved_from.iter().map(|&(i, from)| {
            let path = name.shard_path(i);
            async move { self.remote(from)?.delete(WRITE, &path).await }
        });
        for result in self.block_on(join_all(deletes)) {
            result.map_err(|e| e.context("removing a moved shard's old copy"))?;
        }
        Ok(())
    }

    /// Make `config` (a new revision with a changed remote list, signed by `signer`)
    /// current: every remote it lists that is new must be empty or hold this very
    /// repository (it is created if needed); the config then goes to every listed
    /// remote and to the remote being replaced (`replaced`, an index into today's list).
    pub(crate) fn publish_config(
        &self,
        config: &Config,
        signer: &Signer,
        replaced: Option<usize>,
    ) -> Result<ConfigPublished> {
        if config.id != self.config.id || config.owner != self.config.owner {
            return Err(Error::fatal("internal: config of another repository"));
        }
        if config.revision <= self.config.revision {
            return Err(Error::fatal(
                "internal: a new config needs a newer revision",
            ));
        }
        let bytes = Bytes::from(config.to_object(signer)?);
        let targets: Vec<DynRemote> = config
            .remotes
            .iter()
            .map(|u| self.open_remote(u))
            .collect::<Result<_>>()?;
        for (i, r) in targets.iter().enumerate() {
            if self.config.remotes.get(i) == Some(&config.remotes[i]) {
                continue;
            }
            if self.block_on(r.exists())?
                && let Ok(b) = self.block_on(r.get_max("config", super::metadata_limit("config")))
            {
                let other = Config::from_object(&b).ok();
                if other.is_none_or(|c| c.id != config.id) {
                    return Err(Error::fatal(format!(
                        "{} already holds another repository",
                        r.url()
                    )));
                }
            }
            self.block_on(r.create(WRITE))
                .map_err(|e| e.context(format!("creating {}", r.url())))?;
            // The remotes it joins: all current ones but the one it replaces.
            let joins: Vec<&DynRemote> = (self.inner.remotes.iter().enumerate())
                .filter(|(k, _)| Some(*k) != replaced)
                .map(|(_, r)| r)
                .collect();
            self.block_on(super::marker::claim(r, &joins, config.id))?;
        }
        let mut published = ConfigPublished {
            written: 0,
            not_updated: Vec::new(),
        };
        let old = replaced.and_then(|i| self.inner.remotes.get(i));
        for r in targets.iter().chain(old) {
            match self.block_on(r.put(WRITE, "config", bytes.clone())) {
                Ok(()) => published.written += 1,
                Err(e) => published.not_updated.push(format!("{}: {e}", r.url())),
            }
        }
        if published.written == 0 {
            return Err(Error::fatal(
                "the new config could not be written to any remote",
            ));
        }
        Ok(published)
    }

    /// Store one sealed extent: each remote's shards (remotes in parallel), then, if no more
    /// than its parity count of shards failed, its certificate on every remote, which must
    /// reach all but the losses the repository tolerates. A remote that fails a write is
    /// skipped for the rest of the run (`WriteHealth`) and named in the error.
    ///
    /// `held[r]` (a queue permit) is dropped as soon as remote `r` is done with this
    /// extent's shards, before the certificate is written. Starts at once; the handle
    /// yields the outcome. Scheduling (queues, permits) is the backup's.
    pub(crate) fn store_extent<H: Send + 'static>(
        &self,
        sealed: SealedExtent,
        mut held: Vec<Option<H>>,
    ) -> JoinHandle<Result<()>> {
        let remotes: Vec<DynRemote> = self.remotes().to_vec();
        let mut by_remote: Vec<Vec<usize>> = vec![Vec::new(); remotes.len()];
        for (i, info) in sealed.cert.shards.iter().enumerate() {
            by_remote[info.remote as usize].push(i);
        }
        let health = self.health();
        let name = sealed.name();
        let sealed = Arc::new(sealed);
        let per_remote: Vec<_> = by_remote
            .into_iter()
            .enumerate()
            .filter(|(_, shards)| !shards.is_empty())
            .map(|(r, shards)| {
                let (remote, health, sealed) = (remotes[r].clone(), health.clone(), sealed.clone());
                let held = held.get_mut(r).and_then(Option::take);
                self.runtime().spawn(async move {
                    let puts = shards.iter().map(|&i| {
                        let data = sealed.shards[i].clone();
                        let (health, remote, path) = (&health, &remote, name.shard_path(i));
                        async move { health.put(r, remote, &path, data).await }
                    });
                    let failed = failures(&join_all(puts).await);
                    drop(held);
                    failed
                })
            })
            .collect();
        let (parity, tolerated) = (sealed.cert.parity_shards as usize, self.losses_tolerated());
        // Only the certificate waits for the shards: each shard's buffer goes as soon as
        // its remote has it, not when the last certificate is written.
        let cert_object = sealed.cert_object.clone();
        drop(sealed);
        self.runtime().spawn(async move {
            let mut failed = 0;
            for task in per_remote {
                failed += task.await.map_err(task_failed)?;
            }
            // Decodable as long as no more than `p` of its own shards are missing.
            if failed > parity {
                return Err(Error::fatal(format!(
                    "extent {}: {failed} of its shards could not be written, more than the {parity} it can lose ({})",
                    name.short(),
                    health.describe(&remotes)
                )));
            }
            stop_before_certificate_for_tests();
            let cert_puts = remotes.iter().enumerate().map(|(i, r)| {
                let (path, data, health) = (name.cert_path(), cert_object.clone(), &health);
                async move { health.put(i, r, &path, data).await }
            });
            if failures(&join_all(cert_puts).await) > tolerated {
                return Err(Error::fatal(format!(
                    "extent {}: its certificate reached too few remotes ({})",
                    name.short(),
                    health.describe(&remotes)
                )));
            }
            Ok(())
        })
    }
}

impl<S: HasKey> Repository<S> {
    /// Sign and replicate a deletion record: from here on what it names is deleted, not
    /// lost (delete and `key remove` write them). Returns its path.
    pub(crate) fn write_deletion_record(&self, record: &Deletion) -> Result<String> {
        let object = record.to_object(&self.signer())?;
        self.write_deletion_object(Bytes::from(object))
    }

    /// Record the removal of key file `keys/<key_id>` (`key remove`), before any copy of
    /// it is removed: first at `removed-keys/<key_id>`, where unlocking looks for it,
    /// then the same bytes at `deletions/<content id>`, where every record is. `again`
    /// (the key is removed already: finishing a removal that stopped), a record already
    /// at the first name is used again, so that name never holds two different objects.
    pub(crate) fn write_key_removal(&self, key_id: &str, again: bool) -> Result<()> {
        let path = removed_key_path(key_id);
        let existing = match again {
            true => self.read_object(&path, |b| {
                self.deletion_record(&path, b)?;
                Ok(Bytes::copy_from_slice(b))
            }),
            false => Err(Error::new(crate::Kind::NotFound, "a new removal")),
        };
        let object = match existing {
            Ok(b) => b,
            Err(_) => {
                let record = Deletion {
                    repo_id: self.config.id,
                    time: chrono::Utc::now().timestamp(),
                    keys: vec![key_id.to_string()],
                    ..Default::default()
                };
                Bytes::from(record.to_object(&self.signer())?)
            }
        };
        self.write_replicated(&path, object.clone())
            .map_err(|e| e.context("writing the key's removal record"))?;
        self.write_deletion_object(object)?;
        Ok(())
    }
}

/// Tests with the `testing` feature may set `TANGLE_TEST_STOP_BEFORE_CERTIFICATE=N` to
/// make the process stop itself (`SIGSTOP`) once the shards of the N-th extent it stores
/// are written and its certificate is not: a run caught where a kill leaves every kind
/// of leftover (certified extents no head commits to, shards no certificate accounts
/// for), whatever the machine's speed.
fn stop_before_certificate_for_tests() {
    #[cfg(feature = "testing")]
    {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static STORED: AtomicUsize = AtomicUsize::new(0);
        let Some(n) = std::env::var("TANGLE_TEST_STOP_BEFORE_CERTIFICATE")
            .ok()
            .and_then(|v| v.parse::<usize>().ok())
        else {
            return;
        };
        if STORED.fetch_add(1, Ordering::SeqCst) + 1 == n {
            // To this thread (`raise`, not `kill`): it stops before it returns to write the
            // certificate. A signal to the process may be taken by another thread while
            // this one goes on for a moment.
            // SAFETY: raise has no preconditions; SIGSTOP cannot be caught.
            unsafe {
                libc::raise(libc::SIGSTOP);
            }
        }
    }
}

/// How many of the puts (by their results) were not written.
fn failures(written: &[bool]) -> usize {
    written.iter().filter(|ok| !**ok).count()
}

fn task_failed(e: tokio::task::JoinError) -> Error {
    Error::fatal(format!("internal: upload task failed: {e}"))
}
