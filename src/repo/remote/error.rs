//! The remote layer's own error type. Backends build a [`RemoteError`] that names the
//! remote (its URL) and the object path; it converts into the crate's
//! [`Error`] in one place ([`RemoteError::kind`]), which keeps it as
//! the `source()` so callers can still match the variant and walk the causes.

use crate::error::{Kind, LayerError};

/// Any underlying cause (an `object_store`, SFTP, I/O or task error).
pub(crate) type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// `"path: "` before the rest of a message, or nothing for the remote as a whole.
fn at(path: &str) -> String {
    if path.is_empty() {
        String::new()
    } else {
        format!("{path}: ")
    }
}

#[derive(Debug, thiserror::Error)]
pub(crate) enum RemoteError {
    /// The object is not there (callers may fall back to another remote).
    #[error("remote {url}: {}not found", at(path))]
    NotFound { url: String, path: String },
    /// The path names something that is not an object (a directory).
    #[error("remote {url}: {path}: not a file")]
    NotAFile { url: String, path: String },
    /// The remote did not finish an operation within its allowance (it stalls).
    #[error("remote {url}: {op} {path}: no answer within {secs:.0} s")]
    Timeout {
        url: String,
        op: &'static str,
        path: String,
        secs: f64,
    },
    /// The object is larger than any valid object at its path (never read whole).
    #[error("remote {url}: {path}: object is {size} bytes, more than the {max} expected")]
    TooLarge {
        url: String,
        path: String,
        size: u64,
        max: u64,
    },
    /// The object is shorter than the caller was promised (`detail` may say by how much).
    #[error("remote {url}: {path}: object is shorter than expected{detail}")]
    Short {
        url: String,
        path: String,
        detail: String,
    },
    /// The object changed size while it was read.
    #[error("remote {url}: {path}: object shrank while being read")]
    Shrank { url: String, path: String },
    /// An object path that is not relative, slash-separated and free of `.`/`..`.
    #[error("remote {url}: invalid object path {path:?}")]
    InvalidPath { url: String, path: String },
    /// A URL that cannot be parsed (`reason` says what to write instead).
    #[error("remote {url}: {reason}")]
    InvalidUrl { url: String, reason: String },
    #[error(
        "remote {url}: unsupported URL scheme {scheme}:// (use a path, file://, s3:// or sftp://)"
    )]
    UnsupportedScheme { url: String, scheme: String },
    /// The user's configuration for the remote is unusable (AWS settings, profiles).
    #[error("remote {url}: {what}")]
    Config {
        url: String,
        what: String,
        #[source]
        source: Option<BoxError>,
    },
    /// The server refused (permissions, credentials); `why` carries a hint.
    #[error("remote {url}: {}{why}", at(path))]
    Denied {
        url: String,
        path: String,
        why: String,
    },
    /// A bucket (an Azure container) that does not exist at the endpoint: opening a
    /// repository there finds none (exit 10), `init` cannot create one (tangle never
    /// creates buckets).
    #[error(
        "remote {url}: {word} {bucket} does not exist at {endpoint}: create it (tangle never \
         creates {word}s), or check the {word} in the URL and {setting}"
    )]
    NoBucket {
        url: String,
        bucket: String,
        endpoint: String,
        /// "bucket" or "container".
        word: &'static str,
        /// The setting that names the endpoint.
        setting: &'static str,
    },
    /// A setting the remote needs is missing, found when a request fails (no S3
    /// credentials, a plain-http endpoint not allowed); `what` names the setting. Unlike
    /// [`Config`](Self::Config) the remote only counts as failed, as an unreachable one
    /// does: the command may go on through the others.
    #[error("remote {url}: {what}")]
    Misconfigured {
        url: String,
        what: String,
        #[source]
        source: Option<BoxError>,
    },
    /// The server cannot be reached or the connection broke (`what` says how).
    #[error("remote {url}: {what}")]
    Unreachable {
        url: String,
        what: String,
        #[source]
        source: Option<BoxError>,
    },
    /// A local file-system error.
    #[error("remote {url}: {}{source}", at(path))]
    Io {
        url: String,
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// Any other failure the backend reported (`what` is its description).
    #[error("remote {url}: {}{what}", at(path))]
    Backend {
        url: String,
        path: String,
        what: String,
        #[source]
        source: Option<BoxError>,
    },
    /// A failure injected by the `Faulty` test wrapper, of
    /// whatever kind the test asked for.
    #[cfg_attr(not(feature = "testing"), allow(dead_code))]
    #[error("remote {url}: {}{what}", at(path))]
    Injected {
        url: String,
        path: String,
        what: String,
        kind: Kind,
    },
    /// The remote was shut down while a request waited.
    #[error("remote {url}: closed")]
    Closed { url: String },
}

impl LayerError for RemoteError {
    /// What the error means to the layers above: the one mapping to [`Kind`].
    fn kind(&self) -> Kind {
        use std::io::ErrorKind as Io;
        match self {
            RemoteError::NotFound { .. } | RemoteError::NotAFile { .. } => Kind::NotFound,
            RemoteError::Short { .. }
            | RemoteError::Shrank { .. }
            | RemoteError::TooLarge { .. } => Kind::Corrupt,
            RemoteError::InvalidUrl { .. }
            | RemoteError::UnsupportedScheme { .. }
            | RemoteError::Config { .. } => Kind::Usage,
            // A directory, or a path through a file, is "no such object" too.
            RemoteError::Io { source, .. } => match source.kind() {
                Io::NotFound | Io::IsADirectory | Io::NotADirectory => Kind::NotFound,
                Io::Interrupted => Kind::Interrupted,
                _ => Kind::Fatal,
            },
            RemoteError::InvalidPath { .. }
            | RemoteError::Denied { .. }
            | RemoteError::NoBucket { .. }
            | RemoteError::Misconfigured { .. }
            | RemoteError::Unreachable { .. }
            | RemoteError::Backend { .. }
            | RemoteError::Timeout { .. }
            | RemoteError::Closed { .. } => Kind::Fatal,
            RemoteError::Injected { kind, .. } => *kind,
        }
    }
}

impl RemoteError {
    /// A backend failure with an underlying cause.
    pub(crate) fn backend(
        url: &str,
        path: &str,
        what: impl Into<String>,
        source: impl Into<BoxError>,
    ) -> RemoteError {
        RemoteError::Backend {
            url: url.to_string(),
            path: path.to_string(),
            what: what.into(),
            source: Some(source.into()),
        }
    }

    #[cfg(any(test, feature = "testing"))]
    pub(crate) fn not_found(url: &str, path: &str) -> RemoteError {
        RemoteError::NotFound {
            url: url.to_string(),
            path: path.to_string(),
        }
    }

    pub(crate) fn io(url: &str, path: &str, source: std::io::Error) -> RemoteError {
        RemoteError::Io {
            url: url.to_string(),
            path: path.to_string(),
            source,
        }
    }

    pub(crate) fn short(url: &str, path: &str, detail: impl Into<String>) -> RemoteError {
        RemoteError::Short {
            url: url.to_string(),
            path: path.to_string(),
            detail: detail.into(),
        }
    }
}

/// The remote layer's results.
pub(crate) type RemoteResult<T> = std::result::Result<T, RemoteError>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{Error, typed_source};
    use std::error::Error as _;

    #[test]
    fn converts_once_and_keeps_the_chain() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "gone");
        let e: Error = RemoteError::io("file:///r", "keys/a", io).into();
        assert_eq!(e.kind(), Kind::NotFound);
        assert_eq!(e.message(), "remote file:///r: keys/a: gone");
        let typed = typed_source::<RemoteError>(&e);
        assert!(matches!(typed, RemoteError::Io { .. }));
        assert_eq!(
            typed.source().map(|s| s.to_string()).as_deref(),
            Some("gone")
        );
        // Context keeps the source.
        let e = e.context("reading key");
        assert!(e.source().is_some());

        let e: Error = RemoteError::not_found("s3://b/p", "").into();
        assert_eq!(e.message(), "remote s3://b/p: not found");
        let e: Error = RemoteError::short("u", "x", "").into();
        assert_eq!(e.kind(), Kind::Corrupt);
    }
}
