//! Whether a lock's holder is alive, judged without trusting anyone's clock but the
//! reader's own.
//!
//! * **On this machine**: a lock that names this boot and this PID namespace (and a
//!   `/proc` of that namespace) is alive exactly while its process runs — the pid exists
//!   and started when the lock says. A host name proves nothing (cloned VMs, containers
//!   on the host network and every `raspberrypi` share one).
//! * **Elsewhere**: a holder rewrites its lock with a higher `beat` every
//!   [`LockTimes::refresh`]. The reader remembers, in its cache, when it first saw each
//!   lock's highest beat; a lock whose beat it has watched stay the same for
//!   [`LockTimes::stale`] (by its own clocks) is stale. The holder's own timestamps are
//!   shown to people but never compared with anything, so a skewed clock changes nothing.
//!   A reader that has not watched long enough (a fresh cache, a CI job) waits
//!   (`--retry-lock`) or is refused.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// The timings of locks and leases. Tests with the `testing` feature scale them all by
/// `TANGLE_TEST_LOCK_REFRESH_MS` (the refresh interval; the rest keep their ratios).
#[derive(Clone, Copy, Debug)]
pub struct LockTimes {
    /// How often a holder rewrites its lock.
    pub(crate) refresh: Duration,
    /// A holder that has not renewed its lock for this long stops writing.
    pub(crate) lease: Duration,
    /// A lock watched unchanged for this long is stale (the lease, plus time for a
    /// write under way when it lapsed to end: see `remote::deadline`).
    pub stale: Duration,
    /// How often a password-less repair re-checks the locks and rewrites its marker.
    pub(crate) repair_check: Duration,
    /// A repair that has not re-checked for this long stops writing.
    pub(crate) repair_lease: Duration,
    /// A repair marker watched unchanged for this long is left behind by a dead repair.
    pub(crate) repair_stale: Duration,
    /// The longest an exclusive holder waits for repair markers to go (they are not
    /// signed: one planted by a remote must not hold a delete up for ever).
    pub(crate) repair_wait: Duration,
}

/// The timings in force (see [`LockTimes`]).
pub fn lock_times() -> LockTimes {
    #[cfg(feature = "testing")]
    if let Some(ms) = std::env::var("TANGLE_TEST_LOCK_REFRESH_MS")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .filter(|&ms| ms > 0)
    {
        let unit = Duration::from_millis(ms);
        return LockTimes {
            refresh: unit,
            lease: unit * 3,
            stale: unit * 6,
            repair_check: unit,
            repair_lease: unit * 3,
            repair_stale: unit * 6,
            repair_wait: unit * 30,
        };
    }
    LockTimes {
        refresh: Duration::from_secs(5 * 60),
        lease: Duration::from_secs(15 * 60),
        stale: Duration::from_secs(30 * 60),
        repair_check: Duration::from_secs(10),
        repair_lease: Duration::from_secs(30),
        repair_stale: Duration::from_secs(60),
        repair_wait: Duration::from_secs(5 * 60),
    }
}

impl LockTimes {
    /// How often a waiting command looks again.
    pub(crate) fn poll(&self) -> Duration {
        (self.refresh / 10).clamp(Duration::from_millis(50), Duration::from_secs(10))
    }
}

/// Who a process is on this machine: what a lock records so that a reader on the same
/// machine can tell whether its holder still runs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ProcessIdentity {
    /// `/proc/sys/kernel/random/boot_id`: this boot of this machine.
    pub(crate) boot: Option<String>,
    /// The PID namespace (`/proc/self/ns/pid`): pids mean something only within it.
    pub(crate) pidns: Option<String>,
    /// When the process started (clock ticks since boot): tells a reused pid apart.
    pub(crate) start: Option<u64>,
}

/// This machine's boot id. Tests with the `testing` feature may set
/// `TANGLE_TEST_BOOT_ID` to play another machine.
pub(crate) fn boot_id() -> Option<String> {
    #[cfg(feature = "testing")]
    if let Some(id) = std::env::var("TANGLE_TEST_BOOT_ID")
        .ok()
        .filter(|v| !v.is_empty())
    {
        return Some(id);
    }
    let id = std::fs::read_to_string("/proc/sys/kernel/random/boot_id").ok()?;
    Some(id.trim().to_string()).filter(|s| !s.is_empty())
}

fn pid_namespace() -> Option<String> {
    let ns = std::fs::read_link("/proc/self/ns/pid").ok()?;
    Some(ns.to_string_lossy().into_owned())
}

/// The start time (field 22 of `/proc/PID/stat`) of process `pid` as this `/proc` sees it.
fn start_time(pid: &str) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) may hold spaces and parentheses: count after the last ')'.
    let after = &stat[stat.rfind(')')? + 1..];
    after.split_whitespace().nth(19)?.parse().ok()
}

/// Whether `/proc` shows this process's own PID namespace (it may not, after
/// `unshare --pid` without a new `/proc`): only then do its pids mean ours.
fn proc_is_ours() -> bool {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return false;
    };
    stat.split_whitespace().next() == Some(&std::process::id().to_string())
}

impl ProcessIdentity {
    /// This process.
    pub(crate) fn current() -> ProcessIdentity {
        ProcessIdentity {
            boot: boot_id(),
            pidns: pid_namespace(),
            start: proc_is_ours().then(|| start_time("self")).flatten(),
        }
    }

    /// Whether process `pid` of `self` (a lock's record) runs, if this process can tell:
    /// `None` unless the record names this boot and PID namespace and `/proc` is ours.
    pub(crate) fn running(&self, pid: u32) -> Option<bool> {
        let here = ProcessIdentity::current();
        let same = self.boot.is_some()
            && self.boot == here.boot
            && self.pidns.is_some()
            && self.pidns == here.pidns
            && self.start.is_some()
            && here.start.is_some();
        if !same {
            return None;
        }
        Some(start_time(&pid.to_string()).is_some_and(|s| Some(s) == self.start))
    }
}

/// When this reader first saw a lock at its current beat, by two clocks: the wall clock,
/// and (within one boot) the boot clock, which no one sets.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Sighting {
    beat: u64,
    wall: i64,
    boot: Option<String>,
    boottime: f64,
}

impl Sighting {
    fn now(beat: u64) -> Sighting {
        Sighting {
            beat,
            wall: chrono::Utc::now().timestamp(),
            boot: boot_id(),
            boottime: boottime(),
        }
    }

    /// How long ago, by the clock least likely to overstate it.
    fn age(&self) -> Duration {
        let now = Sighting::now(self.beat);
        let wall = Duration::from_secs(now.wall.saturating_sub(self.wall).max(0) as u64);
        if self.boot.is_some() && self.boot == now.boot {
            wall.min(Duration::from_secs_f64(
                (now.boottime - self.boottime).max(0.0),
            ))
        } else {
            wall
        }
    }
}

/// Seconds since boot, counting suspends (`CLOCK_BOOTTIME`).
fn boottime() -> f64 {
    use rustix::time::{ClockId, DynamicClockId, clock_gettime, clock_gettime_dynamic};
    let t = clock_gettime_dynamic(DynamicClockId::Boottime)
        .unwrap_or_else(|_| clock_gettime(ClockId::Monotonic));
    t.tv_sec as f64 + t.tv_nsec as f64 / 1e9
}

/// The sightings of this process (kept when there is no cache, and in step with it).
static SEEN: Mutex<Option<HashMap<String, Sighting>>> = Mutex::new(None);

/// The reader's memory of the locks it has watched: `locks-seen` in the repository's
/// cache directory (best effort: without it, only this process's own watching counts).
pub(crate) struct Watch {
    file: Option<PathBuf>,
}

/// The largest `locks-seen` read back.
const SEEN_FILE_LIMIT: u64 = 1 << 20;

impl Watch {
    pub(crate) fn new(cache_dir: Option<&Path>) -> Watch {
        Watch {
            file: cache_dir.map(|d| d.join("locks-seen")),
        }
    }

    /// Note the highest beat of each lock now listed (`path`, `beat`); returns, for each,
    /// how long it has been watched unchanged. With `complete` (every remote answered and
    /// served every copy it listed) sightings of locks no longer listed are forgotten.
    pub(crate) fn observe(&self, locks: &[(String, u64)], complete: bool) -> Vec<Duration> {
        let mut seen_guard = SEEN.lock().unwrap_or_else(|p| p.into_inner());
        let mut seen = seen_guard.take().unwrap_or_default();
        if let Some(stored) = self.file.as_deref().and_then(|f| {
            let bytes = crate::util::read_regular_file(f, SEEN_FILE_LIMIT).ok()?;
            serde_json::from_slice::<HashMap<String, Sighting>>(&bytes).ok()
        }) {
            for (path, s) in stored {
                match seen.get(&path) {
                    // Keep the earlier sighting of the same beat.
                    Some(mine)
                        if mine.beat > s.beat || (mine.beat == s.beat && mine.wall <= s.wall) => {}
                    _ => {
                        seen.insert(path, s);
                    }
                }
            }
        }
        let ages = locks
            .iter()
            .map(|(path, beat)| match seen.get(path) {
                // A lower beat than seen: a copy that missed refreshes; no news.
                Some(s) if s.beat >= *beat => s.age(),
                _ => {
                    seen.insert(path.clone(), Sighting::now(*beat));
                    Duration::ZERO
                }
            })
            .collect();
        if complete {
            seen.retain(|p, _| locks.iter().any(|(l, _)| l == p));
        }
        if let Some(f) = &self.file
            && let Ok(bytes) = serde_json::to_vec(&seen)
        {
            let _ = crate::util::replace_file(f, &bytes);
        }
        *seen_guard = Some(seen);
        ages
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_runs_and_a_made_up_one_does_not() {
        let me = ProcessIdentity::current();
        if me.start.is_none() {
            return; // no /proc of our own here
        }
        assert_eq!(me.running(std::process::id()), Some(true));
        let reused = ProcessIdentity {
            start: me.start.map(|s| s + 1),
            ..me.clone()
        };
        assert_eq!(
            reused.running(std::process::id()),
            Some(false),
            "a reused pid"
        );
        let elsewhere = ProcessIdentity {
            boot: Some("another machine".into()),
            ..me
        };
        assert_eq!(elsewhere.running(std::process::id()), None);
    }

    #[test]
    fn a_watched_beat_ages_and_a_new_beat_starts_over() {
        let dir = tempfile::tempdir().expect("tempdir");
        let watch = Watch::new(Some(dir.path()));
        let path = format!("locks/{}", "ab".repeat(32));
        assert_eq!(watch.observe(&[(path.clone(), 3)], true), [Duration::ZERO]);
        // Another process (a fresh in-memory memory) reads the sighting from the cache.
        SEEN.lock().unwrap_or_else(|p| p.into_inner()).take();
        let mut stored: HashMap<String, Sighting> =
            serde_json::from_slice(&std::fs::read(dir.path().join("locks-seen")).unwrap()).unwrap();
        stored.get_mut(&path).unwrap().wall -= 100;
        stored.get_mut(&path).unwrap().boottime -= 100.0;
        std::fs::write(
            dir.path().join("locks-seen"),
            serde_json::to_vec(&stored).unwrap(),
        )
        .unwrap();
        SEEN.lock().unwrap_or_else(|p| p.into_inner()).take();
        let age = watch.observe(&[(path.clone(), 3)], true)[0];
        assert!(age >= Duration::from_secs(99), "{age:?}");
        assert_eq!(
            watch.observe(&[(path.clone(), 2)], true)[0].as_secs() / 10,
            age.as_secs() / 10
        );
        assert_eq!(watch.observe(&[(path.clone(), 4)], true), [Duration::ZERO]);
        watch.observe(&[], true);
        assert_eq!(
            watch.observe(&[(path, 4)], true),
            [Duration::ZERO],
            "forgotten once gone"
        );
    }
}
