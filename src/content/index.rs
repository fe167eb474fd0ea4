//! The blob index: where each blob lives (extent, offset, length). Each backup run writes
//! one encrypted segment (`index/<id>`); readers load all segments into memory.
//! The index is derived data: it can be rebuilt from the extents.

use std::collections::HashMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::ContentError;
use super::blob_table::BlobTable;
use super::{BlobId, BlobKind};
use crate::crypto::writer::{RunKeys, WriterId};
use crate::crypto::{self, ContentKey, ContentKeys};
use crate::error::Result;
use crate::extent::ExtentName;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct IndexEntry {
    pub(crate) id: BlobId,
    pub(crate) kind: BlobKind,
    /// Offset of the stored (encrypted) blob within the extent's data.
    pub(crate) offset: u32,
    /// Stored length.
    pub(crate) length: u32,
    /// Plaintext length.
    pub(crate) raw_len: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ExtentBlobs {
    pub(crate) extent: ExtentName,
    pub(crate) blobs: Vec<IndexEntry>,
}

/// One index object: the blobs of the extents written by one run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct IndexSegment {
    pub(crate) extents: Vec<ExtentBlobs>,
    /// Writers' extents an owner's segment lists (delete's consolidated one): their
    /// blobs stay under each writer run's key. Stored only in version 2 segments.
    #[serde(skip)]
    pub(crate) writers: Vec<WriterExtents>,
}

/// Extents of one writer run, listed in an owner's segment, with the run key the writer
/// sealed to the owner: the owner opens it to read them, as from the writer's segment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct WriterExtents {
    pub(crate) writer: WriterId,
    /// The run key sealed to the owner ([`crate::crypto::writer::SEALED_KEY_LEN`] bytes).
    pub(crate) sealed_key: Vec<u8>,
    pub(crate) extents: Vec<ExtentBlobs>,
}

/// An index segment with writers' extents, as stored (FORMAT.md §5.6, version 2).
#[derive(Serialize, Deserialize)]
struct SegmentV2 {
    extents: Vec<ExtentBlobs>,
    writers: Vec<WriterExtents>,
}

pub(crate) const AAD: &[u8] = b"tangle index";
/// The AAD of a version 2 segment: one that lists writers' extents.
const AAD_V2: &[u8] = b"tangle index v2";

/// A segment as the owner opened it: the keys of its own extents (`None`: the master
/// key's; a writer's run for a writer's segment), and those of each writer group.
pub(crate) struct OpenedSegment {
    pub(crate) segment: IndexSegment,
    pub(crate) keys: Option<Arc<RunKeys>>,
    /// One per `segment.writers` group, in order.
    pub(crate) groups: Vec<Arc<RunKeys>>,
}

impl IndexSegment {
    /// Every extent it lists: its own, then the writer groups'.
    pub(crate) fn all_extents(&self) -> impl Iterator<Item = &ExtentBlobs> {
        (self.extents.iter()).chain(self.writers.iter().flat_map(|g| g.extents.iter()))
    }

    /// This segment in pieces of at most `max_blobs` blobs each, in order; an extent is
    /// never split, so a piece holds more only where one extent alone does. Nothing when
    /// it lists no extent.
    pub(crate) fn split(self, max_blobs: usize) -> Vec<IndexSegment> {
        let mut pieces = Vec::new();
        let mut piece = IndexSegment::default();
        let mut blobs = 0usize;
        let mut room_for = |piece: &mut IndexSegment, n: usize, pieces: &mut Vec<_>| {
            if blobs > 0 && blobs + n > max_blobs {
                pieces.push(std::mem::take(piece));
                blobs = 0;
            }
            blobs += n;
        };
        for e in self.extents {
            room_for(&mut piece, e.blobs.len(), &mut pieces);
            piece.extents.push(e);
        }
        for group in self.writers {
            for e in group.extents {
                room_for(&mut piece, e.blobs.len(), &mut pieces);
                match piece.writers.last_mut() {
                    Some(g) if g.writer == group.writer && g.sealed_key == group.sealed_key => {
                        g.extents.push(e)
                    }
                    _ => piece.writers.push(WriterExtents {
                        writer: group.writer,
                        sealed_key: group.sealed_key.clone(),
                        extents: vec![e],
                    }),
                }
            }
        }
        if !piece.extents.is_empty() || !piece.writers.is_empty() {
            pieces.push(piece);
        }
        pieces
    }

    /// Version 1 (today's layout) unless it lists writers' extents.
    pub(crate) fn encrypt(&self, key: &(impl ContentKeys + ?Sized)) -> Result<Vec<u8>> {
        let (plain, aad) = match self.writers.is_empty() {
            true => (postcard::to_stdvec(self)?, AAD),
            false => {
                let v2 = SegmentV2 {
                    extents: self.extents.clone(),
                    writers: self.writers.clone(),
                };
                (postcard::to_stdvec(&v2)?, AAD_V2)
            }
        };
        let compressed = zstd::bulk::compress(&plain, 3).map_err(ContentError::Compress)?;
        let mut framed = (plain.len() as u32).to_le_bytes().to_vec();
        framed.extend(compressed);
        crypto::seal(key.encryption(), aad, &framed)
    }

    pub(crate) fn decrypt(
        key: &(impl ContentKeys + ?Sized),
        sealed: &[u8],
    ) -> Result<IndexSegment> {
        let (framed, v2) = match crypto::open(key.encryption(), AAD, sealed) {
            Ok(framed) => (framed, false),
            Err(_) => (crypto::open(key.encryption(), AAD_V2, sealed)?, true),
        };
        if framed.len() < 4 {
            return Err(ContentError::IndexTruncated.into());
        }
        let len = u32::from_le_bytes([framed[0], framed[1], framed[2], framed[3]]) as usize;
        let plain = super::blob::decompress_bounded(&framed[4..], len)
            .map_err(ContentError::IndexDecompress)?;
        if !v2 {
            return Ok(postcard::from_bytes(&plain).map_err(ContentError::Malformed)?);
        }
        let v2: SegmentV2 = postcard::from_bytes(&plain).map_err(ContentError::Malformed)?;
        Ok(IndexSegment {
            extents: v2.extents,
            writers: v2.writers,
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlobLocation {
    /// Position in [`Index::extents`].
    pub(crate) extent: u32,
    pub kind: BlobKind,
    pub offset: u32,
    pub length: u32,
    pub raw_len: u32,
}

/// All known blobs, in memory.
#[derive(Default)]
pub struct Index {
    extents: Vec<ExtentName>,
    extent_pos: HashMap<ExtentName, u32>,
    /// The content keys of each extent's blobs (by position, as `extents`) where they
    /// are not the master key's: a writer's run key and id key, from the segment that
    /// first placed the extent.
    extent_keys: Vec<Option<Arc<RunKeys>>>,
    blobs: BlobTable,
}

impl Index {
    /// Add a segment of the owner's (blobs under the master key).
    pub(crate) fn add_segment(&mut self, seg: &IndexSegment) {
        self.add_extents(&seg.extents, None)
    }

    /// Add a segment the owner opened, each extent with its keys.
    pub(crate) fn add_opened(&mut self, opened: &OpenedSegment) {
        self.add_extents(&opened.segment.extents, opened.keys.clone());
        for (group, keys) in opened.segment.writers.iter().zip(&opened.groups) {
            self.add_extents(&group.extents, Some(keys.clone()));
        }
    }

    /// Add extents whose blobs are under `keys` (a writer's run; `None`: the owner's).
    pub(crate) fn add_extents(&mut self, extents: &[ExtentBlobs], keys: Option<Arc<RunKeys>>) {
        for e in extents {
            let pos = *self.extent_pos.entry(e.extent).or_insert_with(|| {
                self.extents.push(e.extent);
                self.extent_keys.push(keys.clone());
                (self.extents.len() - 1) as u32
            });
            for b in &e.blobs {
                let loc = BlobLocation {
                    extent: pos,
                    kind: b.kind,
                    offset: b.offset,
                    length: b.length,
                    raw_len: b.raw_len,
                };
                self.blobs.insert_first(b.id, loc);
            }
        }
    }

    /// All segments are added: pack what was added into the compact table.
    pub(crate) fn finish_loading(&mut self) {
        self.blobs.merge();
    }

    /// Keep the blob ids' last bytes in an unlinked file in `dir` (the cache directory)
    /// once loading ends, not in memory (see `blob_table`); `None`: in memory.
    pub(crate) fn keep_id_tails_in(&mut self, dir: Option<std::path::PathBuf>) {
        self.blobs.keep_tails_in(dir);
    }

    /// How many blobs it holds.
    pub(crate) fn len(&self) -> usize {
        self.blobs.len()
    }

    /// Where `id` is stored, to read it: a read checks the blob's keyed hash against
    /// `id`, which confirms the match (only the first 18 bytes of the id are in memory;
    /// another stored id sharing them is one chance in 2^144 a lookup). To reuse a blob
    /// without reading it, ask [`Index::contains`].
    pub(crate) fn get(&self, id: &BlobId) -> Option<(ExtentName, BlobLocation)> {
        self.blobs
            .get(id)
            .map(|loc| (self.extents[loc.extent as usize], loc))
    }

    /// The content keys of the blob at `loc`, if they are not the master key's.
    pub(crate) fn keys_of(&self, loc: &BlobLocation) -> Option<&ContentKey> {
        Some(&self.extent_keys.get(loc.extent as usize)?.as_ref()?.content)
    }

    /// The writer run whose keys `extent`'s blobs are under (`None`: the master key's).
    pub(crate) fn writer_run_of(&self, extent: &ExtentName) -> Option<&Arc<RunKeys>> {
        let &p = self.extent_pos.get(extent)?;
        self.extent_keys.get(p as usize)?.as_ref()
    }

    /// Whether `extent`'s blobs are under a writer's keys, not the master key's.
    pub(crate) fn written_by_writer(&self, extent: &ExtentName) -> bool {
        self.writer_run_of(extent).is_some()
    }

    /// Whether `id` is stored, confirmed against the whole id (so a blob found here may
    /// be reused for a chunk with that id). [`Index::get`] is for reading the blob.
    pub(crate) fn contains(&self, id: &BlobId) -> bool {
        self.blobs.contains(id)
    }

    pub(crate) fn extents(&self) -> &[ExtentName] {
        &self.extents
    }

    /// Every blob, with its whole id (read back from where the ids' last bytes are kept,
    /// which is all that can fail).
    pub fn iter(&self) -> Result<impl Iterator<Item = (BlobId, ExtentName, BlobLocation)> + '_> {
        let blobs = (self.blobs.iter()).map_err(|e| {
            crate::error::Error::fatal(format!("reading the loaded index's blob ids back: {e}"))
        })?;
        Ok(blobs.map(|(id, loc)| (id, self.extents[loc.extent as usize], loc)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crypto::MasterKey;

    #[test]
    fn segment_round_trip_and_lookup() {
        let key = MasterKey::generate().unwrap();
        let seg = IndexSegment {
            writers: Vec::new(),
            extents: vec![ExtentBlobs {
                extent: ExtentName([5; 32]),
                blobs: vec![IndexEntry {
                    id: [1; 32],
                    kind: BlobKind::Tree,
                    offset: 10,
                    length: 20,
                    raw_len: 30,
                }],
            }],
        };
        let sealed = seg.encrypt(&key).unwrap();
        let back = IndexSegment::decrypt(&key, &sealed).unwrap();
        assert_eq!(back, seg);
        assert!(IndexSegment::decrypt(&key, &sealed[..sealed.len() - 1]).is_err());
        let mut idx = Index::default();
        idx.add_segment(&back);
        let (ext, loc) = idx.get(&[1; 32]).unwrap();
        assert_eq!(ext, ExtentName([5; 32]));
        assert_eq!(
            (loc.offset, loc.length, loc.raw_len, loc.kind),
            (10, 20, 30, BlobKind::Tree)
        );
        assert!(idx.get(&[2; 32]).is_none());
    }

    #[test]
    fn a_split_keeps_every_extent_in_order_and_bounds_each_piece() {
        let extent = |e: u8, n: usize| ExtentBlobs {
            extent: ExtentName([e; 32]),
            blobs: (0..n)
                .map(|i| IndexEntry {
                    id: [e ^ i as u8; 32],
                    kind: BlobKind::Data,
                    offset: i as u32,
                    length: 1,
                    raw_len: 1,
                })
                .collect(),
        };
        let seg = IndexSegment {
            extents: vec![extent(1, 3), extent(2, 3), extent(3, 9), extent(4, 1)],
            writers: vec![WriterExtents {
                writer: [9; 16],
                sealed_key: vec![7; 80],
                extents: vec![extent(5, 2), extent(6, 2), extent(7, 2)],
            }],
        };
        let pieces = seg.clone().split(6);
        let sizes: Vec<usize> = (pieces.iter())
            .map(|p| p.all_extents().map(|e| e.blobs.len()).sum())
            .collect();
        // An extent of 9 blobs is a piece of its own; the writer group is split with its
        // key on each part.
        assert_eq!(sizes, vec![6, 9, 5, 2]);
        let names = |s: &IndexSegment| s.all_extents().map(|e| e.extent).collect::<Vec<_>>();
        let all: Vec<ExtentName> = pieces.iter().flat_map(names).collect();
        assert_eq!(all, names(&seg));
        for p in &pieces {
            assert!(
                p.writers
                    .iter()
                    .all(|g| g.writer == [9; 16] && g.sealed_key == [7; 80])
            );
        }
        assert_eq!(seg.clone().split(1 << 20), vec![seg]);
        assert!(IndexSegment::default().split(6).is_empty());
    }

    #[test]
    fn a_segment_with_writer_groups_is_version_2_and_round_trips() {
        let key = MasterKey::generate().unwrap();
        let blobs = |e: u8| ExtentBlobs {
            extent: ExtentName([e; 32]),
            blobs: vec![IndexEntry {
                id: [e; 32],
                kind: BlobKind::Data,
                offset: 0,
                length: 8,
                raw_len: 8,
            }],
        };
        let plain = IndexSegment {
            extents: vec![blobs(1)],
            writers: Vec::new(),
        };
        let with_writers = IndexSegment {
            extents: vec![blobs(1)],
            writers: vec![WriterExtents {
                writer: [9; 16],
                sealed_key: vec![7; 80],
                extents: vec![blobs(2), blobs(3)],
            }],
        };
        // Without writer groups, exactly today's layout (the version 1 AAD opens it).
        let v1 = plain.encrypt(&key).unwrap();
        let framed = crypto::open(&key.encryption, AAD, &v1).unwrap();
        assert!(!framed.is_empty());
        assert_eq!(IndexSegment::decrypt(&key, &v1).unwrap(), plain);
        // With them: only the version 2 AAD opens it, and the groups come back.
        let v2 = with_writers.encrypt(&key).unwrap();
        assert!(crypto::open(&key.encryption, AAD, &v2).is_err());
        let back = IndexSegment::decrypt(&key, &v2).unwrap();
        assert_eq!(back, with_writers);
        let all: Vec<ExtentName> = back.all_extents().map(|e| e.extent).collect();
        assert_eq!(
            all,
            vec![
                ExtentName([1; 32]),
                ExtentName([2; 32]),
                ExtentName([3; 32])
            ]
        );
        assert!(IndexSegment::decrypt(&MasterKey::generate().unwrap(), &v2).is_err());
    }
}
