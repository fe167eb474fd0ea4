//! The blob index: where each blob lives (extent, offset, length). Each backup run writes
//! one encrypted segment (`index/<id>`); readers load all segments into memory.
//! The index is derived data: it can be rebuilt from the extents.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::ContentError;
use super::{BlobId, BlobKind};
use crate::crypto::{self, MasterKey};
use crate::error::Result;
use crate::extent::ExtentName;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndexEntry {
    pub id: BlobId,
    pub kind: BlobKind,
    /// Offset of the stored (encrypted) blob within the extent's data.
    pub offset: u32,
    /// Stored length.
    pub length: u32,
    /// Plaintext length.
    pub raw_len: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExtentBlobs {
    pub extent: ExtentName,
    pub blobs: Vec<IndexEntry>,
}

/// One index object: the blobs of the extents written by one run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndexSegment {
    pub extents: Vec<ExtentBlobs>,
}

pub(crate) const AAD: &[u8] = b"tangle index";

impl IndexSegment {
    pub fn encrypt(&self, key: &MasterKey) -> Result<Vec<u8>> {
        let plain = postcard::to_stdvec(self)?;
        let compressed = zstd::bulk::compress(&plain, 3).map_err(ContentError::Compress)?;
        let mut framed = (plain.len() as u32).to_le_bytes().to_vec();
        framed.extend(compressed);
        crypto::seal(&key.encryption, AAD, &framed)
    }

    pub fn decrypt(key: &MasterKey, sealed: &[u8]) -> Result<IndexSegment> {
        let framed = crypto::open(&key.encryption, AAD, sealed)?;
        if framed.len() < 4 {
            return Err(ContentError::IndexTruncated.into());
        }
        let len = u32::from_le_bytes([framed[0], framed[1], framed[2], framed[3]]) as usize;
        let plain = super::blob::decompress_bounded(&framed[4..], len)
            .map_err(ContentError::IndexDecompress)?;
        Ok(postcard::from_bytes(&plain).map_err(ContentError::Malformed)?)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlobLocation {
    /// Position in [`Index::extents`].
    pub extent: u32,
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
    blobs: HashMap<BlobId, BlobLocation>,
}

impl Index {
    pub fn add_segment(&mut self, seg: &IndexSegment) {
        for e in &seg.extents {
            let pos = *self.extent_pos.entry(e.extent).or_insert_with(|| {
                self.extents.push(e.extent);
                (self.extents.len() - 1) as u32
            });
            for b in &e.blobs {
                self.blobs.entry(b.id).or_insert(BlobLocation {
                    extent: pos,
                    kind: b.kind,
                    offset: b.offset,
                    length: b.length,
                    raw_len: b.raw_len,
                });
            }
        }
    }

    pub fn get(&self, id: &BlobId) -> Option<(ExtentName, BlobLocation)> {
        self.blobs
            .get(id)
            .map(|loc| (self.extents[loc.extent as usize], *loc))
    }

    pub fn contains(&self, id: &BlobId) -> bool {
        self.blobs.contains_key(id)
    }

    pub fn len(&self) -> usize {
        self.blobs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.blobs.is_empty()
    }

    pub fn extents(&self) -> &[ExtentName] {
        &self.extents
    }

    pub fn iter(&self) -> impl Iterator<Item = (&BlobId, ExtentName, &BlobLocation)> {
        self.blobs
            .iter()
            .map(|(id, loc)| (id, self.extents[loc.extent as usize], loc))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segment_round_trip_and_lookup() {
        let key = MasterKey::generate().unwrap();
        let seg = IndexSegment {
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
}
