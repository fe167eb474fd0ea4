//! Which remotes failed in this process: a remote that failed a write is not written to
//! again (one timeout, not one per object), and one whose listing failed is skipped for
//! reads. Backups report the failed remotes as reduced redundancy.

use std::collections::BTreeMap;
use std::sync::Mutex;

use bytes::Bytes;

use crate::error::{Error, Kind};
use crate::remote::DynRemote;

/// This module writes to remotes (see [`crate::remote::WriteAccess`]).
const WRITE: crate::remote::WriteAccess = crate::remote::WriteAccess::repository();

/// Remotes that failed a write: later writes skip them instead of waiting for the same
/// failure again, and the backup reports them as having reduced redundancy.
#[derive(Default)]
pub(crate) struct WriteHealth {
    failed: Mutex<BTreeMap<usize, String>>,
    down: Mutex<BTreeMap<usize, String>>,
    /// Write only with [`Remote::put_once`](crate::remote::Remote::put_once): a writer
    /// key's process, which may run over storage that refuses every delete, rename and
    /// overwrite, and only adds new objects anyway.
    create_only: std::sync::atomic::AtomicBool,
}

/// Write a new object with [`Remote::put_once`](crate::remote::Remote::put_once). One
/// that is already there counts as written only when it holds exactly `data` (this
/// process wrote it in an attempt whose reply was lost); anything else there (a partial
/// object of a write cut short, or another process's head under the same number) is a
/// failed write, which create-only storage does not let anyone repair by replacing it.
pub(super) async fn put_once(remote: &DynRemote, path: &str, data: Bytes) -> crate::Result<()> {
    if remote.put_once(WRITE, path, data.clone()).await? {
        return Ok(());
    }
    let found = remote.get_max(path, data.len() as u64).await;
    match found {
        Ok(found) if found == data => Ok(()),
        _ => Err(Error::fatal(format!(
            "{} already holds another object at {path}, and the storage may not let it be \
             replaced",
            remote.url()
        ))),
    }
}

impl WriteHealth {
    /// From now on write only new objects, each with one create-only request.
    pub(super) fn set_create_only(&self) {
        (self.create_only).store(true, std::sync::atomic::Ordering::Relaxed);
    }

    pub(super) fn create_only(&self) -> bool {
        (self.create_only).load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Put an object unless the remote already failed; false if it was not written.
    pub(super) async fn put(
        &self,
        index: usize,
        remote: &DynRemote,
        path: &str,
        data: Bytes,
    ) -> bool {
        if self
            .failed
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .contains_key(&index)
        {
            return false;
        }
        let written = match self.create_only() {
            true => put_once(remote, path, data).await,
            false => remote.put(WRITE, path, data).await,
        };
        match written {
            Ok(()) => true,
            Err(e) => {
                self.failed
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .entry(index)
                    .or_insert_with(|| e.to_string());
                false
            }
        }
    }

    /// The error that made remote `i` count as down for reads, if any.
    pub(crate) fn down(&self, i: usize) -> Option<String> {
        self.down
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&i)
            .cloned()
    }

    /// Remote `i` answered again (e.g. a listing succeeded): read from it again.
    pub(crate) fn mark_up(&self, i: usize) {
        self.down
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&i);
    }

    /// A remote whose listing failed did not answer at all: skip it for reads for the
    /// rest of this process (one timeout, not one per object). Single failed reads do
    /// not count: a remote may lack or garble one object and still serve the rest.
    pub(crate) fn note_list_error(&self, i: usize, e: &Error) {
        if e.kind() == Kind::Fatal {
            self.down
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .entry(i)
                .or_insert_with(|| e.to_string());
        }
    }

    /// `(remote index, first error)` of every remote that failed.
    /// The remotes this run could not write to, as a head records them (`skipped`).
    pub(crate) fn skipped(&self) -> Vec<u16> {
        self.failures().iter().map(|(i, _)| *i as u16).collect()
    }

    pub(crate) fn failures(&self) -> Vec<(usize, String)> {
        self.failed
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .map(|(i, e)| (*i, e.clone()))
            .collect()
    }

    pub(crate) fn describe(&self, remotes: &[DynRemote]) -> String {
        self.failures()
            .iter()
            .map(|(i, e)| format!("{}: {e}", remotes.get(*i).map_or("?", |r| r.url())))
            .collect::<Vec<_>>()
            .join("; ")
    }
}
