//! Operations: one module per command, each a library function that returns a typed,
//! serialisable report and prints nothing (the CLI renders reports).

mod analysis;
pub mod backup;
pub mod cat;
pub mod copy;
pub mod delete;
pub mod diff;
pub mod dump;
pub(crate) mod extent_writer;
pub use extent_writer::{Brought, Stored};
pub mod find;
#[cfg(feature = "restic-import")]
pub mod import_restic;
pub mod key;
pub(crate) mod leftovers;
pub(crate) mod listing;
pub(crate) mod live;
pub(crate) mod locate;
pub mod ls;
pub mod mount;
pub mod prune;
pub mod rebalance;
pub mod remote;
pub mod repair;
pub(crate) mod replace;
pub mod restore;
pub mod rewrite;
pub mod select;
pub mod snapshots;
pub mod stats;
pub(crate) mod survey;
pub mod tag;
mod unrebuildable;
pub mod verify;
pub mod version;
pub mod writer;

use std::sync::atomic::{AtomicU64, Ordering};

/// Stack of the threads that walk directory trees (backup's walker, restore's planner):
/// five times what the deepest tree the kernel lets them reach needs.
pub(crate) const WALKER_STACK: usize = 16 << 20;

/// `walk` run on a thread of its own, `name`, with [`WALKER_STACK`]: deep trees recurse
/// deeply (copy, import and rewrite walk the trees they bring or change).
pub(crate) fn on_walker_thread<T: Send>(
    name: &str,
    walk: impl FnOnce() -> crate::error::Result<T> + Send,
) -> crate::error::Result<T> {
    use crate::error::Error;
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name(name.into())
            .stack_size(WALKER_STACK)
            .spawn_scoped(scope, walk)
            .map_err(|e| Error::fatal(format!("starting the {name} thread: {e}")))?
            .join()
            .map_err(|_| Error::fatal(format!("internal: the {name} thread panicked")))?
    })
}

/// Live counters a caller may poll to draw progress (files and bytes done / known).
#[derive(Default)]
pub struct Progress {
    pub files_done: AtomicU64,
    pub bytes_done: AtomicU64,
    pub files_total: AtomicU64,
    pub bytes_total: AtomicU64,
    /// Set once the totals are final.
    pub totals_known: std::sync::atomic::AtomicBool,
    /// Backup: `i + 1` while waiting for remote `i` to drain its upload queue, else 0.
    pub waiting_for_remote: AtomicU64,
    /// The remotes' URLs, for naming the one waited for.
    pub remote_urls: std::sync::OnceLock<Vec<String>>,
    /// Set by a display (bar or JSON status lines) that shows totals: only then does
    /// backup pay for counting them ahead (a second walk of the whole tree).
    pub watched: std::sync::atomic::AtomicBool,
}

impl Progress {
    /// Work whose size is known up front: `files` units (files, extents, codewords) and
    /// `bytes`, final at once.
    pub(crate) fn set_totals(&self, files: u64, bytes: u64) {
        Progress::add(&self.files_total, files);
        Progress::add(&self.bytes_total, bytes);
        self.totals_known.store(true, Ordering::Release);
    }

    pub(crate) fn add(counter: &AtomicU64, n: u64) {
        counter.fetch_add(n, Ordering::Relaxed);
    }
    pub fn get(counter: &AtomicU64) -> u64 {
        counter.load(Ordering::Relaxed)
    }
}
