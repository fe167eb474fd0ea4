//! The content layer (needs the password): chunking, blobs, trees, the blob index and
//! snapshot records. Everything here is encrypted before it reaches the extent log.

pub mod blob;
pub mod chunker;
mod error;
pub mod fsmeta;
pub mod index;
pub mod path_table;
pub mod snapshot;
pub mod tree;

pub use blob::{BlobKind, decode_blob, decode_blob_then, encode_blob};
pub use chunker::ChunkerParams;
pub use error::ContentError;
pub use index::{BlobLocation, Index, IndexSegment, OpenedSegment, WriterExtents};
pub use path_table::{FileRecord, PathTable};
pub use snapshot::Snapshot;
pub use tree::{Node, NodeKind, Tree};

/// Keyed BLAKE3 of a blob's plaintext.
pub type BlobId = [u8; 32];

pub fn short_hex(id: &[u8]) -> String {
    hex::encode(&id[..4])
}
