//! The write lease: a process that holds a lock (or, for a password-less `repair`, has
//! checked that no one holds an exclusive one) may write only while it has renewed that
//! right recently. Others judge a holder dead when they have watched its lock stay
//! unchanged for longer than the lease ([`crate::repo::lock`]), so a holder that stalls
//! (a suspended laptop, a `SIGSTOP`, remotes it cannot reach) must notice, on waking, that
//! its lease ran out and write nothing more: another command may have taken over.
//!
//! Every write and delete on a remote passes [`check`] (in `deadline`, the wrapper every
//! remote is opened through). Time since a renewal is the larger of the monotonic and
//! the wall clock's measure, so neither a suspend (which stops the monotonic clock) nor
//! a wall clock set back makes a lapsed lease look current. Once lapsed, a lease is lost
//! for good in this process.

use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime};

use crate::error::{Error, Kind, Result};

struct Lease {
    id: u64,
    /// What it covers, for the message ("the lock of this backup").
    what: String,
    renewed: (Instant, SystemTime),
    max_age: Duration,
}

static LEASES: Mutex<Vec<Lease>> = Mutex::new(Vec::new());
/// Why the leases were lost, once they were.
static LOST: Mutex<Option<String>> = Mutex::new(None);
static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

fn leases() -> std::sync::MutexGuard<'static, Vec<Lease>> {
    LEASES.lock().unwrap_or_else(|p| p.into_inner())
}

fn lost() -> std::sync::MutexGuard<'static, Option<String>> {
    LOST.lock().unwrap_or_else(|p| p.into_inner())
}

/// Time since `at`, by whichever clock says more.
fn since(at: (Instant, SystemTime)) -> Duration {
    let wall = SystemTime::now().duration_since(at.1).unwrap_or_default();
    at.0.elapsed().max(wall)
}

fn now() -> (Instant, SystemTime) {
    (Instant::now(), SystemTime::now())
}

/// Start a lease renewed just now, valid for `max_age` after each renewal; returns its id.
pub(crate) fn start(what: &str, max_age: Duration) -> u64 {
    let id = NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    leases().push(Lease {
        id,
        what: what.to_string(),
        renewed: now(),
        max_age,
    });
    id
}

/// Renew lease `id` as of `at` (when the renewal's evidence was gathered, before the
/// writes that proved it), unless it has lapsed meanwhile: a lapsed lease stays lost.
/// Returns whether the lease is still held.
pub(crate) fn renew(id: u64, at: (Instant, SystemTime)) -> bool {
    if check_all().is_err() {
        return false;
    }
    if let Some(l) = leases().iter_mut().find(|l| l.id == id) {
        l.renewed = l.renewed.max(at);
    }
    check_all().is_ok()
}

/// The instant to pass to [`renew`], taken before the work that renews.
pub(crate) fn mark() -> (Instant, SystemTime) {
    now()
}

/// End lease `id` (its lock is being removed).
pub(crate) fn end(id: u64) {
    leases().retain(|l| l.id != id);
}

/// Give up every lease now: `why` is what later writes are refused with.
pub(crate) fn lose(why: String) {
    lost().get_or_insert(why);
}

/// Why this process may no longer write, if it may not.
pub fn lost_reason() -> Option<String> {
    let _ = check_all();
    lost().clone()
}

fn check_all() -> std::result::Result<(), String> {
    if let Some(why) = lost().clone() {
        return Err(why);
    }
    let lapsed = leases().iter().find_map(|l| {
        let age = since(l.renewed);
        (age > l.max_age).then(|| {
            format!(
                "{} was last renewed {}s ago, over its lease of {}s (the process stalled, or \
                 the remotes did not take the renewals): another command may have taken over, \
                 so nothing more was written; run it again",
                l.what,
                age.as_secs(),
                l.max_age.as_secs()
            )
        })
    });
    match lapsed {
        Some(why) => {
            lose(why.clone());
            Err(why)
        }
        None => Ok(()),
    }
}

/// Refuse a write of `path` once a lease of this process has lapsed (exit 11).
pub(crate) fn check(path: &str) -> Result<()> {
    check_all().map_err(|why| {
        Error::new(
            Kind::Busy,
            format!("lost the lock: {why} ({path} not written)"),
        )
    })
}
