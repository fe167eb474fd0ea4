//! Locks between backups and deletes (`locks/<id>`, one object per holder, on every
//! remote). Backups never block each other: they take *shared* locks. `delete` takes an
//! *exclusive* lock, so that no backup dedups against, or points into, an extent it is
//! removing: a backup refuses to start while a delete holds one, and a delete refuses
//! while anything else holds a lock (exit 11, "repository busy", naming the holder).
//!
//! Both sides write their lock first and then look for conflicting ones (and withdraw if
//! they find one), so two that start at the same moment cannot both go ahead. A holder
//! rewrites its lock every [`REFRESH`]; a lock not refreshed for [`STALE_AFTER`], or held by
//! a process of this host that no longer exists, is stale and ignored (`tangle unlock`
//! removes stale locks).
//!
//! Locks are signed by the owner like every other object, and name their repository and
//! their own id: a remote cannot plant one to stop every backup (exit 11 for ever, while
//! a cron job's `run` reports only "busy"). A lock that is not authentic is ignored with
//! a warning naming the remotes that serve it; `verify` reports it (exit 22) and
//! `unlock` removes it.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;

use super::Repository;
use crate::crypto::Signer;
use crate::crypto::envelope::{self, ObjectKind};
use crate::error::{Error, Kind, Result};
use crate::remote::DynRemote;

const WRITE: crate::remote::WriteAccess = crate::remote::WriteAccess::repository();
const MAGIC: &str = "tangle lock v2";
/// How often a holder rewrites its lock.
pub const REFRESH: Duration = Duration::from_secs(5 * 60);
/// A lock not refreshed for this long is stale.
pub const STALE_AFTER: Duration = Duration::from_secs(30 * 60);
/// Far more than a lock's size: a bound for reading one.
pub(super) const MAX_SIZE: u64 = 4096;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LockKind {
    /// Backups: any number at once.
    Shared,
    /// Delete: alone.
    Exclusive,
}

/// A lock found on the remotes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LockInfo {
    pub path: String,
    pub kind: LockKind,
    pub host: String,
    pub pid: u32,
    pub command: String,
    /// Seconds since the epoch: when it was taken, and last rewritten.
    pub since: i64,
    pub refreshed: i64,
}

/// The name of the lock at `path` (`locks/<id>`).
fn lock_id(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

impl LockInfo {
    /// The signed object: the text names the repository and the lock's own id, so that a
    /// lock cannot be replayed into another repository of the same owner or under
    /// another name.
    fn to_object(&self, repo_id: &[u8; 16], signer: &Signer) -> Bytes {
        let kind = match self.kind {
            LockKind::Shared => "shared",
            LockKind::Exclusive => "exclusive",
        };
        let text = format!(
            "{MAGIC}\nrepo {}\nid {}\nkind {kind}\nhost {}\npid {}\ncommand {}\nsince {}\nrefreshed {}\n",
            hex::encode(repo_id),
            lock_id(&self.path),
            self.host,
            self.pid,
            self.command,
            self.since,
            self.refreshed
        );
        Bytes::from(envelope::seal(ObjectKind::Lock, text.as_bytes(), signer))
    }

    /// The lock at `path` if `bytes` is an authentic lock of repository `repo_id`.
    fn from_object(
        path: &str,
        bytes: &[u8],
        owner: &crate::crypto::OwnerPublicKey,
        repo_id: &[u8; 16],
    ) -> Result<LockInfo> {
        let text = envelope::open(ObjectKind::Lock, bytes, owner)?;
        Self::parse(path, text, repo_id)
            .ok_or_else(|| Error::corrupt("a signed lock of another repository or name"))
    }

    fn parse(path: &str, text: &[u8], repo_id: &[u8; 16]) -> Option<LockInfo> {
        let text = std::str::from_utf8(text).ok()?;
        let mut lines = text.lines();
        (lines.next()? == MAGIC).then_some(())?;
        (lines.next()?.strip_prefix("repo ")? == hex::encode(repo_id)).then_some(())?;
        (lines.next()?.strip_prefix("id ")? == lock_id(path)).then_some(())?;
        let mut field = |key: &str| -> Option<String> {
            Some(
                lines
                    .next()?
                    .strip_prefix(key)?
                    .strip_prefix(' ')?
                    .to_string(),
            )
        };
        let kind = match field("kind")?.as_str() {
            "shared" => LockKind::Shared,
            "exclusive" => LockKind::Exclusive,
            _ => return None,
        };
        Some(LockInfo {
            path: path.to_string(),
            kind,
            host: field("host")?,
            pid: field("pid")?.parse().ok()?,
            command: field("command")?,
            since: field("since")?.parse().ok()?,
            refreshed: field("refreshed")?.parse().ok()?,
        })
    }

    /// Stale: not refreshed for [`STALE_AFTER`], or its process on this host is gone.
    pub fn is_stale(&self, now: i64) -> bool {
        let old = now.saturating_sub(self.refreshed) > STALE_AFTER.as_secs() as i64;
        let gone = self.host == crate::util::hostname()
            && self.pid != std::process::id()
            && !std::path::Path::new(&format!("/proc/{}", self.pid)).exists();
        old || gone
    }

    pub fn describe(&self) -> String {
        let since = chrono::DateTime::from_timestamp(self.since, 0)
            .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
            .unwrap_or_else(|| self.since.to_string());
        format!(
            "{} (pid {} on {}, since {since})",
            self.command, self.pid, self.host
        )
    }
}

/// The locks this process holds, for [`stop_writing_and_unlock`] when it is interrupted.
static HELD: std::sync::Mutex<Vec<Arc<HeldLock>>> = std::sync::Mutex::new(Vec::new());

fn held() -> std::sync::MutexGuard<'static, Vec<Arc<HeldLock>>> {
    HELD.lock().unwrap_or_else(|p| p.into_inner())
}

/// A lock of this process: where it is, and its refresher.
struct HeldLock {
    remotes: Vec<DynRemote>,
    path: String,
    rt: tokio::runtime::Handle,
    refresher: tokio::task::AbortHandle,
}

impl HeldLock {
    /// Stop refreshing the lock and delete it from every remote, waiting at most
    /// `within` (each delete is bounded anyway). Call it from a thread that is not
    /// running async code.
    fn remove(&self, within: Option<std::time::Duration>) {
        self.refresher.abort();
        let deletes =
            futures::future::join_all(self.remotes.iter().map(|r| r.delete(WRITE, &self.path)));
        let _ = match within {
            // The timer is made inside the runtime, whose clock it needs.
            Some(within) => self
                .rt
                .block_on(async { tokio::time::timeout(within, deletes).await.ok() }),
            None => Some(self.rt.block_on(deletes)),
        };
    }
}

/// For a process about to exit on a signal (no guard will be dropped): refuse every
/// further write to the remotes (`deadline::stop_writes`), then remove every lock this
/// process holds, waiting at most `within` for each, so that others need not wait for
/// them to go stale. Call it from a thread that is not running async code.
pub fn stop_writing_and_unlock(within: std::time::Duration) {
    crate::remote::deadline::stop_writes();
    let locks = std::mem::take(&mut *held());
    for lock in locks {
        lock.remove(Some(within));
    }
}

/// A held lock: refreshed in the background, removed from every remote when dropped.
pub struct LockGuard(Arc<HeldLock>);

impl LockGuard {
    fn path(&self) -> &str {
        &self.0.path
    }
}

impl Drop for LockGuard {
    fn drop(&mut self) {
        // Best effort: a lock left behind goes stale. On a thread of its own: the guard
        // may be dropped in async code.
        let _ = std::thread::scope(|s| s.spawn(|| self.0.remove(None)).join());
        // Only now: a signal meanwhile still finds the lock to remove.
        held().retain(|h| !Arc::ptr_eq(h, &self.0));
    }
}

fn now() -> i64 {
    chrono::Utc::now().timestamp()
}

fn conflicts(kind: LockKind, other: &LockInfo) -> bool {
    kind == LockKind::Exclusive || other.kind == LockKind::Exclusive
}

impl Repository {
    /// Every authentic lock any remote holds. One that no remote serves an authentic copy
    /// of is left out with a warning naming what each remote served (a remote that plants
    /// locks cannot stop backups); one gone since the listing is left out silently.
    pub fn locks(&self) -> Result<Vec<LockInfo>> {
        Ok(self.read_locks()?.0)
    }

    /// The authentic locks, and the paths of those that no remote serves authentic.
    fn read_locks(&self) -> Result<(Vec<LockInfo>, Vec<String>)> {
        let (owner, repo_id) = (self.config.owner, self.config.id);
        let paths = self.list_union("locks")?;
        // Paths some remote served a copy of that is not authentic: a read that only
        // failed (a remote away) says nothing against the lock.
        let refused = std::sync::Mutex::new(std::collections::HashSet::new());
        let read = self.read_objects(&paths, |path, b| {
            LockInfo::from_object(path, b, &owner, &repo_id).inspect_err(|_| {
                let mut refused = refused.lock().unwrap_or_else(|p| p.into_inner());
                refused.insert(path.to_string());
            })
        });
        let refused = refused.into_inner().unwrap_or_else(|p| p.into_inner());
        let (mut locks, mut bad) = (Vec::new(), Vec::new());
        for (path, lock) in paths.into_iter().zip(read) {
            match lock {
                Ok(l) => locks.push(l),
                Err(e) if !refused.contains(&path) => {
                    if e.kind() != Kind::NotFound {
                        self.warn_once(&path, &format!("cannot read a lock: {e}"));
                    }
                }
                Err(e) => {
                    let why = format!("ignoring a lock that is not authentic: {e}");
                    self.warn_once(&path, &why);
                    bad.push(path);
                }
            }
        }
        Ok((locks, bad))
    }

    fn busy(&self, kind: LockKind, own: Option<&str>) -> Result<Option<LockInfo>> {
        let now = now();
        Ok(self
            .locks()?
            .into_iter()
            .find(|l| Some(l.path.as_str()) != own && !l.is_stale(now) && conflicts(kind, l)))
    }

    /// Take a lock for `command` (shown to whoever it makes wait), or fail with exit 11
    /// naming the holder of a conflicting one.
    pub fn lock(&self, kind: LockKind, command: &str) -> Result<LockGuard> {
        let busy = |l: LockInfo| {
            Error::new(
                Kind::Busy,
                format!(
                    "repository busy: {} holds a lock; try again later (a holder that died \
                     leaves a stale lock: `tangle unlock` removes it)",
                    l.describe()
                ),
            )
        };
        if let Some(l) = self.busy(kind, None)? {
            return Err(busy(l));
        }
        let id: [u8; 32] = crate::crypto::random_bytes()?;
        let path = format!("locks/{}", hex::encode(id));
        let mut info = LockInfo {
            path: path.clone(),
            kind,
            host: crate::util::hostname(),
            pid: std::process::id(),
            command: command.replace('\n', " "),
            since: now(),
            refreshed: now(),
        };
        let (signer, repo_id) = (self.signer()?, self.config.id);
        let bytes = info.to_object(&repo_id, &signer);
        let refresher = self.rt.spawn({
            let (remotes, path) = (self.remotes.clone(), path.clone());
            async move {
                loop {
                    tokio::time::sleep(REFRESH).await;
                    info.refreshed = now();
                    let bytes = info.to_object(&repo_id, &signer);
                    futures::future::join_all(
                        remotes.iter().map(|r| r.put(WRITE, &path, bytes.clone())),
                    )
                    .await;
                }
            }
        });
        let lock = Arc::new(HeldLock {
            remotes: self.remotes.clone(),
            path: path.clone(),
            rt: self.rt.handle().clone(),
            refresher: refresher.abort_handle(),
        });
        // Known before it is written, so that an interrupt while it is being written
        // removes it too; a failed write removes what copies it made.
        held().push(lock.clone());
        let guard = LockGuard(lock);
        self.write_replicated(&path, bytes)
            .map_err(|e| e.context("taking the lock"))?;
        // Someone may have taken a conflicting lock while ours was being written.
        if let Some(l) = self.busy(kind, Some(guard.path()))? {
            drop(guard);
            return Err(busy(l));
        }
        Ok(guard)
    }

    /// Whether `bytes` is an authentic copy of lock `path` of this repository.
    pub fn authenticate_lock(&self, path: &str, bytes: &[u8]) -> Result<()> {
        LockInfo::from_object(path, bytes, &self.config.owner, &self.config.id).map(|_| ())
    }

    /// Remove stale locks (every lock with `all`) and those no remote serves authentic;
    /// returns the authentic locks removed and the paths of the others.
    pub fn remove_locks(&self, all: bool) -> Result<(Vec<LockInfo>, Vec<String>)> {
        let now = now();
        let (locks, bad) = self.read_locks()?;
        let stale: Vec<LockInfo> = (locks.into_iter())
            .filter(|l| all || l.is_stale(now))
            .collect();
        for path in stale.iter().map(|l| &l.path).chain(&bad) {
            self.rt.block_on(futures::future::join_all(
                self.remotes.iter().map(|r| r.delete(WRITE, path)),
            ));
        }
        Ok((stale, bad))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locks_round_trip_and_go_stale() {
        let l = LockInfo {
            path: "locks/x".into(),
            kind: LockKind::Exclusive,
            host: "elsewhere".into(),
            pid: 7,
            command: "delete".into(),
            since: 100,
            refreshed: 200,
        };
        let (signer, id) = (Signer::from_seed(&[7; 32]), [3u8; 16]);
        let object = l.to_object(&id, &signer);
        let owner = signer.public();
        assert_eq!(
            LockInfo::from_object("locks/x", &object, &owner, &id).ok(),
            Some(l.clone())
        );
        assert!(LockInfo::from_object("locks/x", b"junk", &owner, &id).is_err());
        let forger = Signer::from_seed(&[8; 32]);
        let forged = l.to_object(&id, &forger);
        assert!(LockInfo::from_object("locks/x", &forged, &owner, &id).is_err());
        assert!(
            LockInfo::from_object("locks/y", &object, &owner, &id).is_err(),
            "a lock copied under another name"
        );
        assert!(
            LockInfo::from_object("locks/x", &object, &owner, &[4; 16]).is_err(),
            "a lock of another repository"
        );
        assert!(!l.is_stale(200 + 60));
        assert!(l.is_stale(200 + STALE_AFTER.as_secs() as i64 + 1));
        let here = LockInfo {
            host: crate::util::hostname(),
            pid: u32::MAX - 1,
            ..l
        };
        assert!(
            here.is_stale(200),
            "a dead process's lock on this host is stale"
        );
        assert!(
            conflicts(LockKind::Shared, &here)
                && !conflicts(
                    LockKind::Shared,
                    &LockInfo {
                        kind: LockKind::Shared,
                        ..here.clone()
                    }
                )
        );
    }
}
