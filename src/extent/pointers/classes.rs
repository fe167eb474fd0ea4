//! The catalog's data shards grouped by what the chooser ranks them by, so that one
//! choice costs about the same in a catalog of 100 extents as in one of 100,000.
//!
//! Scanning every data shard for every pointer made a first backup of N extents cost
//! N² (46 ms an extent at 39,000 extents). The ranks come only from the counts the
//! catalog keeps, so the shards can be kept sorted by them as the counts change; what a
//! query adds (the codeword's position, its shard size, the remotes with room left, the
//! pointers chosen so far) only filters. Ties are still broken uniformly: a class is
//! sampled at random and a draw the filters refuse is drawn again, which picks uniformly
//! among the shards they admit; after [`DRAWS`] refusals the class is scanned.
//!
//! The classes are built the first time a choice is made (a backup that stores nothing
//! never builds them) and kept up to date by every count after that.

use std::collections::{BTreeMap, BTreeSet};

use rand::{Rng, RngExt};

use super::{Candidate, Chosen, FAR_DISTANCE, Want};

/// A data shard: its place in the catalog's list of data shards, extent by extent.
type Slot = u32;

/// Refused draws from a class before it is scanned instead.
const DRAWS: usize = 32;

/// What ranks a data shard for a far pointer, before the query: fewest far pointers at
/// it, then fewest pointers, then one that gives its extent a spare.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Rank {
    far_pointed: u32,
    pointed: u32,
    no_spare: bool,
}

fn rank(c: &Candidate, j: usize) -> Rank {
    Rank {
        far_pointed: c.far_pointed[j],
        pointed: c.pointed[j],
        no_spare: !c.needs_spare_on(c.data_remotes[j]),
    }
}

#[derive(Clone, Debug)]
pub(super) struct Classes {
    /// First slot of each extent, and one past the newest's last.
    first: Vec<Slot>,
    /// Extent of each slot.
    extent_of: Vec<u32>,
    /// Slots of pointable extents by rank and remote, each class in no order (sampled).
    far: BTreeMap<(Rank, u16), Vec<Slot>>,
    /// Where each slot is in its `far` class.
    far_at: Vec<u32>,
    /// Slots of pointable extents by how many codewords point at them, youngest last.
    young: BTreeMap<u32, BTreeSet<Slot>>,
}

/// One choice: the codeword, and what it has chosen so far.
pub(super) struct Query<'a> {
    pub(super) candidates: &'a [Candidate],
    pub(super) want: &'a Want,
    pub(super) symbols_on: &'a [usize],
    pub(super) chosen: &'a [Chosen],
    pub(super) usable: &'a dyn Fn(usize) -> bool,
}

impl Query<'_> {
    fn room(&self, r: u16) -> bool {
        (self.symbols_on.get(r as usize)).is_some_and(|&k| k < self.want.parity)
    }

    /// Whether data shard `j` of extent `e` may be chosen now.
    pub(super) fn admits(&self, e: usize, j: usize) -> bool {
        let c = &self.candidates[e];
        e < self.want.at
            && c.shard_size <= self.want.shard_size
            && c.pointable
            && self.room(c.data_remotes[j])
            && !self.chosen.contains(&Chosen {
                extent: e,
                shard: j as u8,
            })
            && (self.usable)(e)
    }

    /// Whether a shard of extent `e` on remote `r` is already chosen: another there gives
    /// the extent no spare the first does not.
    pub(super) fn took_remote(&self, e: usize, r: u16) -> bool {
        (self.chosen.iter()).any(|ch| {
            ch.extent == e && self.candidates[e].data_remotes.get(ch.shard as usize) == Some(&r)
        })
    }
}

impl Classes {
    pub(super) fn build(candidates: &[Candidate]) -> Classes {
        let mut classes = Classes {
            first: vec![0],
            extent_of: Vec::new(),
            far: BTreeMap::new(),
            far_at: Vec::new(),
            young: BTreeMap::new(),
        };
        for c in candidates {
            classes.push(c);
        }
        classes
    }

    /// Add the newest extent.
    pub(super) fn push(&mut self, c: &Candidate) {
        let e = self.first.len() - 1;
        let base = self.extent_of.len() as Slot;
        let n = c.data_remotes.len();
        self.extent_of.extend(std::iter::repeat_n(e as u32, n));
        self.far_at.extend(std::iter::repeat_n(u32::MAX, n));
        self.first.push(base + n as Slot);
        for j in 0..n {
            self.insert(e, c, j);
        }
    }

    /// Take out extent `e`'s data shards on remote `r` before a count of one of them
    /// changes (which may change whether the others give a spare) ...
    pub(super) fn remove_on(&mut self, e: usize, c: &Candidate, r: u16) {
        for j in (0..c.data_remotes.len()).filter(|&j| c.data_remotes[j] == r) {
            self.remove(e, c, j);
        }
    }

    /// ... and put them back after.
    pub(super) fn insert_on(&mut self, e: usize, c: &Candidate, r: u16) {
        for j in (0..c.data_remotes.len()).filter(|&j| c.data_remotes[j] == r) {
            self.insert(e, c, j);
        }
    }

    fn slot(&self, e: usize, j: usize) -> Slot {
        self.first[e] + j as Slot
    }

    fn place(&self, s: Slot) -> (usize, usize) {
        let e = self.extent_of[s as usize] as usize;
        (e, (s - self.first[e]) as usize)
    }

    fn insert(&mut self, e: usize, c: &Candidate, j: usize) {
        if !c.pointable {
            return;
        }
        let s = self.slot(e, j);
        let class = self.far.entry((rank(c, j), c.data_remotes[j])).or_default();
        self.far_at[s as usize] = class.len() as u32;
        class.push(s);
        self.young.entry(c.pointed[j]).or_default().insert(s);
    }

    fn remove(&mut self, e: usize, c: &Candidate, j: usize) {
        if !c.pointable {
            return;
        }
        let s = self.slot(e, j);
        let key = (rank(c, j), c.data_remotes[j]);
        if let Some(class) = self.far.get_mut(&key) {
            let at = self.far_at[s as usize] as usize;
            if class.get(at) == Some(&s) {
                class.swap_remove(at);
                if let Some(&moved) = class.get(at) {
                    self.far_at[moved as usize] = at as u32;
                }
            }
            if class.is_empty() {
                self.far.remove(&key);
            }
        }
        if let Some(set) = self.young.get_mut(&c.pointed[j]) {
            set.remove(&s);
            if set.is_empty() {
                self.young.remove(&c.pointed[j]);
            }
        }
    }

    /// A young pointer: the fewest pointers, then the youngest extent, uniformly among
    /// its shards.
    pub(super) fn young(&self, q: &Query, rng: &mut impl Rng) -> Option<Chosen> {
        let end = self.first[q.want.at.min(self.first.len() - 1)];
        for set in self.young.values() {
            let mut ties: Vec<Slot> = Vec::new();
            for &s in set.range(..end).rev() {
                let (e, j) = self.place(s);
                if ties.first().is_some_and(|&t| self.place(t).0 != e) {
                    break;
                }
                if q.admits(e, j) {
                    ties.push(s);
                }
            }
            if !ties.is_empty() {
                return Some(self.chosen(ties[rng.random_range(0..ties.len())]));
            }
        }
        None
    }

    /// A far pointer: the fewest far pointers; among those a shard at least
    /// [`FAR_DISTANCE`] older before a nearer one; then fewest pointers, then one that
    /// gives its extent a spare; uniformly among what is left.
    pub(super) fn far(&self, q: &Query, rng: &mut impl Rng) -> Option<Chosen> {
        // The near extents are few: look at each. Near, no shard gives a spare.
        let mut near: Option<(u32, u32)> = None;
        let mut near_ties: Vec<Chosen> = Vec::new();
        let near_from = q.want.at.saturating_sub(FAR_DISTANCE - 1);
        for e in near_from..q.want.at.min(q.candidates.len()) {
            let c = &q.candidates[e];
            for j in (0..c.data_remotes.len()).filter(|&j| q.admits(e, j)) {
                let key = (c.far_pointed[j], c.pointed[j]);
                let here = Chosen {
                    extent: e,
                    shard: j as u8,
                };
                if near.is_none_or(|n| key < n) {
                    near = Some(key);
                    near_ties.clear();
                }
                if near == Some(key) {
                    near_ties.push(here);
                }
            }
        }
        if q.want.at >= FAR_DISTANCE {
            let last_far = q.want.at - FAR_DISTANCE;
            let is_far = |s: Slot| self.place(s).0 <= last_far;
            // The ranks in order; one that gives a spare may rank as one that gives
            // none (see `demoted`), so those are ranks too.
            let mut ranks: Vec<Rank> = self.far.keys().map(|&(rank, _)| rank).collect();
            if !q.chosen.is_empty() {
                let given: Vec<Rank> = (ranks.iter().filter(|r| !r.no_spare))
                    .map(|&r| Rank {
                        no_spare: true,
                        ..r
                    })
                    .collect();
                ranks.extend(given);
                ranks.sort_unstable();
            }
            ranks.dedup();
            for rank in ranks {
                if near.is_some_and(|(f, _)| rank.far_pointed > f) {
                    break;
                }
                // The classes of this rank, one per remote, those with room.
                let mut lists: Vec<(&[Slot], bool)> = (self.far)
                    .range((rank, 0)..=(rank, u16::MAX))
                    .filter(|((_, r), _)| q.room(*r))
                    .map(|(_, class)| (class.as_slice(), false))
                    .collect();
                // A shard that would give a spare but whose extent already has one
                // chosen on its remote ranks as one that gives none.
                let demoted: Vec<Slot> = if rank.no_spare {
                    self.demoted(
                        q,
                        Rank {
                            no_spare: false,
                            ..rank
                        },
                    )
                } else {
                    Vec::new()
                };
                lists.push((&demoted, true));
                let admits = |s: Slot, demoted: bool| {
                    let (e, j) = self.place(s);
                    is_far(s)
                        && q.admits(e, j)
                        && (demoted
                            || rank.no_spare
                            || !q.took_remote(e, q.candidates[e].data_remotes[j]))
                };
                if let Some(s) = sample(rng, &lists, admits) {
                    return Some(self.chosen(s));
                }
            }
        }
        (!near_ties.is_empty()).then(|| near_ties[rng.random_range(0..near_ties.len())])
    }

    /// The shards of `rank` (one that gives a spare) on remotes where their extent
    /// already has a shard chosen.
    fn demoted(&self, q: &Query, rank_given: Rank) -> Vec<Slot> {
        let mut out: Vec<Slot> = Vec::new();
        for ch in q.chosen {
            let c = &q.candidates[ch.extent];
            let Some(&r) = c.data_remotes.get(ch.shard as usize) else {
                continue;
            };
            for j in (0..c.data_remotes.len()).filter(|&j| c.data_remotes[j] == r) {
                let s = self.slot(ch.extent, j);
                if c.pointable && rank(c, j) == rank_given && !out.contains(&s) {
                    out.push(s);
                }
            }
        }
        out
    }

    fn chosen(&self, s: Slot) -> Chosen {
        let (extent, j) = self.place(s);
        Chosen {
            extent,
            shard: j as u8,
        }
    }
}

/// A slot drawn uniformly among those of `lists` that `admits` (given whether the list
/// is flagged), or `None` if it admits none.
fn sample(
    rng: &mut impl Rng,
    lists: &[(&[Slot], bool)],
    admits: impl Fn(Slot, bool) -> bool,
) -> Option<Slot> {
    let total: usize = lists.iter().map(|(l, _)| l.len()).sum();
    if total == 0 {
        return None;
    }
    for _ in 0..DRAWS {
        let mut i = rng.random_range(0..total);
        for &(list, flag) in lists {
            if i < list.len() {
                if admits(list[i], flag) {
                    return Some(list[i]);
                }
                break;
            }
            i -= list.len();
        }
    }
    let mut all: Vec<Slot> = Vec::new();
    for &(list, flag) in lists {
        all.extend(list.iter().filter(|&&s| admits(s, flag)));
    }
    (!all.is_empty()).then(|| all[rng.random_range(0..all.len())])
}
