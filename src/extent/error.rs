//! The extent layer's own error type: certificates and heads that do not decode, are
//! inconsistent, or are stored under another name than their own. It converts into the
//! crate's [`Error`] in one place ([`ExtentError::kind`]) and stays reachable as its
//! `source()`.

use super::ExtentName;
use crate::error::{Kind, LayerError};

#[derive(Debug, thiserror::Error)]
pub(crate) enum ExtentError {
    /// An extent name that is not 64 hex digits.
    #[error("invalid extent name {name:?}")]
    InvalidName {
        name: String,
        #[source]
        source: hex::FromHexError,
    },
    /// A certificate whose fields contradict each other (`what` says which).
    #[error("extent certificate is inconsistent: {what}")]
    Inconsistent { what: &'static str },
    /// A valid certificate stored under the name of another extent.
    #[error(
        "certificate for extent {} is stored under the name {}",
        certified.short(),
        stored_as.short()
    )]
    Misnamed {
        certified: ExtentName,
        stored_as: ExtentName,
    },
    /// A valid head stored at another path than its own.
    #[error("head stored at {path} claims to be {claims}")]
    MisplacedHead { path: String, claims: String },
    /// A certificate or head whose postcard encoding does not decode.
    #[error("malformed encoding: {0}")]
    Malformed(#[source] postcard::Error),
}

impl LayerError for ExtentError {
    /// What the error means to the layers above: the one mapping to [`Kind`].
    fn kind(&self) -> Kind {
        match self {
            ExtentError::InvalidName { .. }
            | ExtentError::Inconsistent { .. }
            | ExtentError::Misnamed { .. }
            | ExtentError::MisplacedHead { .. }
            | ExtentError::Malformed(_) => Kind::Corrupt,
        }
    }
}

impl ExtentError {
    /// An object read at `path` whose contents say its path is `claims`: misplaced unless
    /// they are the same.
    pub(crate) fn check_placed(path: &str, claims: String) -> Result<(), ExtentError> {
        if claims != path {
            return Err(ExtentError::MisplacedHead {
                path: path.to_string(),
                claims,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{Error, typed_source};
    use std::error::Error as _;

    #[test]
    fn converts_once_and_keeps_the_variant() {
        let e: Error = ExtentName::parse("xyz").unwrap_err();
        assert_eq!(e.kind(), Kind::Corrupt);
        assert_eq!(e.message(), "invalid extent name \"xyz\"");
        let typed = typed_source::<ExtentError>(&e);
        assert!(matches!(typed, ExtentError::InvalidName { .. }));
        assert!(typed.source().is_some(), "the hex error is kept");
    }
}
