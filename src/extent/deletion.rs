//! Deletion records: the owner's signed statement "these snapshots, extents and index
//! segments were deleted on purpose", at `deletions/<content id>`. They enter the
//! owner's history like heads: `verify` tells a deleted object from a lost one (and a
//! chain that runs through a deleted extent from a broken one), `repair` never copies
//! back anything a record names and removes it from a remote that missed the delete, and
//! a second `delete` finishes removing what an interrupted one named. Readable with the
//! public key alone (nothing in it is secret: ids are content hashes, extent names are
//! verifiers).

use serde::{Deserialize, Serialize};

use super::{ExtentError, ExtentName};
use crate::crypto::envelope::{self, ObjectKind};
use crate::crypto::{OwnerPublicKey, Signer};
use crate::error::Result;

/// Where a deleted extent sat in its writer's chain, so a chain that runs through it
/// still verifies: the next extent's `start_verifier` must equal `name` (the final
/// verifier) and its `seq` must be `seq + 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeletedExtent {
    pub(crate) name: ExtentName,
    pub(crate) writer: [u8; 16],
    pub(crate) seq: u64,
    /// The extent it continued (`None` at a chain's start, and in first-layout records),
    /// so a chain can be walked through it.
    pub(crate) prev: Option<ExtentName>,
}

/// A deleted extent in a first-layout record.
#[derive(Deserialize)]
struct DeletedExtentV1 {
    name: ExtentName,
    writer: [u8; 16],
    seq: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deletion {
    pub repo_id: [u8; 16],
    /// Seconds since the epoch (UTC).
    pub time: i64,
    /// Snapshot ids (content ids of `snapshots/<id>`).
    pub snapshots: Vec<String>,
    pub extents: Vec<DeletedExtent>,
    /// Index segment ids replaced by a consolidated one.
    pub index: Vec<String>,
    /// Heads that commit nothing live any more (writer, seq), replaced by the deleting
    /// run's own head (history consolidation).
    pub heads: Vec<([u8; 16], u64)>,
    /// Key file ids (`keys/<id>`) removed by `key remove`.
    pub keys: Vec<String>,
}

/// The first layout of a record (before `heads` and `keys`): still read, never written.
#[derive(Deserialize)]
struct DeletionV1 {
    repo_id: [u8; 16],
    time: i64,
    snapshots: Vec<String>,
    extents: Vec<DeletedExtentV1>,
    index: Vec<String>,
}

/// Bounds on a record's lists, checked on decode (a record is signed, but a bug must not
/// make a reader allocate without limit either).
const MAX_ENTRIES: usize = 1 << 20;

impl Deletion {
    pub fn to_object(&self, signer: &Signer) -> Result<Vec<u8>> {
        Ok(envelope::seal(
            ObjectKind::Deletion,
            &postcard::to_stdvec(self)?,
            signer,
        ))
    }

    /// Parse and check the signature; the caller checks the content address.
    pub(crate) fn from_object(bytes: &[u8], owner: &OwnerPublicKey) -> Result<Deletion> {
        Deletion::from_payload(envelope::open(ObjectKind::Deletion, bytes, owner)?)
    }

    /// Parse a record's payload (either layout) and check its lists; no signature check.
    pub(crate) fn from_payload(payload: &[u8]) -> Result<Deletion> {
        // A first-layout payload ends where the new fields would begin, so it never
        // parses as the current layout; the current one is tried first and must be whole.
        let d = match postcard::take_from_bytes::<Deletion>(payload) {
            Ok((d, [])) => d,
            _ => {
                let (v1, rest) = postcard::take_from_bytes::<DeletionV1>(payload)
                    .map_err(ExtentError::Malformed)?;
                if !rest.is_empty() {
                    return Err(ExtentError::Inconsistent {
                        what: "deletion record length",
                    }
                    .into());
                }
                Deletion {
                    repo_id: v1.repo_id,
                    time: v1.time,
                    snapshots: v1.snapshots,
                    extents: (v1.extents.into_iter())
                        .map(|e| DeletedExtent {
                            name: e.name,
                            writer: e.writer,
                            seq: e.seq,
                            prev: None,
                        })
                        .collect(),
                    index: v1.index,
                    heads: Vec::new(),
                    keys: Vec::new(),
                }
            }
        };
        let ids_ok = |ids: &[String]| {
            ids.len() <= MAX_ENTRIES && ids.iter().all(|s| s.len() == 64 && is_lower_hex(s))
        };
        if !ids_ok(&d.snapshots)
            || !ids_ok(&d.index)
            || !ids_ok(&d.keys)
            || d.extents.len() > MAX_ENTRIES
            || d.heads.len() > MAX_ENTRIES
        {
            return Err(ExtentError::Inconsistent {
                what: "deletion record lists",
            }
            .into());
        }
        Ok(d)
    }

    /// Every object path the record names (certificates, snapshots, index segments,
    /// heads, keys; shards are named by their extents).
    #[cfg(any(test, feature = "testing"))]
    pub(crate) fn metadata_paths(&self) -> impl Iterator<Item = String> + '_ {
        (self.snapshots.iter().map(|s| format!("snapshots/{s}")))
            .chain(self.index.iter().map(|s| format!("index/{s}")))
            .chain(self.extents.iter().map(|e| e.name.cert_path()))
            .chain(self.heads.iter().map(|(w, seq)| head_path(w, *seq)))
            .chain(self.keys.iter().map(|k| format!("keys/{k}")))
    }
}

/// Where the head of `writer` numbered `seq` lives (as `Head::path`).
pub fn head_path(writer: &[u8; 16], seq: u64) -> String {
    format!("heads/{}/{seq:016x}", hex::encode(writer))
}

/// Everything the authentic deletion records of a repository name, together.
#[derive(Clone, Debug, Default)]
pub struct Deletions {
    pub(crate) snapshots: std::collections::HashSet<String>,
    pub(crate) extents: std::collections::HashMap<ExtentName, DeletedExtent>,
    pub(crate) index: std::collections::HashSet<String>,
    /// Head paths (`heads/<writer>/<seq>`).
    pub(crate) heads: std::collections::HashSet<String>,
    pub(crate) keys: std::collections::HashSet<String>,
}

impl Deletions {
    pub(crate) fn add(&mut self, d: &Deletion) {
        self.snapshots.extend(d.snapshots.iter().cloned());
        self.index.extend(d.index.iter().cloned());
        self.extents.extend(d.extents.iter().map(|e| (e.name, *e)));
        self.heads
            .extend(d.heads.iter().map(|(w, seq)| head_path(w, *seq)));
        self.keys.extend(d.keys.iter().cloned());
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.snapshots.is_empty()
            && self.extents.is_empty()
            && self.index.is_empty()
            && self.heads.is_empty()
            && self.keys.is_empty()
    }

    /// Whether a record names the object at `path` (a certificate, a shard of a deleted
    /// extent, a snapshot or an index segment).
    pub(crate) fn names(&self, path: &str) -> bool {
        let mut parts = path.split('/');
        match (parts.next(), parts.next()) {
            (Some("snapshots"), Some(id)) => self.snapshots.contains(id),
            (Some("index"), Some(id)) => self.index.contains(id),
            (Some("keys"), Some(id)) => self.keys.contains(id),
            (Some("heads"), Some(_)) => self.heads.contains(path),
            (Some("extents") | Some("shards"), Some(name)) => {
                ExtentName::parse(name).is_ok_and(|n| self.extents.contains_key(&n))
            }
            _ => false,
        }
    }
}

fn is_lower_hex(s: &str) -> bool {
    s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_rejection() {
        let s = Signer::from_seed(&[4; 32]);
        let d = Deletion {
            repo_id: [1; 16],
            time: 5,
            snapshots: vec!["a".repeat(64)],
            extents: vec![DeletedExtent {
                name: ExtentName([2; 32]),
                writer: [3; 16],
                seq: 9,
                prev: Some(ExtentName([7; 32])),
            }],
            index: vec![],
            heads: vec![([6; 16], 3)],
            keys: vec!["b".repeat(64)],
        };
        let obj = d.to_object(&s).unwrap();
        assert_eq!(Deletion::from_object(&obj, &s.public()).unwrap(), d);
        let other = Signer::from_seed(&[5; 32]);
        assert!(Deletion::from_object(&obj, &other.public()).is_err());
        let bad = Deletion {
            snapshots: vec!["../config".into()],
            ..d.clone()
        };
        assert!(Deletion::from_object(&bad.to_object(&s).unwrap(), &s.public()).is_err());
        assert_eq!(d.metadata_paths().count(), 4);
        let mut all = Deletions::default();
        all.add(&d);
        assert!(all.names(&format!("heads/{}/{:016x}", hex::encode([6u8; 16]), 3)));
        assert!(all.names(&format!("keys/{}", "b".repeat(64))));
        assert!(!all.names(&format!("heads/{}/{:016x}", hex::encode([6u8; 16]), 4)));
    }

    /// A record written before `heads` and `keys` existed still reads (bytes pinned).
    #[test]
    fn first_layout_still_reads() {
        #[derive(Serialize)]
        struct V1 {
            repo_id: [u8; 16],
            time: i64,
            snapshots: Vec<String>,
            extents: Vec<DeletedExtent>,
            index: Vec<String>,
        }
        let s = Signer::from_seed(&[4; 32]);
        let v1 = V1 {
            repo_id: [1; 16],
            time: 5,
            snapshots: vec!["a".repeat(64)],
            extents: vec![],
            index: vec!["c".repeat(64)],
        };
        let obj = envelope::seal(ObjectKind::Deletion, &postcard::to_stdvec(&v1).unwrap(), &s);
        let d = Deletion::from_object(&obj, &s.public()).unwrap();
        assert_eq!(d.snapshots, v1.snapshots);
        assert_eq!(d.index, v1.index);
        assert!(d.heads.is_empty() && d.keys.is_empty());
        // Trailing junk after either layout is refused.
        let mut long = postcard::to_stdvec(&v1).unwrap();
        long.extend_from_slice(&[0, 0, 0]);
        let obj = envelope::seal(ObjectKind::Deletion, &long, &s);
        assert!(Deletion::from_object(&obj, &s.public()).is_err());
    }
}
