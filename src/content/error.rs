//! The content layer's own error type: blobs, trees, index segments and snapshots that do
//! not decode, and the few local failures of chunking and restoring file metadata. It
//! converts into the crate's [`Error`] in one place ([`ContentError::kind`]) and stays
//! reachable as its `source()`.

use std::path::PathBuf;

use crate::error::{Kind, LayerError};

#[derive(Debug, thiserror::Error)]
pub(crate) enum ContentError {
    /// A stored blob whose compressed bytes do not decompress.
    #[error("blob does not decompress: {0}")]
    BlobDecompress(#[source] std::io::Error),
    /// A stored blob with a compression flag we do not know.
    #[error("blob has an unknown compression flag")]
    UnknownCompression,
    /// A blob whose plaintext hashes to another id than the one it was asked for by.
    #[error("blob content does not match its id")]
    BlobIdMismatch,
    /// A tree blob whose nodes are not in strictly increasing name order.
    #[error("tree is not sorted by name")]
    TreeNotSorted,
    /// A tree node named "", ".", ".." or with a `/`.
    #[error("tree contains an invalid file name")]
    TreeInvalidName,
    /// A tree blob of a version we do not know.
    #[error("unknown tree version {0}")]
    TreeVersion(u8),
    #[error("empty tree blob")]
    EmptyTree,
    /// A tree whose extended attributes go past the per-node limits (`content/tree.rs`).
    #[error(
        "tree has extended attributes beyond the limits (names of 1 to 255 bytes without NUL, \
         values of at most 64 KiB, at most 1024 attributes and 1 MiB per entry)"
    )]
    TreeXattrLimits,
    /// A version 2 tree without exactly one attribute list per node.
    #[error("tree's extended attribute lists do not match its entries")]
    TreeXattrCount,
    /// An index segment too short for its length prefix.
    #[error("index segment is truncated")]
    IndexTruncated,
    /// An index segment whose compressed bytes do not decompress.
    #[error("index segment does not decompress: {0}")]
    IndexDecompress(#[source] std::io::Error),
    /// Compressing an index segment failed.
    #[error("zstd: {0}")]
    Compress(#[source] std::io::Error),
    /// A postcard encoding that does not decode (a tree, snapshot or index segment).
    #[error("malformed encoding: {0}")]
    Malformed(#[source] postcard::Error),
    /// Chunker sizes in the config outside the accepted ranges.
    #[error("config has invalid chunker sizes")]
    ChunkerSizes,
    /// A path that cannot be passed to the operating system.
    #[error("path contains NUL: {}", path.display())]
    PathHasNul { path: PathBuf },
    /// `create_special` called for a regular file or a directory (a bug in the caller).
    #[error("internal: create_special on a file or directory")]
    NotSpecial,
}

impl LayerError for ContentError {
    /// What the error means to the layers above: the one mapping to [`Kind`].
    fn kind(&self) -> Kind {
        match self {
            ContentError::BlobDecompress(_)
            | ContentError::UnknownCompression
            | ContentError::BlobIdMismatch
            | ContentError::TreeNotSorted
            | ContentError::TreeInvalidName
            | ContentError::TreeVersion(_)
            | ContentError::EmptyTree
            | ContentError::TreeXattrLimits
            | ContentError::TreeXattrCount
            | ContentError::IndexTruncated
            | ContentError::IndexDecompress(_)
            | ContentError::Malformed(_)
            | ContentError::ChunkerSizes => Kind::Corrupt,
            ContentError::Compress(_)
            | ContentError::PathHasNul { .. }
            | ContentError::NotSpecial => Kind::Fatal,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{Error, typed_source};

    #[test]
    fn converts_once_and_keeps_the_variant() {
        let e: Error = ContentError::TreeVersion(7).into();
        assert_eq!(e.kind(), Kind::Corrupt);
        assert_eq!(e.message(), "unknown tree version 7");
        assert!(matches!(
            typed_source::<ContentError>(&e),
            ContentError::TreeVersion(7)
        ));
        let e: Error = ContentError::NotSpecial.into();
        assert_eq!(e.kind(), Kind::Fatal);
    }
}
