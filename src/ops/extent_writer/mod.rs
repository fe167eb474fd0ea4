//! Writing extents: the appender that fills, seals and codes them, and the uploads that
//! make them durable on the remotes. Shared by `backup` (new data), `delete` (the live
//! blobs it repacks), `rewrite` (new trees), `copy` and `import` (another repository's
//! history), so none imports another.

mod appender;
mod commit;
mod snapshots;
mod upload;

pub(crate) use appender::Appender;
pub(crate) use commit::{RunHeads, Tip, sealed_payload, segment_blobs};
pub(crate) use snapshots::SnapshotWriter;
pub use snapshots::{Brought, Stored};

use crate::content::{BlobId, BlobKind};

/// Default for the upload queue (`backup --upload-queue`): each queued extent holds about
/// `extent_size * (s + p) / s` bytes (28 MiB with the defaults) until every remote has it.
pub(crate) const DEFAULT_UPLOAD_QUEUE: usize = 1;

/// A blob ready to be appended to the extent log: compressed and sealed.
pub(crate) struct StoredBlob {
    pub(crate) id: BlobId,
    pub(crate) kind: BlobKind,
    pub(crate) raw_len: u32,
    pub(crate) data: Vec<u8>,
}
