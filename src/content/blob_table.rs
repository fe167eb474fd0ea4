//! The blob index's table: blob id → where the blob lives, in 48 bytes a blob (the full
//! 32-byte id and 16 bytes of place), so a repository of 10^7 blobs loads in under
//! 500 MB (issue 37; a `HashMap` of the same entries took 70 to 115 bytes a blob with its
//! spare capacity). `benches/index_memory.rs` measures it.
//!
//! The entries sit in one vector sorted by id, found by binary search within the range a
//! table of the ids' first two bytes gives (blob ids are keyed hashes, so uniform).
//! Entries added while loading are appended, and sorted in when loading ends
//! ([`BlobTable::merge`], through `Index::finish_loading`); until then a lookup scans
//! them. An id is held once, by its first placing: the sorted part holds older entries
//! than those appended, and the merge keeps the first of each id.

use super::BlobId;
use super::BlobKind;
use super::index::BlobLocation;

/// `extent_kind`'s top bit: the blob is a tree (extent positions stay far below 2^31).
const TREE: u32 = 1 << 31;

/// One blob, packed.
#[derive(Clone, Copy)]
struct Packed {
    id: BlobId,
    extent_kind: u32,
    offset: u32,
    length: u32,
    raw_len: u32,
}

impl Packed {
    fn new(id: BlobId, loc: &BlobLocation) -> Packed {
        let kind = match loc.kind {
            BlobKind::Data => 0,
            BlobKind::Tree => TREE,
        };
        Packed {
            id,
            extent_kind: loc.extent | kind,
            offset: loc.offset,
            length: loc.length,
            raw_len: loc.raw_len,
        }
    }

    fn location(&self) -> BlobLocation {
        BlobLocation {
            extent: self.extent_kind & !TREE,
            kind: match self.extent_kind & TREE {
                0 => BlobKind::Data,
                _ => BlobKind::Tree,
            },
            offset: self.offset,
            length: self.length,
            raw_len: self.raw_len,
        }
    }
}

#[derive(Default)]
pub(crate) struct BlobTable {
    /// Sorted by id, each id once.
    sorted: Vec<Packed>,
    /// `starts[p]`: the first entry of `sorted` whose id begins with the two bytes `p`
    /// (`starts[65536] == sorted.len()`); empty while `sorted` is.
    starts: Vec<u32>,
    /// Added since the last merge, in the order given (an id may repeat, and may also be
    /// in `sorted`, which wins). Loading ends with a merge, so lookups search this only
    /// in between (linearly).
    pending: Vec<Packed>,
}

fn prefix(id: &BlobId) -> usize {
    (id[0] as usize) << 8 | id[1] as usize
}

impl BlobTable {
    pub(crate) fn get(&self, id: &BlobId) -> Option<BlobLocation> {
        if let Some(i) = self.find_sorted(id) {
            return Some(self.sorted[i].location());
        }
        self.pending
            .iter()
            .find(|e| e.id == *id)
            .map(Packed::location)
    }

    pub(crate) fn contains(&self, id: &BlobId) -> bool {
        self.get(id).is_some()
    }

    /// Add `id` at `loc` unless it is already held (the first placing wins).
    pub(crate) fn insert_first(&mut self, id: BlobId, loc: BlobLocation) {
        self.pending.push(Packed::new(id, &loc));
    }

    /// Merge what was added into the sorted part: at the end of loading, so lookups
    /// need no scan.
    pub(crate) fn merge(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        let mut new = std::mem::take(&mut self.pending);
        // Stable, so of two placings of one id the first stays first, and is kept.
        new.sort_by_key(|a| a.id);
        new.dedup_by(|later, first| later.id == first.id);
        new.retain(|e| self.find_sorted(&e.id).is_none());
        // Into a vector of the exact size: doubling would leave up to half of it unused.
        let old = std::mem::take(&mut self.sorted);
        let mut merged = Vec::with_capacity(old.len() + new.len());
        let (mut a, mut b) = (old.into_iter().peekable(), new.into_iter().peekable());
        loop {
            let take_old = match (a.peek(), b.peek()) {
                (Some(x), Some(y)) => x.id < y.id,
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (None, None) => break,
            };
            let next = if take_old { a.next() } else { b.next() };
            merged.extend(next);
        }
        self.sorted = merged;
        self.index_prefixes();
    }

    fn find_sorted(&self, id: &BlobId) -> Option<usize> {
        if self.starts.is_empty() {
            return None;
        }
        let p = prefix(id);
        let (lo, hi) = (self.starts[p] as usize, self.starts[p + 1] as usize);
        let i = self.sorted[lo..hi]
            .binary_search_by(|e| e.id.cmp(id))
            .ok()?;
        Some(lo + i)
    }

    fn index_prefixes(&mut self) {
        let mut starts = vec![0u32; (1 << 16) + 1];
        let mut i = 0;
        for (p, start) in starts.iter_mut().enumerate() {
            while i < self.sorted.len() && prefix(&self.sorted[i].id) < p {
                i += 1;
            }
            *start = i as u32;
        }
        self.starts = starts;
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.iter().count()
    }

    /// Every blob once (the sorted part in id order, then what is not merged yet).
    pub(crate) fn iter(&self) -> impl Iterator<Item = (BlobId, BlobLocation)> + '_ {
        let pending = (self.pending.iter().enumerate())
            .filter(|(i, e)| {
                self.find_sorted(&e.id).is_none()
                    && !self.pending[..*i].iter().any(|f| f.id == e.id)
            })
            .map(|(_, e)| (e.id, e.location()));
        (self.sorted.iter().map(|e| (e.id, e.location()))).chain(pending)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    fn loc(extent: u32, kind: BlobKind) -> BlobLocation {
        BlobLocation {
            extent,
            kind,
            offset: extent * 3,
            length: 7,
            raw_len: 9,
        }
    }

    fn id(n: u64) -> BlobId {
        let mut id = [0u8; 32];
        // Spread over the prefixes, and some sharing one.
        id[..8].copy_from_slice(&n.wrapping_mul(0x9e37_79b9_7f4a_7c15).to_be_bytes());
        id[31] = n as u8;
        id
    }

    #[test]
    fn lookups_agree_with_a_map_across_merges_and_the_first_placing_wins() {
        let mut table = BlobTable::default();
        let mut want: HashMap<BlobId, BlobLocation> = HashMap::new();
        for n in 0..200_000u64 {
            let kind = if n % 3 == 0 {
                BlobKind::Tree
            } else {
                BlobKind::Data
            };
            // Every id is offered twice, the second time elsewhere: the first stays.
            for extent in [n as u32 % 1000, 5000] {
                let k = id(n % 150_000);
                table.insert_first(k, loc(extent, kind));
                want.entry(k).or_insert(loc(extent, kind));
            }
            if n % 50_000 == 49_999 {
                table.merge();
            }
        }
        // Found before the last merge too.
        assert_eq!(
            table.get(&id(199_999 % 150_000)),
            want.get(&id(199_999 % 150_000)).copied()
        );
        table.merge();
        assert_eq!(table.len(), want.len());
        for (k, l) in &want {
            assert_eq!(table.get(k), Some(*l));
        }
        assert_eq!(table.get(&[0xab; 32]), None);
        let mut seen: Vec<BlobId> = table.iter().map(|(k, _)| k).collect();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), want.len());
    }
}
