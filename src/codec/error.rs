//! The codec's own error type: unsafe coding parameters, and encoding or reconstruction
//! that cannot be done. It converts into the crate's [`Error`] in one place
//! ([`CodecError::kind`]) and stays reachable as its `source()`.

use crate::error::{Kind, LayerError};

#[derive(Debug, thiserror::Error)]
pub(crate) enum CodecError {
    /// Fewer than 2 remotes: losing one would lose everything.
    #[error(
        "a repository needs at least 2 remotes to survive the loss of one (give --remote several times)"
    )]
    TooFewRemotes,
    /// Zero data or zero parity shards.
    #[error("data and parity shards must each be at least 1")]
    ZeroShards,
    /// More shards per codeword than Reed-Solomon over GF(2^8) allows.
    #[error("at most 255 shards per codeword (data + pointers + parity)")]
    TooManyShards,
    /// Parameters under which losing one remote loses data.
    #[error(
        "{data} data + {pointers} pointer + {parity} parity shards cannot survive the loss of one of {remotes} remotes: \
         each remote would hold more than {parity} shards of a codeword (need data + pointers + parity <= parity x remotes)"
    )]
    UnsafeCoding {
        data: usize,
        pointers: usize,
        parity: usize,
        remotes: usize,
    },
    /// Encoder inputs that are empty, unequal or unaligned (a bug in the caller).
    #[error("codec: inputs must be non-empty, equally long and 64-byte aligned")]
    BadInputs,
    /// Fewer shards than inputs survive: the codeword cannot be reconstructed.
    #[error("too many shards lost: {present} of {total} present, {needed} needed")]
    TooManyLost {
        present: usize,
        total: usize,
        needed: usize,
    },
    /// The Reed-Solomon library refused.
    #[error("Reed-Solomon: {0}")]
    ReedSolomon(#[source] reed_solomon_simd::Error),
    /// The decoder finished without one of the shards it was asked for.
    #[error("Reed-Solomon decoder did not restore a shard")]
    NotRestored,
}

impl LayerError for CodecError {
    /// What the error means to the layers above: the one mapping to [`Kind`].
    fn kind(&self) -> Kind {
        match self {
            CodecError::TooFewRemotes
            | CodecError::ZeroShards
            | CodecError::TooManyShards
            | CodecError::UnsafeCoding { .. } => Kind::Usage,
            CodecError::TooManyLost { .. } => Kind::Corrupt,
            CodecError::BadInputs | CodecError::ReedSolomon(_) | CodecError::NotRestored => {
                Kind::Fatal
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{Error, typed_source};

    #[test]
    fn converts_once_and_keeps_the_variant() {
        let e: Error = CodecError::TooManyLost {
            present: 3,
            total: 7,
            needed: 4,
        }
        .into();
        assert_eq!(e.kind(), Kind::Corrupt);
        assert_eq!(
            e.message(),
            "too many shards lost: 3 of 7 present, 4 needed"
        );
        assert!(matches!(
            typed_source::<CodecError>(&e),
            CodecError::TooManyLost { needed: 4, .. }
        ));
        let e: Error = CodecError::UnsafeCoding {
            data: 4,
            pointers: 2,
            parity: 3,
            remotes: 2,
        }
        .into();
        assert_eq!(e.kind(), Kind::Usage);
        assert!(
            e.message()
                .starts_with("4 data + 2 pointer + 3 parity shards")
        );
    }
}
