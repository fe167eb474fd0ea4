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
//! The plan is built by walking the snapshot's trees ahead of the restore (a
//! metadata-only pass), recording every read as its extent and byte range
//! ([`PlannedReads`]); the certificates of those extents (which give the shard size) are
//! then fetched all at once, and each read becomes the shard(s) it falls in.
//! While the plan is installed, every shard read through the cache consumes the earliest
//! planned read of that shard, and the count of consumed reads stands for where the
//! restore is (its workers run a few files apart, so it is approximate, which is enough).
//!
//! Memory stays bounded: the walk plans a segment of reads at a time, the first before
//! the restore starts and the next whenever fewer than half a segment are left ahead of
//! the restore ([`ReadPlan::wait_for_room`]); reads made are dropped from the plan. A
//! shard read again only beyond the planned horizon looks "never read again" to the
//! cache, which costs at most a fetch.

use std::collections::{HashMap, VecDeque};
use std::sync::{Condvar, Mutex};

use crate::debug;
use crate::extent::ExtentName;
use crate::repo::{Repository, State};

/// Ends and drops the read plan when a restore (or dump) ends, however it ends.
pub(crate) struct ForgetReadPlan<'a, S: State>(pub &'a Repository<S>);

impl<S: State> Drop for ForgetReadPlan<'_, S> {
    fn drop(&mut self) {
        self.0.forget_read_plan();
    }
}

/// Extents' worth of data shards the prefetcher keeps fetched ahead of a restore: two
/// (one extent's rarely spread evenly over the remotes, 4 on 3, the next one's fill the
/// gaps). Counted in extents, not shards, so that a wider code (smaller shards) keeps as
/// many bytes ahead: with 12 + 9 over S3, 8 shards ahead made restores 1.21x slower than
/// with 4 + 3 (docs/CODING.md).
pub(crate) const PREFETCH_EXTENTS: usize = 2;

/// Extents' worth of data shards the shard cache holds (64 MiB of 16 MiB extents).
pub(crate) const SHARD_CACHE_EXTENTS: usize = 4;

/// A data shard: its extent and its index in the codeword.
pub(super) type ShardKey = (ExtentName, usize);

/// Reads planned at a time: a segment costs about 12 bytes a read while it is walked and
/// 8 bytes a read (plus 48 bytes a run of reads of one shard) once in the plan, which holds
/// at most one and a half segments ahead of the restore. On the benchmark tree (1.85 GiB,
/// 85,602 shard reads) the whole restore is one segment.
pub(crate) const PLAN_SEGMENT: usize = 1 << 19;

/// The reads of a restore in the order it makes them, as extent byte ranges: what the
/// walk ahead of the restore collects (see [`Repository::follow_read_plan`](super::Repository::follow_read_plan)).
#[derive(Default)]
pub(crate) struct PlannedReads {
    /// Extents read, in order of their first read.
    extents: Vec<ExtentName>,
    numbers: HashMap<ExtentName, u32>,
    /// (extent number, offset, length) of each read: 12 bytes (index locations are u32).
    reads: Vec<(u32, u32, u32)>,
}

impl PlannedReads {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Reads listed.
    pub(crate) fn len(&self) -> usize {
        self.reads.len()
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

    /// Add these reads to the end of `plan`, given for each extent of
    /// [`extents`](Self::extents) (same order) where a byte range falls: `locate(extent
    /// number, offset, len)` gives shard indexes. Reads of an extent without a
    /// certificate (`None`) are left out.
    pub(super) fn resolve_into(
        self,
        plan: &ReadPlan,
        locate: impl Fn(usize, u64, u64) -> Option<Vec<usize>>,
    ) {
        let mut state = plan.state();
        let before = state.planned;
        self.for_each_shard(locate, |key| state.expect(key));
        state.pass_runs();
        state.changes += 1;
        // What the plans of this process came to (`TANGLE_DEBUG_REQUESTS`).
        debug::PLAN_SEGMENTS.add(1);
        debug::PLAN_READS.add(state.planned - before);
        debug::PLAN_MOST_AHEAD.max(state.planned - state.consumed);
        drop(state);
        plan.moved.notify_all();
        plan.changed.notify_waiters();
    }
}

impl PlannedReads {
    /// Take these reads off `plan` as made (the restore will not make them), located
    /// as in [`resolve_into`](Self::resolve_into).
    pub(super) fn skip_in(
        self,
        plan: &ReadPlan,
        locate: impl Fn(usize, u64, u64) -> Option<Vec<usize>>,
    ) {
        self.for_each_shard(locate, |key| plan.consumed(&key));
    }

    /// Each shard read, in order.
    fn for_each_shard(
        self,
        locate: impl Fn(usize, u64, u64) -> Option<Vec<usize>>,
        mut read: impl FnMut(ShardKey),
    ) {
        for (number, offset, len) in self.reads {
            for shard in locate(number as usize, offset.into(), len.into()).unwrap_or_default() {
                read((self.extents[number as usize], shard));
            }
        }
    }
}

/// The future reads of each shard, as positions in the order the restore walks.
#[derive(Default)]
pub(super) struct ReadPlan {
    state: Mutex<Progress>,
    /// Signalled when the restore moves on to another run, when reads are added, when
    /// the planner is wanted ([`wait_for_room`](Self::wait_for_room)), and when the plan
    /// is finished.
    moved: Condvar,
    /// The same moments for the prefetcher, which waits in async code
    /// ([`upcoming`](ReadPlan::upcoming)) beside the fetches it has running.
    changed: tokio::sync::Notify,
}

#[derive(Default)]
struct Progress {
    /// Positions of the reads not yet made, by shard.
    uses: HashMap<ShardKey, VecDeque<u64>>,
    /// Runs of consecutive reads of one shard, from the current one on: the position of
    /// their first read and the shard.
    runs: VecDeque<(u64, ShardKey)>,
    /// Reads planned so far.
    planned: u64,
    /// Planned reads made so far: where the restore is.
    consumed: u64,
    /// Reads of shards with no read planned, by shard: the restore's walk may read a
    /// tree before the planner has listed it. The next planned read of that shard is
    /// taken as made, so the count of reads made keeps pace with the restore.
    early: HashMap<ShardKey, u32>,
    /// Counts every move to another run and every addition of reads: what the prefetcher
    /// waits to change.
    changes: u64,
    /// While the planner waits: it wants to add reads once fewer than this are ahead.
    refill_below: Option<u64>,
    /// No more reads will be made (the restore is over).
    finished: bool,
}

/// Shards with early reads kept at most (a read never planned, such as a retry, stays
/// there until its shard's next planned read).
const EARLY_KEPT: usize = 1 << 16;

impl Progress {
    /// Note the next read, of `key`.
    fn expect(&mut self, key: ShardKey) {
        let position = self.planned;
        self.planned += 1;
        if let Some(n) = self.early.get_mut(&key) {
            *n -= 1;
            if *n == 0 {
                self.early.remove(&key);
            }
            self.consumed += 1;
            return;
        }
        if self.runs.back().is_none_or(|(_, k)| *k != key) {
            self.runs.push_back((position, key));
        }
        self.uses.entry(key).or_default().push_back(position);
    }

    /// Drop the runs the restore is past; whether it moved on to another run.
    fn pass_runs(&mut self) -> bool {
        let mut moved = false;
        while self
            .runs
            .get(1)
            .is_some_and(|(start, _)| *start <= self.consumed)
        {
            self.runs.pop_front();
            self.changes += 1;
            moved = true;
        }
        moved
    }
}

impl ReadPlan {
    /// Reads planned.
    #[cfg(test)]
    fn len(&self) -> u64 {
        self.state().planned
    }

    fn state(&self) -> std::sync::MutexGuard<'_, Progress> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Note the next read, of `key`.
    #[cfg(test)]
    fn expect(&self, key: ShardKey) {
        self.state().expect(key);
    }

    /// When `key` is read next, or `None` if the plan has no more reads of it.
    pub(super) fn next_use(&self, key: &ShardKey) -> Option<u64> {
        let state = self.state();
        state.uses.get(key).and_then(|q| q.front().copied())
    }

    /// `key` has just been read: its earliest planned read is done. A read of a shard
    /// with none planned (yet) takes the next one planned, when it is (see
    /// `Progress::early`): a read the plan did not foresee (a retry, a tree read again)
    /// only makes the cache give that shard up a little earlier.
    pub(super) fn consumed(&self, key: &ShardKey) {
        let mut state = self.state();
        let Some(q) = state.uses.get_mut(key) else {
            if state.early.len() < EARLY_KEPT || state.early.contains_key(key) {
                *state.early.entry(*key).or_default() += 1;
            }
            return;
        };
        q.pop_front();
        if q.is_empty() {
            state.uses.remove(key);
        }
        state.consumed += 1;
        let mut wake = state.pass_runs();
        if let Some(below) = state.refill_below
            && state.planned - state.consumed < below
        {
            state.refill_below = None;
            wake = true;
        }
        if wake {
            self.moved.notify_all();
            self.changed.notify_waiters();
        }
    }

    /// The distinct shards of the next `window` runs that still have reads planned,
    /// starting with the current run, once the plan has changed since `seen` (the
    /// change count returned with the last answer; `None` the first time): the restore
    /// moved on to another run or reads were added. Returns the change count with them,
    /// or `None` when the plan is finished.
    pub(super) async fn upcoming(
        &self,
        seen: Option<u64>,
        window: usize,
    ) -> Option<(u64, Vec<ShardKey>)> {
        loop {
            // Listening before looking: a change between the look and the wait still wakes.
            let changed = self.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            {
                let state = self.state();
                if state.finished {
                    return None;
                }
                if seen != Some(state.changes) {
                    let mut keys: Vec<ShardKey> = Vec::with_capacity(window);
                    for (_, key) in &state.runs {
                        if keys.len() == window {
                            break;
                        }
                        if !keys.contains(key) && state.uses.contains_key(key) {
                            keys.push(*key);
                        }
                    }
                    return Some((state.changes, keys));
                }
            }
            changed.await;
        }
    }

    /// For the planner: wait until fewer than `ahead` planned reads are left ahead of
    /// the restore. False once the plan is finished (plan no more).
    pub(super) fn wait_for_room(&self, ahead: u64) -> bool {
        let mut state = self.state();
        while !state.finished && state.planned - state.consumed >= ahead {
            state.refill_below = Some(ahead);
            state = self.moved.wait(state).unwrap_or_else(|p| p.into_inner());
        }
        state.refill_below = None;
        !state.finished
    }

    /// Whether the restore is over.
    pub(super) fn is_finished(&self) -> bool {
        self.state().finished
    }

    /// The restore is over: wake and stop whoever waits in [`upcoming`](Self::upcoming)
    /// or [`wait_for_room`](Self::wait_for_room).
    pub(super) fn finish(&self) {
        let mut state = self.state();
        if !state.finished {
            state.finished = true;
            debug::PLAN_UNMADE.add(state.planned - state.consumed);
            debug::PLAN_UNFORESEEN.add(state.early.values().map(|&n| u64::from(n)).sum());
        }
        drop(state);
        self.moved.notify_all();
        self.changed.notify_waiters();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures::executor::block_on;
    use std::sync::Arc;

    fn key(n: u8, shard: usize) -> ShardKey {
        (ExtentName([n; 32]), shard)
    }

    fn plan_of(keys: &[ShardKey]) -> ReadPlan {
        let plan = ReadPlan::default();
        for k in keys {
            plan.expect(*k);
        }
        plan
    }

    #[test]
    fn a_shard_is_next_needed_at_its_earliest_unread_position() {
        let plan = plan_of(&[key(1, 0), key(2, 0), key(1, 0), key(3, 1)]);
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
        let plan = plan_of(&[
            key(1, 0),
            key(1, 0),
            key(2, 0),
            key(1, 0),
            key(3, 0),
            key(4, 0),
        ]);
        let (seen, keys) = block_on(plan.upcoming(None, 3)).expect("a plan with reads");
        assert_eq!(keys, vec![key(1, 0), key(2, 0), key(3, 0)]);
        plan.consumed(&key(1, 0));
        plan.consumed(&key(1, 0));
        // Now in the second run: shard 1 is still read once more, later.
        let (seen, keys) = block_on(plan.upcoming(Some(seen), 3)).expect("moved on");
        assert_eq!(keys, vec![key(2, 0), key(1, 0), key(3, 0)]);
        plan.consumed(&key(2, 0));
        plan.consumed(&key(1, 0));
        let (_, keys) = block_on(plan.upcoming(Some(seen), 3)).expect("moved on");
        assert_eq!(
            keys,
            vec![key(3, 0), key(4, 0)],
            "only what is still to be read"
        );
    }

    #[test]
    fn finishing_wakes_a_waiting_prefetcher_and_planner() {
        let plan = Arc::new(plan_of(&[key(1, 0), key(2, 0)]));
        let (seen, _) = block_on(plan.upcoming(None, 4)).expect("a plan with reads");
        let prefetcher = {
            let plan = plan.clone();
            std::thread::spawn(move || block_on(plan.upcoming(Some(seen), 4)))
        };
        let planner = {
            let plan = plan.clone();
            std::thread::spawn(move || plan.wait_for_room(1))
        };
        plan.finish();
        assert_eq!(prefetcher.join().expect("no panic"), None);
        assert!(!planner.join().expect("no panic"), "plan no more");
        assert!(plan.is_finished());
    }

    #[test]
    fn the_planner_is_woken_when_the_restore_nears_the_end_of_the_plan() {
        let plan = Arc::new(plan_of(&[key(1, 0), key(1, 0), key(1, 0), key(2, 0)]));
        let planner = {
            let plan = plan.clone();
            // Wants more once fewer than 2 reads are ahead.
            std::thread::spawn(move || plan.wait_for_room(2))
        };
        // Reads within one run: no run change to wake anyone but the planner.
        plan.consumed(&key(1, 0));
        plan.consumed(&key(1, 0));
        assert!(!planner.is_finished(), "2 reads still ahead");
        plan.consumed(&key(1, 0));
        assert!(planner.join().expect("no panic"), "room for more");
    }

    #[test]
    fn reads_added_later_extend_the_plan_and_wake_the_prefetcher() {
        let plan = Arc::new(plan_of(&[key(1, 0)]));
        let (seen, keys) = block_on(plan.upcoming(None, 4)).expect("a plan with reads");
        assert_eq!(keys, vec![key(1, 0)]);
        let prefetcher = {
            let plan = plan.clone();
            std::thread::spawn(move || block_on(plan.upcoming(Some(seen), 4)))
        };
        let mut reads = PlannedReads::new();
        reads.push(ExtentName([2; 32]), 0, 10);
        reads.push(ExtentName([1; 32]), 0, 10);
        reads.resolve_into(&plan, |_, _, _| Some(vec![0]));
        let (_, keys) = prefetcher.join().expect("no panic").expect("not finished");
        assert_eq!(keys, vec![key(1, 0), key(2, 0)]);
        assert_eq!(plan.next_use(&key(2, 0)), Some(1));
        plan.consumed(&key(1, 0));
        assert_eq!(
            plan.next_use(&key(1, 0)),
            Some(2),
            "its read in the new part"
        );
        // Reads made leave the plan: only the runs from the current one on are kept.
        plan.consumed(&key(2, 0));
        assert_eq!(plan.state().runs.len(), 1);
    }

    #[test]
    fn a_read_made_before_it_was_planned_counts_once_it_is() {
        let plan = plan_of(&[key(1, 0)]);
        // The restore's walk reads tree shard 2 before the planner lists it.
        plan.consumed(&key(2, 0));
        assert_eq!(plan.state().consumed, 0);
        let mut reads = PlannedReads::new();
        reads.push(ExtentName([2; 32]), 0, 10);
        reads.push(ExtentName([2; 32]), 20, 10);
        reads.resolve_into(&plan, |_, _, _| Some(vec![0]));
        assert_eq!(plan.len(), 3);
        assert_eq!(plan.state().consumed, 1, "the early read is taken as made");
        assert_eq!(
            plan.next_use(&key(2, 0)),
            Some(2),
            "its second read is still to come"
        );
        // So the planner is woken when the restore nears the end, not a read later.
        plan.consumed(&key(1, 0));
        assert!(plan.wait_for_room(2));
    }

    #[test]
    fn planned_reads_become_the_shards_they_fall_in() {
        let mut reads = PlannedReads::new();
        reads.push(ExtentName([7; 32]), 0, 10);
        reads.push(ExtentName([9; 32]), 5, 10);
        reads.push(ExtentName([7; 32]), 95, 10);
        assert_eq!(reads.len(), 3);
        assert_eq!(reads.extents(), &[ExtentName([7; 32]), ExtentName([9; 32])]);
        // Extent 7 has shards of 100 bytes; extent 9 has no certificate.
        let plan = ReadPlan::default();
        reads.resolve_into(&plan, |number, offset, len| {
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
