//! Locks between the commands that write (`locks/<id>`, one object per holder, on every
//! remote; docs/DESIGN.md "Locking" has the table of who excludes whom).
//!
//! * *Shared* locks (backup, `key add`) never block each other. *Exclusive* ones (delete,
//!   prune, `remote add/replace/rebalance`, `key passwd/remove`) stand alone: a command
//!   refuses to start while a conflicting lock is live (exit 11, naming the holder), or
//!   waits for it with `--retry-lock`. Both sides write their lock first and then look for
//!   conflicting ones (and withdraw if they find one), so two that start at the same
//!   moment cannot both go ahead.
//! * A holder rewrites its lock with a higher beat every [`LockTimes::refresh`]; whether
//!   a holder is alive is judged by the reader alone ([`liveness`]): by its process on the
//!   same machine, else by watching the beat stay unchanged for [`LockTimes::stale`].
//! * A holder that has not renewed its lock for [`LockTimes::lease`] writes nothing more
//!   ([`crate::remote::lease`]): by the time others may judge it dead it has stopped.
//! * A password-less `repair` cannot sign a lock. It writes an unsigned *repair marker*
//!   ([`repair_marker`]) and then checks for exclusive locks, re-checking every
//!   [`LockTimes::repair_check`] and writing only while its last check is recent; an
//!   exclusive holder, once its lock is written, waits for live markers to go. A marker
//!   proves nothing and blocks nothing for long ([`LockTimes::repair_wait`]), so a remote
//!   that plants one costs a delete minutes at most; a planted *lock* must be signed.
//!
//! Locks are signed by the owner like every other object, and name their repository and
//! their own id: a remote cannot plant one to stop every backup. A lock that is not
//! authentic is ignored with a warning naming the remotes that serve it; `verify`
//! reports it (exit 22) and `unlock` and `repair` remove it.

mod copies;
mod liveness;
mod object;
mod repair_marker;

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::StreamExt;

use super::{Repository, Signs, State};
use crate::error::{Error, Kind, Result};
use crate::remote::{DynRemote, lease};

use copies::{LockCopies, judge, read_lock_copies};
pub(crate) use liveness::ProcessIdentity;
pub use liveness::{LockTimes, lock_times};
pub use object::{LockInfo, LockKind};
pub use repair_marker::RepairMarkerGuard;

const WRITE: crate::remote::WriteAccess = crate::remote::WriteAccess::repository();
/// Far more than a lock's size: a bound for reading one.
pub(super) const MAX_SIZE: u64 = 4096;

/// What a reader can tell about a lock's holder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LockState {
    /// Its process runs on this machine.
    Running,
    /// Its process was on this machine and is gone.
    Gone,
    /// Held elsewhere (or not telling where): watched with its beat unchanged for this
    /// long; `complete` if every remote answered, so that no newer beat can be missing.
    Watched { unchanged: Duration, complete: bool },
    /// Its holder let it go, on create-only storage, where it could not remove it.
    Released,
}

impl LockState {
    pub(crate) fn is_stale(&self, times: &LockTimes) -> bool {
        match self {
            LockState::Running => false,
            LockState::Gone | LockState::Released => true,
            LockState::Watched {
                unchanged,
                complete,
            } => *complete && *unchanged >= times.stale,
        }
    }

    /// Why it is (not) stale, for people.
    pub fn describe(&self, times: &LockTimes) -> String {
        match self {
            LockState::Running => "its process runs on this machine".into(),
            LockState::Gone => "its process on this machine is gone".into(),
            LockState::Released => "its holder released it".into(),
            LockState::Watched {
                unchanged,
                complete,
            } => {
                let mut s = format!(
                    "watched from here, it has not changed for {} (stale after {})",
                    human_duration(*unchanged),
                    human_duration(times.stale)
                );
                if !complete {
                    s.push_str("; not every remote answered, so it cannot go stale now");
                }
                s
            }
        }
    }
}

/// `90s`, `12m`, `2h5m` (whole seconds).
pub fn human_duration(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..60 => format!("{s}s"),
        60..3600 if s.is_multiple_of(60) => format!("{}m", s / 60),
        60..3600 => format!("{}m{}s", s / 60, s % 60),
        _ if s % 3600 / 60 == 0 => format!("{}h", s / 3600),
        _ => format!("{}h{}m", s / 3600, s % 3600 / 60),
    }
}

/// A lock found on the remotes, and what this reader makes of its holder.
#[derive(Clone, Debug)]
pub struct SeenLock {
    pub info: LockInfo,
    pub state: LockState,
}

/// Write `bytes` at `path` on every remote (as a new object where `create_only`),
/// renewing `lease` (as of `at`) as soon as one remote has taken it: readers take the
/// highest beat any remote serves, so a remote that stalls does not hold the renewal up.
/// Returns whether the lease is still held.
async fn put_and_renew(
    remotes: &[DynRemote],
    (path, bytes): (&str, bytes::Bytes),
    create_only: bool,
    lease: u64,
    at: (std::time::Instant, std::time::SystemTime),
) -> bool {
    let mut puts: futures::stream::FuturesUnordered<_> = (remotes.iter())
        .map(|r| {
            let bytes = bytes.clone();
            async move {
                match create_only {
                    true => super::health::put_once(r, path, bytes).await,
                    false => r.put(WRITE, path, bytes).await,
                }
            }
        })
        .collect();
    let mut held = true;
    let mut renewed = false;
    while let Some(put) = puts.next().await {
        if put.is_ok() && !renewed {
            renewed = true;
            held = lease::renew(lease, at);
        }
    }
    held
}

fn conflicts(kind: LockKind, other: &LockInfo) -> bool {
    kind == LockKind::Exclusive || other.kind == LockKind::Exclusive
}

/// The locks this process holds (and its repair marker), for
/// [`stop_writing_and_unlock`] when it is interrupted.
static HELD: std::sync::Mutex<Vec<Arc<HeldLock>>> = std::sync::Mutex::new(Vec::new());

fn held() -> std::sync::MutexGuard<'static, Vec<Arc<HeldLock>>> {
    HELD.lock().unwrap_or_else(|p| p.into_inner())
}

/// A lock (or repair marker) of this process: where it is, its refresher and its lease.
struct HeldLock {
    remotes: Vec<DynRemote>,
    path: String,
    /// The runtime its removal runs on, kept alive by the lock, not by the repository
    /// that took it: a guard is often dropped after its repository (its local bindings
    /// drop in reverse order), and a dead runtime removes nothing (over S3 it panicked).
    /// Taken by the first [`remove`](Self::remove), which is the only one that does
    /// anything.
    rt: std::sync::Mutex<Option<Arc<tokio::runtime::Runtime>>>,
    refresher: std::sync::Mutex<Option<tokio::task::AbortHandle>>,
    lease: u64,
    /// On create-only storage, where the lock cannot be removed: the object that says
    /// it is released (`locks/<id>-end`), written instead.
    end: Option<(String, bytes::Bytes)>,
}

impl HeldLock {
    /// Stop refreshing the lock and delete it from every remote (or, on create-only
    /// storage, write its end), waiting at most `within` (each request is bounded
    /// anyway). Call it from a thread that is not running async code.
    fn remove(&self, within: Option<std::time::Duration>) {
        let Some(rt) = self.rt.lock().unwrap_or_else(|p| p.into_inner()).take() else {
            return;
        };
        if let Some(r) = self
            .refresher
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
        {
            r.abort();
        }
        let release = async {
            match &self.end {
                Some((path, end)) => {
                    let puts = (self.remotes.iter())
                        .map(|r| super::health::put_once(r, path, end.clone()));
                    futures::future::join_all(puts).await;
                }
                None => {
                    let deletes = (self.remotes.iter()).map(|r| r.delete(WRITE, &self.path));
                    futures::future::join_all(deletes).await;
                }
            }
        };
        match within {
            // The timer is made inside the runtime, whose clock it needs.
            Some(within) => {
                let _ = rt.block_on(async { tokio::time::timeout(within, release).await });
            }
            None => rt.block_on(release),
        }
        lease::end(self.lease);
        // The last owner of the runtime may be this lock: it is dropped here, on a thread
        // that runs no async code, where dropping a runtime is allowed.
        drop(rt);
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

/// Remove `lock` (once) and forget it.
fn release(lock: &Arc<HeldLock>) {
    // On a thread of its own: the guard may be dropped in async code.
    let _ = std::thread::scope(|s| s.spawn(|| lock.remove(None)).join());
    // Only now: a signal meanwhile still finds the lock to remove.
    held().retain(|h| !Arc::ptr_eq(h, lock));
}

/// A held lock: refreshed in the background, removed from every remote when dropped.
pub struct LockGuard(Arc<HeldLock>);

impl LockGuard {
    pub(crate) fn path(&self) -> &str {
        &self.0.path
    }
}

impl Drop for LockGuard {
    fn drop(&mut self) {
        // Best effort: a lock left behind goes stale.
        release(&self.0);
    }
}

/// Seconds since the epoch, as a lock records them. Tests with the `testing` feature may
/// set `TANGLE_TEST_CLOCK_OFFSET_SECS` to play a host whose clock is off.
fn now() -> i64 {
    let now = chrono::Utc::now().timestamp();
    #[cfg(feature = "testing")]
    if let Some(off) = std::env::var("TANGLE_TEST_CLOCK_OFFSET_SECS")
        .ok()
        .and_then(|v| v.parse::<i64>().ok())
    {
        return now.saturating_add(off);
    }
    now
}

/// Tests with the `testing` feature may set `TANGLE_TEST_STOP_AFTER_LOCK` to make the
/// process stop itself (`SIGSTOP`) once it holds its lock or repair marker: a holder
/// caught at a known point, whatever the machine's speed.
fn stop_here_for_tests() {
    #[cfg(feature = "testing")]
    if std::env::var_os("TANGLE_TEST_STOP_AFTER_LOCK").is_some() {
        use rustix::process::{Signal, getpid, kill_process};
        let _ = kill_process(getpid(), Signal::STOP);
    }
}

/// What `unlock` did and did not remove.
#[derive(Debug, Default)]
pub struct LocksRemoved {
    /// Authentic locks removed (stale, or all of them with `--remove-all`).
    pub removed: Vec<LockInfo>,
    /// Paths no remote serves an authentic lock at (removed).
    pub not_authentic: Vec<String>,
    /// Live-looking locks kept, with why.
    pub kept: Vec<SeenLock>,
    /// Repair markers removed (with `--remove-all` only).
    pub repair_markers: Vec<String>,
}

impl<S: State> Repository<S> {
    /// A lock or marker of this process at `path` under `lease`, known to
    /// [`stop_writing_and_unlock`] before it is written, so that an interrupt while it is
    /// being written removes it too (and a failed write removes what copies it made).
    /// `end`: see [`HeldLock::end`].
    fn hold(&self, path: &str, lease: u64, end: Option<(String, bytes::Bytes)>) -> Arc<HeldLock> {
        let lock = Arc::new(HeldLock {
            remotes: self.inner.remotes.clone(),
            path: path.to_string(),
            rt: std::sync::Mutex::new(Some(self.inner.rt.clone())),
            refresher: std::sync::Mutex::new(None),
            lease,
            end,
        });
        held().push(lock.clone());
        lock
    }

    /// `--retry-lock`: how long [`lock`](Self::lock) and
    /// [`repair_marker`](Self::repair_marker) wait for a conflicting lock to go.
    pub fn set_lock_wait(&mut self, wait: Duration) {
        self.inner.lock_wait = wait;
    }

    /// Which remotes to ask about locks: those not known to be down in this process.
    fn lock_remotes_usable(&self) -> Vec<bool> {
        (0..self.inner.remotes.len())
            .map(|i| self.inner.health.down(i).is_none())
            .collect()
    }

    /// Every lock copy, with a warning naming the remotes that serve one that is not
    /// authentic (a remote that plants locks stops no one).
    fn read_locks(&self) -> LockCopies {
        let copies = self.lock_copies_now();
        // A remote that does not answer is not asked again in this process.
        for (i, e) in &copies.unlisted {
            self.inner.health.note_list_error(*i, e);
        }
        for (path, refusals) in &copies.bad {
            let served: Vec<String> = (refusals.iter())
                .map(|(r, why)| format!("{} ({why})", self.inner.remotes[*r].url()))
                .collect();
            self.warn_once(
                path,
                &format!(
                    "ignoring a lock that is not authentic: {path} as served by {}",
                    served.join(", ")
                ),
            );
        }
        for (path, why) in &copies.unreadable {
            self.warn_once(path, &format!("cannot read a lock: {why}"));
        }
        copies
    }

    /// Every authentic lock, and what this reader can tell of its holder.
    pub(crate) fn locks(&self) -> Result<Vec<SeenLock>> {
        let copies = self.read_locks();
        Ok(judge(&copies, &self.lock_watch()))
    }

    fn lock_watch(&self) -> liveness::Watch {
        liveness::Watch::new(self.inner.cache_dir.as_deref())
    }

    /// A live lock that conflicts with one of `kind` (other than `own`).
    fn busy(&self, kind: LockKind, own: Option<&str>) -> Result<Option<SeenLock>> {
        let times = lock_times();
        Ok(self.locks()?.into_iter().find(|l| {
            Some(l.info.path.as_str()) != own
                && conflicts(kind, &l.info)
                && !l.state.is_stale(&times)
        }))
    }

    /// The error for a command refused by `holder`'s lock.
    fn busy_error(&self, holder: &SeenLock) -> Error {
        let times = lock_times();
        let advice = match &holder.state {
            LockState::Watched { unchanged, .. } => {
                let wait = times.stale.saturating_sub(*unchanged) + times.refresh;
                format!(
                    "if it still runs, wait for it with `--retry-lock {}`; once it has \
                     been watched unchanged for {} it counts as stale (from this cache); \
                     if you know its holder is gone, `tangle unlock --remove-all` removes it now",
                    human_duration(wait.max(Duration::from_secs(60))),
                    human_duration(times.stale)
                )
            }
            _ => "try again when it is done, or wait for it with `--retry-lock DURATION`".into(),
        };
        let waited = if self.inner.lock_wait.is_zero() {
            String::new()
        } else {
            format!(" after waiting {}", human_duration(self.inner.lock_wait))
        };
        Error::new(
            Kind::Busy,
            format!(
                "repository busy{waited}: {} holds {} lock ({}); {advice}",
                holder.info.describe(),
                match holder.info.kind {
                    LockKind::Shared => "a shared",
                    LockKind::Exclusive => "an exclusive",
                },
                holder.state.describe(&times),
            ),
        )
    }

    /// Wait (up to `--retry-lock`) while `conflict` finds a live lock in the way; the
    /// error names the last one.
    fn wait_for_locks<T>(
        &self,
        mut attempt: impl FnMut() -> Result<std::result::Result<T, SeenLock>>,
    ) -> Result<T> {
        let times = lock_times();
        let give_up = Instant::now() + self.inner.lock_wait;
        let mut said = false;
        loop {
            let holder = match attempt()? {
                Ok(done) => return Ok(done),
                Err(holder) => holder,
            };
            let left = give_up.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(self.busy_error(&holder));
            }
            if !said {
                self.warn(&format!(
                    "waiting up to {} for {} to release its lock",
                    human_duration(self.inner.lock_wait),
                    holder.info.describe()
                ));
                said = true;
            }
            std::thread::sleep(times.poll().min(left));
        }
    }

    /// Remove the objects of the locks their holders released on create-only storage,
    /// where they could not remove them (best effort): an exclusive holder, alone, tidies
    /// them, so that `locks/` does not grow with every writer's backup. Each lock's end
    /// goes last, so that a reader never sees a beat without it.
    fn remove_released_locks(&self) {
        let copies = self.read_locks();
        for lock in copies.locks.iter().filter(|l| l.released) {
            let mut paths: Vec<&String> = copies
                .objects
                .get(&lock.path)
                .into_iter()
                .flatten()
                .collect();
            paths.sort_by_key(|p| p.ends_with("-end"));
            for path in paths {
                self.inner.rt.block_on(futures::future::join_all(
                    self.inner.remotes.iter().map(|r| r.delete(WRITE, path)),
                ));
            }
        }
    }

    /// Remove stale locks (every lock with `all`, and then every repair marker too) and
    /// those no remote serves authentic.
    pub fn remove_locks(&self, all: bool) -> Result<LocksRemoved> {
        let times = lock_times();
        let copies = self.read_locks();
        let seen = judge(&copies, &self.lock_watch());
        let mut out = LocksRemoved {
            not_authentic: copies.bad.keys().cloned().collect(),
            ..LocksRemoved::default()
        };
        for l in seen {
            if all || l.state.is_stale(&times) {
                out.removed.push(l.info);
            } else {
                out.kept.push(l);
            }
        }
        if all {
            out.repair_markers = self.repair_marker_paths();
        }
        // Every object of a removed lock (its beats and end on create-only storage).
        let objects = (out.removed.iter()).flat_map(|l| {
            let more = copies.objects.get(&l.path).into_iter().flatten();
            std::iter::once(&l.path).chain(more.filter(move |p| **p != l.path))
        });
        let paths = objects.chain(&out.not_authentic).chain(&out.repair_markers);
        for path in paths {
            self.inner.rt.block_on(futures::future::join_all(
                self.inner.remotes.iter().map(|r| r.delete(WRITE, path)),
            ));
        }
        Ok(out)
    }
}

impl<S: Signs> Repository<S> {
    /// Take a lock for `command` (shown to whoever it makes wait), or fail with exit 11
    /// naming the holder of a conflicting one (after waiting up to `--retry-lock`). An
    /// exclusive lock also waits for running repairs to notice it and stop.
    pub fn lock(&self, kind: LockKind, command: &str) -> Result<LockGuard> {
        let guard = self.wait_for_locks(|| self.try_lock(kind, command))?;
        if kind == LockKind::Exclusive {
            self.wait_for_repairs()?;
            self.remove_released_locks();
        }
        stop_here_for_tests();
        Ok(guard)
    }

    fn try_lock(
        &self,
        kind: LockKind,
        command: &str,
    ) -> Result<std::result::Result<LockGuard, SeenLock>> {
        if let Some(l) = self.busy(kind, None)? {
            return Ok(Err(l));
        }
        let times = lock_times();
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
            beat: 1,
            holder: ProcessIdentity::current(),
            released: false,
        };
        let (signer, repo_id) = (self.state.run_signer(), self.config.id);
        let bytes = info.to_object(&repo_id, &signer);
        // On create-only storage each refresh is a new object and the release one more.
        let create_only = self.inner.health.create_only();
        let end = create_only.then(|| {
            let end = LockInfo {
                released: true,
                ..info.clone()
            };
            (end.once_path(), end.to_object(&repo_id, &signer))
        });
        // The lease runs from before the lock is written: others may watch it from then.
        let lease = lease::start(&format!("the lock of this {command}"), times.lease);
        let lock = self.hold(&path, lease, end);
        let guard = LockGuard(lock.clone());
        self.write_replicated(&path, bytes)
            .map_err(|e| e.context("taking the lock"))?;
        let refresher = self.inner.rt.spawn({
            let remotes = self.inner.remotes.clone();
            async move {
                loop {
                    tokio::time::sleep(times.refresh).await;
                    let at = lease::mark();
                    info.refreshed = now();
                    info.beat += 1;
                    let bytes = info.to_object(&repo_id, &signer);
                    let path = match create_only {
                        true => info.once_path(),
                        false => info.path.clone(),
                    };
                    if !put_and_renew(&remotes, (&path, bytes), create_only, lease, at).await {
                        return;
                    }
                }
            }
        });
        *lock.refresher.lock().unwrap_or_else(|p| p.into_inner()) = Some(refresher.abort_handle());
        // Someone may have taken a conflicting lock while ours was being written.
        if let Some(l) = self.busy(kind, Some(guard.path()))? {
            drop(guard);
            return Ok(Err(l));
        }
        Ok(Ok(guard))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lock(kind: LockKind) -> LockInfo {
        LockInfo {
            path: "locks/x".into(),
            kind,
            host: "elsewhere".into(),
            pid: 7,
            command: "delete".into(),
            since: 100,
            refreshed: 200,
            beat: 1,
            holder: ProcessIdentity::default(),
            released: false,
        }
    }

    #[test]
    fn only_exclusive_locks_conflict_and_watching_decides_staleness() {
        assert!(conflicts(LockKind::Shared, &lock(LockKind::Exclusive)));
        assert!(conflicts(LockKind::Exclusive, &lock(LockKind::Shared)));
        assert!(!conflicts(LockKind::Shared, &lock(LockKind::Shared)));
        let t = lock_times();
        let watched = |secs: u64, complete| LockState::Watched {
            unchanged: Duration::from_secs(secs),
            complete,
        };
        assert!(!watched(t.stale.as_secs() - 1, true).is_stale(&t));
        assert!(watched(t.stale.as_secs(), true).is_stale(&t));
        assert!(
            !watched(t.stale.as_secs() * 10, false).is_stale(&t),
            "a remote that did not answer may hold a newer beat"
        );
        assert!(LockState::Gone.is_stale(&t) && !LockState::Running.is_stale(&t));
    }

    #[test]
    fn durations_read_as_people_write_them() {
        assert_eq!(human_duration(Duration::from_secs(42)), "42s");
        assert_eq!(human_duration(Duration::from_secs(35 * 60)), "35m");
        assert_eq!(human_duration(Duration::from_secs(90)), "1m30s");
        assert_eq!(human_duration(Duration::from_secs(7200)), "2h");
        assert_eq!(human_duration(Duration::from_secs(7500)), "2h5m");
    }
}
