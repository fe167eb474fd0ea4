//! A plan of the shard reads a restore is about to make, in order. With it the shard
//! cache keeps what is needed again soonest and gives up what is needed last (Belady's
//! rule) instead of the oldest entry, and the prefetcher fetches exactly the shards read
//! next.
//!
//! Why: files that share blobs with earlier files (deduplication across the tree) send the
//! restore back to shards it read a while ago. With the oldest-out rule a 16-shard cache
//! fetched the benchmark tree's 124 data shards 151 times; knowing the order of all reads
//! beforehand, the same cache fetches each once.
//!
//! The plan is built by walking the snapshot's trees before the restore starts (a
//! metadata-only pass), recording every read as its extent and byte range
//! ([`PlannedReads`]); the certificates of those extents (which give the shard size) are
//! then fetched all at once, and each read becomes the shard(s) it falls in.
//! While the plan is installed, every shard read through the cache consumes the earliest
//! planned read of that shard, and the count of consumed reads stands for where the
//! restore is (its workers run a few files apart, so it is approximate, which is enough).

use std::collections::{HashMap, VecDeque};
use std::sync::{Condvar, Mutex};

use crate::extent::ExtentName;

/// A data shard: its extent and its index in the codeword.
pub(super) type ShardKey = (ExtentName, usize);

/// The reads of a restore in the order it makes them, as extent byte ranges: what the
/// walk before the restore collects (see [`Repository::follow_read_plan`](super::Repository::follow_read_plan)).
#[derive(Default)]
pub struct PlannedReads {
    /// Extents read, in order of their first read.
    extents: Vec<ExtentName>,
    numbers: HashMap<ExtentName, u32>,
    /// (extent number, offset, length) of each read: 12 bytes (index locations are u32).
    reads: Vec<(u32, u32, u32)>,
}

impl PlannedReads {
    pub fn new() -> Self {
        Self::default()
    }

    pub(super) fn push(&mut self, extent: ExtentName, offset: u32, len: u32) {
        let next = self.extents.len() as u32;
        let number = *self.numbers.entry(extent).or_insert(next);
        if number == next {
            self.extents.push(extent);
        }
        self.reads.push((number, offset, len));
    }

    /// The extents read, each once.
    pub(super) fn extents(&self) -> &[ExtentName] {
        &self.extents
    }

    /// The plan, given for each extent of [`extents`](Self::extents) (same order) where
    /// a byte range falls: `locate(extent number, offset, len)` gives shard indexes.
    /// Reads of an extent without a certificate (`None`) are left out.
    pub(super) fn resolve(
        self,
        locate: impl Fn(usize, u64, u64) -> Option<Vec<usize>>,
    ) -> ReadPlan {
        let mut plan = ReadPlan::default();
        for (number, offset, len) in self.reads {
            for shard in locate(number as usize, offset.into(), len.into()).unwrap_or_default() {
                plan.expect((self.extents[number as usize], shard));
            }
        }
        plan
    }
}

/// The future reads of each shard, as positions in the order the restore walks.
#[derive(Default)]
pub(super) struct ReadPlan {
    state: Mutex<Progress>,
    /// Signalled when the restore moves on to another run (or the plan is finished).
    moved: Condvar,
    /// Runs of consecutive reads of one shard: the position of their first read and the
    /// shard, in order.
    runs: Vec<(u64, ShardKey)>,
    /// Reads planned.
    planned: u64,
}

#[derive(Default)]
struct Progress {
    /// Positions of the reads not yet made, by shard (4 bytes a read).
    uses: HashMap<ShardKey, VecDeque<u32>>,
    /// Reads made so far: where the restore is.
    consumed: u64,
    /// The run that `consumed` falls in.
    run: usize,
    /// No more reads will be made (the restore is over).
    finished: bool,
}

impl ReadPlan {
    /// Reads planned.
    #[cfg(test)]
    fn len(&self) -> u64 {
        self.planned
    }

    fn state(&self) -> std::sync::MutexGuard<'_, Progress> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Note the next read, of `key`.
    pub(super) fn expect(&mut self, key: ShardKey) {
        // Past 4 billion reads positions stop growing: the plan only gets vaguer.
        let position = self.planned;
        self.planned = self.planned.saturating_add(1);
        if self.runs.last().is_none_or(|(_, k)| *k != key) {
            self.runs.push((position, key));
        }
        let state = self.state.get_mut().unwrap_or_else(|p| p.into_inner());
        state
            .uses
            .entry(key)
            .or_default()
            .push_back(u32::try_from(position).unwrap_or(u32::MAX));
    }

    /// When `key` is read next, or `None` if the plan has no more reads of it.
    pub(super) fn next_use(&self, key: &ShardKey) -> Option<u64> {
        let state = self.state();
        state
            .uses
            .get(key)
            .and_then(|q| q.front().map(|&p| u64::from(p)))
    }

    /// `key` has just been read: its earliest planned read is done. Reads the plan did
    /// not foresee (a retry, a tree read again) consume nothing, or a later planned read,
    /// which only makes the cache give that shard up a little earlier.
    pub(super) fn consumed(&self, key: &ShardKey) {
        let mut state = self.state();
        let Some(q) = state.uses.get_mut(key) else {
            return;
        };
        q.pop_front();
        if q.is_empty() {
            state.uses.remove(key);
        }
        state.consumed += 1;
        let before = state.run;
        while self
            .runs
            .get(state.run + 1)
            .is_some_and(|(start, _)| *start <= state.consumed)
        {
            state.run += 1;
        }
        if state.run != before {
            self.moved.notify_all();
        }
    }

    /// The distinct shards of the next `window` runs that still have reads planned,
    /// starting with the current run, once the restore has moved past run `seen` (the
    /// run returned with the last answer; `None` the first time). Returns the current
    /// run with them, or `None` when the plan is finished or all its runs are reached.
    pub(super) fn upcoming(
        &self,
        seen: Option<usize>,
        window: usize,
    ) -> Option<(usize, Vec<ShardKey>)> {
        let mut state = self.state();
        while !state.finished && seen == Some(state.run) {
            state = self.moved.wait(state).unwrap_or_else(|p| p.into_inner());
        }
        if state.finished || state.run >= self.runs.len() {
            return None;
        }
        let mut keys: Vec<ShardKey> = Vec::with_capacity(window);
        for (_, key) in &self.runs[state.run..] {
            if keys.len() == window {
                break;
            }
            if !keys.contains(key) && state.uses.contains_key(key) {
                keys.push(*key);
            }
        }
        Some((state.run, keys))
    }

    /// The restore is over: wake and stop whoever waits in [`upcoming`](Self::upcoming).
    pub(super) fn finish(&self) {
        self.state().finished = true;
        self.moved.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(n: u8, shard: usize) -> ShardKey {
        (ExtentName([n; 32]), shard)
    }

    #[test]
    fn a_shard_is_next_needed_at_its_earliest_unread_position() {
        let mut plan = ReadPlan::default();
        for k in [key(1, 0), key(2, 0), key(1, 0), key(3, 1)] {
            plan.expect(k);
        }
        assert_eq!(plan.len(), 4);
        assert_eq!(plan.next_use(&key(1, 0)), Some(0));
        assert_eq!(plan.next_use(&key(3, 1)), Some(3));
        assert_eq!(plan.next_use(&key(3, 0)), None, "another shard of extent 3");
        plan.consumed(&key(1, 0));
        assert_eq!(plan.next_use(&key(1, 0)), Some(2));
        plan.consumed(&key(1, 0));
        assert_eq!(plan.next_use(&key(1, 0)), None);
        // A read the plan did not foresee changes nothing else.
        plan.consumed(&key(1, 0));
        assert_eq!(plan.next_use(&key(2, 0)), Some(1));
    }

    #[test]
    fn upcoming_names_the_next_shards_once_the_restore_moves_on() {
        let mut plan = ReadPlan::default();
        for k in [
            key(1, 0),
            key(1, 0),
            key(2, 0),
            key(1, 0),
            key(3, 0),
            key(4, 0),
        ] {
            plan.expect(k);
        }
        let (run, keys) = plan.upcoming(None, 3).expect("a plan with reads");
        assert_eq!((run, keys), (0, vec![key(1, 0), key(2, 0), key(3, 0)]));
        plan.consumed(&key(1, 0));
        plan.consumed(&key(1, 0));
        // Now in the second run: shard 1 is still read once more, later.
        let (run, keys) = plan.upcoming(Some(0), 3).expect("moved on");
        assert_eq!((run, keys), (1, vec![key(2, 0), key(1, 0), key(3, 0)]));
        plan.consumed(&key(2, 0));
        plan.consumed(&key(1, 0));
        let (_, keys) = plan.upcoming(Some(1), 3).expect("moved on");
        assert_eq!(
            keys,
            vec![key(3, 0), key(4, 0)],
            "only what is still to be read"
        );
    }

    #[test]
    fn finishing_wakes_a_waiting_prefetcher() {
        let mut plan = ReadPlan::default();
        plan.expect(key(1, 0));
        plan.expect(key(2, 0));
        let plan = std::sync::Arc::new(plan);
        let waiter = {
            let plan = plan.clone();
            std::thread::spawn(move || plan.upcoming(Some(0), 4))
        };
        plan.finish();
        assert_eq!(waiter.join().expect("no panic"), None);
    }

    #[test]
    fn planned_reads_become_the_shards_they_fall_in() {
        let mut reads = PlannedReads::new();
        reads.push(ExtentName([7; 32]), 0, 10);
        reads.push(ExtentName([9; 32]), 5, 10);
        reads.push(ExtentName([7; 32]), 95, 10);
        assert_eq!(reads.extents(), &[ExtentName([7; 32]), ExtentName([9; 32])]);
        // Extent 7 has shards of 100 bytes; extent 9 has no certificate.
        let plan = reads.resolve(|number, offset, len| {
            (number == 0).then(|| {
                (offset / 100..=(offset + len - 1) / 100)
                    .map(|s| s as usize)
                    .collect()
            })
        });
        assert_eq!(plan.len(), 3, "one read, none, and one across two shards");
        assert_eq!(plan.next_use(&key(7, 0)), Some(0));
        assert_eq!(plan.next_use(&key(7, 1)), Some(2));
        assert_eq!(plan.next_use(&key(9, 0)), None);
    }
}
