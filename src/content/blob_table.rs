//! The blob index's table: blob id → where the blob lives, in 32 bytes a blob of memory
//! (issue 37 asks at most 40; a `HashMap` of full entries took 70 to 115 bytes a blob
//! with its spare capacity). `benches/index_memory.rs` measures it.
//!
//! The entries sit in one vector sorted by id, found by binary search within the range a
//! table of the ids' first two bytes gives (blob ids are keyed hashes, so uniform). Each
//! entry keeps the 16 id bytes after those two and 16 bytes of place (extent, offset,
//! stored and plaintext length; the kind in the extent's top bit). The id's last 14
//! bytes are in a store of their own ([`Tails`]): an unlinked file in the cache
//! directory, read with one `pread` to confirm a match, or memory where no file can be
//! made. A lookup that leads to reusing a blob ([`BlobTable::contains`]) confirms every
//! match against the full id, so no chunk is ever taken for another (no false dedup);
//! one that leads to reading the blob ([`BlobTable::get`]) is confirmed by the read,
//! which checks the blob's keyed hash against its id.
//!
//! Entries added while loading are kept whole, and sorted in when loading ends
//! ([`BlobTable::merge`], through `Index::finish_loading`); until then a lookup scans
//! them. An id is held once, by its first placing: the sorted part holds older entries
//! than those appended, and the merge keeps the first of each id.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use super::BlobId;
use super::BlobKind;
use super::index::BlobLocation;

/// `extent_kind`'s top bit: the blob is a tree (extent positions stay far below 2^31).
const TREE: u32 = 1 << 31;
/// Id bytes an entry holds after the two-byte prefix the prefix table gives.
const KEPT: usize = 16;
/// The id's last bytes, kept in [`Tails`].
const TAIL: usize = 32 - 2 - KEPT;

type Tail = [u8; TAIL];

/// Where a blob lives, packed.
#[derive(Clone, Copy)]
struct Place {
    extent_kind: u32,
    offset: u32,
    length: u32,
    raw_len: u32,
}

impl Place {
    fn new(loc: &BlobLocation) -> Place {
        let kind = match loc.kind {
            BlobKind::Data => 0,
            BlobKind::Tree => TREE,
        };
        Place {
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

/// A sorted entry: 32 bytes.
#[derive(Clone, Copy)]
struct Packed {
    kept: [u8; KEPT],
    place: Place,
}

/// An entry added since the last merge, with its whole id.
#[derive(Clone, Copy)]
struct Whole {
    id: BlobId,
    place: Place,
}

fn prefix(id: &BlobId) -> usize {
    (id[0] as usize) << 8 | id[1] as usize
}

fn kept(id: &BlobId) -> [u8; KEPT] {
    let mut k = [0; KEPT];
    k.copy_from_slice(&id[2..2 + KEPT]);
    k
}

fn tail(id: &BlobId) -> Tail {
    let mut t = [0; TAIL];
    t.copy_from_slice(&id[2 + KEPT..]);
    t
}

/// The sorted entries' id tails, `TAIL` bytes each in the entries' order.
enum Tails {
    /// An unlinked file (in the cache directory, so on the disk the cache is on).
    File(File),
    /// Where no file could be made.
    Memory(Vec<Tail>),
}

impl Default for Tails {
    fn default() -> Tails {
        Tails::Memory(Vec::new())
    }
}

impl Tails {
    /// The tails of `entries`, in a file in `dir` if one can be made there.
    fn of(entries: &[Whole], dir: Option<&Path>) -> Tails {
        let in_memory = || Tails::Memory(entries.iter().map(|e| tail(&e.id)).collect());
        let Some(dir) = dir else {
            return in_memory();
        };
        let written = (|| -> std::io::Result<File> {
            let mut out = BufWriter::with_capacity(1 << 16, tempfile::tempfile_in(dir)?);
            for e in entries {
                out.write_all(&tail(&e.id))?;
            }
            out.into_inner().map_err(|e| e.into_error())
        })();
        match written {
            Ok(file) => Tails::File(file),
            Err(_) => in_memory(),
        }
    }

    /// The `i`th tail; `None` if the file cannot be read (the caller then treats the
    /// match as unconfirmed).
    fn get(&self, i: usize) -> Option<Tail> {
        match self {
            Tails::Memory(v) => v.get(i).copied(),
            Tails::File(f) => {
                let mut t = [0; TAIL];
                f.read_exact_at(&mut t, (i * TAIL) as u64).ok()?;
                Some(t)
            }
        }
    }

    /// Every tail, in order (`n` of them).
    fn all(&self, n: usize) -> std::io::Result<Vec<Tail>> {
        match self {
            Tails::Memory(v) => Ok(v.clone()),
            Tails::File(f) => {
                // In blocks, each read at its position (`pread`: no shared offset).
                let mut all = Vec::with_capacity(n);
                let mut block = vec![0u8; 4096 * TAIL];
                while all.len() < n {
                    let count = (n - all.len()).min(4096);
                    let bytes = &mut block[..count * TAIL];
                    f.read_exact_at(bytes, (all.len() * TAIL) as u64)?;
                    all.extend(bytes.chunks_exact(TAIL).map(|c| {
                        let mut t = [0; TAIL];
                        t.copy_from_slice(c);
                        t
                    }));
                }
                Ok(all)
            }
        }
    }
}

#[derive(Default)]
pub(crate) struct BlobTable {
    /// Sorted by id, each id once.
    sorted: Vec<Packed>,
    /// The sorted entries' id tails, in their order.
    tails: Tails,
    /// `starts[p]`: the first entry of `sorted` whose id begins with the two bytes `p`
    /// (`starts[65536] == sorted.len()`); empty while `sorted` is.
    starts: Vec<u32>,
    /// Added since the last merge, in the order given (an id may repeat, and may also be
    /// in `sorted`, which wins). Loading ends with a merge, so lookups search this only
    /// in between (linearly).
    pending: Vec<Whole>,
    /// Where the tails' file goes (the cache directory); `None`: memory.
    tails_dir: Option<PathBuf>,
}

impl BlobTable {
    /// Keep the id tails of what the next merge sorts in a file in `dir` (`None`: in
    /// memory).
    pub(crate) fn keep_tails_in(&mut self, dir: Option<PathBuf>) {
        self.tails_dir = dir;
    }

    /// Where `id` lives, to read it (the read checks the blob against `id`): confirmed
    /// against the full id only where two entries share their kept bytes.
    pub(crate) fn get(&self, id: &BlobId) -> Option<BlobLocation> {
        if let Some(i) = self.find_sorted(id, false) {
            return Some(self.sorted[i].place.location());
        }
        (self.pending.iter())
            .find(|e| e.id == *id)
            .map(|e| e.place.location())
    }

    /// Whether `id` is held, every match confirmed against the full id: a backup that
    /// finds a chunk here reuses the stored blob instead of storing the chunk.
    pub(crate) fn contains(&self, id: &BlobId) -> bool {
        self.find_sorted(id, true).is_some() || self.pending.iter().any(|e| e.id == *id)
    }

    /// How many entries it holds (each id once, after a merge).
    pub(crate) fn len(&self) -> usize {
        self.sorted.len() + self.pending.len()
    }

    /// Add `id` at `loc` unless it is already held (the first placing wins).
    pub(crate) fn insert_first(&mut self, id: BlobId, loc: BlobLocation) {
        self.pending.push(Whole {
            id,
            place: Place::new(&loc),
        });
    }

    /// Merge what was added into the sorted part: at the end of loading, so lookups
    /// need no scan.
    pub(crate) fn merge(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        let mut new = std::mem::take(&mut self.pending);
        // In place (a stable sort would take half as much memory again). Of two placings
        // of one id the one in the extent added first (the lower position) comes first,
        // and is kept: an extent lists the same blobs wherever it is listed, so that is
        // the placing added first.
        new.sort_unstable_by_key(|e| (e.id, e.place.extent_kind & !TREE, e.place.offset));
        new.dedup_by(|later, first| later.id == first.id);
        new.retain(|e| self.find_sorted(&e.id, true).is_none());
        let all = match self.sorted.is_empty() {
            true => new,
            false => match self.wholes() {
                Ok(old) => merged(old, new),
                // The sorted part's ids cannot be read back: what was added stays to be
                // scanned, and every lookup still finds it.
                Err(_) => {
                    self.pending = new;
                    return;
                }
            },
        };
        self.tails = Tails::of(&all, self.tails_dir.as_deref());
        self.starts = prefix_starts(&all);
        self.sorted = packed(all);
    }

    /// The entry holding `id` in `sorted`; with `confirm`, or where several entries
    /// share `id`'s kept bytes, only one whose tail matches too.
    fn find_sorted(&self, id: &BlobId, confirm: bool) -> Option<usize> {
        if self.starts.is_empty() {
            return None;
        }
        let p = prefix(id);
        let lo = self.starts[p] as usize;
        let bucket = &self.sorted[lo..self.starts[p + 1] as usize];
        let k = kept(id);
        let first = lo + bucket.partition_point(|e| e.kept < k);
        let same = (self.sorted[first..].iter())
            .take_while(|e| e.kept == k)
            .count();
        match same {
            0 => None,
            1 if !confirm => Some(first),
            _ => {
                let t = tail(id);
                (first..first + same).find(|&i| self.tails.get(i) == Some(t))
            }
        }
    }

    /// Every entry with its whole id, in order (at a merge, when none is pending).
    fn wholes(&self) -> std::io::Result<Vec<Whole>> {
        let all = self.iter()?.map(|(id, loc)| Whole {
            id,
            place: Place::new(&loc),
        });
        Ok(all.collect())
    }

    /// Every blob once with its whole id (the sorted part in id order, then what is not
    /// merged yet); the tails are read first, so only that can fail.
    pub(crate) fn iter(
        &self,
    ) -> std::io::Result<impl Iterator<Item = (BlobId, BlobLocation)> + '_> {
        let tails = self.tails.all(self.sorted.len())?;
        let mut p = 0;
        let sorted = (self.sorted.iter().zip(tails).enumerate()).map(move |(i, (e, t))| {
            while self.starts[p + 1] as usize <= i {
                p += 1;
            }
            (whole_id(p, &e.kept, &t), e.place.location())
        });
        let pending = (self.pending.iter().enumerate())
            .filter(|(i, e)| {
                self.find_sorted(&e.id, true).is_none()
                    && !self.pending[..*i].iter().any(|f| f.id == e.id)
            })
            .map(|(_, e)| (e.id, e.place.location()));
        Ok(sorted.chain(pending))
    }
}

/// The id of the entry with prefix `p`, kept bytes `kept` and tail `tail`.
fn whole_id(p: usize, kept: &[u8; KEPT], tail: &Tail) -> BlobId {
    let mut id = [0; 32];
    id[0] = (p >> 8) as u8;
    id[1] = p as u8;
    id[2..2 + KEPT].copy_from_slice(kept);
    id[2 + KEPT..].copy_from_slice(tail);
    id
}

/// `starts` for entries sorted by id.
fn prefix_starts(sorted: &[Whole]) -> Vec<u32> {
    let mut starts = vec![0u32; (1 << 16) + 1];
    let mut i = 0;
    for (p, start) in starts.iter_mut().enumerate() {
        while i < sorted.len() && prefix(&sorted[i].id) < p {
            i += 1;
        }
        *start = i as u32;
    }
    starts
}

/// `entries` packed, in their order, into a vector of exactly their number. Packed from
/// the back, giving the whole entries' memory back as it goes (a large vector's memory
/// is mapped apart, and shrinking it unmaps its end), so that loading peaks at about the
/// whole entries alone, not at them beside the packed ones.
fn packed(mut entries: Vec<Whole>) -> Vec<Packed> {
    const STEP: usize = 1 << 16;
    let mut packed = Vec::with_capacity(entries.len());
    while let Some(e) = entries.pop() {
        packed.push(Packed {
            kept: kept(&e.id),
            place: e.place,
        });
        if entries.len().is_multiple_of(STEP) {
            entries.shrink_to_fit();
        }
    }
    packed.reverse();
    packed
}

/// Two runs sorted by id, each id once and in neither both, into one.
fn merged(old: Vec<Whole>, new: Vec<Whole>) -> Vec<Whole> {
    let mut out = Vec::with_capacity(old.len() + new.len());
    let (mut a, mut b) = (old.into_iter().peekable(), new.into_iter().peekable());
    loop {
        let take_old = match (a.peek(), b.peek()) {
            (Some(x), Some(y)) => x.id <= y.id,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => break,
        };
        out.extend(if take_old { a.next() } else { b.next() });
    }
    out
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

    /// The same lookups whether the tails are in memory or in a file.
    fn check_against_a_map(tails_dir: Option<PathBuf>) {
        let mut table = BlobTable::default();
        table.keep_tails_in(tails_dir);
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
            assert!(table.contains(k));
        }
        assert_eq!(table.get(&[0xab; 32]), None);
        assert!(!table.contains(&[0xab; 32]));
        let seen: HashMap<BlobId, BlobLocation> = table.iter().unwrap().collect();
        assert_eq!(seen, want);
    }

    #[test]
    fn lookups_agree_with_a_map_across_merges_and_the_first_placing_wins() {
        check_against_a_map(None);
    }

    #[test]
    fn tails_in_a_file_answer_as_tails_in_memory() {
        let dir = tempfile::tempdir().unwrap();
        check_against_a_map(Some(dir.path().to_path_buf()));
        // The file is unlinked: nothing is left in the directory.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_match_of_the_kept_bytes_alone_is_no_match_for_reuse() {
        let dir = tempfile::tempdir().unwrap();
        for tails_dir in [None, Some(dir.path().to_path_buf())] {
            let held = [7u8; 32];
            // The same first 18 bytes as `held`, another tail.
            let mut other = held;
            other[31] = 8;
            let mut table = BlobTable::default();
            table.keep_tails_in(tails_dir.clone());
            table.insert_first(held, loc(1, BlobKind::Data));
            table.merge();
            assert!(table.contains(&held));
            assert!(
                !table.contains(&other),
                "a chunk is never taken for another"
            );
            // Both held: each lookup finds its own.
            table.insert_first(other, loc(2, BlobKind::Tree));
            table.merge();
            for (k, extent) in [(held, 1), (other, 2)] {
                assert_eq!(table.get(&k).map(|l| l.extent), Some(extent));
                assert!(table.contains(&k));
            }
            let mut third = held;
            third[20] = 0;
            assert!(!table.contains(&third));
            assert_eq!(table.get(&third), None);
        }
    }
}
