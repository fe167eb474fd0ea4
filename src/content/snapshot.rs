//! Snapshot records: what was backed up, when, from where, and the root tree.

use serde::{Deserialize, Serialize};

use super::{BlobId, ContentError};
use crate::crypto::{self, ContentKeys};
use crate::error::Result;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot {
    /// Nanoseconds since the Unix epoch (UTC).
    pub time_ns: i64,
    /// Root tree: mirrors the file system from `/` down to each backed-up path.
    pub tree: BlobId,
    /// Absolute source paths as given (after normalisation).
    pub paths: Vec<String>,
    pub host: String,
    pub(crate) user: String,
    pub tags: Vec<String>,
    /// Id of the snapshot this one was made relative to (for unchanged-file detection).
    pub(crate) parent: Option<String>,
    pub(crate) program: String,
    pub(crate) summary: SnapshotSummary,
    /// The writer that signed it (`None`: the owner). Not in the payload: the reader
    /// sets it from the envelope.
    #[serde(skip)]
    pub writer: Option<crate::crypto::writer::WriterId>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct SnapshotSummary {
    pub(crate) files: u64,
    pub(crate) dirs: u64,
    /// Sum of file sizes in the snapshot.
    pub(crate) bytes: u64,
    pub(crate) files_new: u64,
    pub(crate) files_changed: u64,
    pub(crate) files_unchanged: u64,
    pub(crate) bytes_added: u64,
}

pub(crate) const AAD: &[u8] = b"tangle snapshot";

impl Snapshot {
    pub(crate) fn encrypt(&self, key: &(impl ContentKeys + ?Sized)) -> Result<Vec<u8>> {
        crypto::seal(key.encryption(), AAD, &postcard::to_stdvec(self)?)
    }

    pub(crate) fn decrypt(key: &(impl ContentKeys + ?Sized), sealed: &[u8]) -> Result<Snapshot> {
        Ok(
            postcard::from_bytes(&crypto::open(key.encryption(), AAD, sealed)?)
                .map_err(ContentError::Malformed)?,
        )
    }

    pub(crate) fn time(&self) -> chrono::DateTime<chrono::Local> {
        chrono::DateTime::from_timestamp_nanos(self.time_ns).with_timezone(&chrono::Local)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crypto::MasterKey;

    #[test]
    fn round_trip_and_rejection() {
        let key = MasterKey::generate().unwrap();
        let s = Snapshot {
            time_ns: 1_700_000_000_123_456_789,
            tree: [7; 32],
            paths: vec!["/home/u".into()],
            host: "h".into(),
            user: "u".into(),
            tags: vec!["t".into()],
            parent: None,
            program: "tangle 0.1.0".into(),
            summary: SnapshotSummary::default(),
            writer: None,
        };
        let sealed = s.encrypt(&key).unwrap();
        assert_eq!(Snapshot::decrypt(&key, &sealed).unwrap(), s);
        assert!(Snapshot::decrypt(&key, &sealed[1..]).is_err());
        assert!(Snapshot::decrypt(&MasterKey::generate().unwrap(), &sealed).is_err());
    }
}
