//! The content layer (needs the password): chunking, blobs, trees, the blob index and
//! snapshot records. Everything here is encrypted before it reaches the extent log.

pub mod blob;
mod blob_table;
pub mod chunker;
mod error;
pub(crate) mod fsmeta;
pub(crate) mod index;
pub(crate) mod path_table;
pub(crate) mod snapshot;
pub(crate) mod tree;

pub(crate) use blob::decode_blob_then;
pub use blob::{BlobKind, decode_blob, encode_blob};
pub use chunker::ChunkerParams;
pub(crate) use error::ContentError;
pub use index::Index;
pub(crate) use index::{IndexSegment, OpenedSegment, WriterExtents};
pub(crate) use path_table::{FileRecord, PathTable};
pub use snapshot::Snapshot;
pub use tree::{Node, NodeKind, Tree};

/// Keyed BLAKE3 of a blob's plaintext.
pub type BlobId = [u8; 32];
