//! A small cache whose entries are computed once: concurrent readers of one key share
//! one fetch or rebuild. Used for whole data shards (restore, dump) and rebuilt extents.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// When a key is read next (`None`: never), from a [`ReadPlan`](crate::repo::read_plan::ReadPlan).
pub(super) type NextUse<'a, K> = dyn Fn(&K) -> Option<u64> + 'a;

/// A small most-recently-added cache whose entries are computed once: concurrent
/// readers of the same key share one fetch or rebuild. `C` is the once-cell: a
/// `OnceLock` for blocking callers, a tokio `OnceCell` where fetches run concurrently.
pub(in crate::repo) struct OnceCache<K, C> {
    capacity: usize,
    entries: Mutex<VecDeque<(K, Arc<C>)>>,
}

impl<K: PartialEq + Copy, C: Default> OnceCache<K, C> {
    pub(in crate::repo) fn new(capacity: usize) -> Self {
        OnceCache {
            capacity,
            entries: Mutex::new(VecDeque::new()),
        }
    }

    pub(super) fn contains(&self, key: &K) -> bool {
        self.entries
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .any(|(k, _)| k == key)
    }

    pub(super) fn forget(&self, key: &K) {
        self.entries
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .retain(|(k, _)| k != key);
    }

    /// The entry for `key`, added if missing; a full cache gives up its oldest entry.
    pub(super) fn slot(&self, key: &K) -> Arc<C> {
        self.slot_planned(key, None)
    }

    /// Whether adding `key` now would give up nothing needed sooner than `key` (by
    /// `next_use`, as in [`slot_planned`](Self::slot_planned)): true if it is in, if
    /// there is room, or if some entry is needed later than it or never.
    pub(super) fn has_room_for(&self, key: &K, next_use: &NextUse<'_, K>) -> bool {
        let e = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        if e.len() < self.capacity || e.iter().any(|(k, _)| k == key) {
            return true;
        }
        let wanted = next_use(key).unwrap_or(u64::MAX);
        e.iter()
            .any(|(k, _)| next_use(k).is_none_or(|n| n > wanted))
    }

    /// [`slot`](Self::slot), but with `next_use` (when each key is read next, `None` for
    /// never) a full cache gives up the entry not needed again (the oldest of those),
    /// else the one needed last.
    pub(super) fn slot_planned(&self, key: &K, next_use: Option<&NextUse<'_, K>>) -> Arc<C> {
        let mut e = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((_, d)) = e.iter().find(|(k, _)| k == key) {
            return d.clone();
        }
        let d = Arc::new(C::default());
        e.push_back((*key, d.clone()));
        while e.len() > self.capacity {
            let victim = match next_use {
                None => 0,
                // The entry just added is the one being read: never its own victim.
                Some(next_use) => e
                    .iter()
                    .take(e.len() - 1)
                    .enumerate()
                    .max_by_key(|(i, (k, _))| {
                        // Never needed again ranks first, then the later the need the
                        // higher; ties go to the oldest (the lower index).
                        (next_use(k).unwrap_or(u64::MAX), std::cmp::Reverse(*i))
                    })
                    .map_or(0, |(i, _)| i),
            };
            e.remove(victim);
        }
        d
    }
}

impl<K: PartialEq + Copy, T: Clone> OnceCache<K, tokio::sync::OnceCell<T>> {
    /// `key`'s value if its entry is in and filled: a read of it waits for no fetch (and
    /// needs no trip through the async runtime, once per blob a restore reads).
    pub(super) fn ready(&self, key: &K) -> Option<T> {
        self.entries
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .find(|(k, _)| k == key)
            .and_then(|(_, c)| c.get().cloned())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::OnceLock;

    use super::*;

    type Cache = OnceCache<u8, OnceLock<u8>>;

    fn keys(cache: &Cache) -> Vec<u8> {
        let e = cache.entries.lock().unwrap_or_else(|p| p.into_inner());
        e.iter().map(|(k, _)| *k).collect()
    }

    #[test]
    fn a_planned_cache_gives_up_what_is_not_read_again_then_what_is_read_last() {
        // Next reads: 1 at 50, 2 never, 3 at 10, 4 at 70, 5 (being added) at 5.
        let next = |k: &u8| match k {
            1 => Some(50),
            3 => Some(10),
            4 => Some(70),
            5 => Some(5),
            _ => None,
        };
        let cache = Cache::new(3);
        for k in [1, 2, 3] {
            cache.slot_planned(&k, Some(&next));
        }
        cache.slot_planned(&5, Some(&next));
        assert_eq!(keys(&cache), vec![1, 3, 5], "2 is never read again");
        cache.slot_planned(&4, Some(&next));
        assert_eq!(
            keys(&cache),
            vec![3, 5, 4],
            "1 is read last of those in; 4 is being read"
        );
        // Without a plan: the oldest goes.
        cache.slot(&9);
        assert_eq!(keys(&cache), vec![5, 4, 9]);
    }

    #[test]
    fn prefetching_takes_only_the_places_of_shards_needed_later() {
        // Read next: 1 at 10, 2 at 40, 6 at 20, 7 at 30, 8 at 50; 3 never.
        let next = |k: &u8| match k {
            1 => Some(10),
            2 => Some(40),
            6 => Some(20),
            7 => Some(30),
            8 => Some(50),
            _ => None,
        };
        let cache = Cache::new(3);
        cache.slot_planned(&1, Some(&next));
        assert!(cache.has_room_for(&8, &next), "a free place");
        for k in [2, 3] {
            cache.slot_planned(&k, Some(&next));
        }
        assert!(cache.has_room_for(&8, &next), "3 is never read again");
        assert!(cache.has_room_for(&1, &next), "already in");
        cache.slot_planned(&6, Some(&next));
        assert_eq!(keys(&cache), vec![1, 2, 6]);
        assert!(cache.has_room_for(&7, &next), "2 is read after 7");
        assert!(!cache.has_room_for(&8, &next), "all in are read before 8");
    }
}
