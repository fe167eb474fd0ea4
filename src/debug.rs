//! Debug counters: what this process asked of its remotes and how its reads went, counted
//! process-wide and printed to stderr at exit when `TANGLE_DEBUG_REQUESTS` is set
//! ([`report`], called by `main.rs`). The history benchmark (`scripts/bench-history.sh`)
//! and the read-path tests (`tests/e2e/restore/reads.rs`, `tests/e2e/tree_walks.rs`)
//! parse those lines, so their wording is fixed.
//!
//! Every counter is a named static here; the code that counts adds to it, and [`report`]
//! is the only reader. They are the crate's only process-wide statistics. Its other
//! statics are state, not counts, and stay with their code: the temporary-file sequence
//! in `util::replace_file`, lease ids and the stop flag in `repo/remote/`, the
//! `TANGLE_TEST_*` hooks.
//!
//! A foundation module like `util`: it uses nothing of the crate, so any layer may count.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// The environment variable that turns the report on (any value).
pub(crate) const ENV: &str = "TANGLE_DEBUG_REQUESTS";

/// One process-wide count.
pub(crate) struct Counter(AtomicU64);

impl Counter {
    const fn new() -> Self {
        Counter(AtomicU64::new(0))
    }

    pub(crate) fn add(&self, n: u64) {
        self.0.fetch_add(n, Relaxed);
    }

    /// Keep the larger of the count and `n`.
    pub(crate) fn max(&self, n: u64) {
        self.0.fetch_max(n, Relaxed);
    }

    pub(crate) fn get(&self) -> u64 {
        self.0.load(Relaxed)
    }
}

/// The operation kinds counted in [`REQUESTS`], in the report's order.
pub(crate) const REMOTE_OPS: [&str; 6] = ["list", "get", "stat", "put", "delete", "create"];

/// Operations started on network and local remotes (`repo/remote/deadline.rs`), by kind
/// ([`REMOTE_OPS`]).
pub(crate) static REQUESTS: [Counter; REMOTE_OPS.len()] =
    [const { Counter::new() }; REMOTE_OPS.len()];
/// Bytes the gets returned, in all.
pub(crate) static GOT_BYTES: Counter = Counter::new();
/// Of those, bytes of shards (`shards/...`: extent contents, as against metadata).
pub(crate) static GOT_SHARD_BYTES: Counter = Counter::new();

/// Times a reader waited for shards to arrive (`repo/reader/`): once per shard it read
/// that was not in the cache yet (fetched then or already in flight), once per batch
/// fetched ahead. A walk over a high-latency remote costs about a round trip per wait,
/// so this is what the tree read-ahead cuts.
pub(crate) static SHARD_WAITS: Counter = Counter::new();

/// What the restore's read plans came to (`repo/read_plan.rs`): segments of reads added.
pub(crate) static PLAN_SEGMENTS: Counter = Counter::new();
/// Shard reads planned.
pub(crate) static PLAN_READS: Counter = Counter::new();
/// The most planned reads ever ahead of the reader.
pub(crate) static PLAN_MOST_AHEAD: Counter = Counter::new();
/// Planned reads still standing when the plan was finished: reads the restore never made
/// nor skipped (0 when plan and restore agree).
pub(crate) static PLAN_UNMADE: Counter = Counter::new();
/// Reads made that no planned read matched by then (a retry, or a walk that lagged).
pub(crate) static PLAN_UNFORESEEN: Counter = Counter::new();

/// Count one remote operation of kind `op` (one of [`REMOTE_OPS`]; others are not
/// counted).
pub(crate) fn request(op: &str) {
    if let Some(i) = REMOTE_OPS.iter().position(|o| *o == op) {
        REQUESTS[i].add(1);
    }
}

/// Pages the listings would take on S3, which returns at most 1,000 names a request:
/// what grows with a repository's history where the count of listings does not.
pub(crate) static LIST_PAGES: Counter = Counter::new();

/// Count a listing that returned `names` names, in [`LIST_PAGES`].
pub(crate) fn listed(names: usize) {
    LIST_PAGES.add(names.div_ceil(1000).max(1) as u64);
}

/// Whether the report is asked for ([`ENV`] set).
pub fn enabled() -> bool {
    std::env::var_os(ENV).is_some()
}

/// The report, one line each (without the newline): the remote requests by kind and the
/// bytes the gets returned, the shard waits, and, if this process made a read plan,
/// what it came to.
pub fn report() -> Vec<String> {
    let counts: Vec<String> = (REMOTE_OPS.iter().zip(&REQUESTS))
        .map(|(op, n)| (*op, n.get()))
        .chain([
            ("get_bytes", GOT_BYTES.get()),
            ("get_shard_bytes", GOT_SHARD_BYTES.get()),
            ("list_pages", LIST_PAGES.get()),
        ])
        .map(|(op, n)| format!("{op} {n}"))
        .collect();
    let mut lines = vec![
        format!("tangle: remote requests: {}", counts.join(", ")),
        format!("tangle: shard waits: {}", SHARD_WAITS.get()),
    ];
    let segments = PLAN_SEGMENTS.get();
    if segments > 0 {
        lines.push(format!(
            "tangle: read plan: {} shard reads, {} segment(s), at most {} ahead, \
             {} never made, {} unforeseen",
            PLAN_READS.get(),
            segments,
            PLAN_MOST_AHEAD.get(),
            PLAN_UNMADE.get(),
            PLAN_UNFORESEEN.get()
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_names_every_count() {
        request("get");
        request("not an operation");
        GOT_BYTES.add(7);
        let lines = report();
        assert!(lines[0].starts_with("tangle: remote requests: list "));
        assert!(lines[0].contains(", get_bytes "));
        assert!(lines[0].contains(", get_shard_bytes "));
        listed(0);
        listed(2001);
        assert!(LIST_PAGES.get() >= 4);
        assert!(report()[0].contains(", list_pages "));
        assert!(REQUESTS[1].get() >= 1 && GOT_BYTES.get() >= 7);
        assert!(lines[1].starts_with("tangle: shard waits: "));
        PLAN_SEGMENTS.add(1);
        PLAN_MOST_AHEAD.max(3);
        PLAN_MOST_AHEAD.max(2);
        let lines = report();
        assert!(PLAN_MOST_AHEAD.get() >= 3);
        assert!(lines[2].starts_with("tangle: read plan: "), "{lines:?}");
    }
}
